"""Solomon's Temple: the state helpers both `rules.py` and `military.py` need (a card played
from the hand, Pray and Fast's ban, an army on a space, the move handed to another step)."""

from __future__ import annotations

from games.protocol import State
from games.solomons_temple.data import GOOD


def distinct(cards: list[str]) -> list[str]:
    """Each card once, sorted: legal lists name a card once however many are held."""
    return sorted(set(cards))


def fasting(state: State, seat: int) -> bool:
    """Pray and Fast forbids good cards on the two turns it counts."""
    return 0 < state["play"][seat]["fast"] < 3


def army_at(state: State, board_seat: int, cell: tuple[int, int]) -> bool:
    """Whether an army stands on `cell` of `board_seat`'s board (armies never share a space)."""
    return any(tuple(a) == cell for a in state["armies"][board_seat])


def use_card(state: State, seat: int, card: str) -> None:
    """`card` goes from the hand to the discards; a good card counts for Pray and Fast's "as long
    as no good cards have been played that turn"."""
    state["hand"][seat].remove(card)
    state["discard"][seat].append(card)
    if card in GOOD and seat == state["turn"]:
        state["good_played"] = True


def open_instant(state: State, resume: str, seat: int | None = None) -> None:
    """Give `seat` (by default the seat not on turn) a window for its instants; `pass` goes back
    to `resume`. It opens on public facts only, whether or not that seat holds an instant."""
    actor = 1 - state["turn"] if seat is None else seat
    state["step"], state["actor"], state["resume"] = "instant", actor, resume


def resume_actor(state: State) -> int:
    """Who moves when an instant window closes: the attacker (the seat not on turn) in the
    Military Phase, the player on turn everywhere else."""
    return 1 - state["turn"] if state["resume"] == "military" else state["turn"]


def to_build(state: State) -> None:
    """Phase III: the player on turn is asked to build."""
    state["step"], state["actor"] = "build", state["turn"]
