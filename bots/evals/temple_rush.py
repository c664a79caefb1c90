"""Temple Rush: points scored so far, plus each temple under way by how much of it stands.

Read from the public view (spectator's): every seat's score, its build zones and the cards in the
holders (the solo Robot's score, card and zone too).
"""

from __future__ import annotations

from typing import Any

from bots.evals import Evaluation, from_points
from games.protocol import Game, State

UNDER_WAY = 0.8  # a temple's worth, per point of its card, when it is fully built but not won


def _covered(blocks: list[dict[str, Any]], card: dict[str, Any]) -> float:
    """The share of the card's outline that blocks fill, squared: the last blocks are the hard
    ones (and the race is won by the whole)."""
    target = {tuple(cell) for cell in card["cells"]}
    filled = {tuple(cell) for block in blocks for cell in block.get("cells", ())} & target
    return (len(filled) / len(target)) ** 2 if target else 0.0


def _points(seat: dict[str, Any], cards: list[dict[str, Any] | None]) -> float:
    points = float(seat["score"]["total"])
    for zone, card in zip(seat["zones"], cards, strict=False):
        if card is not None and not zone.get("complete"):
            points += UNDER_WAY * card["value"] * _covered(zone["blocks"], card)
    return points


def values(game: Game, state: State, players: int) -> list[float]:
    view = game.view(state, None)
    points = [_points(seat, view["holders"]) for seat in view["seats"]]
    robot = view.get("robot")
    if robot is None:
        return from_points(points, scale=2.0)
    rival = float(robot["score"]["total"])
    if robot.get("card"):
        rival += UNDER_WAY * robot["card"]["value"] * _covered(robot.get("zone") or [],
                                                               robot["card"])
    return from_points(points, scale=2.0, rival=rival)


EVALUATION = Evaluation(values=values, rollout_plies=1, priors=True)
