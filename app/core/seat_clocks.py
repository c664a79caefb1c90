"""When each seat to act runs out of time, under a per-move clock or a Fischer clock.

Per-move (`rooms.clock_increment` NULL): every seat to act has `turn_clock` seconds from the
last move. Fischer: each seat has a bank (`rooms.clock_banks`, seconds left as of the last
move); the time between two moves is charged to every seat that was to act in it (in a
simultaneous step each seat's own clock runs), and the seat that moved gains the increment.
Pure functions: the move pipeline, the clock watcher and the wire messages share them.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from app.core.client_ids import platform_id
from app.utc import as_utc

CLOCK_ID_PREFIX = platform_id("clock", "")
# A move may reach the pipeline this long after its seat's deadline and still count (late: no
# Fischer increment); past it a player's move is refused `out_of_time`, and only then may the
# clock move for the seat (issue 24). Small: it only absorbs the last frame's trip.
LATE_GRACE_SECONDS = 0.05


def starting_banks(turn_clock: int | None, increment: int | None,
                   seats: int) -> dict[str, float] | None:
    """Every seat's bank when the game starts (None: no Fischer clock)."""
    if not turn_clock or increment is None:
        return None
    return {str(seat): float(turn_clock) for seat in range(seats)}


def settle_banks(banks: dict[str, float], acting_before: Iterable[int], mover: int,
                 elapsed: float, increment: int) -> dict[str, float]:
    """The banks after `mover` moved, `elapsed` seconds after the previous move."""
    settled = dict(banks)
    for seat in acting_before:
        settled[str(seat)] = max(0.0, settled.get(str(seat), 0.0) - elapsed)
    settled[str(mover)] = round(settled.get(str(mover), 0.0) + increment, 3)
    return settled


def seat_deadlines(turn_clock: int | None, increment: int | None,
                   banks: dict[str, float] | None, since: datetime | None,
                   acting: Iterable[int]) -> dict[int, datetime]:
    """When each seat to act runs out of time, counted from the last move at `since`."""
    if not turn_clock or since is None:
        return {}
    start = as_utc(since)
    if increment is None or banks is None:
        return {seat: start + timedelta(seconds=turn_clock) for seat in acting}
    return {seat: start + timedelta(seconds=banks.get(str(seat), 0.0)) for seat in acting}


def earliest_deadline(turn_clock: int | None, increment: int | None,
                      banks: dict[str, float] | None, since: datetime | None) -> datetime | None:
    """No seat's deadline comes before this, whoever is to act: the clock watcher reads the
    rules' state (who acts) only of rooms past it (None: no clock running)."""
    seats = [int(seat) for seat in banks] if increment is not None and banks else [0]
    return min(seat_deadlines(turn_clock, increment, banks, since, seats).values(), default=None)


def wire_deadlines(deadlines: dict[int, datetime]) -> dict[str, str]:
    """As the `state` message carries them: {"<seat>": ISO 8601 UTC}."""
    return {str(seat): at.isoformat() for seat, at in sorted(deadlines.items())}
