"""Group commit of new players: players made together are written by one statement.

Why: every room the benchmark sets up starts with two new players, and a round trip to Postgres
costs both sides more CPU than the rows it carries (a commit, an executor start-up, the
socket's write and the backend's wake-up). Players that arrive while a write is in flight wait
for it, then go together in ONE autocommitted statement (the single-player statement over
arrays), as moves do (`groupcommit`). Each player's 201 is still sent only after the commit
that holds them. If a batch fails because of one player (a token hash or id already taken:
`devices.token_hash` is unique), every player of it is written on its own, so each gets its own
answer; a failed connection fails each player of its batch, as it would have failed each alone.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg

from app.store.postgres.connections import Connections

MAX_BATCH = 64

# The player and their first device, in one statement (the device's key is checked at its end).
# $1 id, $2 name, $3 token hash, $4 now, $5 device id, $6 device label.
ONE = """
WITH p AS (INSERT INTO players (id, name, created_at) VALUES ($1, $2, $4))
INSERT INTO devices (id, player_id, token_hash, label, created_at, renewed_at, last_seen)
VALUES ($5, $1, $3, $6, $4, $4, $4)"""

# The same over arrays, one element per player.
_MANY = """
WITH i AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[],
                       $6::text[]) AS t(id, name, token_hash, at, device, label)
), p AS (INSERT INTO players (id, name, created_at) SELECT id, name, at FROM i)
INSERT INTO devices (id, player_id, token_hash, label, created_at, renewed_at, last_seen)
SELECT device, id, token_hash, label, at, at, at FROM i"""

# Failures one player of a batch can cause for all of it (a key taken, a value refused): each
# is then written alone.
_ONE_PLAYERS_FAULT = (asyncpg.IntegrityConstraintViolationError, asyncpg.DataError)


class NewPlayers:
    """Queues new players (the six arguments of `ONE`) and writes them in batches."""

    def __init__(self, pool: Connections) -> None:
        self._pool = pool
        self._queue: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self._busy = False  # a write is in flight: players made now wait for the next batch
        self._drainer: asyncio.Task[None] | None = None  # held: a running task needs a reference

    async def add(self, *args: Any) -> None:
        """Write one player; returns once committed (raises what writing it alone raises).
        A player made while no write is in flight is written at once, by its own request."""
        if self._busy:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._queue.append((args, future))
            await future
            return
        self._busy = True
        try:
            await self._pool.execute(ONE, *args)
        finally:
            if self._queue:
                self._drainer = asyncio.get_running_loop().create_task(self._drain())
            else:
                self._busy = False

    async def _drain(self) -> None:
        """Write what is queued, batch after batch, until nothing is."""
        try:
            while self._queue:
                batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
                await self._write(batch)
        except BaseException as exc:  # cancelled (the process stops): nobody is left waiting
            for _, future in self._queue:
                _settle(future, exc)
            self._queue = []
            raise
        finally:
            self._busy = False

    async def _write(self, batch: list[tuple[tuple[Any, ...], asyncio.Future[None]]]) -> None:
        try:
            if len(batch) == 1:
                await self._pool.execute(ONE, *batch[0][0])
            else:
                await self._pool.execute(_MANY, *(list(column) for column in
                                                  zip(*(a for a, _ in batch), strict=True)))
        except _ONE_PLAYERS_FAULT as exc:
            if len(batch) == 1:
                _settle(batch[0][1], exc)
            else:
                await asyncio.gather(*(self._write_one(args, future) for args, future in batch))
            return
        except BaseException as exc:  # the connection failed: every player of it fails
            for _, future in batch:
                _settle(future, exc)
            if not isinstance(exc, Exception):
                raise
            return
        for _, future in batch:
            _settle(future, None)

    async def _write_one(self, args: tuple[Any, ...], future: asyncio.Future[None]) -> None:
        try:
            await self._pool.execute(ONE, *args)
        except Exception as exc:
            _settle(future, exc)
            return
        _settle(future, None)


def _settle(future: asyncio.Future[None], exc: BaseException | None) -> None:
    """Answer a waiting player (one whose request was cancelled is no longer waiting)."""
    if future.done():
        return
    if exc is None:
        future.set_result(None)
    else:
        future.set_exception(exc)
