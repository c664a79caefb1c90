"""On Postgres, a join, a start, a bot seated or a seat freed: a read and one conditional write.

Why: through an ORM session each of these cost about 3 ms of CPU for five round trips, and every
new room makes a join and a start; a transaction holding the row lock still took five (BEGIN,
the lock, the read, the write, COMMIT). The rules stay in `app.table.rooms` (`*_seats`), written
against plain attributes: here the room and its seats are read in one statement into plain
objects, the action runs on them, and only the columns it changed are written back, with the
NOTIFY that tells the other processes, in ONE autocommitted statement that writes only if
nothing the action read has changed since: the room row's `xmin` and every seat row's `xmin`
(the id of the transaction that last wrote each) are as read. Otherwise nothing is written and
the action runs again on a fresh read (at most `ATTEMPTS` times, then 409 `conflict`).

Why this is sound (issue 24's races: two joiners both given the last seat, a start that saw an
empty seat or a socket count from before a socket opened): the write locks the room row first
(`FOR UPDATE`, the lock order of every room write) and then the seat rows; a locking read
returns the newest committed version of each row, whatever the statement's snapshot, so a
writer that committed after the read, or was waiting for the lock, changes an `xmin` and fails
the check. A socket count (`seatcount`) changes only seat rows, which is why those are checked.
Seat rows are made with their room and never added later.
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
from app.store.postgres.roomcache import CachedRoom
from app.store.postgres.roomread import lobby_answer

ATTEMPTS = 5
# Besides what the actions read: what the `room` message needs of a room in the lobby
# (`roomread.lobby_answer`), and the seats' row versions for the write's guard.
_READ = """
SELECT r.code, r.game, r.options, r.status, r.host_id, r.seed, r.version, r.state,
       r.last_move_at, r.turn_clock, r.clock_increment, r.clock_banks, r.xmin::text AS xmin,
       r.private, r.next_room, r.spectators_muted, r.created_at, r.standin_level,
       r.state_version,
       ARRAY(SELECT ROW(s.seat, s.player_id, s.bot, s.connections, s.absent_since)
             FROM seats s WHERE s.room_code = r.code ORDER BY s.seat) AS seats,
       ARRAY(SELECT s.xmin::text FROM seats s WHERE s.room_code = r.code
             ORDER BY s.seat) AS seat_xmins,
       ARRAY(SELECT ROW(s.replaced_id, p.name) FROM seats s
             LEFT JOIN players p ON p.id = s.replaced_id
             WHERE s.room_code = r.code ORDER BY s.seat) AS replaced
FROM rooms r WHERE r.code = $1"""

# $1 room, $2 the room row's xmin as read, $3 the seat rows' xmins as read (in seat order).
# `held` runs first (an uncorrelated EXISTS is evaluated once, before the scan it filters).
_GUARD = """held AS (SELECT 1 FROM rooms WHERE code = $1 AND xmin = $2::text::xid FOR UPDATE),
seen AS (SELECT seat, xmin::text AS x FROM seats
         WHERE room_code = $1 AND EXISTS (SELECT 1 FROM held) FOR NO KEY UPDATE),
ok AS (SELECT coalesce((SELECT array_agg(x ORDER BY seat) FROM seen) = $3::text[], false)
              AS ok)"""


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
                 *args: Any) -> tuple[dict[str, Any], CachedRoom] | None:
    """Run `action(room, seats, *args)` on the room as committed and write what it changed,
    with `notice` on the hub's channel, if nothing it read changed meanwhile (else run it
    again on a fresh read). An ApiError from the action writes nothing.

    The room row is always written (`updated_at`), so its `xmin` moves and every process's
    held copy (`roomcache`, whose move write is conditional on `xmin`) is read again before a
    move is judged on seats that changed.

    Returns the `room` object and the room as held, as this write left them, when the room was
    in the lobby (a join, a start: the rows read and the changes written are all the message
    says then, so no read follows); None otherwise, for the caller to read."""
    for _ in range(ATTEMPTS):
        row = await pool.fetchrow(_READ, code)
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
        players = [seat.player_id for seat in seats if seat.player_id is not None]
        try:
            written = await pool.fetchrow(*_write_and_notify(
                code, row["xmin"], row["seat_xmins"], writes, notice, players))
        except asyncpg.UniqueViolationError:  # one seat per player (`uq_seats_room_player`)
            raise ApiError(409, "already_seated", "You already hold a seat in this room.") \
                from None
        if written["ok"]:
            if row["status"] != "lobby":
                return None
            return lobby_answer(row, room, seats, dict(written["names"]), written["xmin"])
    raise ApiError(409, "conflict", "The room kept changing; try again.")


def _fields(row: RoomRow | SeatRow) -> dict[str, Any]:
    """The row's fields as they are now, not copied: the seat actions (`rooms.*_seats`) assign
    new values, never change one in place (a new game state, new clock banks). `asdict` would
    deep-copy the game state a start makes, for nothing."""
    return {name: getattr(row, name) for name in row.__slots__}


def _changed(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in after.items() if value != before[name]}


def _write_and_notify(code: str, xmin: str, seat_xmins: list[str],
                      writes: list[tuple[str, dict[str, Any], dict[str, Any]]],
                      notice: str, players: list[str]) -> tuple[Any, ...]:
    """ONE statement: the guard (`_GUARD`), every `UPDATE table SET … WHERE …` as a
    data-modifying WITH clause that writes only if the guard holds (each runs once, read or
    not), then the NOTIFY if it held; it returns whether it held (`ok`), the room row's new
    `xmin` and the names of `players` (the seats' players after the action). Numbered
    parameters throughout; column names are ours, never a caller's input: they come from the
    dataclasses above. The room's clause comes first (`w0`)."""
    values: list[Any] = [code, xmin, seat_xmins, players]
    clauses = [_GUARD]

    def param(value: Any) -> str:
        values.append(value)
        return f"${len(values)}"

    for n, (table, changes, where) in enumerate(writes):
        sets = ", ".join(f"{name} = {param(value)}" for name, value in changes.items())
        conds = " AND ".join(f"{name} = {param(value)}" for name, value in where.items())
        returning = " RETURNING xmin::text::bigint AS x" if n == 0 else ""
        clauses.append(f"w{n} AS (UPDATE {table} SET {sets} WHERE {conds} "
                       f"AND (SELECT ok FROM ok){returning})")
    notify = f"pg_notify('{CHANNEL}', {param(notice)})"
    return (f"WITH {', '.join(clauses)} "
            f"SELECT ok, CASE WHEN ok THEN {notify} END AS notified, (SELECT x FROM w0) AS xmin, "
            "ARRAY(SELECT ROW(id, name) FROM players WHERE id = ANY($4::text[])) AS names "
            "FROM ok", *values)
