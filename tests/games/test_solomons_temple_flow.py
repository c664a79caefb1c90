"""Solomon's Temple at the table: steps nobody has to decide are left at once, a quiet turn
costs the player on turn two clicks and the opponent only passes, the running score, take-backs."""

from __future__ import annotations

from random import Random

from games.solomons_temple.rules import SolomonOptions
from tests.games.test_solomons_temple import GAME, act, attack, table


def test_a_quiet_turn_costs_two_clicks_and_the_opponent_only_passes() -> None:
    """Nothing to play in Phase I, no army, no Sin held: "Build" and "End turn" for the player
    on turn. The opponent is still asked in its windows (its cards not in sight might answer:
    skipping would show what it holds), each time with `pass` its only move, which the client
    sends by itself for a player who chose "pass for me when I have nothing"."""
    state = table(["Porch"], ["Porch"], step="discard")
    state["play"][1]["prophet"] = None
    state = act(state, 0, {"type": "end_turn"})
    state["hand"][1] = ["Porch"]  # after the draw: one piece, nothing else to play
    state["hand"][0] = ["Main Hall"]
    state.update(step="main", actor=1)
    state, _ = GAME.apply(state, 1, {"type": "to_military"}, Random(0))
    clicks, passes = 0, 0
    for move in ({"type": "announce", "card": "Porch"}, {"type": "end_turn"}):
        while state["actor"] == 0:
            only = GAME.legal_moves(state, 0)
            assert len(only) == 1 and only[0]["type"] in ("pass", "end_military"), only
            state = act(state, 0, only[0])
            passes += 1
        state = act(state, 1, move)
        clicks += 1
    assert clicks == 2 and state["structures"][1] == ["Porch"] and state["turn"] == 0
    assert passes == 2, "the attack and the Sin windows"


def test_phase_one_with_nothing_to_play_is_left_at_once() -> None:
    state = table([], ["Doubt"], step="discard")
    state.update(turn=1, actor=1)
    state["hand"][1] = ["Doubt"]
    state["deck"][0] = [c for c in state["deck"][0] if c == "Veil"] * 8  # draws 8 Veils
    state, _ = GAME.apply(state, 1, {"type": "end_turn"}, Random(4))
    assert state["turn"] == 0 and state["step"] == "build" and state["actor"] == 0
    assert GAME.legal_moves(state, 0) == [{"type": "end_turn"}, {"type": "skip_build"}]


def test_the_last_turns_prophet_die_is_put_away() -> None:
    state = table(step="discard")
    state["die"] = {"roll": 2, "face": "star", "turn": 3, "by": 0}
    state = act(state, 0, {"type": "end_turn"})
    assert state["die"] is None or state["die"]["turn"] == state["turn_no"]


def test_the_view_carries_the_temple_pieces_of_each_side_not_a_score() -> None:
    """The pieces decide the game (15 and the Filling, or the larger Temple at the turn limit);
    the score is 1 for the win, so the view carries no running "scores" that would disagree."""
    state = table()
    state["structures"] = [["Porch", "Main Hall"], []]
    state["furnishings"] = [["Bronze Sea"], []]
    for viewer in (0, 1, None):
        view = GAME.view(state, viewer)
        assert view["pieces"] == [3, 0] and "scores" not in view


def test_options_say_what_the_turn_limit_does() -> None:
    field = SolomonOptions.model_fields["turn_limit"]
    assert "Holy of Holies" in field.description and "wins" in field.description


def test_only_moves_that_show_nothing_may_be_taken_back() -> None:
    state = attack(["Babylonian Army"])
    state["armies"][1] = [[0, 1], [0, 3]]
    step = {"type": "move", "army": 0, "dir": "w"}
    assert GAME.undoable(state, 0, step), "an army's step names no card and opens nothing"
    assert not GAME.undoable(state, 0, {"type": "army"}), "a card from the hand is shown"
    assert not GAME.undoable(state, 0, {"type": "end_military"}), "the phase ends"
    assert not GAME.undoable(state, 1, step), "not that seat's move"
    last = attack()
    last["armies"][1] = [[0, 1]]
    assert not GAME.undoable(last, 0, step), "its last move ends the attack at once"
    build = table(["Porch"], step="build")
    assert not GAME.undoable(build, 0, {"type": "announce", "card": "Porch"})
    discard = table(["Porch"], step="discard")
    assert not GAME.undoable(discard, 0, {"type": "discard", "card": "Porch"})
    assert not GAME.undoable(discard, 0, {"type": "end_turn"})
    defend = attack([], ["Israelite Army"], step="defend")
    defend.update(actor=1, relocate=[0, 1], step="relocate")
    defend["armies"][1] = [[2, 1], [3, 3]]
    first = {"type": "relocate", "army": 0, "row": 0, "col": 0}
    assert GAME.undoable(defend, 1, first), "one more army to place: same step, nothing shown"
