"""On Postgres, a join, a start, a bot seated or a seat freed: a read and one conditional write.

Why: through an ORM session each of these cost about 3 ms of CPU for five round trips, and every
new room makes a join and a start; a transaction holding the row lock still took five (BEGIN,
the lock, the read, the write, COMMIT). The rules stay in `app.core.rooms` (`*_seats`), written
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

The read is skipped when this process holds the room in the lobby as it last made, read or
wrote it (`Lobbies`): a room's set-up is made, joined and started by the process that serves
it, one after the other. The write's guard is the same whichever way the rows were had, so a stale
copy costs the read it would have saved, never a wrong write: each row held is exactly the row
version its `xmin` names (as read, as returned by a statement that wrote it, or as this write
made it: the rows one statement writes share its transaction's id).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncpg

from app.errors import ApiError
from app.recent import keep
from app.store.hub import CHANNEL
from app.store.models import utcnow
from app.store.postgres.connections import Connections
from app.store.postgres.roomcache import CachedRoom
from app.store.postgres.roomread import lobby_answer

ATTEMPTS = 5
# Rooms being set up held per process (`Lobbies`): a room is held from its making to its first
# move, and a set-up takes well under a second.
HELD = 2_048
# Besides what the actions read: what the `room` message needs of a room in the lobby
# (`roomread.lobby_answer`), and the seats' row versions for the write's guard.
_READ = """
SELECT r.code, r.game, r.options, r.status, r.host_id, r.seed, r.version, r.state,
       r.last_move_at, r.turn_clock, r.clock_increment, r.clock_banks, r.xmin::text AS xmin,
       r.private, r.next_room, r.spectators_muted, r.created_at, r.standin_level,
       r.state_version, r.pace,
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


class Lobbies:
    """Rooms being set up as this process last made, read or wrote them: in the lobby, or just
    started (version 0: no move, vote, hand-over or audit line yet). The columns of `_READ`
    (`xmin` and `seat_xmins` as text) and, when known, `names` (the seated players'), by code,
    least recently used let go beyond `HELD`."""

    def __init__(self) -> None:
        self._rows: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def get(self, code: str) -> dict[str, Any] | None:
        return self._rows.get(code)

    def hold(self, row: dict[str, Any]) -> None:
        """Hold `row` if its room is being set up (else it is let go)."""
        if row["status"] != "lobby" and (row["status"] != "active" or row["version"] != 0):
            self._rows.pop(row["code"], None)
            return
        keep(self._rows, row["code"], row, HELD)

    def forget(self, code: str) -> None:
        self._rows.pop(code, None)

    def current(self, code: str, seat: int, player_id: str | None, version: Any,
                room_xmin: str, others: dict[int, str], quiet: bool) -> dict[str, Any] | None:
        """A socket count on `seat` wrote its row `version` (`seatcount.SeatVersion`) and found
        the room row and the other seat rows at the versions `room_xmin` and `others` (locked:
        as committed when the count committed), and (`quiet`) no vote, hand-over or audit line
        on record. The room held, as the count left it, if it was held at exactly those
        versions and knows its players' names: a `room` message of a room being set up says
        nothing else (moves change the room row; a vote or an audit line committed while the
        count waited comes with a read of its own, `heartbeat.seat_connected`). Else None,
        and the room is let go (a copy known stale would cost a join or a start a refused
        write)."""
        self.counted(code, seat, player_id, *version)
        row = self._rows.get(code)
        if row is None:
            return None
        held = dict(zip((s[0] for s in row["seats"]), row["seat_xmins"], strict=True))
        held.pop(seat, None)
        names = row.get("names")
        if not quiet or row["xmin"] != room_xmin or held != others or names is None \
                or any(s[1] is not None and s[1] not in names for s in row["seats"]):
            self._rows.pop(code, None)
            return None
        return row

    def counted(self, code: str, seat: int, player_id: str | None, bot: str | None,
                connections: int, absent_since: datetime | None, replaced_id: str | None,
                xmin: str) -> None:
        """A socket count wrote the seat row version `xmin` (as the statement returned it):
        held as such if the rest of the seat is as held, else the room is let go."""
        row = self._rows.get(code)
        if row is None:
            return
        seats, xmins = list(row["seats"]), list(row["seat_xmins"])
        at = next((n for n, s in enumerate(seats) if s[0] == seat), None)
        if at is None or (seats[at][1], seats[at][2], row["replaced"][at][0]) != \
                (player_id, bot, replaced_id):
            self._rows.pop(code, None)
            return
        seats[at] = (seat, player_id, bot, connections, absent_since)
        xmins[at] = xmin
        self._rows[code] = row | {"seats": seats, "seat_xmins": xmins}


