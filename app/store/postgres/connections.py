"""The hot path's Postgres connections: up to a fixed number, each lent to one caller at a time.

Why not asyncpg's Pool: on this machine a prepared statement through it cost 72 us of CPU
against 27 us here; its acquire and release cost more than the statement (every release runs in
a task of its own, through `asyncio.shield`, and re-arms an inactivity timer), and every request,
socket and batch of moves runs statements. Lending here is a deque and, only when all
are lent, a future.

A connection comes back to the free list only if it is open, outside any transaction, and its
caller did not leave it mid-statement (a cancellation); otherwise it is dropped, and the next
caller who finds none free opens a new one, so a failing database reaches callers as errors.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import asyncpg


class Connections:
    """`fetch`, `fetchrow`, `fetchval` and `execute` each on a connection of their own, and
    `acquire` for a transaction, like asyncpg's Pool."""

    def __init__(self, dsn: str, size: int,
                 init: Callable[[asyncpg.Connection], Awaitable[None]]) -> None:
        self._dsn, self._size, self._init = dsn, size, init
        self._free: deque[asyncpg.Connection] = deque()
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._opened = 0  # lent or free
        self._closed = False

    async def start(self, warm: int = 2) -> None:
        """Open `warm` connections now, so that a failing database shows at start-up."""
        for _ in range(warm):
            self._opened += 1
            self._free.append(await self._connect())

    async def close(self) -> None:
        self._closed = True
        while self._free:
            await self._free.pop().close()

    async def _connect(self) -> asyncpg.Connection:
        conn = await asyncpg.connect(self._dsn)
        await self._init(conn)
        return conn

    async def _take(self) -> asyncpg.Connection:
        while True:
            if self._free:
                return self._free.pop()
            if self._opened < self._size:
                self._opened += 1
                try:
                    return await self._connect()
                except BaseException:
                    self._opened -= 1
                    self._wake()  # a waiter may try in our place
                    raise
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():
                    self._wake()  # we were woken for a connection we no longer want
                else:
                    self._waiters.remove(waiter)
                raise

    def _give(self, conn: asyncpg.Connection, clean: bool) -> None:
        if clean and not self._closed and not conn.is_closed() \
                and not conn.is_in_transaction():
            self._free.append(conn)
        else:
            self._opened -= 1
            conn.terminate()
        self._wake()

    def _wake(self) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    @asynccontextmanager
    async def acquire(self) -> AsyncIterator[asyncpg.Connection]:
        conn = await self._take()
        clean = False
        try:
            yield conn
            clean = True
        except Exception:  # a statement failed (or the caller refused): the connection is fine
            clean = True
            raise
        finally:  # a cancellation may leave a statement running: drop that connection
            self._give(conn, clean)

    async def _run(self, method: str, query: str, args: tuple[Any, ...]) -> Any:
        async with self.acquire() as conn:
            return await getattr(conn, method)(query, *args)

    async def fetch(self, query: str, *args: Any) -> list[asyncpg.Record]:
        return await self._run("fetch", query, args)

    async def fetchrow(self, query: str, *args: Any) -> asyncpg.Record | None:
        return await self._run("fetchrow", query, args)

    async def fetchval(self, query: str, *args: Any) -> Any:
        return await self._run("fetchval", query, args)

    async def execute(self, query: str, *args: Any) -> str:
        return await self._run("execute", query, args)
