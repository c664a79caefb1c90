"""The move pipeline: one transaction per move, committed before anyone hears of it.

Take the in-process room lock, check who may move, apply the rules, write state and the move
row, commit; only then acknowledge and broadcast. A retried client id answers with the first
result. On Postgres the room is judged as this process holds it in memory and written by one
conditional statement (`app.store.postgres.roomcache`); on SQLite (one process, one writer) the room and its
seats are read and written in one SQLAlchemy Core transaction.
"""

from __future__ import annotations

import asyncio
import traceback
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import asyncpg
from sqlalchemy import Row, insert, select, update
from sqlalchemy.exc import IntegrityError

from app.errors import ApiError
from app.play.snapshot import Snapshot
from app.store.models import MoveRow, Room, Seat, as_utc, utcnow
from app.store.postgres.roomcache import CachedRoom
from app.table.seat_clocks import CLOCK_ID_PREFIX, seat_deadlines, settle_banks, wire_deadlines
from games import REGISTRY, IllegalMove
from games.protocol import match_rng

if TYPE_CHECKING:
    from app.hall import Hall


class Steps:
    """Where the simultaneous step each room is in began, as far as this process knows.

    A step is simultaneous while several seats act and the seats to act only shrink: a move
    chosen on any version since the step began is judged against the current state (design 3),
    even once one seat is left to act (the others' moves, applied on arrival, took nothing of
    its own). Known only to the process that committed the room's last move; unknown (another
    process wrote, a restart, a rollback), a step begins at the current version, and a move on
    an older view is refused `stale` as in a turn-based step.
    """

    LIMIT = 50_000  # rooms remembered mid-step; the oldest entry goes first

    def __init__(self) -> None:
        self._began: dict[str, tuple[int, int]] = {}  # code -> (version, step began at)

    def began(self, code: str, version: int) -> int:
        known = self._began.get(code)
        return known[1] if known is not None and known[0] == version else version

    def moved(self, code: str, version: int, began: int | None) -> None:
        """The room is at `version` now, in a step that `began` then (None: a new step)."""
        self._began.pop(code, None)
        if began is not None and began < version:
            if len(self._began) >= self.LIMIT:
                del self._began[next(iter(self._began))]
            self._began[code] = (version, began)


class RoomLocks:
    """One writer per room inside this process; with SQLite, one writer in all. Also where,
    under that lock, each room's simultaneous step began (`steps`)."""

    def __init__(self, single_writer: bool) -> None:
        self._single = asyncio.Lock() if single_writer else None
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self.steps = Steps()

    def get(self, code: str) -> asyncio.Lock:
        if self._single is not None:
            return self._single
        lock = self._locks.get(code)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[code] = lock
        return lock


@dataclass(frozen=True, slots=True)
class Mover:
    """Who is moving: a player (seat looked up) or the platform on behalf of a seat.

    `bot`: a bot's move, which may land only while a bot still holds the seat (its player may
    have taken it back while the move was in flight). The clock and the admin act for whoever
    holds the seat."""

    player_id: str | None = None
    seat: int | None = None
    bot: bool = False


class RuleError(Exception):
    """A rule module raised something other than IllegalMove: the room must be errored."""


class AlreadyApplied(Exception):
    """This client id already made a move: the answer is the version it made then."""

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


async def submit_move(hall: Hall, code: str, mover: Mover, client_id: str,
                      seen_version: int | None, move: Any) -> int:
    """Apply one move durably; returns the version it made (or made the first time)."""
    commit = _commit_cached if hall.cache is not None else _commit_move
    async with hall.locks.get(code):
        try:
            snap, bots_to_act = await commit(hall, code, mover, client_id, seen_version, move)
        except AlreadyApplied as done:
            return done.version
        except (IntegrityError, asyncpg.UniqueViolationError):
            # The same client id raced itself past the refusal check: answer the first result.
            version = await _earlier_result(hall, code, mover, client_id)
            if version is None:
                raise ApiError(409, "conflict", "The room changed under this move; try again.")\
                    from None
            return version
        except RuleError as exc:
            await hall.mark_errored(code, exc.__cause__ or exc)
            raise ApiError(409, "room_errored", "The game hit an internal error; the room is "
                           "paused for the admin.") from None
        hall.push(snap)
    if bots_to_act:
        hall.bots.wake(code)
    return snap.version


ROOMS = Room.__table__
SEATS = Seat.__table__
MOVES = MoveRow.__table__
_ROOM_COLUMNS = (ROOMS.c.game, ROOMS.c.status, ROOMS.c.seed, ROOMS.c.version, ROOMS.c.state,
                 ROOMS.c.turn_clock, ROOMS.c.clock_increment, ROOMS.c.clock_banks,
                 ROOMS.c.last_move_at)


