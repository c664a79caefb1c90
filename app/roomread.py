"""On Postgres, everything a `room` message says, read in ONE statement.

Why: the room message is built at every join, start, socket opening and closing. Through an ORM
session it was a transaction of five to seven round trips (BEGIN, the room, its seats, votes,
handovers, names, ROLLBACK) and most of the CPU a new room cost (issue 10). Here one prepared
statement returns the room's columns and, as arrays of rows, its seats, votes, handovers, the
names they mention and the seats the turn clock marks away; `rooms.payload_from` builds the same
payload as the session path. The state is read only when a running clock needs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any

import asyncpg

from app.absence import absence_fields
from app.rooms import AWAY_AFTER, payload_from
from app.seat_clocks import CLOCK_ID_PREFIX

# $1 room code, $2 the turn clock's client id prefix, $3 AWAY_AFTER.
_READ = """
SELECT r.code, r.game, r.options, r.status, r.host_id, r.private, r.version, r.next_room,
       r.spectators_muted, r.turn_clock, r.clock_increment, r.clock_banks, r.last_move_at,
       r.created_at,
       CASE WHEN r.turn_clock IS NOT NULL AND r.status = 'active' THEN r.state END AS state,
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
             WHERE r.turn_clock IS NOT NULL AND r.status = 'active'
               AND (SELECT count(*) FROM (SELECT m.client_id FROM moves m
                                          WHERE m.room_code = r.code AND m.seat = s.seat
                                          ORDER BY m.version DESC LIMIT $3) last
                    WHERE starts_with(last.client_id, $2)) = $3) AS away
FROM rooms r WHERE r.code = $1"""


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


async def room_payload(pool: asyncpg.Pool, code: str) -> dict[str, Any] | None:
    """The wire `room` object as committed now (None: no such room)."""
    row = await pool.fetchrow(_READ, code, CLOCK_ID_PREFIX, AWAY_AFTER)
    if row is None:
        return None
    room = SimpleNamespace(**dict(row.items()))  # the builders read columns as attributes
    seats = [SeatRow(*seat) for seat in row["seats"]]
    absence, handovers = absence_fields(room, seats, [VoteRow(*v) for v in row["votes"]],
                                        [HandoverRow(*h) for h in row["handovers"]],
                                        dict(row["names"]))
    return payload_from(room, seats, set(row["away"]), absence, handovers)
