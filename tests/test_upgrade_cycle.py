"""The HTTP protocol a websocket upgrades from is freed by reference counting (app/guard/deadlines):
left as a cycle with its parser, the collector would freeze it for good (app/ops/collector.py)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState

from app.guard.deadlines import HeaderDeadline
from app.guard.lean_ws import LeanWebSocket

UPGRADE = (b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")


class Transport:
    """Just what the two protocols ask of a transport."""

    def __init__(self) -> None:
        self.protocol: Any = None
        self.closed = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 5000)}.get(name,
                                                                                     default)

    def set_protocol(self, protocol: Any) -> None:
        self.protocol = protocol

    def write(self, data: bytes) -> None:
        pass

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_write_buffer_size(self) -> int:
        return 0


async def _socket_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    await receive()
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


async def test_the_upgraded_http_protocol_is_freed_without_a_collection() -> None:
    config = Config(app=_socket_app, ws=LeanWebSocket, http=HeaderDeadline, log_level="warning")
    config.load()
    http = HeaderDeadline(config=config, server_state=ServerState(), app_state={})
    transport = Transport()
    http.connection_made(transport)
    http.data_received(UPGRADE)
    await asyncio.sleep(0.02)
    assert isinstance(transport.protocol, LeanWebSocket)
    gone = weakref.ref(http)
    gc.disable()
    try:
        del http
        assert gone() is None
    finally:
        gc.enable()
        transport.protocol.connection_lost(None)
        await asyncio.sleep(0.01)
