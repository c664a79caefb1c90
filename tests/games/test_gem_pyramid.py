"""Lucent: one test per rule of the book, from hand-made states, plus random-game properties."""

from __future__ import annotations

import copy
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import IllegalMove
from games.gem_pyramid.rules import COLOURS, FOCUS_POS, GemPyramid, LucentOptions, _count
from games.protocol import match_rng
from tests.games.playout import play_random

GAME = GemPyramid()


def new(players: int, **options: object) -> dict:
    return GAME.setup(players, LucentOptions(**options), Random(1))


def board(state: dict, placed: dict[tuple[int, int], str], hand: list[str], seat: int = 0) -> dict:
    """A hand-made position: the given gems on the pyramid and `hand` for `seat`."""
    state = copy.deepcopy(state)
    state["rows"] = [[None] * (9 - r) for r in range(9)]
    for (row, pos), kind in placed.items():
        state["rows"][row][pos] = kind
    state["hands"][seat] = _count(hand)
    state["turn"] = seat
    return state


def place(gem: str, row: int, pos: int) -> dict:
    return {"type": "place", "gem": gem, "row": row, "pos": pos}


def spots(state: dict, seat: int = 0) -> set[tuple[int, int]]:
    return {(m["row"], m["pos"]) for m in GAME.legal_moves(state, seat)}


def ending(fresh: dict) -> dict:
    """Seat 1 holds one red gem, which fits on the second row, slot 4 (on a red and a blue), and
    seat 2's hand is empty: that placement is the game's last."""
    state = board(fresh, {(0, 4): "red", (0, 3): "blue"}, ["red"])
    state["hands"][1] = _count([])
    return state


@pytest.mark.parametrize(
    ("players", "hand", "focus_dealt"),
    [(2, 22, True), (3, 15, False), (4, 11, True), (5, 9, False)],
)
def test_deal_is_even_and_the_spare_card_is_the_focus_gem(players, hand, focus_dealt):
    state = new(players)
    assert [sum(h.values()) for h in state["hands"]] == [hand] * players
    assert (state["rows"][0][FOCUS_POS] is not None) == focus_dealt
    assert state["turn"] == 0, "the player left of the dealer (seat 1) opens"


def test_without_a_focus_gem_the_opener_places_any_gem_as_focus():
    state = new(3)
    moves = GAME.legal_moves(state, 0)
    assert {(m["row"], m["pos"]) for m in moves} == {(0, FOCUS_POS)}
    assert {m["gem"] for m in moves} == {c for c, n in state["hands"][0].items() if n}


def test_base_row_gems_go_next_to_a_base_row_gem():
    state = board(new(2), {(0, 4): "red"}, ["blue"])
    assert spots(state) == {(0, 3), (0, 5)}
    with pytest.raises(IllegalMove, match="next to"):
        GAME.apply(state, 0, place("blue", 0, 6), Random(0))


def test_base_row_stops_four_either_side_of_the_focus():
    placed = {(0, p): "red" for p in range(0, 9)}
    del placed[(0, 0)]
    state = board(new(2), placed, ["blue"])
    assert (0, 0) in spots(state)
    with pytest.raises(IllegalMove, match="not on the pyramid"):
        GAME.apply(state, 0, place("blue", 0, 9), Random(0))
    with pytest.raises(IllegalMove, match="not on the pyramid"):
        GAME.apply(state, 0, place("blue", 0, -1), Random(0))


def test_higher_gem_rests_on_two_and_matches_one_of_them():
    state = board(new(2), {(0, 3): "red", (0, 4): "blue", (0, 5): "green"}, ["red", "yellow"])
    legal = {(m["gem"], m["row"], m["pos"]) for m in GAME.legal_moves(state, 0)}
    assert ("red", 1, 3) in legal
    assert ("yellow", 1, 3) not in legal and ("red", 1, 4) not in legal
    with pytest.raises(IllegalMove, match="match blue or green"):
        GAME.apply(state, 0, place("red", 1, 4), Random(0))
    with pytest.raises(IllegalMove, match="rest on two"):
        GAME.apply(state, 0, place("red", 1, 5), Random(0))


