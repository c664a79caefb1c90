"""Issue 33: a step left at once must not tell the mover what the opponent holds. Windows whose
only move was `pass` were skipped, so after an announce, an army's move or a Sin, how fast the
next step came showed whether the opponent held a Sin, an Israelite Army or an atonement. Now a
window is skipped only when what anyone can see shows that the seat cannot answer: whatever the
opponent's hidden hand holds, the same move leads to the same step and the same seat to act."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from games.solomons_temple.rules import SolomonOptions
from tests.games.test_solomons_temple import GAME, act, table

REDEALS = 4


def _redealt(state: dict[str, Any], seat: int, rng: Random) -> dict[str, Any]:
    """`state` with `seat`'s hand dealt anew from its hand and draw pile (what the other seat
    cannot see), but for a piece it announced (committed, in its hand); the other seat's cards
    and everything in sight untouched."""
    new = dict(state)
    new["hand"], new["deck"] = list(state["hand"]), list(state["deck"])
    announced = state["announced"] if state["turn"] == seat else None
    kept = [] if not announced else [announced["card"], *(
        [announced["with"]] if announced.get("with") else []), *(
        ["Cooperation"] if announced.get("with") or announced.get("cooperation") else [])]
    pool = [*state["hand"][seat], *state["deck"][seat]]
    for card in kept:
        pool.remove(card)
    rng.shuffle(pool)
    size = len(state["hand"][seat]) - len(kept)
    new["hand"][seat] = pool[:size] + kept
    new["deck"][seat] = pool[size:]
    return new


def _public(state: dict[str, Any]) -> tuple[Any, ...]:
    return state["step"], state["actor"], state["turn"], state["turn_no"]


@pytest.mark.parametrize("seed", range(3))
def test_what_comes_after_a_move_does_not_depend_on_the_opponents_hand(seed: int) -> None:
    rng = Random(seed)
    state = GAME.setup(2, SolomonOptions(), Random(seed))
    compared = 0
    for _ in range(600):
        if GAME.outcome(state) is not None:
            break
        seat = state["actor"]
        move = rng.choice(GAME.legal_moves(state, seat))
        after, _ = GAME.apply(state, seat, move, Random(seed))
        for n in range(REDEALS):
            other = _redealt(state, 1 - seat, Random(f"{seed}:{n}"))
            if move not in GAME.legal_moves(other, seat):
                continue  # a card of the mover's pile now deals elsewhere (never: kept)
            other_after, _ = GAME.apply(other, seat, move, Random(seed))
            if after["turn"] == state["turn"]:  # a new turn draws from a re-dealt pile
                assert _public(other_after) == _public(after), (move, state["step"])
                compared += 1
        state = after
    assert compared > 200


def test_after_an_announce_the_opponent_is_asked_whether_or_not_it_holds_a_sin() -> None:
    with_sin = table(["Porch"], ["Doubt", "Main Hall"], step="build")
    without = table(["Porch"], ["Porch", "Main Hall"], step="build")
    for state in (with_sin, without):
        state = act(state, 0, {"type": "announce", "card": "Porch"})
        assert (state["step"], state["actor"]) == ("sin", 1)
    assert GAME.legal_moves(act(without, 0, {"type": "announce", "card": "Porch"}), 1) == [
        {"type": "pass"}], "with nothing to play its one move is `pass` (the client's auto-pass)"


def test_a_window_no_hidden_card_could_answer_is_still_left_at_once() -> None:
    """Every Sin in sight (in the discards), none can be held: the build goes ahead at once."""
    state = table(["Porch"], ["Veil"], step="build")
    sins = [c for c in state["deck"][1] if GAME.legal_moves(
        {**table([], [c], step="sin"), "actor": 1}, 1) != [{"type": "pass"}]]
    state["deck"][1] = [c for c in state["deck"][1] if c not in sins]
    state["discard"][1] += sins
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    assert state["structures"][0] == ["Porch"] and state["actor"] == 0
