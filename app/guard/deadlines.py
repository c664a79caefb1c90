"""uvicorn's HTTP protocol with deadlines on request headers and bodies (slowloris).

uvicorn times out idle keep-alive connections, but a connection that opens and then sends
nothing, or trickles its request line and headers a byte at a time, is held open forever: the
app never sees it, so only the protocol can close it. Serve with
`uvicorn app.main:app --http app.guard.deadlines:HeaderDeadline` (the Makefile, Dockerfile and
compose file do) and every request must finish its headers within HEADER_TIMEOUT_SECONDS of
its first byte (or of the connection opening), and its body within BODY_TIMEOUT_SECONDS of its
headers (issue 24: bodies sent a byte every few seconds held REST slots for as long as their
senders liked); a late body is answered 408 `body_timeout` and the connection closed. Websockets
then answer to WS_IDLE_SECONDS.
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.config import get_settings
from app.errors import error_body


def _late_body_response() -> bytes:
    body = orjson.dumps(error_body("body_timeout", "The request body took too long to arrive; "
                                   "send it again in one go."))
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
            b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body))


LATE_BODY = _late_body_response()


class HeaderDeadline(HttpToolsProtocol):
    """Close a connection whose request headers, or body, are not complete in time."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(get_settings().header_timeout_seconds, self._expire)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm(get_settings().header_timeout_seconds, self._expire)

    def on_headers_complete(self) -> None:
        self._disarm()
        before = self.cycle
        super().on_headers_complete()
        if self.cycle is not before:  # a request (not a websocket upgrade): now its body
            self._arm(get_settings().body_timeout_seconds, self._body_late)

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        """The websocket protocol takes the connection over. This one is let go with its parser,
        which holds its bound methods: a cycle that only a collection would free, and the
        collector freezes one still alive at a collection for good
        (app/ops/collector.py)."""
        self._disarm()
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]

    def _arm(self, seconds: float, expire: Any) -> None:
        self._disarm()
        if seconds > 0:
            self._deadline = self.loop.call_later(seconds, expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        self.transport.close()

    def _body_late(self) -> None:
        """The app (waiting for the body, or answered already) hears that the client left;
        the client hears why, unless an answer was under way."""
        self._deadline = None
        cycle = self.cycle
        if cycle is not None:
            if not cycle.response_started and not self.transport.is_closing():
                self.transport.write(LATE_BODY)
            cycle.disconnected = True
            cycle.message_event.set()
        self.transport.close()
