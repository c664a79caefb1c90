"""app/guard/lean_ws.py over a fake transport: what an accepted socket lets go, and that
messages and flow control still work (issue 27's memory per socket)."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState

from app.guard.lean_ws import LeanWebSocket

HANDSHAKE = (b"GET /ws?token=t HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
             b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
             b"Origin: http://127.0.0.1\r\n"
             b"Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
             b"Sec-WebSocket-Key: " + base64.b64encode(b"0123456789abcdef") + b"\r\n\r\n")


class Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.closed = False

    def write(self, data: Any) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name,
                                                                                      default)


def _masked_text(text: str) -> bytes:
    payload = text.encode()
    mask = b"\x01\x02\x03\x04"
    assert len(payload) < 126
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(
        b ^ mask[i % 4] for i, b in enumerate(payload))


async def test_an_accepted_socket_keeps_no_handshake_and_still_flows() -> None:
    seen: dict[str, Any] = {}
    sent, go = asyncio.Event(), asyncio.Event()

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen["headers"] = {key.lower(): value for key, value in scope["headers"]}
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        seen["text"] = (await receive())["text"]
        await send({"type": "websocket.send", "text": "one"})
        sent.set()
        await go.wait()
        await send({"type": "websocket.send", "text": "two"})  # waits while paused
        await receive()

    config = Config(app=app, ws="app.guard.lean_ws:LeanWebSocket", lifespan="off")
    config.load()
    protocol = LeanWebSocket(config=config, server_state=ServerState(), app_state={})
    assert isinstance(protocol.writable._waiters, list)  # type: ignore[attr-defined]
    transport = Transport()
    protocol.connection_made(transport)
    protocol.data_received(HANDSHAKE)
    request = protocol.conn.parser.gi_frame.f_locals["request"]  # held by the parser's frame
    for _ in range(20):
        await asyncio.sleep(0)
    assert transport.written.startswith(b"HTTP/1.1 101")
    assert b"permessage-deflate" in transport.written  # negotiated before the offers went
    assert protocol.request is None and protocol.response is None
    assert len(request.headers) == 0 and protocol.conn.available_extensions == []
    assert seen["headers"][b"origin"] == b"http://127.0.0.1"  # the app's copy is whole

    protocol.data_received(_masked_text("hello"))
    await asyncio.wait_for(sent.wait(), 1)
    protocol.pause_writing()
    go.set()
    for _ in range(20):
        await asyncio.sleep(0)
    assert seen["text"] == "hello"
    assert len(protocol.writable._waiters) == 1  # type: ignore[attr-defined]  # "two" waits
    before = len(transport.written)
    protocol.resume_writing()
    for _ in range(20):
        await asyncio.sleep(0)
    assert len(transport.written) > before and not protocol.writable._waiters  # type: ignore[attr-defined]
    protocol.connection_lost(None)
    for _ in range(20):
        await asyncio.sleep(0)
