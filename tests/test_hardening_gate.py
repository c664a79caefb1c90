"""Issue 24, item 2: `RestGate` takes a slot only once the body is in, and one address holds at
most its share of the slots."""

from __future__ import annotations

import asyncio
from typing import Any

from app.guard.gate import RestGate


class _App:
    """An ASGI app that records the bodies it read and stays under way until released."""

    def __init__(self) -> None:
        self.running: list[str] = []
        self.bodies: list[bytes] = []
        self.release = asyncio.Event()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.running.append(scope["client"][0])
        self.bodies.append((await receive())["body"])
        try:
            await self.release.wait()
        finally:
            self.running.remove(scope["client"][0])


def _body(*chunks: bytes) -> Any:
    """A `receive` handing over `chunks` one message each; the last one ends the body."""
    messages = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1}
                for i, c in enumerate(chunks)]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}
    return receive


def _call(gate: RestGate, address: str, receive: Any) -> asyncio.Task[None]:
    return asyncio.create_task(gate({"type": "http", "client": (address, 1)}, receive, None))


async def test_one_address_holds_at_most_its_share_and_others_still_get_slots() -> None:
    app = _App()
    gate = RestGate(app, limit=4, per_address=2)
    calls = [_call(gate, "10.0.0.1", _body(b"")) for _ in range(5)]
    await asyncio.sleep(0.05)
    assert app.running.count("10.0.0.1") == 2, "its other requests wait for its own slots"
    calls += [_call(gate, "10.0.0.2", _body(b"")) for _ in range(2)]
    await asyncio.sleep(0.05)
    assert app.running.count("10.0.0.2") == 2
    app.release.set()
    await asyncio.wait_for(asyncio.gather(*calls), 5)
    assert not app.running and len(app.bodies) == 7


async def test_a_body_still_arriving_holds_no_slot() -> None:
    app = _App()
    gate = RestGate(app, limit=1, per_address=0)
    arrived = asyncio.Event()

    async def slow() -> dict[str, Any]:
        await arrived.wait()
        return {"type": "http.request", "body": b"late", "more_body": False}

    slow_call = _call(gate, "10.0.0.3", slow)
    quick = _call(gate, "10.0.0.4", _body(b'{"a"', b": 1}"))
    await asyncio.sleep(0.05)
    assert app.running == ["10.0.0.4"], "the request whose body is in runs first"
    assert app.bodies == [b'{"a": 1}'], "the app reads the whole body, as sent"
    arrived.set()
    app.release.set()
    await asyncio.wait_for(asyncio.gather(slow_call, quick), 5)
    assert app.bodies[-1] == b"late"


async def test_a_client_that_leaves_mid_body_never_reaches_the_app() -> None:
    app = _App()
    gate = RestGate(app, limit=1, per_address=1)

    async def gone() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    await asyncio.wait_for(_call(gate, "10.0.0.5", gone), 5)
    assert app.bodies == []
    app.release.set()
    await asyncio.wait_for(_call(gate, "10.0.0.5", _body(b"")), 5)  # its slot was given back
