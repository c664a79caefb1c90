"""Every tutorial replays through its rule module: a rule change that breaks a step fails here."""

from __future__ import annotations

import pytest

from app.learn.tutorials import MAX_STEPS, MIN_STEPS, Point, judge, tutorial_of
from games import REGISTRY
from games.protocol import is_legal, match_rng

GAMES = ["gem-pyramid", "temple-rush", "five-realms", "temple-of-five", "solomons-temple"]


def _apply_checked(game_id: str, point: Point, seat: int, move: dict, seed: str) -> Point:
    """One move as the platform makes it: the seat is to act, the move is in its legal list."""
    game = REGISTRY[game_id]
    assert seat in game.to_act(point.state), f"seat {seat} is not to act for {move}"
    assert is_legal(move, game.legal_moves(point.state, seat)), f"illegal scripted move {move}"
    version = point.version + 1
    state, events = game.apply(point.state, seat, move, match_rng(seed, version))
    return Point(state, version, events)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_script_replays_move_by_move(game_id: str) -> None:
    game, tutorial = REGISTRY[game_id], tutorial_of(game_id)
    assert tutorial is not None, f"{game_id} has no tutorial.json"
    assert MIN_STEPS <= len(tutorial.steps) <= MAX_STEPS
    assert len(tutorial.names) == tutorial.players
    options = game.Options.model_validate(tutorial.options)
    point = Point(game.setup(tutorial.players, options, match_rng(tutorial.seed, 0)), 0, [])
    for scripted in tutorial.opening:
        point = _apply_checked(game_id, point, scripted.seat, scripted.move, tutorial.seed)
    for n, step in enumerate(tutorial.steps):
        assert step.say and step.wrong, f"step {n + 1} says nothing"
        # The learner is asked only when the rules ask the learner.
        assert tutorial.learner in game.to_act(point.state), f"step {n + 1}: not the learner's turn"
        assert judge(game, tutorial, point, step, step.expect)[0] == "right"
        point = _apply_checked(game_id, point, tutorial.learner, step.expect, tutorial.seed)
        for scripted in step.then:
            point = _apply_checked(game_id, point, scripted.seat, scripted.move, tutorial.seed)


def test_a_move_is_right_wrong_or_illegal_with_its_reason() -> None:
    from app.learn.tutorials import points_of

    game, tutorial = REGISTRY["gem-pyramid"], tutorial_of("gem-pyramid")
    assert tutorial is not None
    point, step = points_of("gem-pyramid")[0], tutorial.steps[0]
    legal = game.legal_moves(point.state, tutorial.learner)
    other = next(m for m in legal if m != step.expect)
    assert judge(game, tutorial, point, step, step.expect)[0] == "right"
    assert judge(game, tutorial, point, step, other) == ("wrong", step.wrong)
    filled = {"type": "place", "gem": step.expect["gem"], "row": 0, "pos": 4}  # the Focus Gem
    assert judge(game, tutorial, point, step, filled) == ("illegal",
                                                          "That slot already holds a gem.")
    assert judge(game, tutorial, point, step, {"type": "dance"})[0] == "illegal"
