"""Issue 33: a priest turn that passes by itself must not tell the others what a reserve holds.
The sizes of the bonus pieces in a reserve are hidden (their number is not); the turn passed at
once when none of them fitted, which told the table their sizes. Now, whatever sizes a reserve
holds, the same move leads to the same seat to act."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from games.temple_of_five import rules
from tests.games.test_temple_of_five import GAME, THREE_RED_CHAINS, fresh, my_priest_turn


def _only_two_spaces_free(me: dict[str, Any]) -> dict[tuple[int, int], tuple[int, Any]]:
    """A board where every space is covered but two side by side on level 1: a two-space piece
    fits there, a three-space piece fits nowhere."""
    return {(x, y): (1, None if (x, y) in ((3, 3), (4, 3)) else "red")
            for x in range(8) for y in range(8)}


@pytest.mark.parametrize("size", [2, 3])
def test_the_next_priest_turn_waits_whatever_size_the_hidden_piece_is(
        size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules.board, "top", _only_two_spaces_free)
    state = fresh(3)
    my_priest_turn(state, 0, THREE_RED_CHAINS)
    state["seats"][2]["reserve"] = [{"size": size, "colour": "green"}]
    fits = [m for m in GAME.legal_moves({**state, "turn": 2}, 2) if m["type"] == "bonus"]
    assert bool(fits) == (size == 2), "the board lets only a two-space piece down"
    after, events = GAME.apply(state, 0, {"type": "pass"}, Random(0))
    assert after["turn"] == 2 and GAME.to_act(after) == {2}, "asked, whatever it holds"
    assert not any("Seat 3 has no chain to use" in e.text for e in events)
    if size == 3:
        assert GAME.legal_moves(after, 2) == [{"type": "pass"}]


def test_an_empty_reserve_and_nothing_else_still_passes_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules.board, "top", _only_two_spaces_free)
    state = fresh(3)
    my_priest_turn(state, 0, THREE_RED_CHAINS)
    _, events = GAME.apply(state, 0, {"type": "pass"}, Random(0))
    assert any("Seat 3 has no chain to use" in e.text for e in events)