def test_higher_rows_need_no_neighbour_on_their_own_row():
    placed = {(0, p): "red" for p in range(9)}
    state = board(new(2), placed, ["red"])
    assert {(1, p) for p in range(8)} <= spots(state)


def test_wildcard_supports_any_colour_and_fits_anywhere():
    state = board(
        new(2, wildcard=True), {(0, 3): "wild", (0, 4): "blue", (0, 5): "green"}, ["yellow", "wild"]
    )
    legal = {(m["gem"], m["row"], m["pos"]) for m in GAME.legal_moves(state, 0)}
    assert ("yellow", 1, 3) in legal, "a gem on a wildcard may be any colour"
    assert ("wild", 1, 4) in legal, "a wildcard goes where any colour would"
    assert ("yellow", 1, 4) not in legal


def test_wildcard_variant_swaps_two_gems_for_two_wildcards():
    state = new(3, wildcard=True)
    total = _count([])
    for hand in state["hands"]:
        for kind, n in hand.items():
            total[kind] += n
    assert total["wild"] == 2 and sum(total[c] for c in COLOURS) == 43
    assert len(state["removed"]) == 2


def test_seat_with_no_play_is_out_and_play_continues_without_it():
    state = board(new(3), {(0, 4): "red", (0, 3): "blue"}, ["red", "red"])
    state["hands"][1] = _count([])  # seat 2 will have nothing to play
    state["hands"][2] = _count(["green", "green"])
    after, events = GAME.apply(state, 0, place("red", 1, 3), Random(0))
    assert after["out"][1] and after["turn"] == 2
    assert any("cannot play" in e.text for e in events)
    assert 1 not in GAME.to_act(after)


def test_last_player_to_place_wins():
    state = ending(new(2))
    after, _ = GAME.apply(state, 0, place("red", 1, 3), Random(0))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == [0]
    assert GAME.to_act(after) == frozenset()


def test_lone_survivor_plays_on_and_wins_if_it_places():
    # Seat 1 empties its hand; seat 2 is already out; seat 3 is alone and can still place.
    state = board(new(3), {(0, 4): "red", (0, 3): "blue"}, ["red"])
    state["hands"][1] = _count(["green"])
    state["out"][1] = True
    state["hands"][2] = _count(["yellow", "yellow"])
    after, _ = GAME.apply(state, 0, place("red", 1, 3), Random(0))
    assert GAME.outcome(after) is None and after["turn"] == 2
    after, _ = GAME.apply(after, 2, place("yellow", 0, 2), Random(0))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == [2]


def test_lone_survivor_that_cannot_place_leaves_the_win_to_the_emptied_hand():
    state = board(new(2), {(0, 4): "red", (0, 3): "blue", (0, 2): "green"}, ["red"])
    for pos in (0, 1, 5, 6, 7, 8):
        state["rows"][0][pos] = "green"
    state["hands"][1] = _count(["yellow"])
    after, events = GAME.apply(state, 0, place("red", 1, 3), Random(0))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == [0]
    assert any("cannot play" in e.text for e in events)


def test_points_variant_plays_a_series_and_scores_last_placer_and_empty_hands():
    state = ending(new(2, points=True, games=2))
    after, _ = GAME.apply(state, 0, place("red", 1, 3), Random(0))
    # Seat 1 emptied its hand (+1), seat 2 could not play, seat 1 placed last (+1).
    assert after["points"] == [2, 0]
    assert after["game_no"] == 2 and after["turn"] == 1, "the next game opens one seat on"
    assert GAME.outcome(after) is None


def test_geomancer_is_dealt_to_everyone_and_scores_when_played_last():
    state = new(3, geomancer=True)
    assert all(hand["geomancer"] == 1 for hand in state["hands"])
    state = board(state, {(0, 4): "red"}, ["geomancer"])
    state["hands"][1] = _count([])
    state["hands"][2] = _count([])
    after, _ = GAME.apply(state, 0, place("geomancer", 0, 5), Random(0))
    assert after["points"][0] == 3, "empty hand, Geomancer last, last placer"


