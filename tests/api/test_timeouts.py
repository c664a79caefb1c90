"""Issue 11 (slowloris): connections that never finish a request or go silent are closed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

import pytest
import websockets

from tests.api.client import Api, Conn
from tests.server import Server, database, running_server

IDLE_SECONDS = 2


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with database("postgres") as url, \
            running_server(url, WS_IDLE_SECONDS=str(IDLE_SECONDS),
                           HEADER_TIMEOUT_SECONDS="1") as srv:
        yield srv


async def _keep_pinging(conn: Conn) -> None:
    with contextlib.suppress(websockets.ConnectionClosed):
        while True:
            await conn.send({"type": "ping"})
            await asyncio.sleep(IDLE_SECONDS / 8)


async def test_a_silent_socket_is_closed_and_a_pinging_one_stays(api: Api) -> None:
    host = await api.player("H")
    room = await api.call("POST", "/api/rooms", host["token"], 201, json={"game": "gem-pyramid"})
    silent = await api.connect(room["code"], host["token"])
    lively = await api.connect(room["code"])
    pinger = asyncio.create_task(_keep_pinging(lively))
    assert silent.reader is not None and lively.reader is not None
    await asyncio.wait_for(silent.reader, 20)
    assert silent.ws.close_code == 4408
    assert "ping" in silent.ws.close_reason
    assert not lively.reader.done(), "a socket that pings is not idle"
    pinger.cancel()
    await lively.close()


async def _closed_by_server(server: Server, send: bytes) -> bytes:
    """Open a raw TCP connection, send `send`, and read until the server hangs up."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(send)
    await writer.drain()
    received = await asyncio.wait_for(reader.read(), 20)  # EOF: the server closed it
    writer.close()
    return received


@pytest.mark.parametrize("send", [b"", b"GET /api/health HTTP/1.1\r\nHost: x\r\n"])
async def test_a_connection_that_never_finishes_its_headers_is_closed(
        server: Server, send: bytes) -> None:
    assert await _closed_by_server(server, send) == b""


async def test_a_complete_request_is_answered(server: Server) -> None:
    reply = await _closed_by_server(
        server, b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert reply.startswith(b"HTTP/1.1 200")
