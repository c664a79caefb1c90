"""A hint's words tell what a move certainly leads to, never a hidden card or a roll of chance."""

from __future__ import annotations

from app.learn.hints import _public_texts, _reason
from app.learn.tutorials import points_of, tutorial_of
from games import REGISTRY
from games.protocol import match_rng


def words(game_id: str, n: int) -> str:
    tutorial = tutorial_of(game_id)
    assert tutorial is not None
    return _reason(game_id, points_of(game_id)[n].state, tutorial.learner,
                   tutorial.steps[n].expect, "seed") or ""


def test_a_certain_consequence_is_told() -> None:
    assert "wins the white blessing card" in words("temple-of-five", 13)
    assert "to win after it" in words("temple-of-five", 13)


def test_what_the_seat_would_only_see_by_moving_stays_untold() -> None:
    # Collecting a Religious banner shows its character to the collector alone (a private line).
    assert "Popess" not in words("five-realms", 9)


def test_a_roll_of_chance_is_not_foretold() -> None:
    # Ending Phase I rolls the learner's Prophet die: a public line, but chance wrote it.
    game, tutorial = REGISTRY["solomons-temple"], tutorial_of("solomons-temple")
    assert tutorial is not None
    state, move = points_of("solomons-temple")[0].state, tutorial.steps[0].expect
    _, events = game.apply(state, tutorial.learner, move, match_rng("any", 1))
    assert any("Prophet die" in event.text for event in events if event.to is None)
    assert _public_texts(game, state, tutorial.learner, move, "one world") == []
    assert "Prophet die" not in words("solomons-temple", 0)


def test_a_game_without_an_evaluation_tells_only_certain_words() -> None:
    assert words("gem-pyramid", 0) == ""
    assert words("gem-pyramid", 10).endswith("placed the last gem and wins.")
