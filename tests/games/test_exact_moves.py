"""Issue 33, low: a rule module used alone (bots, replays, tools) refuses a float or a bool
where its legal move holds an int, as the platform's exact check (`is_legal`) does before it:
Python's `==` holds 2.0 == 2 == True, so `move in legal_moves` let one through to be used as an
index (a TypeError, not an `IllegalMove`)."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from games import REGISTRY, IllegalMove


def _retyped(move: dict[str, Any]) -> list[dict[str, Any]]:
    """`move` with one int field made a float, or a bool, each way it can be."""
    out = []
    for key, value in move.items():
        if type(value) is int:
            out.append({**move, key: float(value)})
            if value in (0, 1):
                out.append({**move, key: bool(value)})
        elif type(value) is list and value and all(type(v) is int for v in value):
            out.append({**move, key: [float(v) for v in value]})
    return out


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_float_or_bool_for_an_int_is_refused_by_the_rules_alone(game_id: str) -> None:
    game = REGISTRY[game_id]
    rng = Random(game_id)
    state = game.setup(game.min_players, game.Options(), Random(1))
    tried = 0
    for _ in range(300):
        if game.outcome(state) is not None or tried >= 30:
            break
        seat = rng.choice(sorted(game.to_act(state)))
        legal = game.legal_moves(state, seat)
        for move in legal:
            for wrong in _retyped(move):
                with pytest.raises(IllegalMove):
                    game.apply(state, seat, wrong, Random(0))
                tried += 1
        state, _ = game.apply(state, seat, rng.choice(legal), Random(0))
    assert tried > 0, "no move with a number was tried"