def test_geomancer_can_be_the_focus_gem():
    state = new(3, geomancer_focus=True)
    assert state["rows"][0][FOCUS_POS] == "geomancer"
    with pytest.raises(ValueError):
        LucentOptions(geomancer=True, geomancer_focus=True)


def test_other_hands_are_hidden_from_each_seat_and_spectators():
    state = new(4)
    assert GAME.view(state, 1)["hand"] == state["hands"][1]
    assert GAME.view(state, None)["hand"] is None
    assert "hands" not in GAME.view(state, 0) and "removed" not in GAME.view(state, 0)


@settings(max_examples=1500, deadline=None)
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 10**9),
    wildcard=st.booleans(),
    scored=st.booleans(),
)
def test_random_games_conserve_cards_and_keep_the_pyramid_sound(players, seed, wildcard, scored):
    options = LucentOptions(wildcard=wildcard, points=scored, games=2)
    play = play_random(GAME, players, options, str(seed))
    state = play.state
    placed = [k for row in state["rows"] for k in row if k is not None]
    in_hands = sum(n for hand in state["hands"] for n in hand.values())
    assert len(placed) + in_hands + len(state["removed"]) == 45 + (2 if wildcard else 0)
    rows = state["rows"]
    for r in range(1, 9):
        for p, kind in enumerate(rows[r]):
            if kind is None:
                continue
            below = {rows[r - 1][p], rows[r - 1][p + 1]}
            assert None not in below
            assert kind == "wild" or "wild" in below or kind in below
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners
    assert sum(state["points"]) >= (2 if scored else 1)



@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10**9), wildcard=st.booleans())
def test_apply_accepts_exactly_the_listed_placements(players, seed, wildcard):
    # apply checks the one slot played while legal_moves lists them all: they must agree.
    options = LucentOptions(wildcard=wildcard)
    play = play_random(GAME, players, options, str(seed))
    state = GAME.setup(players, options, match_rng(play.seed, 0))
    for version, (seat, move) in enumerate(play.moves, start=1):
        listed = GAME.legal_moves(state, seat)
        for kind in [kind for kind, n in state["hands"][seat].items() if n]:
            for row in range(9):
                for pos in range(9 - row):
                    candidate = place(kind, row, pos)
                    assert accepts(state, seat, candidate) == (candidate in listed)
        state, _ = GAME.apply(state, seat, move, match_rng(play.seed, version))


def accepts(state: dict, seat: int, move: dict) -> bool:
    try:
        GAME.apply(state, seat, move, Random(0))
    except IllegalMove:
        return False
    return True


# -- the table: running score, last move, take-backs, what others see of a move -----------------


def test_points_variant_shows_the_running_score_as_it_is_earned():
    # Book: "The last player to place a gem earns a point. Each player who plays all of their
    # cards also earns a point." Points are won in the open, so every seat sees the tally.
    state = ending(new(2, points=True, games=3))
    assert GAME.view(state, 1)["scores"] == [0, 0]
    after, _ = GAME.apply(state, 0, place("red", 1, 3), Random(0))
    assert [GAME.view(after, v)["scores"] for v in (None, 0, 1)] == [[2, 0]] * 3


def test_geomancer_point_variant_keeps_a_running_score_too():
    assert GAME.view(new(3, geomancer=True), 0)["scores"] == [0, 0, 0]


def test_an_unscored_game_has_no_running_score():
    # Without Points the book knows no score: "The last player to place a gem wins."
    assert "scores" not in GAME.view(new(3), 0)
    assert "scores" not in GAME.view(new(3, wildcard=True, geomancer_focus=True), None)


def test_the_last_placement_is_in_every_view_until_the_next_game_is_dealt():
    state = board(new(3, points=True, games=2), {(0, 4): "red"}, ["blue", "blue"])
    assert GAME.view(state, 0)["last"] is None
    after, _ = GAME.apply(state, 0, place("blue", 0, 5), Random(0))
    expected = {"seat": 0, "gem": "blue", "row": 0, "pos": 5}
    assert [GAME.view(after, v)["last"] for v in (None, 0, 1, 2)] == [expected] * 4
    ended = ending(new(2, points=True, games=2))
    dealt, _ = GAME.apply(ended, 0, place("red", 1, 3), Random(0))
    assert dealt["game_no"] == 2 and GAME.view(dealt, 0)["last"] is None, "a fresh pyramid"


