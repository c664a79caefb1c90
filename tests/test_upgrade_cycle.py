"""The HTTP protocol a websocket upgrades from is freed by reference counting (app/guard/deadlines):
left as a cycle with its parser, the collector would freeze it for good (app/ops/collector.py).
uvicorn's own protocol leaves that cycle, so every launcher must serve with `HeaderDeadline`:
bench/serve.sh did not, and that alone was the 15,570 and 16,425 unreachable objects its
8,000-room runs' reclaims found (18 objects a socket frozen between connection and upgrade)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from pathlib import Path
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
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


async def _upgraded(protocol: type[HttpToolsProtocol]) -> bool:
    """Upgrade a connection served by `protocol` to a websocket, let the HTTP protocol go, and
    whether reference counting alone freed it (no collection runs meanwhile)."""
    config = Config(app=_socket_app, ws=LeanWebSocket, http=protocol, log_level="warning")
    config.load()
    http = protocol(config=config, server_state=ServerState(), app_state={})
    transport = Transport()
    http.connection_made(transport)
    http.data_received(UPGRADE)
    await asyncio.sleep(0.02)
    assert isinstance(transport.protocol, LeanWebSocket)
    gone = weakref.ref(http)
    gc.disable()
    try:
        del http
        return gone() is None
    finally:
        gc.enable()
        transport.protocol.connection_lost(None)
        await asyncio.sleep(0.01)
        gc.collect()


async def test_the_upgraded_http_protocol_is_freed_without_a_collection() -> None:
    assert await _upgraded(HeaderDeadline)


async def test_uvicorns_own_protocol_leaves_the_cycle() -> None:
    """Why the launchers below matter (and, should uvicorn ever let go of its parser itself,
    the sign that HeaderDeadline's `handle_websocket_upgrade` can go)."""
    assert not await _upgraded(HttpToolsProtocol)


ROOT = Path(__file__).resolve().parent.parent
# Files that name the app and may serve it otherwise, and why.
EXEMPT = {
    "bench/setup_cpu.py": "starts no server: finds one by its command line",
}


def _launchers() -> list[str]:
    files = [ROOT / name for name in ("Makefile", "Dockerfile", "docker-compose.yml",
                                      "tests/server.py")]
    files += sorted((ROOT / "bench").glob("*.sh")) + sorted((ROOT / "bench").glob("*.py"))
    files += sorted((ROOT / "scripts").glob("*"))
    named = [str(f.relative_to(ROOT)) for f in files
             if f.is_file() and "app.main:app" in f.read_text(errors="replace")]
    return [name for name in named if name not in EXEMPT]


@pytest.mark.parametrize("launcher", _launchers())
def test_every_launcher_serves_with_the_header_deadline(launcher: str) -> None:
    """A server started without it leaves one cycle a websocket for the collector to freeze
    (bench/serve.sh's 8,000 rooms: ~1,040 sockets, 18,706 objects only a reclaim found)."""
    text = (ROOT / launcher).read_text()
    assert "app.guard.deadlines:HeaderDeadline" in text
    assert "app.guard.lean_ws:LeanWebSocket" in text
