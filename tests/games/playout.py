"""Seeded random playouts, shared by the conformance suite, golden replays and benchmarks."""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random
from typing import Any

import orjson
from pydantic import BaseModel

from games import Event, Game, Move, State
from games.protocol import match_rng


@dataclass
class Playout:
    """A finished (or abandoned) random game: enough to replay it from its seed."""

    game: Game
    players: int
    options: BaseModel
    seed: str
    moves: list[tuple[int, Move]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    state: State | None = None


def start(game: Game, players: int, options: BaseModel, seed: str) -> Playout:
    play = Playout(game, players, options, seed)
    play.state = game.setup(players, options, match_rng(seed, 0))
    return play


def step(play: Playout, seat: int, move: Move) -> None:
    """Apply one move the way the platform does, recording it for replay."""
    version = len(play.moves) + 1
    play.state, events = play.game.apply(play.state, seat, move, match_rng(play.seed, version))
    play.moves.append((seat, move))
    play.events.extend(events)


def random_move(play: Playout, chooser: Random) -> tuple[int, Move]:
    seat = chooser.choice(sorted(play.game.to_act(play.state)))
    return seat, chooser.choice(play.game.legal_moves(play.state, seat))


def option_sets(game: Game) -> list[BaseModel]:
    """The default options plus each boolean option switched on alone (where valid)."""
    sets = [game.Options()]
    for name, info in game.Options.model_fields.items():
        if info.annotation is bool and info.default is False:
            try:
                sets.append(game.Options(**{name: True}))
            except ValueError:
                continue
    return sets


def play_random(
    game: Game, players: int, options: BaseModel, seed: str, max_steps: int = 20_000
) -> Playout:
    """Play uniformly random legal moves to the end."""
    play = start(game, players, options, seed)
    chooser = Random(f"chooser:{seed}")
    while game.to_act(play.state):
        if len(play.moves) >= max_steps:
            raise AssertionError(f"{game.id} did not end within {max_steps} moves")
        step(play, *random_move(play, chooser))
    return play


def as_json(value: Any) -> Any:
    """Only plain JSON survives: tuples become lists and fail the comparison; sets, non-string
    keys and other types make orjson raise."""
    return orjson.loads(orjson.dumps(value))
