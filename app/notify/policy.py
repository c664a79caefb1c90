"""What a move makes due, decided on the room as judged (pure, no storage).

Only turn-based rooms notify on moves: a live game is played with everyone at the table, so a
live room's move costs nothing here (and its statement is the one it always was). The rows are
written in the move's transaction for the seated players who have a channel (the store's join
with `notify_settings`); whether they are still true, and whether the player is looking, is
judged by the worker when they fall due."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

YOUR_TURN, REMINDER, END, INVITE, VERIFY, DIGEST = (
    "your_turn", "reminder", "end", "invite", "verify", "digest")
EMAIL, WEBHOOK = "email", "webhook"
CHANNELS = (EMAIL, WEBHOOK)
REMINDER_LEFT = 0.25  # the reminder comes when a quarter of the turn's clock is left


@dataclass(frozen=True, slots=True)
class Notice:
    """One notification a move makes due for whoever holds `seat`, from `due_at`."""

    kind: str
    seat: int
    due_at: datetime


def move_notices(turn_clock: int | None, now: datetime, acting: Iterable[int],
                 seats: Iterable[int], over: bool, notify_after: float) -> tuple[Notice, ...]:
    """A turn-based room's move: the game's end for every seat, or for each seat to act "your
    turn", both after `notify_after` seconds (a player who is looking then is not told), and a
    reminder when a quarter of the seat's clock is left."""
    later = now + timedelta(seconds=notify_after)
    if over:
        return tuple(Notice(END, seat, later) for seat in sorted(seats))
    found: list[Notice] = []
    for seat in sorted(acting):
        found.append(Notice(YOUR_TURN, seat, later))
        if turn_clock:
            found.append(Notice(REMINDER, seat,
                                now + timedelta(seconds=turn_clock * (1 - REMINDER_LEFT))))
    return tuple(found)

