"""Issue 33, high: frames that never make a message, and pings whose pongs are never read, must
not freeze the process. A raw TCP client (no websocket library would send these) against a real
server at the default rate limits, on SQLite and on Postgres."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from tests.server import Server, database, running_server

MASK = b"\x01\x02\x03\x04"
FLOOD_FRAMES = 1_000_000  # past any budget by far: today's main parses them all, and more


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    """Default message limits (tests/server.py raises them for fast test clients)."""
    with database(request.param) as url, running_server(url, RATE_PER_SECOND="20",
                                                        RATE_BURST="40") as srv:
        yield srv


@pytest.fixture
async def room(server: Server) -> AsyncIterator[str]:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        player = (await http.post("/api/players", json={"name": "Host"})).json()
        response = await http.post("/api/rooms", json={"game": "gem-pyramid"},
                                   headers={"Authorization": f"Bearer {player['token']}"})
        assert response.status_code == 201, response.text
        yield response.json()["code"]


def _frame(opcode: int, payload: bytes = b"", fin: bool = True) -> bytes:
    assert len(payload) < 126
    return bytes([(0x80 if fin else 0) | opcode, 0x80 | len(payload)]) + MASK + bytes(
        b ^ MASK[i % 4] for i, b in enumerate(payload))


async def _spectator(server: Server, code: str) -> tuple[asyncio.StreamReader,
                                                          asyncio.StreamWriter]:
    """A websocket without a token, opened by hand; its greeting left unread."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    key = base64.b64encode(os.urandom(16))
    writer.write(f"GET /api/rooms/{code}/ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                 "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                 f"Origin: {server.url}\r\nSec-WebSocket-Key: {key.decode()}\r\n\r\n".encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer


async def _flood(writer: asyncio.StreamWriter, batch: bytes, frames_each: int) -> int:
    """Write `batch` until FLOOD_FRAMES went or the server hangs up; the frames written."""
    sent = 0
    with contextlib.suppress(ConnectionError):
        while sent < FLOOD_FRAMES:
            writer.write(batch)
            await asyncio.wait_for(writer.drain(), 60)
            sent += frames_each
    return sent


async def _closed(reader: asyncio.StreamReader) -> bool:
    """Whether the server ends the stream (reading whatever it sent before)."""
    with contextlib.suppress(ConnectionError):
        while await asyncio.wait_for(reader.read(1 << 16), 60):
            pass
    return True


async def _health(server: Server) -> int:
    async with httpx.AsyncClient(timeout=60) as http:
        return (await http.get(f"{server.url}/api/health")).status_code


async def test_empty_continuation_frames_close_the_socket_and_the_server_answers(
        server: Server, room: str) -> None:
    reader, writer = await _spectator(server, room)
    writer.write(_frame(1, b"{", fin=False))
    batch = _frame(0, fin=False) * 10_000
    flood = asyncio.create_task(_flood(writer, batch, 10_000))
    assert await _health(server) == 200, "the server answers during the flood"
    sent = await flood
    assert sent < FLOOD_FRAMES, "the socket was closed before the flood ended"
    assert await _closed(reader)
    writer.close()
    assert await _health(server) == 200


async def test_a_ping_flood_whose_pongs_are_never_read_is_closed(
        server: Server, room: str) -> None:
    reader, writer = await _spectator(server, room)
    batch = _frame(9, b"p" * 100) * 1_000
    sent = await _flood(writer, batch, 1_000)
    assert sent < FLOOD_FRAMES, "the socket was closed before the flood ended"
    assert await _closed(reader)
    writer.close()
    assert await _health(server) == 200
