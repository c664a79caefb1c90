"""On Postgres, everything a `room` message says, read in ONE statement.

Why: the room message is built at every join, start, socket opening and closing. Through an ORM
session it was a transaction of five to seven round trips (BEGIN, the room, its seats, votes,
handovers, names, ROLLBACK) and most of the CPU a new room cost. Here one prepared
statement returns the room's columns and, as arrays of rows, its seats, votes, handovers, the
names they mention and the seats the turn clock marks away; `rooms.payload_from` builds the same
payload as the session path. The state is read when a running clock needs it, or when the caller
also wants the room as the hot path holds it (`roomcache.CachedRoom`: after a start, a socket
count, a greeting), which then costs no second statement.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any

import asyncpg

from app.core.absence import absence_fields
from app.core.rooms import AWAY_AFTER, payload_from
from app.core.seat_clocks import CLOCK_ID_PREFIX
from app.core.tablelog import TOLD
from app.store.postgres.connections import Connections
from app.store.postgres.roomcache import CachedRoom
from app.store.snapshots import TAIL, catch_up

# $1 room code, $2 the turn clock's client id prefix, $3 AWAY_AFTER, $4 whether to read the
# room as held in memory too (its state, seed, xmin, and the events and clock of its last move),
# $5 the audit actions players are told of (`tablelog.TOLD`).
_WITH_STATE = "$4 OR r.turn_clock IS NOT NULL AND r.status = 'active'"
_READ = """
SELECT r.code, r.game, r.options, r.status, r.host_id, r.private, r.version, r.next_room,
       r.spectators_muted, r.turn_clock, r.clock_increment, r.clock_banks, r.last_move_at,
       r.standin_level, r.pace, r.created_at, r.seed, r.xmin::text::bigint AS xmin,
       CASE WHEN """ + _WITH_STATE + """ THEN r.state END AS state, r.state_version,
       CASE WHEN """ + _WITH_STATE + " THEN " + TAIL.format(room="r") + """ END AS tail,
       m.events, CASE WHEN starts_with(m.client_id, $2) THEN m.seat END AS timed_out,
       ARRAY(SELECT ROW(s.seat, s.player_id, p.name, s.bot, s.connections, s.absent_since,
                        s.replaced_id)
             FROM seats s LEFT JOIN players p ON p.id = s.player_id
             WHERE s.room_code = r.code ORDER BY s.seat) AS seats,
       ARRAY(SELECT ROW(v.seat, v.voter_id, v.at) FROM seat_votes v
             WHERE v.room_code = r.code AND r.status = 'active') AS votes,
       ARRAY(SELECT ROW(h.seat, h.kind, h.cause, h.version, h.at, h.player_id) FROM handovers h
             WHERE h.room_code = r.code AND r.status <> 'lobby' ORDER BY h.id) AS handovers,
       ARRAY(SELECT ROW(p.id, p.name) FROM players p
             WHERE r.status <> 'lobby' AND p.id IN (
               SELECT replaced_id FROM seats WHERE room_code = r.code
               UNION SELECT player_id FROM handovers WHERE room_code = r.code)) AS names,
       ARRAY(SELECT s.seat FROM seats s
             WHERE s.room_code = r.code AND r.turn_clock IS NOT NULL AND r.status = 'active'
               AND (SELECT count(*) FROM (SELECT m.client_id FROM moves m
                                          WHERE m.room_code = r.code AND m.seat = s.seat
                                          ORDER BY m.version DESC LIMIT $3) last
                    WHERE starts_with(last.client_id, $2)) = $3) AS away,
       ARRAY(SELECT ROW(a.action, a.version, a.detail->>'text',
                        (CASE a.action WHEN 'take_back' THEN a.detail->>'made'
                                       ELSE a.detail->>'to' END)::int, a.at)
             FROM admin_actions a
             WHERE a.room_code = r.code AND r.status <> 'lobby' AND a.action = ANY($5)
             ORDER BY a.id) AS actions