async def _commit_move(hall: Hall, code: str, mover: Mover, client_id: str,
                       seen_version: int | None, move: Any) -> tuple[Snapshot, bool]:
    """One transaction on a bare connection (SQLAlchemy Core, no ORM unit of work): the ORM's
    identity map and flush bookkeeping cost more CPU per move than the rules themselves."""
    async with hall.engine.begin() as conn:
        # One round trip: the room (locked) and its seats, one row per seat.
        rows = (await conn.execute(
            select(*_ROOM_COLUMNS, SEATS.c.seat, SEATS.c.player_id, SEATS.c.bot)
            .select_from(ROOMS.outerjoin(SEATS, SEATS.c.room_code == ROOMS.c.code))
            .where(ROOMS.c.code == code).with_for_update(of=ROOMS))).all()
        if not rows:
            raise ApiError(404, "room_not_found", "That room does not exist.")
        room = rows[0]
        seats = [row for row in rows if row.seat is not None]
        seat = mover.seat if mover.seat is not None else _seat_of(seats, mover.player_id)
        try:
            _check_bot(mover, next((s.bot for s in seats if s.seat == seat), None))
            j = _judge(room, seat, seen_version, move,
                       hall.locks.steps.began(code, room.version))
        except ApiError:
            earlier = await _earlier_result(hall, code, mover, client_id, conn)
            if earlier is not None:
                raise AlreadyApplied(earlier) from None
            raise
        version = room.version + 1
        status = "finished" if j.over else room.status
        await conn.execute(update(ROOMS).where(ROOMS.c.code == code).values(
            state=j.state, version=version, status=status, last_move_at=j.now,
            updated_at=j.now, clock_banks=j.banks))
        await conn.execute(insert(MOVES).values(
            room_code=code, version=version, seat=j.seat, client_id=client_id, move=move,
            events=j.events, created_at=j.now))
        await hall.hub.notify_in(conn, f"state:{code}:{hall.origin}")
        hall.locks.steps.moved(code, version, j.step)
        bots_to_act = not j.over and any(s.bot and s.seat in j.acting for s in seats)
        timed_out = j.seat if client_id.startswith(CLOCK_ID_PREFIX) else None
        return Snapshot(code, room.game, status, version, j.state, j.events, j.deadlines,
                        timed_out, j.banks), bots_to_act


async def _commit_cached(hall: Hall, code: str, mover: Mover, client_id: str,
                         seen_version: int | None, move: Any) -> tuple[Snapshot, bool]:
    """Postgres: judge against the room this process holds, then one conditional statement.

    A refusal or a lost write (another writer came first) reads the room afresh and judges
    again, so a stale room in memory can cost a move one read but never decide it."""
    cache = hall.cache
    assert cache is not None
    room, fresh = cache.get(code), False
    for _ in range(_ATTEMPTS):
        if room is None:
            room, fresh = await cache.load(code), True
            if room is None:
                raise ApiError(404, "room_not_found", "That room does not exist.")
        seat = mover.seat if mover.seat is not None else next(
            (s for s, (player, _) in room.seats.items()
             if mover.player_id and player == mover.player_id), None)
        try:
            _check_bot(mover, room.seats.get(seat, (None, None))[1] if seat is not None else None)
            j = _judge(room, seat, seen_version, move,
                       hall.locks.steps.began(code, room.version))
        except ApiError:
            if not fresh:
                room = None
                continue
            earlier = await cache.earlier(code, client_id, mover.seat, mover.player_id)
            if earlier is not None:
                raise AlreadyApplied(earlier) from None
            raise
        status = "finished" if j.over else room.status
        timed_out = j.seat if client_id.startswith(CLOCK_ID_PREFIX) else None
        if await cache.write(room, state=j.state, status=status, seat=j.seat,
                             player_id=None if mover.seat is not None else mover.player_id,
                             client_id=client_id, move=move, events=j.events, now=j.now,
                             banks=j.banks, timed_out=timed_out):
            hall.locks.steps.moved(code, room.version, j.step)
            bots_to_act = not j.over and any(room.seats.get(s, (None, None))[1]
                                             for s in j.acting)
            return Snapshot(code, room.game, status, room.version, j.state, j.events,
                            j.deadlines, timed_out, j.banks), bots_to_act
        room = None
    raise ApiError(409, "conflict", "The room changed under this move; try again.")


_ATTEMPTS = 5


