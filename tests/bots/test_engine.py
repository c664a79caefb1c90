"""The search engine on a game whose best move is known, and its parts."""

from __future__ import annotations

from random import Random

import pytest

from bots import choose
from bots.engine import CanonicalRandom, actor
from bots.levels import LEVELS
from tests.bots.tiny import TAKE_AWAY, TakeAwayOptions


def _state(stones: int, players: int = 2, turn: int = 0) -> dict:
    state = TAKE_AWAY.setup(players, TakeAwayOptions(stones=stones), Random(0))
    state["turn"] = turn
    return state


@pytest.mark.parametrize(("stones", "take"), [(10, 2), (7, 3), (5, 1)])
def test_normal_leaves_a_multiple_of_four(stones: int, take: int) -> None:
    move = choose(TAKE_AWAY, _state(stones), 0, "normal", seed=1, iterations=2_000, timed=False)
    assert move == {"type": "take", "n": take}


def test_greedy_takes_a_win_in_one() -> None:
    assert choose(TAKE_AWAY, _state(3), 0, "greedy", seed=1) == {"type": "take", "n": 3}


def test_random_level_plays_every_move_for_some_seed() -> None:
    seen = {choose(TAKE_AWAY, _state(9), 0, "random", seed=s)["n"] for s in range(30)}
    assert seen == {1, 2, 3}


def test_a_seed_and_a_cap_give_the_same_move_every_time() -> None:
    state = _state(21)
    moves = {choose(TAKE_AWAY, state, 0, "easy", seed="s", iterations=40, timed=False)["n"]
             for _ in range(5)}
    assert len(moves) == 1


def test_a_seat_of_three_searches_for_itself() -> None:
    # Seat 2 of 3 with 3 stones left wins by taking them all; a search that backed up another
    # seat's reward would not care.
    move = choose(TAKE_AWAY, _state(3, players=3, turn=2), 2, "normal", seed=0,
                  iterations=300, timed=False)
    assert move == {"type": "take", "n": 3}


def test_the_searching_seat_moves_first_in_a_simultaneous_step() -> None:
    assert actor(frozenset({0, 1, 3}), 3) == 3
    assert actor(frozenset({1, 3}), 0) == 1


def test_canonical_shuffles_ignore_the_order_they_are_handed() -> None:
    one, two = list("abcdefg"), list("gfedcba")
    CanonicalRandom(5).shuffle(one)
    CanonicalRandom(5).shuffle(two)
    assert one == two and sorted(one) == list("abcdefg")
    assert CanonicalRandom(3).choice("xyz") == CanonicalRandom(3).choice("zyx")
    assert CanonicalRandom(3).sample([1, 2, 3, 4], 2) == CanonicalRandom(3).sample([4, 3, 2, 1], 2)
    # A plain Random is not order-blind: this is what the canonical one is for.
    plain_one, plain_two = list("abcdefg"), list("gfedcba")
    Random(5).shuffle(plain_one)
    Random(5).shuffle(plain_two)
    assert plain_one != plain_two


def test_levels_are_bounded_by_time_and_by_iterations() -> None:
    for name in ("easy", "normal", "hard"):
        level = LEVELS[name]
        assert level.kind == "search" and level.seconds > 0 and level.iterations > 0
    assert LEVELS["easy"].seconds < LEVELS["normal"].seconds < LEVELS["hard"].seconds


def test_stats_say_how_many_iterations_ran_and_why_the_search_stopped() -> None:
    stats: dict = {}
    choose(TAKE_AWAY, _state(21), 0, "normal", seed=2, iterations=16, timed=False, stats=stats)
    assert stats["stopped"] in ("cap", "settled")
    assert 0 < stats["iterations"] <= 16
    assert (stats["iterations"] == 16) == (stats["stopped"] == "cap")
