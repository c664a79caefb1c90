"""Per-game evaluations: how far a playout runs, and what an unfinished state is worth.

An evaluation may read a game's state (it is handed determinised states only, so it can know
nothing the bot's seat could not), but it should lean on what every seat sees (scores, pieces
placed, cards won): rule modules change, and a public figure changes least. A game without a
module here is played out to the end and scored by its outcome alone.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.protocol import Game, State

Values = Callable[[Game, State, int], list[float]]


def from_points(points: Sequence[float], scale: float, rival: float | None = None) -> list[float]:
    """Per seat, a win chance from its lead over the best other seat (or over `rival`, the solo
    game's Robot): a logistic curve whose slope `scale` is one point's worth."""
    values = []
    for seat, mine in enumerate(points):
        others = [p for s, p in enumerate(points) if s != seat]
        if rival is not None:
            others.append(rival)
        lead = mine - max(others) if others else 0.0
        values.append(1.0 / (1.0 + math.exp(-lead / scale)))
    return values


def _even(game: Game, state: State, players: int) -> list[float]:
    return [1.0 / players] * players


@dataclass(frozen=True, slots=True)
class Evaluation:
    """`values(game, state, players)`: each seat's win chance in [0, 1], for an unfinished state.

    `rollout_plies` random plies are played before it is asked; `priors` orders the root's moves
    by their one-ply value (worth it only when `values` says something). `deeper`, when a game
    has one, is the dearer evaluation that a level with time to spare (`hard`) plays with.
    """

    values: Values = _even
    rollout_plies: int = 10_000
    priors: bool = False
    deeper: Evaluation | None = None


DEFAULT = Evaluation()


def evaluation_for(game_id: str, deeper: bool = False) -> Evaluation:
    """The game's evaluation from `bots.evals.<id>` (dashes as underscores), else DEFAULT;
    with `deeper`, its deeper one where it has one."""
    evaluation = _evaluation(game_id)
    return (evaluation.deeper or evaluation) if deeper else evaluation


@cache
def _evaluation(game_id: str) -> Evaluation:
    name = f"bots.evals.{game_id.replace('-', '_')}"
    try:
        module: Any = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return DEFAULT
    return module.EVALUATION
