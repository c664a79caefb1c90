"""Which first step of a 5 Realms deal the server will let be taken back, for the take-back
tests over the wire and in the browser (a placement that shows a character may not be: the
game's RULES.md, "Take-backs"; about 7% of deals begin with one)."""

from __future__ import annotations

from typing import Any

from app.core.offers import may_take_back
from games import REGISTRY
from games.protocol import match_rng


def takeable_placement(room: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """A placement `seat` may take back at the deal of `room` (the admin's view of it: its
    state and seed), judged as the server will judge move 1, or None."""
    game, state = REGISTRY["five-realms"], room["state"]
    for move in game.legal_moves(state, seat):
        rng = match_rng(room["seed"], 1)
        after, _ = game.apply(state, seat, move, rng)
        if move["type"] == "place" and may_take_back(game, state, seat, move, after, rng.drew):
            return move
    return None
