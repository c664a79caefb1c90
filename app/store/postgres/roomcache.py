"""On Postgres, rooms live in the memory of the process serving them; the database stays the truth.

Why: reading the whole room back for every move, through the ORM, cost more than the rules and the
database together. A process keeps each room it serves as `CachedRoom`, keyed by the
row's `xmin` (the id of the transaction that last wrote it, which every write of any kind, from any
process, changes). A move is then judged in memory and written in ONE autocommitted statement
(a prepared statement on a raw asyncpg connection): the conditional `UPDATE rooms … WHERE xmin = $`
that detects any other writer, the move row, and the NOTIFY, only when another process has sockets
in the room. When the condition fails, the caller reloads and judges again.

Counting the other processes' sockets: `seats.connections` and `watchers` count every process's
sockets; this process knows how many of those it registered itself (`Registrations`). The seat
rows are read `FOR SHARE`, so a socket registering elsewhere either commits first (and is counted)
or waits for this commit (and its greeting then reads this move).
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncpg
import orjson

from app.core.movelog import mover_via
from app.core.seat_clocks import CLOCK_ID_PREFIX
from app.recent import keep
from app.store.base import EndSeat, GameEnd
from app.store.hub import CHANNEL
from app.store.outbox import NOTICES_CTE, notice_args
from app.store.postgres.connections import Connections
from app.store.postgres.groupcommit import GroupCommit
from app.store.results import (
    PG_END_READ,
    PG_END_SEATS,
    STALE,
    pg_rated,
    rate_ahead,
    rate_on_postgres,
)
from app.store.snapshots import TAIL, catch_up, writes_state


@dataclass(slots=True)
class CachedRoom:
    """A room as this process last read or wrote it (attribute names as the `rooms` columns)."""

    code: str
    game: str
    status: str
    host_id: str | None  # whose turn in the bot pool its bots take (app.table.bot_share)
    seed: str
    version: int
    state: Any
    events: list[dict[str, Any]]
    xmin: int
    seats: dict[int, tuple[str | None, str | None]]  # seat -> (player id, bot)
    turn_clock: int | None
    clock_increment: int | None
    clock_banks: dict[str, float] | None
    last_move_at: datetime | None
    timed_out: int | None  # the seat whose clock made this version (see Snapshot)
    pace: str | None = None  # app.core.pace

    @classmethod
    def from_row(cls, code: str, row: asyncpg.Record,
                 seats: dict[int, tuple[str | None, str | None]]) -> CachedRoom:
        """From a statement's row with the columns named as the attributes (events may be
        NULL: no move yet), and `state_version` and `tail` (`snapshots.TAIL`): the state is
        brought up to the room's version."""
        state = catch_up(row["game"], row["seed"], row["state"], row["state_version"],
                         row["version"], row["tail"])
        return cls(code, row["game"], row["status"], row["host_id"], row["seed"],
                   row["version"], state, row["events"] or [], row["xmin"], seats,
                   row["turn_clock"], row["clock_increment"], row["clock_banks"],
                   row["last_move_at"], row["timed_out"], row["pace"])


_LOAD = """
SELECT r.game, r.status, r.host_id, r.seed, r.version, r.state, r.state_version, """ + TAIL.format(
    room="r") + """ AS tail, r.xmin::text::bigint AS xmin,
       r.turn_clock, r.clock_increment, r.clock_banks, r.last_move_at, r.pace,
       m.events, CASE WHEN starts_with(m.client_id, $2) THEN m.seat END AS timed_out,
       (SELECT json_agg(json_build_array(s.seat, s.player_id, s.bot)) FROM seats s
         WHERE s.room_code = r.code) AS seats
FROM rooms r LEFT JOIN moves m ON m.room_code = r.code AND m.version = r.version
WHERE r.code = $1"""

