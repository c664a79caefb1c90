"""Seat counts on Postgres: one autocommitted statement per socket opening or closing.

Why: through the ORM, counting a socket took a transaction of four round trips and a NOTIFY
every time, and set-up and tear-down of rooms became most of the server's CPU. Like a
move (`roomcache`), a count NOTIFYs only when another process has sockets in the room. The
room row is locked first, so counts of one room change one after the other across processes:
the second sees the first's socket, and tells it (or is told) of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from app.store.base import CHAT_HISTORY, ChatRead
from app.store.hub import CHANNEL
from app.store.postgres.connections import Connections

# A seated socket's chat greeting as columns: read alone (`PostgresStore.chat_greeting`) or
# with the socket's seat count (`connect`). $1 is the room's code.
GREETING_COLUMNS = (
    "ARRAY(SELECT ROW(id, at, player_id, name, seat, text) FROM chat_messages "
    f"      WHERE room_code = $1 ORDER BY id DESC LIMIT {CHAT_HISTORY}) AS lines, "
    "ARRAY(SELECT p.name FROM watchers w LEFT JOIN players p ON p.id = w.player_id "
    "      WHERE w.room_code = $1) AS watchers")

# Every statement here first takes the room row's lock (the one-time filter runs before the seat
# is touched), as starts, joins and moves do: one lock order for all, so no deadlock with them.
_LOCK = "EXISTS (SELECT 1 FROM rooms WHERE code = $1 FOR NO KEY UPDATE)"

# The other seats' counts are read locked (FOR SHARE), so as they are committed now, not as the
# statement's snapshot had them before it waited for the room.
_COUNTED = """counted AS (
  SELECT seat, connections, xmin::text AS x FROM seats
  WHERE room_code = $1 AND seat <> $2 AND EXISTS (SELECT 1 FROM u)
  FOR SHARE
)"""

# The seat row as the count left it, with its version: the lobby rooms this process holds
# (`seatwrite.Lobbies`) take it, and the join or start that follows needs no read.
_SEAT = "connections, bot, absent_since, replaced_id, xmin::text AS x"
_SEAT_OUT = ("(SELECT bot FROM u) AS bot, (SELECT absent_since FROM u) AS absent_since, "
             "(SELECT replaced_id FROM u) AS replaced_id, (SELECT x FROM u) AS x, "
             "(SELECT connections FROM u) AS now_connected")

# $1 room, $2 seat, $3 player, $4 origin, $5 sockets this process registered in the room,
# $6 notification payload.
_CONNECT = """
WITH lk AS (SELECT xmin::text AS x FROM rooms WHERE code = $1 FOR NO KEY UPDATE),
u AS (
  UPDATE seats SET connections = connections + 1, absent_since = NULL
  WHERE room_code = $1 AND seat = $2 AND player_id = $3 AND """ + _LOCK + """
  RETURNING """ + _SEAT + """
), l AS (
  INSERT INTO seat_sockets (origin, room_code, seat, player_id)
  SELECT $4, $1, $2, $3 FROM u RETURNING id
), """ + _COUNTED + """
SELECT (SELECT id FROM l) AS ledger,
       EXISTS (SELECT 1 FROM seat_votes WHERE room_code = $1) AS votes,
       (SELECT pg_notify('""" + CHANNEL + """', $6)
        WHERE (SELECT connections FROM u) + (SELECT coalesce(sum(connections), 0) FROM counted)
              + (SELECT count(*) FROM watchers WHERE room_code = $1) > $5 + 1)::text,
       """ + _SEAT_OUT + """, """ + GREETING_COLUMNS + """,
       (SELECT x FROM lk) AS room_xmin,
       EXISTS (SELECT 1 FROM handovers WHERE room_code = $1)
         OR EXISTS (SELECT 1 FROM admin_actions WHERE room_code = $1) AS told,
       ARRAY(SELECT seat FROM counted ORDER BY seat) AS others,
       ARRAY(SELECT x FROM counted ORDER BY seat) AS other_xmins"""

# $1 room, $2 seat, $3 player, $4 ledger row, $5 sockets this process still registers in the
# room, $6 notification payload, $7 now (the absence grace period starts).
_DISCONNECT = """
WITH g AS (DELETE FROM seat_sockets WHERE id = $4 RETURNING 1),
u AS (
  UPDATE seats SET connections = greatest(connections - 1, 0),
                   absent_since = CASE WHEN connections <= 1 THEN $7::timestamptz END
  WHERE room_code = $1 AND seat = $2 AND player_id = $3 AND EXISTS (SELECT 1 FROM g)
    AND """ + _LOCK + """
  RETURNING """ + _SEAT + """
), """ + _COUNTED + """
SELECT EXISTS (SELECT 1 FROM g) AS gone, """ + _SEAT_OUT + """,
       (SELECT pg_notify('""" + CHANNEL + """', $6)
        WHERE (SELECT connections FROM u) + (SELECT coalesce(sum(connections), 0) FROM counted)
              + (SELECT count(*) FROM watchers WHERE room_code = $1) > $5)::text"""


@dataclass(frozen=True, slots=True)
class Connected:
    """What counting a seat's socket found."""

    ledger: int | None  # its seat_sockets row (None: not the seat's player, nothing counted)
    votes: bool  # whether the room has votes on record
    chat: ChatRead  # chat history and watchers, for the socket
    seat: SeatVersion | None  # the seat row as counted (None: nothing counted)
    # The versions (xmin) of the room row and the other seat rows as this count left them
    # (locked, so as committed when it committed): whether a copy of the room is current.
    room_xmin: str | None = None
    others: dict[int, str] | None = None
    told: bool = True  # hand-overs or audit lines on record