def test_events_tell_what_a_placement_led_to_never_the_placement_again():
    # The room writes the move's own line from `describe`; an event restating it showed each
    # placement twice in the log.
    state = board(new(3), {(0, 4): "red"}, ["blue", "blue"])
    move = place("blue", 0, 5)
    _, events = GAME.apply(state, 0, move, Random(0))
    assert events == []
    assert GAME.describe(move) == "placed a blue gem on the base row, slot 6"
    state = ending(new(2))
    _, events = GAME.apply(state, 0, place("red", 1, 3), Random(0))
    assert events and not any("placed a red gem" in e.text for e in events)


def last_words(fresh: dict) -> tuple[dict, list[str]]:
    """The game's last placement from `ending(fresh)`: the state after it and its events' texts."""
    after, events = GAME.apply(ending(fresh), 0, place("red", 1, 3), Random(0))
    return after, [e.text for e in events]


def test_a_single_game_does_not_speak_of_game_numbers():
    after, texts = last_words(new(2))
    assert "Seat 1 placed the last gem and wins." in texts
    assert not any("game 1" in t.lower() for t in texts)
    assert GAME.outcome(after).reason == "Seat 1 placed the last gem."


def test_a_series_names_the_game_and_a_scored_single_game_the_point():
    _, texts = last_words(new(2, points=True, games=3))
    assert "Seat 1 placed the last gem and wins game 1 of 3, scoring a point." in texts
    after, texts = last_words(new(2, geomancer=True))
    assert "Seat 1 placed the last gem and scores a point for it." in texts
    assert not any("game 1" in t.lower() for t in texts)
    assert GAME.outcome(after).reason == "Most points."


def test_a_placement_is_never_taken_back():
    # A placement turns a gem of a secret hand face up ("places it face up on the table"):
    # the others learn it was held, which no take-back can unsay.
    state = board(new(3), {(0, 4): "red"}, ["blue", "blue"])
    move = place("blue", 0, 5)
    assert GAME.view(state, 1)["rows"][0][5] is None
    after, _ = GAME.apply(state, 0, move, Random(0))
    assert GAME.view(after, 1)["rows"][0][5] == "blue", "the others now see the gem"
    assert GAME.undoable(state, 0, move) is False


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10**9), wildcard=st.booleans(),
       points=st.booleans())
def test_no_move_is_undoable_and_every_redacted_field_is_on_the_board(players, seed, wildcard,
                                                                      points):
    """Redaction audit (issue 21.5): a placement is shown whole to everyone, and each of its
    fields (gem, row, slot) is what every viewer sees on the board once it is made, so it names
    nothing of a hidden hand or of the gems set aside (redact_move reads no state at all)."""
    options = LucentOptions(wildcard=wildcard, points=points, games=2)
    play = play_random(GAME, players, options, str(seed))
    state = GAME.setup(players, options, match_rng(play.seed, 0))
    for version, (seat, move) in enumerate(play.moves, start=1):
        assert not GAME.undoable(state, seat, move)
        assert all(GAME.redact_move(move, seat, v) == move for v in [None, *range(players)])
        dealt = state["game_no"]
        state, _ = GAME.apply(state, seat, move, match_rng(play.seed, version))
        if state["game_no"] == dealt:  # not a fresh deal: the move is on the board, marked
            seen = GAME.view(state, None)
            assert seen["rows"][move["row"]][move["pos"]] == move["gem"]
            assert seen["last"] == {"seat": seat, **{k: move[k] for k in ("gem", "row", "pos")}}


def test_every_option_says_what_it_does_for_the_lobby():
    """Issue 22.4: "Variants in the lobby are bare names". Each option reads "Label: help"."""
    for name, field in LucentOptions.model_fields.items():
        label, _, help_text = (field.description or "").partition(": ")
        assert label and len(label) <= 40 and "." not in label, name
        assert len(help_text.split()) >= 6, f"{name}: say what it does, not just its name"
