"""On Postgres, a join, a start, a bot seated or a seat freed: one short transaction on the pool.

Why: through an ORM session each of these cost about 3 ms of CPU for five round trips, and every
new room makes a join and a start. The rules stay in `app.table.rooms` (`*_seats`), written
against plain attributes: here the room (locked) and its seats are read in one statement into
plain objects, the action runs on them, and only the columns it changed are written back, with
the NOTIFY that tells the other processes, in one statement before the commit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncpg

from app.errors import ApiError
from app.store.hub import CHANNEL
from app.store.models import utcnow
from app.store.postgres.connections import Connections

# The row lock first, in a statement of its own: under READ COMMITTED a statement sees the
# database as it was when the statement began, so seats read in the statement that waited for
# the lock were those from before the other process's change (issue 24: two joiners both told
# they had the last seat, a start with an empty seat). The read after it takes a new snapshot.
_LOCK = "SELECT 1 FROM rooms WHERE code = $1 FOR UPDATE"
_READ = """
SELECT r.code, r.game, r.options, r.status, r.host_id, r.seed, r.version, r.state,
       r.last_move_at, r.turn_clock, r.clock_increment, r.clock_banks,
       ARRAY(SELECT ROW(s.seat, s.player_id, s.bot, s.connections, s.absent_since)
             FROM seats s WHERE s.room_code = r.code ORDER BY s.seat) AS seats
FROM rooms r WHERE r.code = $1"""


@dataclass(slots=True)
class RoomRow:
    """The columns a seat action may read or set (names as in `rooms`)."""

    code: str
    game: str
    options: dict[str, Any]
    status: str
    host_id: str
    seed: str
    version: int
    # As the row holds it: mid-game, a snapshot that may be older than `version` (`snapshots`).
    # Only a start sets it (from the lobby, where it is None); no seat action reads it.
    state: Any
    last_move_at: datetime | None
    turn_clock: int | None
    clock_increment: int | None
    clock_banks: dict[str, float] | None


@dataclass(slots=True)
class SeatRow:
    seat: int
    player_id: str | None
    bot: str | None
    connections: int
    absent_since: datetime | None


SeatAction = Callable[..., None]


async def change(pool: Connections, code: str, notice: str, action: SeatAction,
                 *args: Any) -> None:
    """Run `action(room, seats, *args)` under the room's row lock and commit what it changed,
    with `notice` on the hub's channel. An ApiError from the action rolls everything back.

    The room row is always written (`updated_at`), so its `xmin` moves and every process's
    held copy (`roomcache`, whose move write is conditional on `xmin`) is read again before a
    move is judged on seats that changed."""
    async with pool.acquire() as conn, conn.transaction():
        if await conn.fetchval(_LOCK, code) is None:
            raise ApiError(404, "room_not_found", f"There is no room with the code {code!r}.")
        row = await conn.fetchrow(_READ, code)
        if row is None:
            raise ApiError(404, "room_not_found", f"There is no room with the code {code!r}.")
        room = RoomRow(*(row[name] for name in RoomRow.__slots__))
        seats = [SeatRow(*seat) for seat in row["seats"]]
        room_before, seats_before = _fields(room), [_fields(seat) for seat in seats]
        action(room, seats, *args)
        room_changes = _changed(room_before, _fields(room))
        room_changes["updated_at"] = utcnow()
        if "state" in room_changes:
            room_changes["state_version"] = None  # the state set is at the room's version
        writes = [("rooms", room_changes, {"code": code})]
        for seat, before in zip(seats, seats_before, strict=True):
            if seat_changes := _changed(before, _fields(seat)):
                writes.append(("seats", seat_changes, {"room_code": code, "seat": seat.seat}))
        try:
            await conn.execute(*_write_and_notify(writes, notice))
        except asyncpg.UniqueViolationError:  # one seat per player (`uq_seats_room_player`)
            raise ApiError(409, "already_seated", "You already hold a seat in this room.") \
                from None


def _fields(row: RoomRow | SeatRow) -> dict[str, Any]:
    """The row's fields as they are now, not copied: the seat actions (`rooms.*_seats`) assign
    new values, never change one in place (a new game state, new clock banks). `asdict` would
    deep-copy the game state a start makes, for nothing."""
    return {name: getattr(row, name) for name in row.__slots__}


def _changed(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in after.items() if value != before[name]}


def _write_and_notify(writes: list[tuple[str, dict[str, Any], dict[str, Any]]],
                      notice: str) -> tuple[Any, ...]:
    """ONE statement: every `UPDATE table SET … WHERE …` as a data-modifying WITH clause (each
    runs once, read or not), then the NOTIFY; numbered parameters throughout. Column names are
    ours, never a caller's input: they come from the dataclasses above."""
    clauses, values = [], []

    def param(value: Any) -> str:
        values.append(value)
        return f"${len(values)}"

    for n, (table, changes, where) in enumerate(writes):
        sets = ", ".join(f"{name} = {param(value)}" for name, value in changes.items())
        conds = " AND ".join(f"{name} = {param(value)}" for name, value in where.items())
        clauses.append(f"w{n} AS (UPDATE {table} SET {sets} WHERE {conds})")
    notify = f"SELECT pg_notify('{CHANNEL}', {param(notice)})"
    return (f"WITH {', '.join(clauses)} {notify}" if clauses else notify, *values)
