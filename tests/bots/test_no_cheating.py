"""The bot never cheats: two states that differ only in what its seat cannot see get the same
move from the same seed.

The second state is made as the conformance suite makes it, with the game's own
`scramble_hidden(state, seat, rng)`, at several points of seeded random games of every game and
table size. Where the states really differ in hidden detail, the test also checks that a
determinisation with a plain `Random` would tell them apart: so it can fail.
"""

from __future__ import annotations

from random import Random

import pytest

from bots import choose
from bots.engine import determinise
from games import REGISTRY, Game, State
from games.protocol import match_rng

POINTS = (0.1, 0.4, 0.7)  # how far into a random game (share of its length) each check is made
ITERATIONS = 10
CASES = [
    pytest.param(game_id, players, id=f"{game_id}-{players}p")
    for game_id, game in sorted(REGISTRY.items())
    for players in sorted({game.min_players, game.max_players})
]


def _random_game(game: Game, players: int, seed: str) -> list[State]:
    state = game.setup(players, game.Options(), match_rng(seed, 0))
    chooser, states = Random(seed), [state]
    while acting := game.to_act(state):
        seat = chooser.choice(sorted(acting))
        move = chooser.choice(game.legal_moves(state, seat))
        state, _ = game.apply(state, seat, move, match_rng(seed, len(states)))
        states.append(state)
    return states


def _decision_points(game: Game, states: list[State]) -> list[tuple[State, int]]:
    """States at each point of POINTS (or the next one after it) where a seat has a choice."""
    points = []
    for share in POINTS:
        for state in states[int(share * len(states)):]:
            choosers = [s for s in sorted(game.to_act(state))
                        if len(game.legal_moves(state, s)) > 1]
            if choosers:
                points.append((state, choosers[-1]))
                break
    return points


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_bot_decides_from_its_own_information(game_id: str, players: int) -> None:
    game = REGISTRY[game_id]
    points = _decision_points(game, _random_game(game, players, f"cheat:{game_id}:{players}"))
    assert points, "no decision point found"
    hidden = told_apart = 0
    for n, (state, seat) in enumerate(points):
        other = game.scramble_hidden(state, seat, Random(f"other:{n}"))
        assert game.view(other, seat) == game.view(state, seat)
        hidden += other != state
        told_apart += (game.scramble_hidden(state, seat, Random(n))
                       != game.scramble_hidden(other, seat, Random(n)))
        assert determinise(game, state, seat, Random(n)) == \
            determinise(game, other, seat, Random(n))
        for level in ("greedy", "easy", "hard"):
            mine = choose(game, state, seat, level, seed=n, players=players,
                          iterations=ITERATIONS, timed=False)
            theirs = choose(game, other, seat, level, seed=n, players=players,
                            iterations=ITERATIONS, timed=False)
            assert mine == theirs, f"{level} at point {n} read what seat {seat} cannot see"
    # Lucent at two seats hides nothing (the other hand is what the board and yours leave).
    if hidden:
        assert told_apart, "a plain Random never told the states apart: this proves nothing"
