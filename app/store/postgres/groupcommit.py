"""Group commit: moves of many rooms that arrive together are written by one statement.

Why: on this machine a round trip to Postgres costs the server ~0.3 ms of CPU whatever it
carries, more than judging the move and building both views. Moves that arrive while
a write is in flight wait for it, then go together in ONE autocommitted statement (`_WRITE_MANY`,
the single-move statement of `roomcache` over arrays): one round trip, one commit, one WAL
flush for all of them. A room has at most one move in flight (the room lock), so a batch never
holds two moves of one room. Each move is still acknowledged only after the commit that holds
it. If the batch fails because of one move (a client id used again, a deadlock with another
process's batch), every move of it is written on its own, so each gets its own answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import asyncpg
import orjson

from app.store.postgres.connections import Connections

MAX_BATCH = 64

# Arrays, one element per move (the JSON ones as text: a list inside an array would read as one
# more dimension): $1 code, $2 state (None: not written, as in `roomcache._WRITE`), $3 version,
# $4 status, $5 time, $6 xmin seen, $7 player id (None: the platform acts for the seat), $8 seat,
# $9 client id, $10 move, $11 events, $12 sockets this process registered in the room,
# $13 notification payload, $14 clock banks, $15 the move's `via` (its `by` is named in the
# statement: `roomcache._BY`).
_WRITE_MANY = """
WITH i AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::timestamptz[],
                       $6::text[], $7::text[], $8::int[], $9::text[], $10::text[], $11::text[],
                       $12::int[], $13::text[], $14::text[], $15::text[])
    AS t(code, state, version, status, at, seen, player_id, seat, client_id, move, events,
         registered, payload, banks, via)
), r AS (
  UPDATE rooms SET state = coalesce(i.state::jsonb, rooms.state),
                   state_version = CASE WHEN i.state IS NULL
                                        THEN coalesce(rooms.state_version, rooms.version) END,
                   version = i.version, status = i.status,
                   last_move_at = i.at, updated_at = i.at, clock_banks = i.banks::jsonb
  FROM i
  WHERE rooms.code = i.code AND rooms.xmin = i.seen::xid
    AND (i.player_id IS NULL OR EXISTS (
      SELECT 1 FROM seats s WHERE s.room_code = i.code AND s.seat = i.seat
                              AND s.player_id = i.player_id))
  RETURNING rooms.code, rooms.xmin::text::bigint AS xmin
), m AS (
  INSERT INTO moves (room_code, version, seat, client_id, move, events, created_at, by)
  SELECT i.code, i.version, i.seat, i.client_id, i.move::jsonb, i.events::jsonb, i.at, {by}
  FROM i JOIN r ON r.code = i.code
), counted AS (
  SELECT room_code, connections FROM seats WHERE room_code IN (SELECT code FROM i) FOR SHARE
)
SELECT r.code, r.xmin,
       (SELECT pg_notify('{channel}', i.payload)
        WHERE (SELECT coalesce(sum(c.connections), 0) FROM counted c WHERE c.room_code = r.code)
              + (SELECT count(*) FROM watchers w WHERE w.room_code = r.code)
              > i.registered)::text
FROM r JOIN i ON i.code = r.code"""

_JSON_ARGS = (1, 9, 10, 13)  # state, move, events, clock banks

# Failures that one move of a batch can cause for all of it: each move is then written alone.
_ONE_MOVES_FAULT = (asyncpg.UniqueViolationError, asyncpg.DeadlockDetectedError)


class GroupCommit:
    """Queues moves (the 15 arguments of the single-move statement) and writes them in batches;
    `write` answers the xmin the room has after the commit, or None if the room had changed."""

    def __init__(self, pool: Connections, one: str, channel: str, by: str) -> None:
        self._pool, self._one = pool, one
        self._many = _WRITE_MANY.replace("{channel}", channel).replace(
            "{by}", by.format(code="i.code", seat="i.seat", via="i.via"))
        self._queue: list[tuple[tuple[Any, ...], asyncio.Future[int | None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def write(self, args: tuple[Any, ...]) -> int | None:
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._queue.append((args, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        """Write what is queued, batch after batch, until nothing is."""
        while self._queue:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            try:
                xmins = await self._write_batch([args for args, _ in batch])
            except _ONE_MOVES_FAULT:
                await asyncio.gather(*(self._write_one(args, future) for args, future in batch))
                continue
            except BaseException as exc:  # the connection failed: every move of it fails
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                if not isinstance(exc, Exception):
                    raise
                continue
            for args, future in batch:
                if not future.done():
                    future.set_result(xmins.get(args[0]))

    async def _write_batch(self, batch: Sequence[tuple[Any, ...]]) -> dict[str, int]:
        if len(batch) == 1:  # no arrays to build for one move
            row = await self._pool.fetchrow(self._one, *batch[0])
            return {} if row is None else {batch[0][0]: row["xmin"]}
        columns = [list(column) for column in zip(*batch, strict=True)]
        for index in _JSON_ARGS:
            columns[index] = [None if v is None else orjson.dumps(v).decode()
                              for v in columns[index]]
        rows = await self._pool.fetch(self._many, *columns)
        return {row["code"]: row["xmin"] for row in rows}

    async def _write_one(self, args: tuple[Any, ...], future: asyncio.Future[int | None]) -> None:
        try:
            row = await self._pool.fetchrow(self._one, *args)
        except Exception as exc:
            if not future.done():
                future.set_exception(exc)
            return
        if not future.done():
            future.set_result(None if row is None else row["xmin"])
