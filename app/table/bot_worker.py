"""What a bot worker process runs: kept apart from the driver so that a spawned worker imports
the engine and the games, not the server."""

from __future__ import annotations

import bots as engine
from games.protocol import Move, State


def think(game_id: str, state: State, seat: int, level: str, seed: str,
          iterations: int | None) -> Move:
    """One decision: plain arguments in, a legal move out (the table's size the engine reads
    from the state)."""
    return engine.choose(game_id, state, seat, level, seed, iterations=iterations)


def warm() -> None:
    """Nothing: unpickling this function has already imported the engine and every game."""