# A seat row as a count wrote it: bot, connections, absent_since, replaced_id, and its xmin.
SeatVersion = tuple[str | None, int, datetime | None, str | None, str]


def _seat_version(row: Any) -> SeatVersion | None:
    if row["x"] is None:
        return None
    return (row["bot"], row["now_connected"], row["absent_since"], row["replaced_id"],
            row["x"])


async def connect(pool: Connections, code: str, seat: int, player_id: str | None, origin: str,
                  registered: int) -> Connected:
    """Count one more socket for the seat; the same statement reads the socket's chat greeting
    (`PostgresStore.chat_greeting`), one round trip less for every player's socket.

    Votes read in the same statement may miss one committed while it waited for the room lock;
    that is safe here: a socket opening can complete a majority only through its own player's
    vote, which was on record before. (A socket closing shrinks the majority needed, so
    `disconnect` callers read the votes afresh.) Chat lines said meanwhile reach the socket as
    any line does: it is registered in the room before it is counted."""
    row = await pool.fetchrow(_CONNECT, code, seat, player_id, origin, registered,
                              f"room:{code}:{origin}")
    return Connected(row["ledger"], row["votes"], chat_read(row), _seat_version(row),
                     row["room_xmin"], dict(zip(row["others"], row["other_xmins"], strict=True)),
                     row["told"])


async def disconnect(pool: Connections, code: str, seat: int, player_id: str | None,
                     origin: str, registered: int, ledger: int,
                     now: datetime) -> tuple[bool, SeatVersion | None]:
    """Count one socket less unless a reaper already did; whether it was still counted, and
    the seat row as counted."""
    row = await pool.fetchrow(_DISCONNECT, code, seat, player_id, ledger, registered,
                              f"room:{code}:{origin}", now)
    return row["gone"], _seat_version(row)


def chat_read(row: Any) -> ChatRead:
    """The lines (oldest first) and watchers from a row with `GREETING_COLUMNS`."""
    return ChatRead([SimpleNamespace(id=i, at=at, player_id=p, name=n, seat=s, text=t)
                     for i, at, p, n, s, t in reversed(row["lines"])], list(row["watchers"]))
