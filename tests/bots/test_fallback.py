"""`choose` always answers with a legal move, and its inputs and answer cross a process pool."""

from __future__ import annotations

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor
from random import Random
from typing import Any

import pytest

from bots import choose, fallback_move
from games import REGISTRY
from games.protocol import Move, State
from tests.bots.tiny import TakeAway, TakeAwayOptions


class BrokenApply(TakeAway):
    """Take-away whose rules fail inside the search (a rule module mid-edit): both ways in,
    since `apply` checks the move and then calls `apply_legal`."""

    def apply_legal(self, state: State, seat: int, move: Move, rng: Random) -> Any:
        raise RuntimeError("rules broke")


class IllegalZombie(BrokenApply):
    def zombie_move(self, state: State, seat: int) -> Move:
        return {"type": "take", "n": 99}


def _state(game: TakeAway, stones: int = 9) -> State:
    return game.setup(2, TakeAwayOptions(stones=stones), Random(0))


@pytest.mark.parametrize("level", ["greedy", "easy", "normal"])
def test_an_error_in_the_search_falls_back_to_the_games_default(level: str) -> None:
    game = BrokenApply()
    move = choose(game, _state(game), 0, level, seed=3, iterations=50, timed=False)
    assert move == game.zombie_move(_state(game), 0)


def test_an_illegal_default_falls_back_to_a_seeded_legal_move() -> None:
    game = IllegalZombie()
    move = choose(game, _state(game), 0, "normal", seed=3, iterations=50, timed=False)
    assert move in game.legal_moves(_state(game), 0)
    assert move == fallback_move(game, _state(game), 0, seed=3)


def test_a_seat_with_no_move_is_an_error_not_a_guess() -> None:
    game = TakeAway()
    with pytest.raises(ValueError):
        choose(game, _state(game), 1, "normal", seed=0)


def test_the_time_budget_ends_the_search() -> None:
    # A cap no machine reaches in the level's budget: only the clock can end this search. The
    # bound is loose on purpose (load), it only proves the deadline is honoured at all.
    game = REGISTRY["gem-pyramid"]
    state = game.setup(2, game.Options(), Random(1))
    seat = min(game.to_act(state))
    move = choose(game.id, state, seat, "easy", seed=1, players=2, iterations=10**9)
    assert move in game.legal_moves(state, seat)


def test_inputs_and_answer_cross_a_process_pool() -> None:
    game = REGISTRY["temple-rush"]
    state = game.setup(2, game.Options(), Random(2))
    seat = min(game.to_act(state))
    args = ("temple-rush", state, seat, "easy", "seed")
    kwargs = {"players": 2, "iterations": 5, "timed": False}
    assert pickle.loads(pickle.dumps(args)) == args
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        remote = pool.submit(choose, *args, **kwargs).result(timeout=120)
    assert remote == choose(*args, **kwargs)
    assert remote in game.legal_moves(state, seat)
