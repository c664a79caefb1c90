"""A room's pace: `live` (an evening at the table) or `turn-based` (a game over days).

In a turn-based room nobody is away (no absence banner, no vote, the clock never pauses for a
deserted table): the clock's stand-in moves for a seat whose time runs out and the seat stays
its player's, and players who are not looking are told by mail or webhook (app/notify/)."""

from __future__ import annotations

from typing import Any

from app.errors import ApiError

LIVE, TURN_BASED = "live", "turn-based"
PACES = (LIVE, TURN_BASED)
# A turn-based room's clock per move: from an hour to a week.
MIN_TURN_BASED_CLOCK, MAX_TURN_BASED_CLOCK = 3600, 7 * 24 * 3600


def pace_of(room: Any) -> str:
    """The room's pace; rooms older than the choice are live."""
    return getattr(room, "pace", None) or LIVE


def turn_based(room: Any) -> bool:
    return pace_of(room) == TURN_BASED


def check_pace(pace: str, turn_clock: int | None, clock_increment: int | None) -> None:
    """A turn-based room needs a per-move clock of an hour to a week (no Fischer bank): the
    clock is what moves a game on whose players are away for days."""
    if pace not in PACES:
        raise ApiError(422, "bad_pace", f"The pace is 'live' or 'turn-based', not {pace!r}.")
    if pace == TURN_BASED and (turn_clock is None or clock_increment is not None
                               or not MIN_TURN_BASED_CLOCK <= turn_clock
                               <= MAX_TURN_BASED_CLOCK):
        raise ApiError(422, "bad_pace", "A turn-based room needs a turn_clock per move from "
                       f"{MIN_TURN_BASED_CLOCK} s (an hour) to {MAX_TURN_BASED_CLOCK} s (7 "
                       "days), and no clock_increment.")
