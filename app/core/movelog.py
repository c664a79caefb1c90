"""One move log, the same everywhere: who made each move, and its entry as a viewer may see it.

`/api/rooms/{code}/moves`, the replay frames and the admin console's log all build their lines
here, so they cannot drift apart. `by` is recorded with the move when it is committed (both
stores call `mover_via` and name the seat's holder as it is in that transaction: `by_name` on
SQLite, the same words in SQL on Postgres), so a seat changing hands later never relabels it.
Lines that are not moves (the admin's actions, and later take-backs) live beside the moves in
the room's `admin_log`, placed by version, not in here.
"""

from __future__ import annotations

from typing import Any

from app.core.client_ids import PLATFORM_PREFIX
from games import Event, Game

# The platform ids whose moves nobody at the table chose (see `app.core.client_ids`).
_VIA = {"clock": PLATFORM_PREFIX + "clock:", "admin": PLATFORM_PREFIX + "admin:"}


def mover_via(client_id: str) -> str | None:
    """"clock" (the turn clock ran out), "admin" (the admin forced the move) or None (chosen by
    the seat's holder: a person or a bot)."""
    return next((via for via, prefix in _VIA.items() if client_id.startswith(prefix)), None)


def by_name(seat: int, person: str | None, bot: str | None, replaced: str | None) -> str:
    """The seat's holder as the room names it (static/room.js `name`): the person, "Bot for
    Cara" (a bot standing in for Cara), or "Bot 3" (a bot seated from the start). Postgres
    writes the same words in SQL (`app.store.postgres.roomcache._BY`)."""
    if bot is None:
        return person or f"Seat {seat + 1}"
    return f"Bot for {replaced}" if replaced else f"Bot {seat + 1}"


def recorded_by(seat: int, person: str | None, bot: str | None, replaced: str | None,
                client_id: str) -> dict[str, Any]:
    """The `by` object stored with a move: {"name", "bot", "via"}."""
    return {"name": by_name(seat, person, bot, replaced), "bot": bot is not None,
            "via": mover_via(client_id)}


def log_entry(game: Game, row: Any, viewer: int | None, whole: bool) -> dict[str, Any]:
    """One move row (`moves` columns as attributes) as `viewer` (a seat, None: a spectator) may
    see it; `whole`: every move and event unredacted (a finished game, the admin)."""
    shown = row.move if whole else game.redact_move(row.move, row.seat, viewer)
    events = [Event.from_json(e) for e in row.events]
    return {
        "version": row.version,
        "seat": row.seat,
        "move": shown,
        "text": game.describe(shown) if shown is not None else "made a hidden move",
        "events": [e.to_json() for e in events if whole or e.visible_to(viewer)],
        "timed_out": mover_via(row.client_id) == "clock",
        "by": row.by,
    }
