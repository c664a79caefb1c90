"""5 Realms: castles, then what earns castles later (Titans, council, influence), as the public
view shows them."""

from __future__ import annotations

from bots.evals import Evaluation, from_points
from games.protocol import Game, State


def values(game: Game, state: State, players: int) -> list[float]:
    seats = game.view(state, None)["players"]
    points = [
        seat["castles"]
        + 0.6 * len(seat["titans"])
        + 0.3 * len(seat["council"])
        + 0.15 * sum(len(column) for column in seat["influence"].values())
        for seat in seats
    ]
    return from_points(points, scale=1.5)


EVALUATION = Evaluation(values=values, rollout_plies=10, priors=True)
