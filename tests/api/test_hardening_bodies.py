"""Issue 24, item 2: request bodies trickled a byte at a time hold no REST slot, and are cut off
after BODY_TIMEOUT_SECONDS with a 408."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.api.client import Api
from tests.server import Server, database, running_server

SLOTS = 2
TRICKLERS = 3 * SLOTS  # more than every slot, and more than one address's share


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    """Few slots, and a body deadline far longer than the test: only the gate can keep the
    other calls answering."""
    with database(request.param) as url, running_server(
            url, REST_CONCURRENCY=str(SLOTS), REST_CONCURRENCY_PER_ADDRESS="1",
            BODY_TIMEOUT_SECONDS="600") as srv:
        yield srv


@pytest.fixture(scope="module")
def strict_server() -> Iterator[Server]:
    with database("sqlite") as url, running_server(url, BODY_TIMEOUT_SECONDS="1") as srv:
        yield srv


HEAD = (b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 200\r\n\r\n")


async def _trickle(server: Server, every: float, drops: int = 150
                  ) -> tuple[asyncio.StreamReader, asyncio.Task]:
    """A raw connection sending a 200-byte body one space every `every` seconds, `drops`
    times at most; it stays open (never finishing the body) until the task is cancelled."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(HEAD + b'{"name": "slow"')
    await writer.drain()

    async def drip() -> None:
        try:
            with contextlib.suppress(ConnectionError):
                for _ in range(drops):
                    await asyncio.sleep(every)
                    writer.write(b" ")
                    await writer.drain()
            await asyncio.Event().wait()
        finally:
            writer.close()
    return reader, asyncio.create_task(drip())


@pytest.fixture
async def tricklers(server: Server) -> AsyncIterator[list[asyncio.StreamReader]]:
    opened = [await _trickle(server, 2.0) for _ in range(TRICKLERS)]
    await asyncio.sleep(1)  # every one of them is in the app (or the gate) by now
    yield [reader for reader, _ in opened]
    for _, drip in opened:
        drip.cancel()


async def test_slow_bodies_hold_no_slot_and_other_calls_answer(
        api: Api, tricklers: list[asyncio.StreamReader]) -> None:
    for _ in range(2 * SLOTS):
        await asyncio.wait_for(api.call("GET", "/api/games"), 60)
    player = await asyncio.wait_for(api.player("Quick"), 60)
    room = await asyncio.wait_for(api.call("POST", "/api/rooms", player["token"], 201,
                                           json={"game": "gem-pyramid"}), 60)
    assert (await api.call("GET", f"/api/rooms/{room['code']}"))["status"] == "lobby"
    for reader in tricklers:  # none of them was answered: they are still sending
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(reader.read(1), 0.2)


async def test_a_body_past_its_deadline_is_answered_408_and_closed(
        strict_server: Server) -> None:
    # Two drops, then nothing: the body stays short of its length past the 1 s deadline. (A
    # byte arriving after the server closed would make its kernel answer with a reset, which
    # may discard the 408 before the client reads it: the connection is closed either way.)
    reader, drip = await _trickle(strict_server, 0.25, drops=2)
    answer = await asyncio.wait_for(reader.read(), 30)  # EOF: the server closed it
    drip.cancel()
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert b"body_timeout" in answer
