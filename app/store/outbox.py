"""The move's share of the notification outbox: the rows a turn-based move makes due, written
in the move's own transaction, for the seated players who have a channel (app/notify/policy.py
decides the notices; this module only joins them with the seats and `notify_settings`).

A move with no notices (every live room's) never reaches this module. A notice for a seat
whose player has no channel writes nothing."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select

from app.store.models import NotifySettings, Outbox, Seat

SETTINGS, OUTBOX, SEATS = NotifySettings.__table__, Outbox.__table__, Seat.__table__

# Postgres: a CTE of the move's one statement (`roomcache._WRITE`, whose `r` is the room row
# written, so nothing is inserted unless the move is): $1 room, $3 version, $5 now,
# $16 kinds, $17 seats, $18 due times. The key is `Outbox.key`'s spelling.
NOTICES_CTE = """o AS (
  INSERT INTO notify_outbox (dedupe, kind, channel, player_id, room_code, version, seat, status,
                             due_at, attempts, created_at)
  SELECT n.kind || ':' || $1 || ':' || $3 || ':' || s.player_id || ':' || c.channel, n.kind,
         c.channel, s.player_id, $1, $3, n.seat, 'pending', n.due, 0, $5
  FROM r, unnest($16::text[], $17::int[], $18::timestamptz[]) AS n(kind, seat, due)
    JOIN seats s ON s.room_code = $1 AND s.seat = n.seat AND s.player_id IS NOT NULL
    JOIN notify_settings ns ON ns.player_id = s.player_id
    JOIN (VALUES ('email'), ('webhook')) AS c(channel)
      ON c.channel = 'email' AND ns.email IS NOT NULL AND ns.email_verified
         OR c.channel = 'webhook' AND ns.webhook IS NOT NULL
  ON CONFLICT (dedupe) DO NOTHING
), """


def notice_args(notices: Sequence[Any]) -> tuple[list[str], list[int], list[datetime]]:
    """$16-$18 of `NOTICES_CTE`."""
    return ([n.kind for n in notices], [n.seat for n in notices], [n.due_at for n in notices])


def channels(email: str | None, verified: bool, webhook: str | None) -> list[str]:
    """The channels a player's settings reach: a verified address, a webhook."""
    return [name for name, on in (("email", email is not None and verified),
                                  ("webhook", webhook is not None)) if on]


async def write_notices(conn: Any, code: str, version: int, notices: Sequence[Any],
                        now: datetime) -> None:
    """SQLite (and any Core connection): the same rows as `NOTICES_CTE`, in the caller's
    transaction."""
    held = (await conn.execute(
        select(SEATS.c.seat, SEATS.c.player_id, SETTINGS.c.email, SETTINGS.c.email_verified,
               SETTINGS.c.webhook)
        .join(SETTINGS, SETTINGS.c.player_id == SEATS.c.player_id)
        .where(SEATS.c.room_code == code, SEATS.c.seat.in_({n.seat for n in notices})))).all()
    by_seat = {row.seat: row for row in held}
    rows = [{"dedupe": Outbox.key(n.kind, code, version, row.player_id, channel),
             "kind": n.kind, "channel": channel, "player_id": row.player_id, "room_code": code,
             "version": version, "seat": n.seat, "status": "pending", "due_at": n.due_at,
             "attempts": 0, "created_at": now}
            for n in notices if (row := by_seat.get(n.seat)) is not None
            for channel in channels(row.email, row.email_verified, row.webhook)]
    if rows:
        await conn.execute(insert(OUTBOX), rows)