FROM rooms r LEFT JOIN moves m ON $4 AND m.room_code = r.code AND m.version = r.version
WHERE r.code = $1"""


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    player_id: str | None
    player_name: str | None
    bot: str | None
    connections: int
    absent_since: datetime | None
    replaced_id: str | None


@dataclass(frozen=True, slots=True)
class VoteRow:
    seat: int
    voter_id: str
    at: datetime


@dataclass(frozen=True, slots=True)
class HandoverRow:
    seat: int
    kind: str
    cause: str
    version: int
    at: datetime
    player_id: str


@dataclass(frozen=True, slots=True)
class ActionRow:
    """An audit line as `tablelog` reads it: of its detail only what it needs (jsonb inside a
    record arrives in the binary format, which the pool's text codec cannot read). `place`:
    a rollback's `to`, a take-back's `made`."""

    action: str
    version: int | None
    text: str | None
    place: int | None
    at: datetime

    @property
    def detail(self) -> dict[str, Any]:
        if self.place is None:
            return {"text": self.text}
        return {"text": self.text, "to": self.place, "made": self.place}


async def room_payload(pool: Connections, code: str) -> dict[str, Any] | None:
    """The wire `room` object as committed now (None: no such room)."""
    row = await pool.fetchrow(_READ, code, CLOCK_ID_PREFIX, AWAY_AFTER, False, list(TOLD))
    return None if row is None else _payload(row, [SeatRow(*seat) for seat in row["seats"]])


async def room_and_held(pool: Connections,
                        code: str) -> tuple[dict[str, Any], CachedRoom] | None:
    """The wire `room` object and the room as the hot path holds it, both as committed now,
    from one statement (None: no such room)."""
    row = await pool.fetchrow(_READ, code, CLOCK_ID_PREFIX, AWAY_AFTER, True, list(TOLD))
    if row is None:
        return None
    seats = [SeatRow(*seat) for seat in row["seats"]]
    held = CachedRoom.from_row(code, row, {seat.seat: (seat.player_id, seat.bot)
                                           for seat in seats})
    return _payload(row, seats, held.state), held


def _payload(row: asyncpg.Record, seats: list[SeatRow], state: Any = None) -> dict[str, Any]:
    """The payload from the statement's row; `state`: the row's, brought up to its version
    (read from the row when not given)."""
    room = SimpleNamespace(**dict(row.items()))  # the builders read columns as attributes
    room.state = state if state is not None else catch_up(
        row["game"], row["seed"], row["state"], row["state_version"], row["version"],
        row["tail"])
    absence, handovers = absence_fields(room, seats, [VoteRow(*v) for v in row["votes"]],
                                        [HandoverRow(*h) for h in row["handovers"]],
                                        dict(row["names"]))
    return payload_from(room, seats, set(row["away"]), absence, handovers,
                        [ActionRow(*a) for a in row["actions"]])


def lobby_answer(row: asyncpg.Record, room: Any, seats: list[Any], names: dict[str, str],
                 xmin: int) -> tuple[dict[str, Any], CachedRoom]:
    """The wire `room` object and the room as held, as a seat action on a room in the lobby
    left them (`seatwrite.change`, a join or a start), without reading it back: `row` as read
    before the action (with `replaced`, each seat's replaced player and name), `room` and
    `seats` as the action left them, `names` the seated players' names, `xmin` the room row's
    version the write made. A room in the lobby has no votes, handovers, audit lines told,
    turn-clock timeouts or moves (each exists only once a game began), so these rows are all
    that the message says, as `_READ` would read it now."""
    columns = dict(row.items()) | {name: getattr(room, name) for name in room.__slots__}
    columns.update(xmin=xmin, events=None, timed_out=None, tail=None)  # a start's state is current
    replaced = {seat.seat: (rid, name) for seat, (rid, name) in zip(seats, row["replaced"],
                                                                     strict=True)}
    rows = [SeatRow(s.seat, s.player_id, names.get(s.player_id) if s.player_id else None,
                    s.bot, s.connections, s.absent_since, replaced[s.seat][0]) for s in seats]
    held = CachedRoom.from_row(room.code, columns, {s.seat: (s.player_id, s.bot) for s in seats})
    view = SimpleNamespace(**columns)
    absence, handovers = absence_fields(view, rows, [], [],
                                        {rid: name for rid, name in replaced.values() if rid})
    return payload_from(view, rows, set(), absence, handovers, []), held
