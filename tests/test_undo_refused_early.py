"""Issue 33, low: an `undo` frame the pipeline already knows to be refused (the state it names
offers that seat no take-back: `can_undo` false in its own `state` message) is refused at once,
without the room's lock and the replay of its whole log (which cost 29-126 ms at 350 moves and
slowed other rooms when flooded)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from app.core.offers import remember
from app.play import undo
from app.play.sockets import Client


async def _frame(client: Client, version: int) -> dict[str, Any]:
    await undo.on_undo_frame(None, client, {"type": "undo", "id": "u1", "version": version})  # type: ignore[arg-type]
    sent = client.outbox.pop()
    assert isinstance(sent, str)
    return orjson.loads(sent)


async def test_a_take_back_known_to_be_refused_never_reaches_the_replay(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []

    async def take_back(hall: Any, code: str, player_id: str, undo_id: str,
                        seen_version: int) -> int:
        asked.append(seen_version)
        return seen_version - 1

    monkeypatch.setattr(undo, "take_back", take_back)
    client = Client(ws=None, room="UNDO-EARLY", seat=0, player_id="p0")  # type: ignore[arg-type]
    remember("UNDO-EARLY", 7, None)  # version 7 offers nobody a take-back
    refused = await _frame(client, 7)
    assert refused["code"] == "cannot_undo" and asked == [], "refused without the replay"
    remember("UNDO-EARLY", 8, 1)  # the other seat's step
    assert (await _frame(client, 8))["code"] == "cannot_undo" and asked == []
    remember("UNDO-EARLY", 9, 0)  # offered to this seat: judged on the log as before
    assert await _frame(client, 9) == {"type": "ack", "id": "u1", "version": 8}
    assert (await _frame(client, 5))["type"] == "ack" and asked == [9, 5], \
        "a version this process did not judge is judged on the log (stale, another process)"
