"""Per-game evaluations read what they should."""

from __future__ import annotations

from bots.evals import evaluation_for
from games import REGISTRY
from games.protocol import match_rng


def test_temple_rush_counts_a_temple_completed_before_its_round_settles() -> None:
    # The round settles once every seat has acted; a search judges the state in between, and
    # a completing move that scored nothing there would look no better than any other.
    game = REGISTRY["temple-rush"]
    state = game.setup(2, game.Options(), match_rng("eval", 0))
    values = evaluation_for("temple-rush").values
    before = values(game, state, 2)
    state["completions"] = [{"seat": 0, "zone": 0, "card": state["holders"][0], "borrowed": []}]
    after = values(game, state, 2)
    assert after[0] > before[0] + 0.2
    assert after[1] < before[1]