# A move's `by` ({"name", "bot", "via"}), named in the statement that writes it from the seat as
# it is held then, in the words of `app.core.movelog.by_name`. `{code}`, `{seat}`, `{via}`: the
# statement's expressions for them.
_BY = """(SELECT jsonb_build_object(
    'name', CASE WHEN s.bot IS NULL THEN coalesce(p.name, 'Seat ' || (s.seat + 1))
                 WHEN q.name IS NOT NULL THEN 'Bot for ' || q.name
                 ELSE 'Bot ' || (s.seat + 1) END,
    'bot', s.bot IS NOT NULL, 'via', {via})
  FROM seats s LEFT JOIN players p ON p.id = s.player_id LEFT JOIN players q ON q.id = s.replaced_id
  WHERE s.room_code = {code} AND s.seat = {seat})"""

# $1 code, $2 state (None: not written with this move, `snapshots`), $3 version, $4 status,
# $5 now, $6 xmin seen, $7 player id (None: the platform acts for the seat), $8 seat, $9 client
# id, $10 move, $11 events, $12 sockets this process registered in the room, $13 notification
# payload, $14 clock banks, $15 the move's `via` (app.core.movelog.mover_via). A state left out
# stays at the version it was (`state_version`, kept if set); SET reads the row as it was.
_WRITE = """
WITH r AS (
  UPDATE rooms SET state = coalesce($2::jsonb, state),
                   state_version = CASE WHEN $2::jsonb IS NULL
                                        THEN coalesce(state_version, version) END,
                   version = $3, status = $4, last_move_at = $5, updated_at = $5,
                   clock_banks = $14
  WHERE code = $1 AND xmin = $6::text::xid
    AND ($7::text IS NULL OR EXISTS (
      SELECT 1 FROM seats WHERE room_code = $1 AND seat = $8 AND player_id = $7))
  RETURNING xmin::text::bigint AS xmin
), m AS (
  INSERT INTO moves (room_code, version, seat, client_id, move, events, created_at, by)
  SELECT $1, $3, $8, $9, $10, $11, $5, """ + _BY.format(code="$1", seat="$8", via="$15::text") + """
  FROM r
), counted AS (
  SELECT connections FROM seats WHERE room_code = $1 FOR SHARE
)
SELECT r.xmin, (SELECT pg_notify('""" + CHANNEL + """', $13)
                WHERE (SELECT coalesce(sum(connections), 0) FROM counted)
                      + (SELECT count(*) FROM watchers WHERE room_code = $1) > $12)::text
FROM r"""

# A move that makes notifications due (turn-based rooms only): the same statement, with their
# outbox rows ($16-$18: `app.store.outbox`) in its transaction. Never batched: such moves are
# rare, and the batch statement stays as it is.
_WRITE_TOLD = _WRITE.replace("), counted AS (", "), " + NOTICES_CTE + "counted AS (", 1)

# The move that ends a game, on the locked path (`RoomCache._write_last`): the same statement,
# also reading the seats as the game ends (for its results and ratings, `app.store.results`),
# each with the statement's `told` variant.
_END_SEATS = ", " + PG_END_SEATS.format(code="$1") + " AS seats\nFROM r"
_WRITE_LAST = _WRITE.removesuffix("\nFROM r") + _END_SEATS
_WRITE_TOLD_LAST = _WRITE_TOLD.removesuffix("\nFROM r") + _END_SEATS


def _rated(write: str, first: int) -> str:
    """`write` with the ratings and results of the game it ends, rated ahead (`results.pg_rated`,
    parameters from `first` on): it writes nothing if they are stale."""
    ctes, stale = pg_rated("$1", "$5", first)
    return (write.replace("), counted AS (", "), " + ctes + "counted AS (", 1)
            .removesuffix("\nFROM r") + f",\n       {stale} AS stale\nFROM r")


# The move that ends a game, rated ahead (`RoomCache._write_rated`), and its `told` variant.
_WRITE_RATED = _rated(_WRITE, 16)
_WRITE_TOLD_RATED = _rated(_WRITE_TOLD, 19)

