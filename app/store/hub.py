"""Fan-out between server processes: Postgres LISTEN/NOTIFY, or in-process with SQLite.

Like encode/broadcaster, a tiny facade whose backend follows the database. A notification says
only which room changed, how, and which process changed it ('state|room|reset:<code>:<origin>');
every other process then reads what it needs from the database. Payloads never carry state
(Postgres caps them at 8000 bytes).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

CHANNEL = "ziggurat"
log = logging.getLogger(__name__)
Handler = Callable[[str], Awaitable[None]]


class MemoryHub:
    """One process: the committing code already pushed to every local socket."""

    async def start(self, handler: Handler) -> None:
        self._handler = handler

    async def notify_in(self, session: AsyncSession | AsyncConnection, payload: str) -> None:
        """Nothing to send: there is no other process."""

    async def stop(self) -> None:
        """Nothing to release."""


class PostgresHub:
    """LISTEN on a dedicated connection; NOTIFY inside the writer's transaction, so that a
    notification is delivered exactly when (and only if) the change commits."""

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn
        self._conn: asyncpg.Connection | None = None
        self._handler: Handler | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, handler: Handler) -> None:
        self._handler = handler
        await self._listen()

    async def _listen(self) -> None:
        self._conn = await asyncpg.connect(self._dsn)
        await self._conn.add_listener(CHANNEL, self._on_notify)
        self._conn.add_termination_listener(self._on_lost)

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        assert self._handler is not None
        task = asyncio.get_running_loop().create_task(self._handler(payload))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_lost(self, _conn: Any) -> None:
        log.warning("LISTEN connection lost; reconnecting")
        task = asyncio.get_running_loop().create_task(self._reconnect())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _reconnect(self) -> None:
        for delay in (0.1, 0.5, 1, 2, 5, 10):
            try:
                await self._listen()
                return
            except (OSError, asyncpg.PostgresError):
                await asyncio.sleep(delay)
        log.error("could not re-LISTEN; other processes' moves will not reach this one")

    async def notify_in(self, session: AsyncSession | AsyncConnection, payload: str) -> None:
        await session.execute(text("SELECT pg_notify(:channel, :payload)"),
                              {"channel": CHANNEL, "payload": payload})

    async def stop(self) -> None:
        if self._conn is not None:
            self._conn.remove_termination_listener(self._on_lost)
            await self._conn.close()


def make_hub(database_url: str) -> MemoryHub | PostgresHub:
    if database_url.startswith("postgresql"):
        return PostgresHub(database_url.replace("postgresql+asyncpg://", "postgresql://", 1))
    return MemoryHub()


Hub = MemoryHub | PostgresHub
