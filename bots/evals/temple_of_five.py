"""Temple of Five: the scores every seat can read in the public view."""

from __future__ import annotations

from bots.evals import Evaluation, from_points
from games.protocol import Game, State


def values(game: Game, state: State, players: int) -> list[float]:
    scores = game.view(state, None)["scores"]
    return from_points([float(s) for s in scores], scale=4.0)


EVALUATION = Evaluation(values=values, rollout_plies=6, priors=True)
