"""Solomon's Temple: the Temple each side has built (the turn limit's tie-break, and the road to
the Filling), its guarded gates, and the Babylonian armies closing on it — all public."""

from __future__ import annotations

from typing import Any

from bots.evals import Evaluation, from_points
from games.protocol import Game, State

ANNOUNCED = 0.6  # a piece announced, still open to a Sin


def _points(side: dict[str, Any]) -> float:
    play = side["play"]
    threat = sum(row + 1 for row, _ in side["armies"])  # rows count down towards the Temple
    return (1.5 * len(side["structures"]) + len(side["furnishings"])
            + 0.3 * sum(side["guarded"]) + 0.3 * (bool(play["priest"]) + bool(play["altar"]))
            - 0.1 * threat)


def values(game: Game, state: State, players: int) -> list[float]:
    view = game.view(state, None)
    points = [_points(side) for side in view["sides"]]
    if view["step"] == "sin":  # a build announced: it stands unless a Sin comes and holds
        points[view["turn"]] += ANNOUNCED
    return from_points(points, scale=1.5)


EVALUATION = Evaluation(values=values, rollout_plies=30, priors=True)
