"""Moves first: REST requests run at most a few at a time, so a burst of them (many games ending
at once, everyone opening a new room) cannot push the moves of the games still running to the
back of the event loop's queue.

Why: one process serves both on one event loop, which runs ready work in arrival order. When a
thousand games end together, thousands of lobby requests are ready at once and a move's next
step waits behind all of them (the 1,000-room p99 came from such bursts). Requests past
the limit wait, parked and costing nothing, until one of those running answers; websockets and
their moves never wait here.

A slot is taken only once the request's body is in (issue 24: 20 connections trickling their
bodies a byte every few seconds held every slot, and every other REST call timed out; the body's
time is bounded by `deadlines`), and one address holds at most `per_address` slots at once:
its further requests wait for one of its own, holding nothing the others need.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from typing import Any

from app.config import get_settings
from app.guard.quotas import client_address
from app.ops.metrics import REST_GATE_WAIT_SECONDS


class RestGate:
    """ASGI middleware: at most `limit` HTTP requests under way at once (0: no limit), at most
    `per_address` of them from one address (0: no cap; None: REST_CONCURRENCY_PER_ADDRESS)."""

    def __init__(self, app: Any, limit: int, per_address: int | None = None) -> None:
        self.app = app
        self._slots = asyncio.Semaphore(limit) if limit > 0 else None
        if per_address is None:  # app.main builds the gate with `limit` alone
            per_address = get_settings().rest_concurrency_per_address
        self._per_address = per_address
        self._by_address: dict[str, list[Any]] = {}  # address -> [semaphore, requests]

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Awaitable[None]:
        """Websockets pass through without a frame of this middleware held for their life."""
        if self._slots is None or scope["type"] != "http":
            return self.app(scope, receive, send)
        return self._http(scope, receive, send)

    async def _http(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert self._slots is not None
        body = await _whole_body(receive)
        if body is None:  # the client left, or its body was over the cap (Edge answers)
            return
        replay = _replay(body, receive)
        queued = time.perf_counter()
        if self._per_address <= 0:
            async with self._slots:
                REST_GATE_WAIT_SECONDS.observe(time.perf_counter() - queued)
                await self.app(scope, replay, send)
            return
        address = client_address(scope)
        mine = self._by_address.get(address)
        if mine is None:
            mine = self._by_address[address] = [asyncio.Semaphore(self._per_address), 0]
        mine[1] += 1
        try:
            async with mine[0], self._slots:
                REST_GATE_WAIT_SECONDS.observe(time.perf_counter() - queued)
                await self.app(scope, replay, send)
        finally:
            mine[1] -= 1
            if not mine[1]:
                del self._by_address[address]


async def _whole_body(receive: Any) -> bytes | None:
    """The request body, read to its end before the request takes a slot; None if it never
    came whole."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Any) -> Any:
    """A `receive` that hands the app the body already read, then waits as the server's does
    (for the client to leave)."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replay() -> dict[str, Any]:
        return pending.pop() if pending else await receive()
    return replay