_EARLIER = """
SELECT m.version FROM moves m
WHERE m.room_code = $1 AND m.client_id = $2
  AND ($3::int IS NOT NULL AND m.seat = $3
       OR $3::int IS NULL AND EXISTS (SELECT 1 FROM seats s WHERE s.room_code = m.room_code
                                      AND s.seat = m.seat AND s.player_id = $4))"""


# The types asyncpg has no codec for until it has asked Postgres about them: arrays other than
# text[], and arrays of rows. It asks once per connection and type, with a catalog query that
# costs Postgres ~12 ms to plan; asked here, it is one query for all of them on a new connection,
# not one for each statement that meets a new one (~2.6 per connection before).
_ARRAY_TYPES = ("SELECT NULL::int[], NULL::timestamptz[], NULL::float8[], NULL::bool[], "
                "NULL::varchar[], ARRAY(SELECT ROW(1))")


async def _codecs(conn: asyncpg.Connection) -> None:
    for kind in ("json", "jsonb"):
        await conn.set_type_codec(kind, schema="pg_catalog", format="text",
                                  encoder=lambda v: orjson.dumps(v).decode(),
                                  decoder=orjson.loads)
    await conn.fetchrow(_ARRAY_TYPES)


HELD = 20_000  # rooms held in memory per process (a few KB each)
# Connections for the hot path. A statement holds its connection until the event loop has read
# the answer, so a busy process holds each one for a few loop turns: with 20, moves queued for
# a free connection for up to 2 s at 100 rooms (the whole p99 tail), while Postgres
# sat idle. Postgres' max_connections must cover this, the ORM's 20 and one LISTEN per process.
POOL_SIZE = 50


class Registrations:
    """How many of a room's counted sockets (seat connections, watcher rows) are this process's."""

    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()

    def add(self, code: str, delta: int) -> None:
        self._counts[code] += delta
        if self._counts[code] <= 0:
            del self._counts[code]

    def __getitem__(self, code: str) -> int:
        return self._counts.get(code, 0)


