"""The asked take-back's judgement on a replayed log (app/takeback/judge.py), game by game:
what may be asked back, and what stands because it drew at random or showed something hidden."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from app.errors import ApiError
from app.takeback.judge import judge
from games import REGISTRY
from games.protocol import match_rng

SEED = "s1"


def _log(game_id: str, moves: int) -> list[Any]:
    """The first `moves` moves of a two-seat game, each seat to act playing its first legal
    move (the second of two seats acting at once), as move rows."""
    game = REGISTRY[game_id]
    state = game.setup(2, game.Options(), match_rng(SEED, 0))
    rows = []
    for version in range(1, moves + 1):
        acting = sorted(game.to_act(state))
        seat = acting[version % len(acting)]
        move = game.legal_moves(state, seat)[0]
        state, _ = game.apply(state, seat, move, match_rng(SEED, version))
        rows.append(SimpleNamespace(version=version, seat=seat, move=move, client_id="c"))
    return rows


def _judge(game_id: str, moves: int, seat: int) -> int:
    game = REGISTRY[game_id]
    return judge(game, SEED, game.Options(), 2, _log(game_id, moves), seat).back_to


def _refusal(game_id: str, moves: int, seat: int) -> str:
    with pytest.raises(ApiError) as refused:
        _judge(game_id, moves, seat)
    assert refused.value.code == "cannot_take_back"
    return refused.value.message


def test_a_block_laid_in_plain_view_may_be_asked_back() -> None:
    assert _judge("temple-rush", 1, 1) == 0


def test_the_end_of_a_round_draws_and_stands() -> None:
    assert "Move 2 drew something at random" in _refusal("temple-rush", 2, 1)
    assert "Move 2 drew" in _refusal("temple-rush", 2, 0)


def test_a_gem_turned_face_up_stands() -> None:
    assert "Move 1 showed the table something that was hidden" in _refusal("gem-pyramid", 1, 0)


def test_five_realms_steps_until_something_is_shown() -> None:
    assert _judge("five-realms", 2, 0) == 1  # a collection in plain view
    assert "Move 3 showed" in _refusal("five-realms", 3, 0)  # a recruit shows a character


def test_nothing_to_ask_back_before_moving_or_for_a_move_made_for_you() -> None:
    assert "not moved yet" in _refusal("temple-rush", 1, 0)
    game = REGISTRY["temple-rush"]
    rows = _log("temple-rush", 1)
    rows[0].client_id = "~bot:0:1"
    with pytest.raises(ApiError, match="made for you"):
        judge(game, SEED, game.Options(), 2, rows, 1)
