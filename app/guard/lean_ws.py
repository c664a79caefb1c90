"""uvicorn's websocket protocol (websockets' sans-I/O one), lighter per open socket.

Why: at human pace a server holds thousands of sockets that send a frame every few seconds, and
what each costs while it waits is the server's memory (issue 27: 8,000 rooms, 16,000 sockets).
Per socket, uvicorn kept an `asyncio.Queue` (three deques and an Event's), the handshake's
request and response with their headers (the scope keeps the headers the app reads), and a
keepalive timer: ~7 KB. Here the queue is a list with one waiter, and the handshake's objects
are let go once the socket is accepted (the request's headers too, which websockets' parser
frame holds for the socket's life), and the flow-control Event's waiters are a list. (The
flow-control `asyncio.Event` itself stays: a lighter one lost a message now and then in
tests/api/test_hardening_low.py's chat test, not understood.)

No keepalive pings from the server: a socket must send something at least every
WS_IDLE_SECONDS or it is closed (`app/guard/idle.py`; the browser pings every 10 s), which
finds a dead peer as the pings did, without a timer per socket.

Serve with `--ws app.guard.lean_ws:LeanWebSocket` (the Makefile, Dockerfile, compose file,
bench/serve.sh and the tests' servers do).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

# The lifespan state's key of the app's drain (app/ops/drain.py): an object with `begin()`.
DRAIN_KEY = "ziggurat.drain"
# A socket still open this long after a shutdown began is cut (its message in hand never ended).
DRAIN_GRACE_SECONDS = 20.0


class _Inbox:
    """The part of `asyncio.Queue` the protocol uses, for its one reader (the app's
    `receive`): `put_nowait`, `get`, `empty`."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[Any] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def empty(self) -> bool:
        return not self._items

    async def get(self) -> Any:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)


class LeanWebSocket(WebSocketsSansIOProtocol):
    """`WebSocketsSansIOProtocol` with the lighter parts above."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = _Inbox()  # type: ignore[assignment]
        self.ping_interval = None
        # The flow-control Event stays uvicorn's; only its waiters' container is a list, which
        # `wait` and `set` use as they use the deque (append, remove, iterate): an empty deque
        # is a 64-slot block, ~760 bytes a socket that almost never has a waiter.
        self.writable._waiters = []  # type: ignore[attr-defined]

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        self.request = None  # the scope holds what the app reads of it
        # websockets' parser keeps the request in a frame for the socket's life: its headers
        # (~2 KB a socket) are let go here, the scope has its own copy; and the extension
        # offers were read by the handshake just made.
        event.headers.clear()
        self.conn.available_extensions = []

    def shutdown(self) -> None:
        """A stopping server (SIGTERM): let the app close the socket with "reconnect now" once
        the message it is handling is answered (app/ops/drain.py), rather than cut it here with
        a move in flight; cut only if that takes longer than `DRAIN_GRACE_SECONDS`."""
        drain = self.app_state.get(DRAIN_KEY)
        if drain is None or not self.handshake_complete or self.close_sent:
            super().shutdown()
            return
        drain.begin()
        self.loop.call_later(DRAIN_GRACE_SECONDS, self.transport.close)

    async def send(self, message: Any) -> None:
        await super().send(message)
        if self.handshake_complete:
            self.response = None  # type: ignore[assignment]  # sent; only the accept reads it
