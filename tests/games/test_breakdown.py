"""The end screen's score breakdown: per seat, categories that add up to the score, consistent
with the winners the outcome names."""

from __future__ import annotations

import pytest

from games import REGISTRY
from tests.games.playout import option_sets, play_random, start

GAMES = ["gem-pyramid", "temple-rush", "five-realms", "temple-of-five", "solomons-temple"]
PLAYOUTS = 12


def _fits(game_id: str, players: int, options: object) -> bool:
    try:
        start(REGISTRY[game_id], players, options, "probe")  # type: ignore[arg-type]
    except Exception:
        return False
    return True


@pytest.mark.parametrize("game_id", GAMES)
def test_breakdown_adds_up_to_each_score_and_names_the_winner(game_id: str) -> None:
    game = REGISTRY[game_id]
    checked = 0
    for players in range(game.min_players, game.max_players + 1):
        for n, options in enumerate(o for o in option_sets(game) if _fits(game_id, players, o)):
            for k in range(PLAYOUTS // 4):
                play = play_random(game, players, options, f"breakdown:{game_id}:{players}:{n}:{k}")
                outcome = game.outcome(play.state)
                assert outcome is not None and outcome.breakdown is not None
                assert len(outcome.breakdown) == len(outcome.scores)
                for parts, score in zip(outcome.breakdown, outcome.scores, strict=True):
                    assert sum(parts.values()) == score, (parts, score)
                assert outcome.to_json()["breakdown"] == outcome.breakdown
                titans = game_id == "five-realms" and play.state["winner"] is not None
                if not titans:  # 5 Titans win outright; otherwise the best total wins
                    best = max(outcome.scores)
                    assert all(outcome.scores[w] == best for w in outcome.winners)
                checked += 1
    assert checked >= 3


def test_five_realms_names_where_castles_came_from() -> None:
    game = REGISTRY["five-realms"]
    play = play_random(game, 2, game.Options(), "breakdown:names")
    outcome = game.outcome(play.state)
    assert outcome is not None and outcome.breakdown is not None
    for parts in outcome.breakdown:
        assert parts["Starting castles"] == 2
        assert all(isinstance(why, str) and why for why in parts)
    assert any(len(parts) > 1 for parts in outcome.breakdown), "castles earned during play"
