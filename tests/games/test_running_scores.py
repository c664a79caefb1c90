"""The players panel's running figure and the end table agree, in every game: a view's
`scores` (drawn as "pts" beside each seat) are, once the game is over, the outcome's scores for
every viewer. Solomon's Temple, scored 1 for the win, carries its Temple pieces instead."""

from __future__ import annotations

import pytest

from games import REGISTRY
from tests.games.playout import option_sets, play_random, start

GAMES = ["gem-pyramid", "temple-rush", "five-realms", "temple-of-five", "solomons-temple"]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_running_score_at_the_end_is_the_end_tables(game_id: str) -> None:
    game = REGISTRY[game_id]
    shown = 0
    for players, options, k in _cases(game_id):
        play = play_random(game, players, options, f"running:{game_id}:{players}:{k}")
        outcome = game.outcome(play.state)
        assert outcome is not None
        assert not outcome.reason or outcome.reason[0].isupper(), outcome.reason  # a sentence
        for viewer in (None, *range(players)):
            view = game.view(play.state, viewer)
            if game_id == "solomons-temple":
                assert "scores" not in view, "pieces are not the score (1 for the win)"
                assert view["pieces"] == [len(play.state["structures"][s])
                                          + len(play.state["furnishings"][s]) for s in range(2)]
                continue
            if "scores" not in view:  # no running score to disagree (Lucent unscored)
                continue
            shown += 1
            running = [float(x) for x in view["scores"]]
            assert running == outcome.scores, (viewer, running, outcome.scores)
    assert shown or game_id == "solomons-temple", "some game showed a running score"


def _cases(game_id: str) -> list[tuple[int, object, int]]:
    """Every seat count, each with the default options and each yes/no variant alone (where
    valid); Solomon's Temple with a short turn limit, so that both endings happen."""
    game = REGISTRY[game_id]
    cases = []
    for players in range(game.min_players, game.max_players + 1):
        sets = ([game.Options(turn_limit=30)] if game_id == "solomons-temple"
                else option_sets(game))
        for options in sets:
            try:
                start(game, players, options, "probe")
            except Exception:
                continue
            cases += [(players, options, k) for k in range(2)]
    return cases


def test_solomons_turn_limit_says_who_built_more_in_words() -> None:
    game = REGISTRY["solomons-temple"]
    for k in range(6):
        play = play_random(game, 2, game.Options(turn_limit=10), f"limit-words:{k}")
        reason = game.outcome(play.state).reason
        assert "[" not in reason and "]" not in reason, reason
        if play.state["winner"] is not None and "Turn limit" in reason:
            assert "built the larger Temple (" in reason and " to " in reason, reason
            assert "(1 pieces" not in reason, reason
