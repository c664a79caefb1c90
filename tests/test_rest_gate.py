"""`RestGate`: at most `limit` HTTP requests under way; websockets (and so moves) never wait."""

from __future__ import annotations

import asyncio
from typing import Any

from app.guard.gate import RestGate


class _App:
    """An ASGI app whose requests stay under way until released."""

    def __init__(self) -> None:
        self.running = 0
        self.most = 0
        self.release = asyncio.Event()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.running += 1
        self.most = max(self.most, self.running)
        try:
            await self.release.wait()
        finally:
            self.running -= 1


async def _no_body() -> dict[str, Any]:
    return {"type": "http.request", "body": b"", "more_body": False}


async def _under_way(gate: RestGate, kinds: list[str]) -> list[asyncio.Task[None]]:
    """One call per scope type, each left to run until the app (or the gate) holds it."""
    calls = [asyncio.create_task(gate({"type": kind}, _no_body, None)) for kind in kinds]
    await asyncio.sleep(0.01)
    return calls


async def _finish(app: _App, calls: list[asyncio.Task[None]]) -> None:
    app.release.set()
    await asyncio.wait_for(asyncio.gather(*calls), 5)


async def test_requests_past_the_limit_wait_for_a_slot_and_all_are_answered() -> None:
    app = _App()
    calls = await _under_way(RestGate(app, limit=2), ["http"] * 5)
    assert app.running == 2
    await _finish(app, calls)
    assert app.most == 2 and app.running == 0


async def test_websockets_pass_even_when_every_slot_is_taken() -> None:
    app = _App()
    calls = await _under_way(RestGate(app, limit=1), ["http"] + ["websocket"] * 3)
    assert app.running == 4
    await _finish(app, calls)


async def test_no_limit_when_set_to_zero() -> None:
    app = _App()
    calls = await _under_way(RestGate(app, limit=0), ["http"] * 20)
    assert app.running == 20
    await _finish(app, calls)
