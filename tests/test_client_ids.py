"""A player's move id: printable, not the platform's (the fast path for printable ASCII)."""

from __future__ import annotations

import uuid

import pytest

from app.core.client_ids import check_player_id
from app.errors import ApiError


@pytest.mark.parametrize("move_id", [str(uuid.uuid4()), "move 1", "coup-é", "手", "a\u00a0b"])
def test_printable_ids_pass_unchanged(move_id: str) -> None:
    assert check_player_id(move_id) == move_id


@pytest.mark.parametrize("move_id", ["a\x00b", "tab\there", "\x7f", "zero\u200bwidth",
                                     "bidi\u202e", "é\x01"])
def test_control_and_invisible_characters_are_refused(move_id: str) -> None:
    with pytest.raises(ApiError) as refused:
        check_player_id(move_id)
    assert refused.value.code == "bad_characters"


@pytest.mark.parametrize("move_id", ["", "x" * 65, None, 7])
def test_an_id_must_be_a_string_of_1_to_64_characters(move_id: object) -> None:
    with pytest.raises(ApiError) as refused:
        check_player_id(move_id)
    assert refused.value.code == "bad_message"
