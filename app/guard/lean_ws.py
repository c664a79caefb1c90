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

Every frame is counted (issue 33): a text frame with FIN=0 and then endless empty continuation
frames never completes a message, so neither the app's message rate limit, `--ws-max-size` nor
the idle timeout ever acted, while each frame was parsed on the event loop (1.2 million in 5 s
froze every room of the process); a ping flood that never reads its pongs did the same and grew
the process by the pongs waiting to be sent. So here every frame, continuation and control
frames included, spends from a per-socket budget (`FRAMES_PER_MESSAGE` times the app's message
budget, at least `MIN_FRAME_RATE`), and a socket over it is closed (1008); a message may have at
most `MAX_FRAGMENTS` fragments and take at most `FRAGMENT_SECONDS`; the input is parsed in slices
of `SLICE_BYTES`, so that one read of the socket (up to 256 KB of 6-byte frames) cannot run tens
of thousands of frames past the budget; and what waits unsent to one socket is bounded: over
`MAX_UNSENT_BYTES` (pongs included: they are written whether or not the peer reads), or unable to
write for `WRITE_STALL_SECONDS`, the socket is dropped.

Serve with `--ws app.guard.lean_ws:LeanWebSocket` (the Makefile, Dockerfile, compose file,
bench/serve.sh and the tests' servers do).
"""

from __future__ import annotations

import asyncio
import logging
from functools import lru_cache
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import CloseCode, Frame

from app.config import get_settings

log = logging.getLogger(__name__)

# A browser sends each message as one frame; control frames and fragments come from other
# clients, so the frame budget is a few times the app's message budget, never below a floor.
FRAMES_PER_MESSAGE = 4
MIN_FRAME_RATE, MIN_FRAME_BURST = 100.0, 200
MAX_FRAGMENTS = 64  # fragments of one message: 1 KB each already fills --ws-max-size (64 KB)
FRAGMENT_SECONDS = 10.0  # a fragmented message must be complete this long after it began
SLICE_BYTES = 4096  # input is parsed this much at a time, the budget checked in between
MAX_UNSENT_BYTES = 1 << 20  # the app waits at 64 KB (flow control); only pongs go beyond
WRITE_STALL_SECONDS = 60.0  # a peer that reads nothing this long while we wait to write


@lru_cache
def frame_budget() -> tuple[float, float]:
    """(frames a second, burst) one socket may send: read once, from the app's settings."""
    settings = get_settings()
    return (max(MIN_FRAME_RATE, FRAMES_PER_MESSAGE * settings.rate_per_second),
            float(max(MIN_FRAME_BURST, FRAMES_PER_MESSAGE * settings.rate_burst)))

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
        # The frame budget (a token bucket): tokens left, and when they were last counted.
        self._tokens, self._counted = frame_budget()[1], self.loop.time()
        self._fragment_since = 0.0  # when the fragmented message under way began
        self._stall: asyncio.TimerHandle | None = None  # armed while writing is paused

    def data_received(self, data: bytes) -> None:
        if len(data) <= SLICE_BYTES:
            super().data_received(data)
            return
        for start in range(0, len(data), SLICE_BYTES):
            if self.transport.is_closing():
                return  # refused: what follows is not parsed
            super().data_received(data[start:start + SLICE_BYTES])

    def _admit(self) -> bool:
        """Spend one frame of the budget; over it, refuse the socket and answer False."""
        if self.transport.is_closing():
            return False
        now = self.loop.time()
        rate, burst = frame_budget()
        self._tokens = min(burst, self._tokens + (now - self._counted) * rate)
        self._counted = now
        if self._tokens < 1:
            self._refuse(CloseCode.POLICY_VIOLATION, "too many frames")
            return False
        self._tokens -= 1
        return True

    def _refuse(self, code: int, reason: str) -> None:
        """Close the socket now: a close frame, no more parsing, the app told it is gone."""
        log.warning("closing a websocket from %s: %s", self.client and self.client[0], reason)
        self.conn.data_to_send()  # pongs not yet written: not worth sending to this peer
        if self.close_sent:  # the app closed already, yet frames keep coming
            self.transport.abort()
            return
        self.conn.fail(code, reason)
        self.handle_parser_exception()

    def handle_text(self, event: Frame) -> None:
        if self._admit():
            self._fragment_since = self._counted  # now: _admit just read the clock
            super().handle_text(event)

    def handle_bytes(self, event: Frame) -> None:
        if self._admit():
            self._fragment_since = self._counted  # now: _admit just read the clock
            super().handle_bytes(event)

    def handle_cont(self, event: Frame) -> None:
        if not self._admit():
            return
        if len(self.frames) >= MAX_FRAGMENTS:
            self._refuse(CloseCode.MESSAGE_TOO_BIG, "too many fragments")
        elif self._counted - self._fragment_since > FRAGMENT_SECONDS:
            self._refuse(CloseCode.POLICY_VIOLATION, "fragmented message too slow")
        else:
            super().handle_cont(event)

    def handle_ping(self) -> None:
        if self._admit():
            super().handle_ping()
            self._bound_unsent()

    def handle_pong(self, event: Frame) -> None:
        if self._admit():
            super().handle_pong(event)

    def _bound_unsent(self) -> None:
        if self.transport.get_write_buffer_size() > MAX_UNSENT_BYTES:
            log.warning("dropping a websocket from %s: too much unsent",
                        self.client and self.client[0])
            self.transport.abort()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stall is None:
            self._stall = self.loop.call_later(WRITE_STALL_SECONDS, self._stalled)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None

    def _stalled(self) -> None:
        self._stall = None
        log.warning("dropping a websocket from %s: it reads nothing",
                    self.client and self.client[0])
        self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        super().connection_lost(exc)

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
        self._bound_unsent()
        if self.handshake_complete:
            self.response = None  # type: ignore[assignment]  # sent; only the accept reads it
