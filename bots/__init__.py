"""Bots that play every game through the Game protocol alone, and never see what their seat
cannot.

`choose` is the one entry point for the server (and the arena): plain, picklable arguments in,
a legal move out, whatever happens inside — so it can run in a process pool and a failing
search never stalls a room.
"""

from __future__ import annotations

import logging
from random import Random
from typing import Any

from bots.engine import Budget, Clock, Search, determinise, one_ply_values
from bots.evals import Evaluation, evaluation_for
from bots.levels import DEFAULT_LEVEL, LEVELS, Level
from games import REGISTRY
from games.protocol import Game, Move, State

log = logging.getLogger(__name__)
TIME_MARGIN = 0.85  # share of a level's budget the search aims to end by

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "choose", "fallback_move", "greedy_move"]


def choose(game: Game | str, state: State, seat: int, level: str = DEFAULT_LEVEL,
           seed: int | str = 0, *, players: int | None = None, iterations: int | None = None,
           timed: bool = True, stats: dict[str, Any] | None = None) -> Move:
    """A legal move for `seat` at `level`, decided from what `seat` may see.

    `game` is a Game or its id (an id pickles to a process pool in a few bytes). The same seed,
    the same view and `timed=False` give the same move; `iterations` overrides the level's cap.
    `players` (the table's size) is best passed; without it the game's fixed size or
    `state["players"]` is used. A `stats` dict, when given, receives the search's `iterations`
    and why it `stopped` ("deadline", "settled" or "cap"), for calibration. Any error inside the
    search falls back to `fallback_move`; a seat with no legal move raises ValueError.
    """
    started = Clock.now()
    rules = REGISTRY[game] if isinstance(game, str) else game
    legal = rules.legal_moves(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal move")
    if len(legal) == 1:
        return legal[0]
    try:
        move = _decide(rules, state, seat, LEVELS[level], seed, legal, started,
                       _players(rules, state, players), iterations, timed, stats)
    except Exception:
        log.exception("bot search failed in %s (level %s); playing a fallback move",
                      rules.id, level)
        return fallback_move(rules, state, seat, seed)
    if move not in legal:
        log.error("bot search in %s returned an illegal move %r", rules.id, move)
        return fallback_move(rules, state, seat, seed)
    return move


def fallback_move(game: Game, state: State, seat: int, seed: int | str = 0) -> Move:
    """The game's own default for an absent seat, or else a seeded random legal move."""
    legal = game.legal_moves(state, seat)
    try:
        move = game.zombie_move(state, seat)
        if move in legal:
            return move
    except Exception:
        log.exception("zombie_move failed in %s", game.id)
    return Random(f"fallback:{seed}").choice(legal)


def greedy_move(game: Game, state: State, seat: int, legal: list[Move], evaluation: Evaluation,
                rng: Random, players: int) -> Move:
    """One of the moves whose one-ply value is best, on one determinisation: the greedy level."""
    det = determinise(game, state, seat, rng)
    values = one_ply_values(game, det, seat, legal, evaluation, rng, players)
    scores = [value or 0.0 for value in values]  # never None: nothing stops greedy
    return rng.choice([move for move, value in zip(legal, scores, strict=True)
                       if value >= max(scores) - 1e-9])


def _players(game: Game, state: State, players: int | None) -> int:
    """The table's size: given, fixed by the game, or the common `state["players"]`."""
    if players is not None:
        return players
    if game.min_players == game.max_players:
        return game.min_players
    return int(state["players"])


def _decide(game: Game, state: State, seat: int, level: Level, seed: int | str,
            legal: list[Move], started: float, players: int, iterations: int | None,
            timed: bool, stats: dict[str, Any] | None) -> Move:
    rng = Random(f"bot:{level.name}:{seed}")
    evaluation = evaluation_for(game.id, deeper=level.deeper)
    if level.kind == "random":
        return rng.choice(legal)
    if level.kind == "greedy":
        return greedy_move(game, state, seat, legal, evaluation, rng, players)
    # The last iteration runs past the deadline: aim short of the budget to land within it.
    deadline = started + TIME_MARGIN * level.seconds if timed else None
    budget = Budget(iterations if iterations is not None else level.iterations, deadline)
    search = Search(game, state, seat, evaluation, rng, players)
    move = search.run(legal, budget)
    if stats is not None:
        stats.update(iterations=search.iterations, stopped=search.stopped)
    return move