@dataclass(frozen=True, slots=True)
class Judged:
    """A move the generic checks and the rules accepted, and what it makes."""

    seat: int
    state: Any
    over: bool
    acting: Any
    events: list[dict[str, Any]]
    now: datetime
    banks: dict[str, float] | None
    deadlines: dict[str, str]
    step: int | None  # the version the simultaneous step it leaves the room in began at


def _judge(room: Row[Any] | CachedRoom, seat: int | None, seen_version: int | None,
           move: Any, step_began: int) -> Judged:
    """The generic checks (status, seated, turn, staleness), the rules, and the clocks."""
    _check_room(room)
    if seat is None:
        raise ApiError(403, "not_seated", "You are watching: only seated players move.")
    new_state, events, acted = _apply(room, seat, seen_version, move, step_began)
    game = REGISTRY[room.game]
    try:
        over = game.outcome(new_state) is not None
        acting = game.to_act(new_state)
        now = utcnow()
        banks, deadlines = _clock(room, seat, acting if not over else (), now)
    except Exception as exc:
        raise RuleError() from exc
    step = step_began if len(acted) > 1 and frozenset(acting) <= acted else None
    return Judged(seat, new_state, over, acting, [e.to_json() for e in events], now, banks,
                  deadlines, step)


def _clock(room: Row[Any] | CachedRoom, seat: int, acting: Any,
           now: Any) -> tuple[Any, dict[str, str]]:
    """A Fischer clock's banks after this move, and the deadlines of the seats to act next."""
    banks = room.clock_banks
    if banks is not None and room.clock_increment is not None:
        last = room.last_move_at
        elapsed = (now - as_utc(last)).total_seconds() if last is not None else 0.0
        banks = settle_banks(banks, REGISTRY[room.game].to_act(room.state), seat, elapsed,
                             room.clock_increment)
    return banks, wire_deadlines(seat_deadlines(room.turn_clock, room.clock_increment, banks,
                                                now, acting))


def _check_bot(mover: Mover, bot: str | None) -> None:
    """A bot's move made for a seat a player holds again is refused (the bot driver takes
    `not_seated` as the table having moved on)."""
    if mover.bot and bot is None:
        raise ApiError(403, "not_seated", "A player holds this seat again; the bot stands down.")


def _seat_of(seats: Sequence[Row[Any]], player_id: str | None) -> int | None:
    return next((s.seat for s in seats if player_id and s.player_id == player_id), None)


def _check_room(room: Row[Any] | CachedRoom) -> None:
    refusals = {
        "lobby": ("not_started", "The game has not started yet."),
        "finished": ("game_over", "The game is over."),
        "aborted": ("game_over", "This room was closed."),
        "errored": ("room_errored", "The game hit an internal error; the room is paused for "
                    "the admin."),
    }
    if room.status in refusals:
        code, message = refusals[room.status]
        raise ApiError(409, code, message)


def _apply(room: Row[Any] | CachedRoom, seat: int, seen_version: int | None, move: Any,
           step_began: int) -> tuple[Any, list, frozenset[int]]:
    """The rules' new state and events, and the seats that were to act."""
    game = REGISTRY[room.game]
    try:
        acting = game.to_act(room.state)
    except Exception as exc:
        raise RuleError() from exc
    # In a turn-based step a move made on an older view is refused; in a simultaneous step
    # (several seats to act, or one left of them: `Steps`) it is judged against the current
    # state. Staleness comes before the turn: a seat that moved on an old view is told so (and
    # sent the fresh state) even when the turn has passed to someone else since.
    if seen_version is not None and len(acting) == 1 and not (
            step_began <= seen_version <= room.version):
        raise ApiError(409, "stale", "The game moved on since you chose that; here is the "
                       "current state.")
    if seat not in acting:
        raise ApiError(409, "not_your_turn", "It is not your turn.")
    try:
        return (*game.apply(room.state, seat, move, match_rng(room.seed, room.version + 1)),
                acting)
    except IllegalMove as exc:
        raise ApiError(422, "illegal_move", exc.message) from None
    except Exception as exc:
        raise RuleError() from exc


async def _earlier_result(hall: Hall, code: str, mover: Mover, client_id: str,
                          session: Any = None) -> int | None:
    """The version a client id already made in this room, if it made one."""
    query = select(MoveRow.version).where(MoveRow.room_code == code,
                                          MoveRow.client_id == client_id)
    if mover.seat is not None:
        query = query.where(MoveRow.seat == mover.seat)
    else:
        query = query.join(Seat, (Seat.room_code == MoveRow.room_code)
                           & (Seat.seat == MoveRow.seat)).where(Seat.player_id == mover.player_id)
    if session is not None:
        return await session.scalar(query)
    async with hall.sessions() as fresh:
        return await fresh.scalar(query)


def error_text(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc))
