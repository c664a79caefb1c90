"""Rooms that look stuck, for the admin console: each with the reason and the moment it began.

A room looks stuck when it is errored; when a bot seat has had the move for longer than a bot
ever takes (`BOT_STUCK_SECONDS`: a decision is bounded by its level's budget and a timeout); when
a seat's clock deadline passed long ago (`CLOCK_OVERDUE_SECONDS`: every process sweeps clocks
twice a second, so a deadline this far behind means the clock is not being served), whatever
kind of clock set it; or when a person has had the move for longer than `STUCK_MINUTES` in a
room whose clock is off or paused. Read from the admin's room list (`Store.admin_rooms`), with
who acts from the rules: no query of its own.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from app.context import Context
from app.core.seat_clocks import seat_deadlines
from app.utc import as_utc, utcnow
from games import REGISTRY

BOT_STUCK_SECONDS = 120.0
CLOCK_OVERDUE_SECONDS = 120.0


async def stuck_rooms(hall: Context) -> list[dict[str, Any]]:
    """Errored and stuck rooms, the longest stuck first."""
    now = utcnow()
    errored = await hall.audit.admin_rooms("errored", None, None)
    quiet = min(BOT_STUCK_SECONDS, CLOCK_OVERDUE_SECONDS, hall.settings.stuck_minutes * 60)
    active = await hall.audit.admin_rooms(None, now - timedelta(seconds=quiet), None)
    found = [_row(room, errored.players[room.code], "errored", None, as_utc(room.updated_at),
                  "A rule module raised: the room is paused until you roll back, resume or "
                  "abort (its traceback is on the room's page).")
             for room in errored.rooms]
    for room in active.rooms:
        why = _why_stuck(room, active.players[room.code], now, hall.settings.stuck_minutes)
        if why is not None:
            found.append(_row(room, active.players[room.code], *why))
    return sorted(found, key=lambda row: row["since"])


def _why_stuck(room: Any, players: list[dict[str, Any]], now: datetime,
               stuck_minutes: float) -> tuple[str, int, datetime, str] | None:
    """(kind, seat, since, reason) for an active room that looks stuck, else None."""
    try:
        acting = sorted(REGISTRY[room.game].to_act(room.state))
    except Exception:  # a broken rule module: the room errors on its next move
        return None
    quiet_since = as_utc(room.last_move_at or room.updated_at)
    quiet = (now - quiet_since).total_seconds()
    seats = {p["seat"]: p for p in players}
    deadlines = seat_deadlines(room.turn_clock, room.clock_increment, room.clock_banks,
                               room.last_move_at, acting)
    for seat in acting:
        if seats.get(seat, {}).get("bot") and quiet >= BOT_STUCK_SECONDS:
            return ("bot", seat, quiet_since, f"Bot seat {seat} has had the move for "
                    f"{_span(quiet)} without moving.")
    for seat, deadline in sorted(deadlines.items()):
        overdue = (now - deadline).total_seconds()
        if overdue >= CLOCK_OVERDUE_SECONDS:
            return ("clock", seat, deadline, f"Seat {seat}'s clock ran out {_span(overdue)} "
                    "ago and no move was played for it.")
    if not deadlines and acting and quiet >= stuck_minutes * 60:
        seat = acting[0]
        name = seats.get(seat, {}).get("name") or f"seat {seat}"
        clock = "its clock is paused" if room.turn_clock else "there is no turn clock"
        return ("idle", seat, quiet_since, f"{name} (seat {seat}) has had the move for "
                f"{_span(quiet)} and {clock}.")
    return None


def _row(room: Any, players: list[dict[str, Any]], kind: str, seat: int | None,
         since: datetime, reason: str) -> dict[str, Any]:
    return {"code": room.code, "game": room.game, "status": room.status,
            "version": room.version, "kind": kind, "seat": seat, "reason": reason,
            "since": since.isoformat(), "players": players}


def _span(seconds: float) -> str:
    """A duration as people say it: 90 s, 12 min, 5 h, 3 days."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 172_800:
        return f"{seconds / 3600:.0f} h"
    return f"{seconds / 86_400:.0f} days"
