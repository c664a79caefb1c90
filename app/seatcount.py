"""Seat counts on Postgres: one autocommitted statement per socket opening or closing.

Why: through the ORM, counting a socket took a transaction of four round trips and a NOTIFY
every time, and set-up and tear-down of rooms became most of the server's CPU (issue 10). Like a
move (`app.roomcache`), a count NOTIFYs only when another process has sockets in the room. The
UPDATE touches every seat row of the room, so counts of one room change one after the other
across processes: the second sees the first's socket, and tells it (or is told) of its own.
"""

from __future__ import annotations

from datetime import datetime

import asyncpg

from app.hub import CHANNEL

# $1 room, $2 seat, $3 player, $4 origin, $5 sockets this process registered in the room,
# $6 notification payload.
_CONNECT = """
WITH u AS (
  UPDATE seats SET
    connections = connections + CASE WHEN seat = $2 AND player_id = $3 THEN 1 ELSE 0 END,
    absent_since = CASE WHEN seat = $2 AND player_id = $3 THEN NULL ELSE absent_since END
  WHERE room_code = $1
  RETURNING coalesce(seat = $2 AND player_id = $3, false) AS mine, connections
), l AS (
  INSERT INTO seat_sockets (origin, room_code, seat, player_id)
  SELECT $4, $1, $2, $3 FROM u WHERE mine RETURNING id
)
SELECT (SELECT id FROM l) AS ledger,
       (SELECT pg_notify('""" + CHANNEL + """', $6)
        WHERE EXISTS (SELECT 1 FROM l)
          AND (SELECT sum(connections) FROM u)
              + (SELECT count(*) FROM watchers WHERE room_code = $1) > $5 + 1)::text"""

# $1 ledger row, $2 room, $3 seat, $4 player, $5 sockets this process still registers in the
# room, $6 notification payload, $7 now (the absence grace period starts).
_DISCONNECT = """
WITH g AS (DELETE FROM seat_sockets WHERE id = $1 RETURNING 1),
u AS (
  UPDATE seats SET
    connections = CASE WHEN seat = $3 AND player_id = $4 THEN greatest(connections - 1, 0)
                       ELSE connections END,
    absent_since = CASE WHEN seat = $3 AND player_id = $4
                        THEN CASE WHEN connections <= 1 THEN $7::timestamptz END
                        ELSE absent_since END
  WHERE room_code = $2 AND EXISTS (SELECT 1 FROM g)
  RETURNING connections
)
SELECT EXISTS (SELECT 1 FROM g) AS gone,
       (SELECT pg_notify('""" + CHANNEL + """', $6)
        WHERE EXISTS (SELECT 1 FROM g)
          AND (SELECT coalesce(sum(connections), 0) FROM u)
              + (SELECT count(*) FROM watchers WHERE room_code = $2) > $5)::text"""


async def connect(pool: asyncpg.Pool, code: str, seat: int, player_id: str | None, origin: str,
                  registered: int) -> int | None:
    """Count one more socket for the seat; its ledger row (None: not the seat's player)."""
    return await pool.fetchval(_CONNECT, code, seat, player_id, origin, registered,
                               f"room:{code}:{origin}")


async def disconnect(pool: asyncpg.Pool, code: str, seat: int, player_id: str | None,
                     origin: str, registered: int, row: int, now: datetime) -> bool:
    """Count one socket less unless a reaper already did; whether it was still counted."""
    return await pool.fetchval(_DISCONNECT, row, code, seat, player_id, registered,
                               f"room:{code}:{origin}", now)
