"""uvicorn's HTTP protocol with a deadline on request headers (slowloris).

uvicorn times out idle keep-alive connections, but a connection that opens and then sends
nothing, or trickles its request line and headers a byte at a time, is held open forever: the
app never sees it, so only the protocol can close it. Serve with
`uvicorn app.main:app --http app.guard.deadlines:HeaderDeadline` (the Makefile, Dockerfile and
compose file do) and every request must finish its headers within HEADER_TIMEOUT_SECONDS of
its first byte (or of the connection opening). Websockets then answer to WS_IDLE_SECONDS.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.config import get_settings


class HeaderDeadline(HttpToolsProtocol):
    """Close a connection whose request headers are not complete in time."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        seconds = get_settings().header_timeout_seconds
        if seconds > 0:
            self._deadline = self.loop.call_later(seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        self.transport.close()