def made_row(room: Any, seats: list[Any], host_name: str, xmin: str) -> dict[str, Any]:
    """The `_READ` row of a room just made (`rooms.new_room`), its rows written as `xmin`."""
    return {"code": room.code, "game": room.game, "options": room.options,
            "status": room.status, "host_id": room.host_id, "seed": room.seed,
            "version": room.version, "state": None, "last_move_at": None,
            "turn_clock": room.turn_clock, "clock_increment": room.clock_increment,
            "clock_banks": room.clock_banks, "xmin": xmin, "private": room.private,
            "next_room": room.next_room, "spectators_muted": room.spectators_muted,
            "created_at": room.created_at, "standin_level": room.standin_level,
            "state_version": None, "pace": room.pace,
            "seats": [(s.seat, s.player_id, s.bot, s.connections, None) for s in seats],
            "seat_xmins": [xmin] * len(seats), "replaced": [(None, None)] * len(seats),
            "names": {room.host_id: host_name}}


async def change(pool: Connections, lobbies: Lobbies, code: str, notice: str,
                 action: SeatAction, *args: Any) -> tuple[dict[str, Any], CachedRoom] | None:
    """Run `action(room, seats, *args)` on the room as committed and write what it changed,
    with `notice` on the hub's channel, if nothing it read changed meanwhile (else run it
    again on a fresh read). An ApiError from the action writes nothing. The first attempt runs
    on the room as held in `lobbies` if it is in the lobby there (a stale copy fails the guard,
    then reads; an action refused on the copy is judged again on a read).

    The room row is always written (`updated_at`), so its `xmin` moves and every process's
    held copy (`roomcache`, whose move write is conditional on `xmin`) is read again before a
    move is judged on seats that changed.

    Returns the `room` object and the room as held, as this write left them, when the room was
    in the lobby (a join, a start: the rows read and the changes written are all the message
    says then, so no read follows); None otherwise, for the caller to read."""
    held = lobbies.get(code)
    if held is not None and held["status"] != "lobby":
        held = None  # a started room: every seat action refuses it, on a fresh read
    for _ in range(ATTEMPTS):
        fresh = held is None
        if held is not None:
            row, held = held, None
        else:
            read = await pool.fetchrow(_READ, code)
            if read is None:
                lobbies.forget(code)
                raise ApiError(404, "room_not_found",
                               f"There is no room with the code {code!r}.")
            row = dict(read.items())
            lobbies.hold(row)
        room, seats = _rows_of(row)
        room_before, seats_before = _fields(room), [_fields(seat) for seat in seats]
        try:
            action(room, seats, *args)
        except ApiError:
            if fresh:
                raise
            continue  # refused on the copy held: judged again on the room as committed
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
            names = dict(written["names"])
            lobbies.hold(_as_written(row, room, seats, writes, str(written["xmin"])) |
                         {"names": names})
            return lobby_answer(row, room, seats, names, written["xmin"])
        lobbies.forget(code)
    raise ApiError(409, "conflict", "The room kept changing; try again.")


def answer_of(row: dict[str, Any]) -> tuple[dict[str, Any], CachedRoom]:
    """The wire `room` object and the room as held, from a lobby room held with its players'
    names (`Lobbies.current`)."""
    room, seats = _rows_of(row)
    return lobby_answer(row, room, seats, row["names"], int(row["xmin"]))


def _rows_of(row: dict[str, Any]) -> tuple[RoomRow, list[SeatRow]]:
    """The room and seat rows of a `_READ` row, as the seat actions take them."""
    return RoomRow(*(row[name] for name in RoomRow.__slots__)), [SeatRow(*s) for s in row["seats"]]


def _as_written(row: dict[str, Any], room: RoomRow, seats: list[SeatRow],
                writes: list[tuple[str, dict[str, Any], dict[str, Any]]],
                xmin: str) -> dict[str, Any]:
    """`row` as the write left it: the room row (`writes[0]`) and the seat rows written are
    version `xmin` (one transaction's), the others as they were. A seat action changes no
    seat's `replaced_id`."""
    written = {where["seat"] for table, _, where in writes if table == "seats"}
    return row | _fields(room) | {
        "xmin": xmin,
        "state_version": None if "state" in writes[0][1] else row["state_version"],
        "seats": [(s.seat, s.player_id, s.bot, s.connections, s.absent_since) for s in seats],
        "seat_xmins": [xmin if s.seat in written else x
                       for s, x in zip(seats, row["seat_xmins"], strict=True)]}


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
    dataclasses above. The room's clause comes first (`w0`).

    The players are a list of parameters (`id IN ($5, $6)`), not one array (`id = ANY($4)`):
    a prepared statement's generic plan guesses 10 ids in an array, so it cost more than the
    plans made for each call's values and Postgres planned every join and start anew (0.3 ms
    of its CPU each, more than running them); with the ids counted, the generic plan is kept."""
    values: list[Any] = [code, xmin, seat_xmins]
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
    ids = ", ".join(param(player) for player in players) or "NULL"
    return (f"WITH {', '.join(clauses)} "
            f"SELECT ok, CASE WHEN ok THEN {notify} END AS notified, (SELECT x FROM w0) AS xmin, "
            f"ARRAY(SELECT ROW(id, name) FROM players WHERE id IN ({ids})) AS names "
            "FROM ok", *values)