class RoomCache:
    """The rooms this process serves, and the two statements of the hot path."""

    def __init__(self, dsn: str, origin: str) -> None:
        self._dsn = dsn
        self._origin = origin
        self._pool: Connections | None = None
        self._commits: GroupCommit | None = None
        self._rooms: OrderedDict[str, CachedRoom] = OrderedDict()
        self.registered = Registrations()

    async def start(self) -> None:
        self._pool = Connections(self._dsn, POOL_SIZE, _codecs)
        await self._pool.start()
        self._commits = GroupCommit(self._pool, _WRITE, CHANNEL, _BY)

    async def stop(self) -> None:
        if self._pool is not None:
            await self._pool.close()

    @property
    def pool(self) -> Connections:
        assert self._pool is not None, "RoomCache.start() was not awaited"
        return self._pool

    def get(self, code: str) -> CachedRoom | None:
        return self._rooms.get(code)

    def hold(self, room: CachedRoom) -> None:
        """Hold `room` (as read or written just now, here or by `roomread`), letting go of
        the least recently used beyond `HELD` (memory stays bounded however many rooms were ever
        served; a room let go is read again if needed)."""
        keep(self._rooms, room.code, room, HELD)

    def forget(self, code: str) -> None:
        """Another writer changed the room (seats, status, a rollback): read it afresh next time."""
        self._rooms.pop(code, None)

    async def load(self, code: str) -> CachedRoom | None:
        """The room as the database has it now (and keep it)."""
        row = await self.pool.fetchrow(_LOAD, code, CLOCK_ID_PREFIX)
        if row is None:
            self._rooms.pop(code, None)
            return None
        room = CachedRoom.from_row(code, row, {s: (p, b) for s, p, b in row["seats"] or []})
        self.hold(room)
        return room

    async def write(self, room: CachedRoom, *, state: Any, status: str, seat: int,
                    player_id: str | None, client_id: str, move: Any,
                    events: list[dict[str, Any]], now: datetime,
                    banks: dict[str, float] | None, timed_out: int | None,
                    notices: Sequence[Any] = (), ends: GameEnd | None = None) -> bool:
        """Commit one move made on `room` as cached, with the outbox rows of its `notices` (and,
        for the move that ends the game, its results and ratings: `ends`); False if anyone else
        wrote the room since (then nothing was written). Raises asyncpg.UniqueViolationError on
        a reused client id."""
        version = room.version + 1
        assert self._commits is not None, "RoomCache.start() was not awaited"
        written = state if writes_state(version, status, room.turn_clock is not None) else None
        args = (room.code, written, version, status, now, str(room.xmin), player_id, seat,
                client_id, move, events, self.registered[room.code],
                f"state:{room.code}:{self._origin}", banks, mover_via(client_id))
        if status == "finished" and ends is not None:  # the last move: rated with it
            xmin = await self._write_rated(args, ends, room.game, state, now, notices)
        elif notices:
            row = await self.pool.fetchrow(_WRITE_TOLD, *args, *notice_args(notices))
            xmin = None if row is None else row["xmin"]
        else:
            xmin = await self._commits.write(args)
        if xmin is None:
            self._rooms.pop(room.code, None)
            return False
        room.state, room.version, room.status, room.events = state, version, status, events
        room.xmin, room.clock_banks, room.last_move_at = xmin, banks, now
        room.timed_out = timed_out
        self.hold(room)
        return True

    async def _write_rated(self, args: tuple[Any, ...], ends: GameEnd, game: str, state: Any,
                           now: datetime, notices: Sequence[Any]) -> int | None:
        """The move that ends a game (with its outbox rows), and its results and ratings, in two
        round trips: a read, then one autocommitted statement (`app.store.results` says why
        that is sound). Not batched: a batch that failed for one stale rating would fail for
        all. When the ratings read are stale, or a rater was not read, `_write_last`."""
        row = await self.pool.fetchrow(PG_END_READ, args[0], ends.bot_prefix)
        if row is None or str(row["xmin"]) != args[5]:
            return None  # another writer was first: judged again, as any move
        rated = rate_ahead(ends, args[0], game, state, row, now)
        if rated is None:
            return await self._write_last(args, ends, game, state, now, notices)
        try:
            if notices:
                row = await self.pool.fetchrow(_WRITE_TOLD_RATED, *args,
                                               *notice_args(notices), *rated)
            else:
                row = await self.pool.fetchrow(_WRITE_RATED, *args, *rated)
        except asyncpg.PostgresError as exc:
            if exc.sqlstate != STALE:
                raise
            return await self._write_last(args, ends, game, state, now, notices)  # none written
        return None if row is None else row["xmin"]

    async def _write_last(self, args: tuple[Any, ...], ends: GameEnd, game: str, state: Any,
                          now: datetime, notices: Sequence[Any]) -> int | None:
        """The locked path of the move that ends a game: the move (with its outbox rows), its
        results and ratings in one transaction, the raters locked before they are read. The
        move's statement reads the seats too: four round trips and the commit. Taken when the
        ratings read ahead were stale (`_write_rated`): it cannot be."""
        async with self.pool.acquire() as conn, conn.transaction():
            if notices:
                row = await conn.fetchrow(_WRITE_TOLD_LAST, *args, *notice_args(notices))
            else:
                row = await conn.fetchrow(_WRITE_LAST, *args)
            if row is None:
                return None
            seats = [EndSeat(*seat) for seat in row["seats"] or ()]
            await rate_on_postgres(conn, ends, args[0], game, state, seats, now)
            return row["xmin"]

    async def earlier(self, code: str, client_id: str, seat: int | None,
                      player_id: str | None) -> int | None:
        """The version this client id already made in the room (for that seat or player)."""
        return await self.pool.fetchval(_EARLIER, code, client_id, seat, player_id)
