"""app/guard/lean_ws.py over a fake transport: what an accepted socket lets go, and that
messages and flow control still work (issue 27's memory per socket)."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState

from app.guard import lean_ws
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

    def abort(self) -> None:
        self.closed = True

    def get_write_buffer_size(self) -> int:
        return len(self.written)  # nothing drains: a peer that reads nothing

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name,
                                                                                      default)


def _masked(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """One client frame (masked, as clients must): `opcode` 0 continuation, 1 text, 9 ping."""
    mask = b"\x01\x02\x03\x04"
    assert len(payload) < 126
    return bytes([(0x80 if fin else 0) | opcode, 0x80 | len(payload)]) + mask + bytes(
        b ^ mask[i % 4] for i, b in enumerate(payload))


def _masked_text(text: str) -> bytes:
    return _masked(1, text.encode())


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


async def _open(app: Any) -> tuple[LeanWebSocket, Transport]:
    config = Config(app=app, ws="app.guard.lean_ws:LeanWebSocket", lifespan="off")
    config.load()
    protocol = LeanWebSocket(config=config, server_state=ServerState(), app_state={})
    transport = Transport()
    protocol.connection_made(transport)
    protocol.data_received(HANDSHAKE)
    for _ in range(20):
        await asyncio.sleep(0)
    assert transport.written.startswith(b"HTTP/1.1 101")
    return protocol, transport


def _reader(received: list[dict[str, Any]]) -> Any:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            received.append(message)
            if message["type"] == "websocket.disconnect":
                return
    return app


def _close_code(written: bytes) -> int | None:
    """The code of the server's close frame in what was written, if one was."""
    at = written.rfind(b"\x88")  # FIN + close, unmasked (server frames are)
    return None if at < 0 else int.from_bytes(written[at + 2:at + 4], "big")


async def test_endless_empty_continuation_frames_close_the_socket_in_one_read() -> None:
    """Issue 33: FIN=0 then empty continuations never made a message, so nothing counted them."""
    received: list[dict[str, Any]] = []
    protocol, transport = await _open(_reader(received))
    start = len(transport.written)
    flood = _masked(1, b"{", fin=False) + _masked(0, b"", fin=False) * 40_000  # one 240 KB read
    protocol.data_received(flood)
    assert transport.closed, "refused within the read, not after parsing all of it"
    assert _close_code(bytes(transport.written[start:])) in (1008, 1009)
    for _ in range(20):
        await asyncio.sleep(0)
    assert received and received[-1]["type"] == "websocket.disconnect"
    assert not any(m.get("text") for m in received), "no half message reached the app"
    await _done(protocol)


async def test_a_message_may_have_only_so_many_fragments(monkeypatch: Any) -> None:
    monkeypatch.setattr(lean_ws, "frame_budget", lambda: (1e9, 1e9))  # only the fragment cap
    protocol, transport = await _open(_reader([]))
    start = len(transport.written)
    protocol.data_received(_masked(1, b"{", fin=False))
    for _ in range(lean_ws.MAX_FRAGMENTS - 1):  # the first one and these: the cap
        protocol.data_received(_masked(0, b" ", fin=False))
    assert not transport.closed
    protocol.data_received(_masked(0, b" ", fin=False))
    assert transport.closed and _close_code(bytes(transport.written[start:])) == 1009
    await _done(protocol)


async def test_a_fragmented_message_may_take_only_so_long(monkeypatch: Any) -> None:
    received: list[dict[str, Any]] = []
    protocol, transport = await _open(_reader(received))
    protocol.data_received(_masked(1, b'{"a"', fin=False))
    protocol.data_received(_masked(0, b":1}", fin=True))
    for _ in range(20):
        await asyncio.sleep(0)
    assert received[-1] == {"type": "websocket.receive", "text": '{"a":1}'}  # fragments work
    protocol.data_received(_masked(1, b"{", fin=False))
    clock = protocol.loop.time() + lean_ws.FRAGMENT_SECONDS + 1
    monkeypatch.setattr(protocol.loop, "time", lambda: clock)
    protocol.data_received(_masked(0, b"}", fin=True))
    assert transport.closed and _close_code(bytes(transport.written)) == 1008
    await _done(protocol)


async def test_a_ping_flood_is_closed_and_its_pongs_stay_bounded() -> None:
    """Issue 33: pings from a peer that never reads its pongs grew the server without bound."""
    protocol, transport = await _open(_reader([]))
    start = len(transport.written)
    for _ in range(100_000 // 64):
        if transport.closed:
            break
        protocol.data_received(_masked(9, b"x" * 100) * 64)
    assert transport.closed
    burst = lean_ws.frame_budget()[1]
    pong = 2 + 100
    assert len(transport.written) - start <= (burst + 64) * pong + 16, "no pong past the budget"
    assert _close_code(bytes(transport.written[start:])) == 1008
    await _done(protocol)


async def test_unsent_data_past_the_bound_drops_the_socket(monkeypatch: Any) -> None:
    monkeypatch.setattr(lean_ws, "frame_budget", lambda: (1e9, 1e9))
    monkeypatch.setattr(lean_ws, "MAX_UNSENT_BYTES", 50_000)
    protocol, transport = await _open(_reader([]))
    while not transport.closed:
        protocol.data_received(_masked(9, b"x" * 100) * 64)
    assert len(transport.written) < 50_000 + 64 * 102 + 1024
    await _done(protocol)


async def test_a_peer_that_reads_nothing_is_dropped(monkeypatch: Any) -> None:
    monkeypatch.setattr(lean_ws, "WRITE_STALL_SECONDS", 0.05)
    protocol, transport = await _open(_reader([]))
    protocol.pause_writing()
    protocol.resume_writing()
    await asyncio.sleep(0.2)
    assert not transport.closed, "a pause that ended is no stall"
    protocol.pause_writing()
    await asyncio.wait_for(_until(lambda: transport.closed), 10)
    await _done(protocol)


async def _done(protocol: LeanWebSocket) -> None:
    """The transport reports the loss, as asyncio's does after close or abort."""
    protocol.connection_lost(None)
    for _ in range(20):
        await asyncio.sleep(0)


async def _until(condition: Any) -> None:
    while not condition():
        await asyncio.sleep(0.01)
