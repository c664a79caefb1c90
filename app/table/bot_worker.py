"""What a bot worker process runs: kept apart from the driver so that a spawned worker imports
the engine and the games, not the server."""

from __future__ import annotations

import os
import threading
import time

import bots as engine
from games.protocol import Move, State

PARENT_CHECK_SECONDS = 1.0


def think(game_id: str, state: State, seat: int, level: str, seed: str,
          iterations: int | None) -> Move:
    """One decision: plain arguments in, a legal move out (the table's size the engine reads
    from the state)."""
    return engine.choose(game_id, state, seat, level, seed, iterations=iterations)


def warm() -> None:
    """Nothing: unpickling this function has already imported the engine and every game."""


def watch_parent() -> None:
    """The pool's initializer, in every worker: end this worker once the server's process is gone.

    A spawned worker holds both ends of its call queue's pipe, so it never sees the server go:
    a server killed (or one whose pool was not shut down) left its workers waiting for ever, one
    more process per server started (the test suite starts dozens)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
