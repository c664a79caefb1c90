"""Moves first: REST requests run at most a few at a time, so a burst of them (many games ending
at once, everyone opening a new room) cannot push the moves of the games still running to the
back of the event loop's queue.

Why: one process serves both on one event loop, which runs ready work in arrival order. When a
thousand games end together, thousands of lobby requests are ready at once and a move's next
step waits behind all of them (the 1,000-room p99 came from such bursts). Requests past
the limit wait, parked and costing nothing, until one of those running answers; websockets and
their moves never wait here.
"""

from __future__ import annotations

import asyncio
from typing import Any


class RestGate:
    """ASGI middleware: at most `limit` HTTP requests under way at once (0: no limit)."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self._slots = asyncio.Semaphore(limit) if limit > 0 else None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if self._slots is None or scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        async with self._slots:
            await self.app(scope, receive, send)
