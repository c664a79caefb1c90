"""Issue 11: a connection that falls behind is closed once and logged once."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from app.play.sockets import OUTBOX_LIMIT, Client


class _Socket:
    def __init__(self) -> None:
        self.closed_with: int | None = None
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int, reason: str = "") -> None:
        self.closed_with = code


async def test_a_reader_that_falls_behind_is_closed_once_and_logged_once(
        caplog: pytest.LogCaptureFixture) -> None:
    ws: Any = _Socket()
    client = Client(ws, "ROOM", None, None)
    with caplog.at_level(logging.WARNING, logger="app.play.sockets"):
        for n in range(OUTBOX_LIMIT * 4):
            client.send({"n": n})
    assert client.closed
    assert len([r for r in caplog.records if "slow connection" in r.message]) == 1
    await asyncio.wait_for(client.pump(), 5)
    assert ws.sent == [] and ws.closed_with == 1013, "it is closed, not left open and silent"
