"""Solomon's Temple: a test per phase rule and per card from hand-made states, and random-game
properties (cards conserved, secrets kept, moves outside the legal list refused)."""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import IllegalMove
from games.solomons_temple.data import COUNTS, FURNISHINGS, HAND, STRUCTURES
from games.solomons_temple.rules import SolomonOptions, SolomonsTemple
from tests.games.playout import play_random

GAME = SolomonsTemple()
RNG = Random(0)


def table(hand0: list[str] = (), hand1: list[str] = (), step: str = "main") -> dict[str, Any]:
    """Seat 1 to move at `step` on turn 3, holding exactly `hand0` (seat 2 `hand1`); every other
    card of each deck goes to its draw pile so the 100 cards stay accounted for."""
    state = GAME.setup(2, SolomonOptions(), Random(5))
    for seat, hand in enumerate((hand0, hand1)):
        pool = state["deck"][seat] + state["hand"][seat]
        if state["play"][seat]["scapegoat"]:  # dealt at setup: back into the pile
            state["play"][seat]["scapegoat"] = None
            pool.append("Scapegoat")
        for card in hand:
            pool.remove(card)
        state["hand"][seat], state["deck"][seat] = list(hand), pool
    state.update(step=step, actor=0, turn=0, turn_no=3)
    return state


def attack(hand0: list[str] = (), hand1: list[str] = (), step: str = "military") -> dict[str, Any]:
    """Seat 1's turn, seat 1 attacked: seat 0 (the seat not on turn) to move at `step` with its
    armies on seat 1's board. Book: "When it is your turn ... II. Military Phase (Your
    opponent's turn)"."""
    state = table(hand0, hand1, step)
    state["turn"] = 1
    return state


def act(state: dict[str, Any], seat: int, move: dict[str, Any]) -> dict[str, Any]:
    assert move in GAME.legal_moves(state, seat), (move, GAME.legal_moves(state, seat))
    return GAME.apply(state, seat, move, RNG)[0]


def kinds(state: dict[str, Any], seat: int) -> set[str]:
    return {m["type"] for m in GAME.legal_moves(state, seat)}


def total_cards(state: dict[str, Any], seat: int) -> Counter:
    """Every card a seat owns wherever it is (hand, pile, discards, board, in play)."""
    c = Counter(state["hand"][seat] + state["deck"][seat] + state["discard"][seat])
    c.update(state["structures"][seat] + state["furnishings"][seat])
    c["Guarded Gate"] += sum(state["guarded"][seat])
    p = state["play"][seat]
    c.update(
        k
        for k, on in (
            ("Priest", p["priest"]),
            ("Altar", p["altar"]),
            ("King David", p["david"]),
            ("King Solomon", p["solomon"]),
        )
        if on
    )
    if p["prophet"]:
        c[p["prophet"]] += 1
    if p["scapegoat"]:
        c["Scapegoat"] += 1
    if p["fast"] > 0:
        c["Pray and Fast"] += 1
    opp = state["play"][1 - seat]
    c["Evil Priest"] += opp["evil_priest"]
    c["Bad Offering"] += opp["bad_offering"]
    if p["siege"]:
        c["Lay Siege"] += 1
    if state["grain"] and seat == state["turn"]:  # on the Altar until the turn's end
        c["Grain Offering"] += 1
    return c


# -- setup and Phase I ------------------------------------------------------------------------


def test_setup_deals_eight_and_a_prophet_each_from_a_100_card_deck() -> None:
    assert sum(COUNTS.values()) == 100
    state = GAME.setup(2, SolomonOptions(), Random(1))
    for seat in range(2):
        assert len(state["hand"][seat]) == HAND and len(state["deck"][seat]) == 91
        assert state["play"][seat]["prophet"]
        assert total_cards(state, seat) == Counter(COUNTS)
    with pytest.raises(IllegalMove):
        GAME.setup(3, SolomonOptions(), Random(1))


def test_no_draw_on_the_first_turns_then_draw_up_to_eight() -> None:
    state = GAME.setup(2, SolomonOptions(), Random(1))
    state["hand"][1] = state["hand"][1][:5]
    state.update(step="discard")
    after = act(state, 0, {"type": "end_turn"})
    assert len(after["hand"][1]) == 5, "turn 2 is seat 2's first turn: no draw"
    after.update(step="discard", actor=1)
    after["hand"][0] = after["hand"][0][:3]
    again = act(after, 1, {"type": "end_turn"})
    assert len(again["hand"][0]) == HAND


def test_priest_altar_kings_scapegoat_come_into_play() -> None:
    state = table(["Priest", "Altar", "King David", "King Solomon", "Scapegoat"])
    for card in ("Priest", "Altar", "King David", "King Solomon", "Scapegoat"):
        state = act(state, 0, {"type": "play", "card": card})
        # Priest and Altar stand, but the opponent holds no instant: no window opens.
        assert state["step"] != "instant" and state["actor"] == 0
    p = state["play"][0]
    assert p["priest"] and p["altar"] and p["david"] and p["solomon"]
    assert p["scapegoat"] == "sideways"
    assert {"type": "play", "card": "Priest"} not in GAME.legal_moves(state, 0)


def test_offerings_need_priest_and_altar() -> None:
    state = table(["Grain Offering", "Priest"])
    assert "offer" not in kinds(state, 0)
    state["play"][0].update(priest=True, altar=True)
    state = act(state, 0, {"type": "offer", "card": "Grain Offering"})
    assert state["grain"]


def test_the_grain_offering_is_discarded_at_the_end_of_the_turn() -> None:
    """Book: "At the end of your turn, Grain Offering is discarded": until then it lies on the
    Altar, out of the discard pile."""
    state = table(["Grain Offering", "Porch"])
    state["play"][0].update(priest=True, altar=True)
    state["deck"][0].remove("Priest")
    state["deck"][0].remove("Altar")
    state = act(state, 0, {"type": "offer", "card": "Grain Offering"})
    assert state["grain"] and "Grain Offering" not in state["discard"][0]
    assert total_cards(state, 0) == Counter(COUNTS)
    last = dict(state, step="discard", turn_no=state["turn_limit"])
    state.update(step="discard")
    state = act(state, 0, {"type": "end_turn"})
    assert state["discard"][0] == ["Grain Offering"] and not state["grain"]
    over = act(last, 0, {"type": "end_turn"})  # the turn limit ends the game at this turn's end
    assert GAME.outcome(over) and total_cards(over, 0) == Counter(COUNTS)


def test_guilt_offering_redraws_eight() -> None:
    state = table(["Guilt Offering", "Doubt"])
    state["play"][0].update(priest=True, altar=True)
    state = act(state, 0, {"type": "offer", "card": "Guilt Offering"})
    assert len(state["hand"][0]) == HAND, "no Blemished Animal held: no window, it works"


def test_peace_offering_swaps_a_good_card_in_two_steps() -> None:
    state = table(["Peace Offering", "Levite"])
    state["play"][0].update(priest=True, altar=True)
    state = act(state, 0, {"type": "offer", "card": "Peace Offering"})
    assert state["step"] == "peace_take" and state["actor"] == 0
    state = act(state, 0, {"type": "peace_take", "card": "Porch"})
    assert GAME.legal_moves(state, 0) == [{"type": "peace_give", "card": "Levite"}]
    state = act(state, 0, {"type": "peace_give", "card": "Levite"})
    assert state["hand"][0] == ["Porch"] and "Levite" in state["deck"][0]


def test_a_grain_offering_made_in_phase_three_before_the_announcement_keeps_sin_away() -> None:
    """Book: "Instant Offerings (Peace, Guilt, and Grain)"; "Instant cards may be played at any
    time"; Grain: "no Sin card may be played that turn". Not after a Sin (an instant "cannot undo
    a card that has already been played"), and not in the opponent's turn (its effect is a
    build of one's own turn)."""
    state = table(["Grain Offering", "Porch"], ["Doubt"], step="build")
    state["play"][0].update(priest=True, altar=True)
    state = act(state, 0, {"type": "offer", "card": "Grain Offering"})
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    assert state["structures"][0] == ["Porch"] and state["step"] == "discard"
    sinned = table(["Grain Offering", "Porch", "Burnt Offering"], ["Doubt"], step="build")
    sinned["play"][0].update(priest=True, altar=True)
    sinned = act(sinned, 0, {"type": "announce", "card": "Porch"})
    sinned = act(sinned, 1, {"type": "sin", "card": "Doubt"})
    assert sinned["step"] == "answer" and "offer" not in kinds(sinned, 0)
    theirs = table(["Porch"], ["Grain Offering", "Doubt"], step="build")
    theirs["play"][1].update(priest=True, altar=True)
    theirs = act(theirs, 0, {"type": "announce", "card": "Porch"})
    assert theirs["step"] == "sin" and "offer" not in kinds(theirs, 1)


def test_a_guilt_offering_in_phase_four_redraws_and_the_turn_goes_on_there() -> None:
    """Book: Instant Offerings "do certain things ... according to the text on each card. You may
    play as many Instant Offering cards as you want"; Guilt: "shuffle your entire hand back into
    the draw pile and draw eight (8) new cards"."""
    state = table(["Guilt Offering", "Doubt"], ["Blemished Animal"], step="discard")
    state["play"][0].update(priest=True, altar=True)
    state = act(state, 0, {"type": "discard", "card": "Doubt"})
    state = act(state, 0, {"type": "offer", "card": "Guilt Offering"})
    assert state["step"] == "blemish" and state["actor"] == 1
    state = act(state, 1, {"type": "pass"})
    drawn = len(state["hand"][0]) + (state["play"][0]["scapegoat"] is not None)  # drawn: in play
    assert state["step"] == "discard" and state["actor"] == 0 and drawn == HAND
    assert state["discarded"] == 1, "one discard left this turn"


def test_a_peace_offering_fetches_a_burnt_offering_to_answer_a_sin() -> None:
    """Book: Peace Offering: "exchange one (1) good card from your hand with one (1) good card in
    the draw pile", made at any time; then the Sin is answered."""
    state = table(["Peace Offering", "Levite", "Porch"], ["Doubt"], step="build")
    state["play"][0].update(priest=True, altar=True)
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    state = act(state, 1, {"type": "sin", "card": "Doubt"})
    state = act(state, 0, {"type": "offer", "card": "Peace Offering"})
    state = act(state, 0, {"type": "peace_take", "card": "Burnt Offering"})
    state = act(state, 0, {"type": "peace_give", "card": "Levite"})
    assert state["step"] == "answer" and state["actor"] == 0
    state = act(state, 0, {"type": "burnt"})
    assert state["structures"][0] == ["Porch"], "atoned: the announced piece is built"


def test_peace_and_guilt_offerings_in_the_opponents_turn() -> None:
    """Book: "Instant cards may be played at any time, whether or not it is the player's turn",
    and the Instant Offerings are instants. The offerer's own Priest and Altar; the player on turn
    may answer with a Blemished Animal; then the window the offering was made in goes on."""
    state = table(["Porch"], ["Peace Offering", "Guilt Offering", "Levite", "Doubt"], step="build")
    state["play"][1].update(priest=True, altar=True)
    state["deck"][1].remove("Priest")
    state["deck"][1].remove("Altar")
    state["hand"][0].append("Blemished Animal")
    state["deck"][0].remove("Blemished Animal")
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    assert {"type": "offer", "card": "Peace Offering"} in GAME.legal_moves(state, 1)
    state = act(state, 1, {"type": "offer", "card": "Peace Offering"})
    assert state["step"] == "blemish" and state["actor"] == 0
    assert "offer" not in kinds(state, 0)
    state = act(state, 0, {"type": "pass"})
    assert state["step"] == "peace_take" and state["actor"] == 1
    state = act(state, 1, {"type": "peace_take", "card": "Main Hall"})
    state = act(state, 1, {"type": "peace_give", "card": "Levite"})
    assert state["step"] == "sin" and state["actor"] == 1 and "Main Hall" in state["hand"][1]
    state = act(state, 1, {"type": "offer", "card": "Guilt Offering"})
    state = act(state, 0, {"type": "blemish"})
    assert state["step"] == "sin" and state["actor"] == 1, "blemished: it did nothing"
    assert "Doubt" in state["hand"][1]
    state = act(state, 1, {"type": "sin", "card": "Doubt"})
    assert state["step"] == "answer" and state["actor"] == 0, "a Priest may be in its hand"
    state = act(state, 0, {"type": "pass"})
    assert state["step"] == "discard" and state["actor"] == 0, "no Priest: the Sin stands"
    for seat in range(2):
        assert total_cards(state, seat) == Counter(COUNTS)


def test_bad_offering_spoils_the_next_offering() -> None:
    state = table(["Grain Offering"], ["Bad Offering"])
    state["play"][0].update(priest=True, altar=True)
    state["step"], state["actor"] = "sin", 1
    state = act(state, 1, {"type": "evil", "card": "Bad Offering"})
    assert state["play"][0]["bad_offering"]
    state.update(step="main", actor=0)
    state = act(state, 0, {"type": "offer", "card": "Grain Offering"})
    assert not state["grain"] and not state["play"][0]["bad_offering"]


def test_a_broken_altar_leaves_the_bad_offering_for_the_next_offering() -> None:
    """Book, Bad Offering: "If your opponent never makes another offering, Bad offerings will
    remain on the Altar. The only way to remove it is by making a sacrifice"; Broken Altar:
    "discard your opponent's Altar and discard Broken Altar" (the Altar only)."""
    state = table(["Bad Offering", "Broken Altar"], ["Altar", "Guilt Offering"])
    state["play"][1].update(priest=True, altar=True)
    state = act(state, 0, {"type": "evil", "card": "Bad Offering"})
    state = act(state, 0, {"type": "evil", "card": "Broken Altar"})
    assert not state["play"][1]["altar"] and state["play"][1]["bad_offering"]
    assert "Bad Offering" not in state["discard"][0]
    assert total_cards(state, 0) == Counter(COUNTS), "the Bad Offering is still in play"
    state.update(turn=1, actor=1, step="main")
    state = act(state, 1, {"type": "play", "card": "Altar"})
    assert state["step"] == "main", "seat 1 holds no instant left: no window"
    state = act(state, 1, {"type": "offer", "card": "Guilt Offering"})
    assert not state["play"][1]["bad_offering"] and state["discard"][0] == ["Broken Altar",
                                                                           "Bad Offering"]
    assert state["hand"][1] == [], "the Guilt Offering was spoiled"


def test_levite_searches_own_pile_for_a_structure() -> None:
    state = table(["Levite"])
    moves = [m for m in GAME.legal_moves(state, 0) if m["type"] == "levite"]
    assert {m["card"] for m in moves} == set(STRUCTURES)
    state = act(state, 0, {"type": "levite", "card": "Main Hall"})
    assert state["hand"][0] == ["Main Hall"]
    hidden = GAME.redact_move({"type": "levite", "card": "Main Hall"}, 0, 1)
    assert "card" not in hidden and "Main Hall" not in GAME.describe(hidden)


def test_levite_with_no_structure_in_the_pile_may_be_played_for_nothing() -> None:
    """Book: "search through your draw pile for one Structure card and place it in your hand.
    Shuffle the draw pile and discard the Levites card. Levites may NOT be played if all
    Structure pieces are in play": only that forbids it; a search may find nothing."""
    state = table(["Levite", "Porch"])
    state["structures"][0] = ["Pillar Boaz", "Pillar Jachin"]
    for card in ("Pillar Boaz", "Pillar Jachin", "Main Hall", "Holy of Holies"):
        state["deck"][0].remove(card)
    state["discard"][0] += ["Main Hall", "Holy of Holies"]
    assert [m for m in GAME.legal_moves(state, 0) if m["type"] == "levite"] == [{"type": "levite"}]
    after, events = GAME.apply(state, 0, {"type": "levite"}, Random(2))
    assert after["hand"][0] == ["Porch"] and after["discard"][0][-1] == "Levite"
    assert any("found no Structure" in e.text and e.to is None for e in events)
    assert GAME.describe({"type": "levite"}).endswith("searched the draw pile for a Structure")
    state["structures"][0] = list(STRUCTURES)
    state["hand"][0].remove("Porch")
    assert "levite" not in kinds(state, 0), "all five Structures in play"


def test_cooperation_with_one_placeable_furnishing_places_that_one() -> None:
    """Book: "If you only have one (1) Furnishing card in your hand, you will only be able to play
    one (1) Furnishing card. Discard Cooperation when played." """
    state = table(["Veil", "Bronze Sea", "Cooperation"], step="place")
    state["structures"][0] = ["Holy of Holies"]
    coop = {"type": "place", "card": "Veil", "cooperation": True}
    assert coop in GAME.legal_moves(state, 0)
    state = act(state, 0, coop)
    assert state["furnishings"][0] == ["Veil"] and state["hand"][0] == ["Bronze Sea"]
    assert state["discard"][0] == ["Cooperation"] and state["step"] == "discard"
    assert "Cooperation" in GAME.describe(coop)
    two = table(["Veil", "Cherubim", "Cooperation"], step="place")
    two["structures"][0] = ["Holy of Holies"]
    assert not any(m.get("cooperation") for m in GAME.legal_moves(two, 0)), "two: play both"


@pytest.mark.parametrize("viewer", [1, None])
def test_a_searched_card_is_logged_for_its_player_alone(viewer: int | None) -> None:
    """Hands and draw piles are secret: the card a Levite or a Peace Offering moves shows in the
    searcher's log only; the opponent and spectators read that a search was made."""
    state = table(["Levite"])
    after, events = GAME.apply(state, 0, {"type": "levite", "card": "Main Hall"}, Random(1))
    seen = [e for e in events if e.visible_to(viewer)]
    assert not any("Main Hall" in e.text or "Main Hall" in str(e.data) for e in seen)
    line = GAME.describe(GAME.redact_move({"type": "levite", "card": "Main Hall"}, 0, viewer))
    assert "searched the draw pile" in line and "Main Hall" not in line
    own = GAME.describe(GAME.redact_move({"type": "levite", "card": "Main Hall"}, 0, 0))
    assert "Main Hall" in own, "the searcher's own line names it"
    assert GAME.view(after, viewer)["last"] == {"seat": 0, "type": "levite"}


def test_evil_priest_broken_altar_unclean() -> None:
    state = table(["Evil Priest", "Broken Altar", "Unclean"])
    assert "evil" not in kinds(state, 0), "nothing to aim at yet"
    state["play"][1].update(priest=True, altar=True)
    state = act(state, 0, {"type": "evil", "card": "Unclean"})
    assert state["play"][1]["unclean"]
    state = act(state, 0, {"type": "evil", "card": "Broken Altar"})
    assert not state["play"][1]["altar"] and "Altar" in state["discard"][1]
    state = act(state, 0, {"type": "evil", "card": "Evil Priest"})
    assert state["play"][1]["evil_priest"] and not state["play"][1]["priest"]


@pytest.mark.parametrize("step", ["build", "place", "discard"])
def test_evil_instants_may_be_played_at_any_point_of_ones_own_turn(step: str) -> None:
    """Book: Bad Offerings "may be played at any time", Blemished Animal "any time", Broken Altar
    "at any time", Evil Priest "at any time", Unclean "at any time"; "Instant cards may be played
    at any time, whether or not it is the player's turn". Pray and Fast forbids good cards only."""
    state = table(["Broken Altar", "Unclean", "Porch"], step=step)
    state["play"][1].update(priest=True, altar=True)
    state["play"][0].update(fast=1)
    assert {"type": "evil", "card": "Broken Altar"} in GAME.legal_moves(state, 0)
    state = act(state, 0, {"type": "evil", "card": "Unclean"})
    assert state["play"][1]["unclean"] and state["step"] == step and state["actor"] == 0


def test_instant_window_at_the_turn_start_of_a_player_who_can_offer() -> None:
    """The window opens only for a seat holding an instant it could play there: a player with
    nothing to play says "no" at once (RULES.md, "Fewer clicks")."""
    state = table(step="discard")
    state["hand"][1] = ["Unclean"]
    state["play"][1].update(priest=True, altar=True)
    state["play"][0].update(priest=True, altar=True)
    quiet = act(state, 0, {"type": "end_turn"})
    assert quiet["step"] == "main" and quiet["actor"] == 1, "seat 1 holds no instant: no window"
    state["hand"][0] = ["Unclean"]
    state["deck"][0].remove("Unclean")
    state = act(state, 0, {"type": "end_turn"})
    assert state["step"] == "instant" and state["turn"] == 1 and state["actor"] == 0
    assert GAME.legal_moves(state, 0) == [{"type": "pass"},
                                          {"type": "evil", "card": "Unclean"}]
    state = act(state, 0, {"type": "pass"})
    assert state["step"] == "main" and state["actor"] == 1
    state["play"][0]["altar"] = False
    state.update(step="discard", actor=1)
    state = act(state, 1, {"type": "end_turn"})
    assert state["step"] == "main" and state["actor"] == 0, "no offering possible: no window"


def test_unclean_out_of_turn_stops_a_grain_offering() -> None:
    state = table(["Grain Offering"], ["Unclean", "Evil Priest"], step="discard")
    state.update(turn=1, actor=1)
    state["play"][0].update(priest=True, altar=True)
    state = act(state, 1, {"type": "end_turn"})
    state = act(state, 1, {"type": "evil", "card": "Unclean"})
    assert state["step"] == "instant", "the window stays open until a pass"
    state = act(state, 1, {"type": "pass"})
    assert {"type": "offer", "card": "Grain Offering"} not in GAME.legal_moves(state, 0)


def test_laying_a_priest_opens_the_instant_window() -> None:
    state = table(["Priest", "Grain Offering"], ["Evil Priest"])
    state["play"][0]["altar"] = True
    state = act(state, 0, {"type": "play", "card": "Priest"})
    assert state["step"] == "instant" and state["actor"] == 1
    state = act(state, 1, {"type": "evil", "card": "Evil Priest"})
    assert state["step"] != "instant" and state["actor"] == 0, "nothing left: no window"
    assert state["play"][0]["evil_priest"] and "offer" not in kinds(state, 0)


def test_evil_instants_after_a_grain_offering_are_not_offered() -> None:
    state = table(["Grain Offering", "Peace Offering", "Levite"], ["Unclean", "Broken Altar"])
    state["play"][0].update(priest=True, altar=True)
    state = act(state, 0, {"type": "offer", "card": "Grain Offering"})
    state = act(state, 0, {"type": "offer", "card": "Peace Offering"})
    assert state["step"] == "peace_take" and state["actor"] == 0
    state.update(step="sin", actor=1)  # the opponent's window later in the turn
    assert GAME.legal_moves(state, 1) == [{"type": "pass"}]
    state["grain"] = False
    assert {"type": "evil", "card": "Unclean"} in GAME.legal_moves(state, 1)


def test_blemished_animal_after_a_grain_offering_has_no_effect() -> None:
    """Book, Grain Offering: "If an Instant evil card is played after the Grain Offering has been
    played, the Instant evil card has no effect"; Blemished Animal is the book's own example of an
    Instant ("Your opponent plays Blemished Animal ...")."""
    state = table(["Grain Offering", "Guilt Offering", "Doubt"], ["Blemished Animal"])
    state["play"][0].update(priest=True, altar=True)
    state = act(state, 0, {"type": "offer", "card": "Grain Offering"})
    state = act(state, 0, {"type": "offer", "card": "Guilt Offering"})
    assert state["step"] == "main" and state["actor"] == 0, "no Blemished Animal window"
    assert len(state["hand"][0]) == HAND and "Blemished Animal" in state["hand"][1]


def test_a_new_priest_sends_the_evil_priest_away() -> None:
    state = table(["Priest"])
    state["play"][0]["evil_priest"] = True
    state = act(state, 0, {"type": "play", "card": "Priest"})
    assert state["play"][0]["priest"] and not state["play"][0]["evil_priest"]
    assert "Evil Priest" in state["discard"][1]


def test_king_solomon_and_david_build_at_once_outside_the_limit() -> None:
    state = table(["Porch", "Main Hall", "Guarded Gate"])
    assert "build_now" not in kinds(state, 0)
    state["play"][0].update(solomon=True, david=True)
    state = act(state, 0, {"type": "build_now", "card": "Porch"})
    state = act(state, 0, {"type": "build_now", "card": "Main Hall"})
    state = act(state, 0, {"type": "build_now", "card": "Guarded Gate", "gate": 1})
    assert state["structures"][0] == ["Porch", "Main Hall"] and state["guarded"][0][1]
    assert state["built"] == 0


def test_king_david_shuts_a_gate_in_the_face_of_a_new_army() -> None:
    state = attack(["Babylonian Army", "Babylonian Army"], ["Guarded Gate"])
    plain = act(state, 0, {"type": "army"})
    assert plain["step"] == "military", "no King David: no window"
    state["play"][1]["david"] = True
    state = act(state, 0, {"type": "army"})
    assert state["step"] == "instant" and state["actor"] == 1
    gate = {"type": "build_now", "card": "Guarded Gate", "gate": 1}
    state = act(state, 1, gate)
    assert state["guarded"][1] == [False, True, False]
    assert state["step"] == "military" and state["actor"] == 0, "nothing more: the window shuts"
    assert "move" in kinds(state, 0) and {"type": "move", "army": 0, "dir": "s"} not in (
        GAME.legal_moves(state, 0)
    ), "the gate now bars the way"


def test_the_david_window_opens_only_with_a_gate_to_build_and_not_while_fasting() -> None:
    state = attack(["Babylonian Army", "Babylonian Army"], ["Doubt"])
    state["play"][1].update(david=True)
    after = act(state, 0, {"type": "army"})
    assert after["step"] == "instant" and after["actor"] == 1, "a Guarded Gate may be held"
    gates = [c for c in state["deck"][1] if c == "Guarded Gate"]
    state["deck"][1] = [c for c in state["deck"][1] if c != "Guarded Gate"]
    state["discard"][1] += gates
    after = act(state, 0, {"type": "army"})
    assert after["step"] == "military", "every Guarded Gate in sight, none held: no window"
    state["hand"][1].append("Guarded Gate")
    state["discard"][1].remove("Guarded Gate")
    after = act(state, 0, {"type": "army"})
    assert after["step"] == "instant" and after["actor"] == 1
    state["play"][1]["fast"] = 2
    assert act(state, 0, {"type": "army"})["step"] == "military"


def test_king_solomon_and_david_build_in_the_opponents_windows() -> None:
    state = table([], ["Porch", "Guarded Gate", "Doubt"], step="sin")
    state["actor"] = 1
    state["armies"][1] = [[1, 0]]
    assert "build_now" not in kinds(state, 1)
    state["play"][1].update(solomon=True, david=True)
    builds = [m for m in GAME.legal_moves(state, 1) if m["type"] == "build_now"]
    assert builds == [
        {"type": "build_now", "card": "Guarded Gate", "gate": 1},
        {"type": "build_now", "card": "Guarded Gate", "gate": 2},
        {"type": "build_now", "card": "Porch"},
    ], "not on gate 1: an army stands there"
    state = act(state, 1, {"type": "build_now", "card": "Porch"})
    assert state["structures"][1] == ["Porch"] and state["step"] == "sin"


def test_filling_wins_only_with_a_complete_temple() -> None:
    state = table(["Filling of the Holy of Holies"])
    assert "play" not in kinds(state, 0)
    state["structures"][0] = list(STRUCTURES)
    state["furnishings"][0] = list(FURNISHINGS)
    state = act(state, 0, {"type": "play", "card": "Filling of the Holy of Holies"})
    outcome = GAME.outcome(state)
    assert outcome and outcome.winners == [0] and not GAME.to_act(state)


def test_pray_and_fast_forbids_good_cards_then_returns_one() -> None:
    state = table(["Pray and Fast", "Priest"])
    state = act(state, 0, {"type": "play", "card": "Pray and Fast"})
    assert "play" not in kinds(state, 0), "no good card while fasting"
    state["play"][0]["fast"] = 3
    state["discard"][0].append("Altar")
    state = act(state, 0, {"type": "fast_take", "card": "Altar"})
    assert "Altar" in state["hand"][0]


def test_pray_and_fast_takes_its_good_card_at_any_point_of_the_third_turn() -> None:
    """Book: "On the third turn, you may look through your discard pile and take out one (1) good
    card" (no phase is named): here a Burnt Offering, taken back to answer a Sin."""
    state = table(["Porch"], ["Doubt"], step="build")
    state["play"][0].update(priest=True, altar=True, fast=3)
    state["deck"][0].remove("Burnt Offering")
    state["discard"][0].append("Burnt Offering")
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    state = act(state, 1, {"type": "sin", "card": "Doubt"})
    assert "burnt" not in kinds(state, 0)
    state = act(state, 0, {"type": "fast_take", "card": "Burnt Offering"})
    assert "fast_take" not in kinds(state, 0), "one good card only"
    state = act(state, 0, {"type": "burnt"})
    assert state["structures"][0] == ["Porch"]


def test_pray_and_fast_after_a_good_card_starts_counting_next_turn() -> None:
    state = table(["Priest", "Pray and Fast"])
    state = act(state, 0, {"type": "play", "card": "Priest"})
    state = act(state, 0, {"type": "play", "card": "Pray and Fast"})
    assert state["play"][0]["fast"] == 1 and state["play"][0]["fast_wait"]
    state.update(step="discard")
    state = act(state, 0, {"type": "end_turn"})
    while state["turn"] != 0:
        state = act(state, state["actor"], _skip(state))
    assert state["play"][0]["fast"] == 1, "this is the first of its two turns"
    assert "play" not in kinds(state, 0), "still fasting"


def _skip(state: dict[str, Any]) -> dict[str, Any]:
    """The move that ends the current step fastest."""
    legal = GAME.legal_moves(state, state["actor"])
    return next(m for kind in ("pass", "to_military", "end_military", "skip_build", "end_turn")
                for m in legal if m["type"] == kind)


def test_a_drawn_scapegoat_goes_into_play_sideways() -> None:
    state = table([], [])
    state["deck"][1].remove("Scapegoat")
    state["deck"][1].append("Scapegoat")  # the top card
    state.update(step="discard")
    state = act(state, 0, {"type": "end_turn"})
    assert state["play"][1]["scapegoat"] == "sideways"
    assert "Scapegoat" not in state["hand"][1] and len(state["hand"][1]) == HAND - 1


def test_filling_may_be_played_right_after_the_last_piece_is_built() -> None:
    state = table(["Filling of the Holy of Holies", "Veil"], step="place")
    state["structures"][0] = list(STRUCTURES)
    state["furnishings"][0] = [f for f in FURNISHINGS if f != "Veil"]
    state = act(state, 0, {"type": "place", "card": "Veil"})
    state = act(state, 0, {"type": "play", "card": "Filling of the Holy of Holies"})
    assert GAME.outcome(state).winners == [0]


# -- Phase II ---------------------------------------------------------------------------------


def test_prophet_star_stops_the_attack_and_sword_lets_it_go() -> None:
    """Book: "II. Military Phase (Your opponent's turn)" under "When it is your turn"; the Prophet:
    "At the beginning of the Military Phase you must roll the six-sided die. If the roll is the
    Star of David ... your opponent's Army(s) may do nothing". Seat 2 ends Phase I of its turn,
    rolls its Prophet's die, and seat 1 attacks seat 2's board."""
    outcomes = set()
    for n in range(20):
        state = attack(["Babylonian Army"], step="main")
        state["actor"] = 1
        after, _ = GAME.apply(state, 1, {"type": "to_military"}, Random(n))
        assert after["die"]["by"] == 1
        outcomes.add(after["die"]["face"])
        if after["die"]["face"] == "star":  # no army to drive out: on to seat 2's build
            assert after["step"] == "build" and after["actor"] == 1
        else:
            assert after["step"] == "military" and after["actor"] == 0
            assert {"type": "army"} in GAME.legal_moves(after, 0)
    assert outcomes == {"star", "sword"}


def test_no_prophet_no_roll() -> None:
    state = attack(["Babylonian Army"], step="main")
    state["actor"] = 1
    state["play"][1]["prophet"] = None
    state = act(state, 1, {"type": "to_military"})
    assert state["die"] is None and state["step"] == "military" and state["actor"] == 0


def test_the_player_on_turn_is_attacked_then_defends_then_builds() -> None:
    """Book: "When it is your turn, you may do the following: ... II. Military Phase (Your
    opponent's turn) ... The first sub-phase is played by the attacking player. The second part
    ... by the defending player"; B: "After your opponent has finished the Attacking Player's
    Sub-phase, you may play as many Israelite Army cards as you wish"; then "III. Building
    Phase". Seat 2's turn: seat 1 attacks, seat 2 answers with an Israelite Army and builds."""
    state = attack(["Babylonian Army"], ["Israelite Army", "Porch"], step="main")
    state["actor"] = 1
    state["play"][1]["prophet"] = None
    state["armies"][1] = [[0, 2]]
    state = act(state, 1, {"type": "to_military"})
    assert state["step"] == "military" and state["actor"] == 0
    assert "play" not in kinds(state, 0), "the attacker lays down nothing in the other's turn"
    state = act(state, 0, {"type": "move", "army": 0, "dir": "s"})
    state = act(state, 0, {"type": "end_military"})
    assert state["step"] == "defend" and state["actor"] == 1, "two Israelite Armies may be held"
    assert GAME.legal_moves(state, 1) == [{"type": "pass"}], "this hand holds one: none to play"
    state = act(state, 1, {"type": "pass"})
    assert state["step"] == "build" and state["actor"] == 1
    state["armies"][1] = [[2, 2]]
    state.update(step="military", actor=0, moved=[])
    state = act(state, 0, {"type": "end_military"})
    assert state["step"] == "defend" and state["actor"] == 1
    assert {"type": "israelite"} in GAME.legal_moves(state, 1)
    state = act(state, 1, {"type": "pass"})
    assert state["step"] == "build" and state["actor"] == 1
    assert {"type": "announce", "card": "Porch"} in GAME.legal_moves(state, 1)


def test_army_enters_at_the_north_gate_and_moves_one_space() -> None:
    state = attack(["Babylonian Army", "Babylonian Army"])
    state = act(state, 0, {"type": "army"})
    assert state["armies"][1] == [[0, 2]]
    assert {"type": "army"} not in GAME.legal_moves(state, 0), "the entry is taken"
    state = act(state, 0, {"type": "move", "army": 0, "dir": "s"})
    assert state["armies"][1] == [[1, 2]]
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "move"]


def test_guarded_gates_and_walls_block() -> None:
    state = attack([])
    state["armies"][1] = [[0, 2]]
    state["guarded"][1][1] = True
    dirs = {m["dir"] for m in GAME.legal_moves(state, 0) if m["type"] == "move"}
    assert dirs == {"e", "w"}


def test_destruction_of_a_gate_and_of_the_temple() -> None:
    state = attack(["Destruction", "Destruction"])
    state["guarded"][1][1] = True
    state["armies"][1] = [[0, 2], [3, 2]]
    state["structures"][1] = ["Main Hall"]
    state["furnishings"][1] = ["Golden Lampstand", "Table of Showbread", "Altar of Incense"]
    state = act(state, 0, {"type": "destroy", "army": 0, "target": 1})
    assert not state["guarded"][1][1] and "Guarded Gate" in state["discard"][1]
    assert not [
        m for m in GAME.legal_moves(state, 0) if m.get("army") == 0 and m["type"] == "destroy"
    ], "one Destruction per army"
    state = act(state, 0, {"type": "destroy", "army": 1, "target": "temple"})
    assert state["play"][1]["prophet"] is None and len(state["armies"][1]) == 1


def test_the_attacker_chooses_the_two_furnishings_a_destruction_carries_off() -> None:
    state = attack(["Destruction"])
    state["armies"][1] = [[3, 2]]
    state["structures"][1] = ["Main Hall"]
    state["furnishings"][1] = ["Golden Lampstand", "Table of Showbread", "Altar of Incense"]
    state = act(state, 0, {"type": "destroy", "army": 0, "target": "temple"})
    assert state["step"] == "sack" and state["actor"] == 0
    assert {m["card"] for m in GAME.legal_moves(state, 0)} == set(state["furnishings"][1])
    state = act(state, 0, {"type": "sack", "card": "Golden Lampstand"})
    state = act(state, 0, {"type": "sack", "card": "Table of Showbread"})
    assert state["furnishings"][1] == ["Altar of Incense"]
    assert state["step"] == "build" and state["actor"] == 1, "nothing left to attack with"
    assert state["deck"][1].count("Golden Lampstand") == 2  # the table kept one in the pile


def test_a_destruction_on_a_temple_with_one_furnishing_takes_that_one() -> None:
    state = attack(["Destruction"])
    state["armies"][1] = [[3, 2]]
    state["structures"][1] = ["Porch"]
    state["furnishings"][1] = ["Bronze Sea"]
    state = act(state, 0, {"type": "destroy", "army": 0, "target": "temple"})
    state = act(state, 0, {"type": "sack", "card": "Bronze Sea"})
    assert state["furnishings"][1] == [] and state["step"] == "build"


def test_secret_passage_goes_through_a_guarded_gate() -> None:
    state = attack(["Secret Passage"])
    state["guarded"][1][0] = True
    state["armies"][1] = [[0, 0]]
    state = act(state, 0, {"type": "passage", "army": 0})
    assert state["armies"][1] == [[2, 0]]


def test_lay_siege_counts_turns_then_breaks_a_gate() -> None:
    state = attack(["Lay Siege", "Destruction"])
    state["armies"][1] = [[0, 1], [0, 3]]
    state["guarded"][1] = [True, True, False]
    state = act(state, 0, {"type": "siege"})
    assert "destroy" not in kinds(state, 0) and "siege_break" not in kinds(state, 0)
    state["play"][0]["siege"] = 3
    state = act(state, 0, {"type": "siege_break", "gate": 0})
    assert state["guarded"][1] == [False, True, False] and not state["play"][0]["siege"]


def test_lay_siege_needs_two_armies_and_counts_only_turns_the_prophet_did_not_stop() -> None:
    """Book: "If you have two-thousand (2,000) Babylonian soldiers or more in play, (two [2] or
    more Army tokens) you may play Lay Siege"; "The turn in which the Lay Siege card is played is
    counted as one (1) turn. (... If they "listen", the turn does NOT count ...)"."""
    state = attack(["Lay Siege"])
    state["armies"][1] = [[0, 1]]
    assert "siege" not in kinds(state, 0)
    counted = {}
    for n in range(20):
        late = table([], step="main")  # seat 1 besieges seat 2, in seat 1's turn
        late["play"][1]["siege"] = 1
        after, _ = GAME.apply(late, 0, {"type": "to_military"}, Random(n))
        counted[after["die"]["face"]] = after["play"][1]["siege"]
    assert counted == {"star": 1, "sword": 2}


def test_a_secret_passage_is_not_the_armys_move_and_destruction_needs_no_gap() -> None:
    """Book: "The Secret Passage movement does not count towards the Army's one (1) Military
    Phase move"; Destruction: "The Army must be next to what it wants to destroy ... There can be
    no spaces between them"."""
    state = attack(["Secret Passage", "Destruction"])
    state["guarded"][1] = [True, False, True]
    state["armies"][1] = [[0, 0], [2, 2]]
    state["structures"][1] = ["Porch"]
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "destroy" and
                m["army"] == 1], "one space from the Temple: no Destruction"
    state = act(state, 0, {"type": "passage", "army": 0})
    assert state["armies"][1][0] == [2, 0]
    assert {"type": "move", "army": 0, "dir": "s"} in GAME.legal_moves(state, 0)


def test_an_army_may_pass_secretly_then_destroy_and_then_nothing_moves() -> None:
    state = attack(["Secret Passage", "Destruction", "Babylonian Army"])
    state["guarded"][1] = [False, True, True]
    state["armies"][1] = [[0, 4], [3, 0]]
    state = act(state, 0, {"type": "passage", "army": 0})
    assert state["armies"][1][0] == [2, 4]
    state = act(state, 0, {"type": "destroy", "army": 0, "target": 2})
    assert not state["guarded"][1][2]
    # Step 3 began: no more armies or moves (a Babylonian Army is still held, the entry free),
    # so with nothing left to play the attack ends at once.
    assert state["step"] == "build" and state["actor"] == 1


def test_after_the_siege_breaks_a_gate_one_army_moves_one_extra_space() -> None:
    state = attack(["Lay Siege"])
    state["armies"][1] = [[0, 2], [0, 0]]
    state["guarded"][1] = [True, True, False]
    state = act(state, 0, {"type": "siege"})
    assert "drop_siege" not in kinds(state, 0), "only on subsequent turns"
    state["play"][0]["siege"] = 3
    assert "drop_siege" in kinds(state, 0)
    state = act(state, 0, {"type": "siege_break", "gate": 1})
    assert state["step"] == "siege_move" and "pass" in kinds(state, 0)
    state = act(state, 0, {"type": "siege_move", "army": 0, "dir": "s"})
    assert state["armies"][1][0] == [1, 2] and state["step"] == "military"
    assert {"type": "move", "army": 0, "dir": "s"} in GAME.legal_moves(state, 0), (
        "the siege move does not count as the army's own move"
    )


def test_one_israelite_army_drives_armies_out_two_rout_them() -> None:
    state = attack([], ["Israelite Army", "Israelite Army"], step="defend")
    state["actor"] = 1
    state["armies"][1] = [[2, 2], [0, 2], [3, 0]]
    one = act(state, 1, {"type": "israelite"})
    assert one["step"] == "relocate" and one["actor"] == 1
    one = act(one, 1, {"type": "relocate", "army": 0, "row": 0, "col": 0})
    one = act(one, 1, {"type": "relocate", "army": 2, "row": 0, "col": 4})
    assert one["armies"][1] == [[0, 0], [0, 2], [0, 4]]
    assert one["step"] == "defend", "nobody inside, but two more Israelite Armies may be held"
    assert GAME.legal_moves(one, 1) == [{"type": "pass"}], "one left in this hand: nothing to do"
    two = act(state, 1, {"type": "israelite2"})
    assert two["armies"][1] == []


@pytest.mark.parametrize(("count", "kept"), [(1, False), (2, False), (3, True)])
def test_two_israelite_armies_discard_the_siege_only_before_its_two_turns(
    count: int, kept: bool
) -> None:
    """Book, Lay Siege: "If your opponent plays two (2) Israelite Armies and discards all
    Babylonian Armies before the Lay Siege requirements are met, the Lay Siege card is
    discarded." On the third turn the requirements are met: "you may pick one (1) Guarded Gate
    and discard it"."""
    state = attack([], ["Israelite Army", "Israelite Army"], step="defend")
    state["actor"] = 1
    state["armies"][1] = [[0, 1], [0, 3]]
    state["play"][0]["siege"] = count
    state["deck"][0].remove("Lay Siege")
    state = act(state, 1, {"type": "israelite2"})
    assert state["armies"][1] == [] and bool(state["play"][0]["siege"]) == kept
    assert ("Lay Siege" in state["discard"][0]) != kept


def test_israelite_army_relocation_is_the_defenders_choice_one_army_at_a_time() -> None:
    state = attack([], ["Israelite Army"], step="defend")
    state["actor"] = 1
    state["guarded"][1] = [True, False, False]
    state["armies"][1] = [[3, 3], [0, 2], [2, 0]]
    state = act(state, 1, {"type": "israelite"})
    legal = GAME.legal_moves(state, 1)
    assert {m["army"] for m in legal} == {0}, "inside armies go one at a time, in order"
    cells = {(m["row"], m["col"]) for m in legal}
    assert (0, 2) not in cells and (2, 0) not in cells, "no two armies on one spot"
    assert (1, 0) not in cells and (1, 1) not in cells and (4, 2) not in cells
    assert {(0, 0), (1, 2), (3, 3), (4, 4)} <= cells, "any space, or where it stands"
    assert legal[-1] == {"type": "relocate", "army": 0, "row": 3, "col": 3, "stay": True}
    state = act(state, 1, {"type": "relocate", "army": 0, "row": 4, "col": 4})
    assert {m["army"] for m in GAME.legal_moves(state, 1)} == {2}
    state = act(state, 1, {"type": "relocate", "army": 2, "row": 2, "col": 0, "stay": True})
    assert state["armies"][1] == [[4, 4], [0, 2], [2, 0]]
    assert state["step"] == "build" and state["actor"] == 1, "no Israelite Army left"


def test_the_defend_step_opens_only_for_an_israelite_army_that_could_move_an_army() -> None:
    """Book, Israelite Army: "Any Army that is inside the walls of the city may be re-located";
    two "at the same time, all of the Babylonian Armies (both inside and outside the walls) are
    discarded". With nothing it could do the defender is not asked (RULES.md, "Fewer clicks"),
    judged on what anyone can see: the Israelite Armies not in sight may all be in the hand."""
    state = attack([], ["Doubt", "Israelite Army"])
    state["armies"][1] = [[0, 1]]
    after = act(state, 0, {"type": "end_military"})
    assert after["step"] == "defend", "one army, outside: two Israelite Armies would rout it"
    assert GAME.legal_moves(after, 1) == [{"type": "pass"}], "this hand holds only one"
    armies = [c for c in state["deck"][1] if c == "Israelite Army"]
    state["deck"][1] = [c for c in state["deck"][1] if c != "Israelite Army"]
    state["discard"][1] += armies
    after = act(state, 0, {"type": "end_military"})
    assert after["step"] == "build" and after["actor"] == 1, "one army outside, one Israelite left"
    state["armies"][1] = [[2, 1]]
    after = act(state, 0, {"type": "end_military"})
    assert after["step"] == "defend" and {"type": "israelite"} in GAME.legal_moves(after, 1)


# -- Phase III --------------------------------------------------------------------------------


def test_announce_needs_a_placeable_piece() -> None:
    """Book: "If you wish to build, you must announce your intent to do so. If you do not have a
    Structure, Furnishing, or Guarded Gate card to build, you proceed to the Discard Phase". The
    announcement names the piece; the opponent's copy does not."""
    state = table(["Veil"], step="build")
    assert kinds(state, 0) == {"skip_build", "end_turn"}
    state["structures"][0] = ["Holy of Holies"]
    assert {"type": "announce", "card": "Veil"} in GAME.legal_moves(state, 0)
    assert GAME.redact_move({"type": "announce", "card": "Veil"}, 0, 1) == {"type": "announce"}
    after = act(state, 0, {"type": "announce", "card": "Veil"})
    assert after["furnishings"][0] == ["Veil"], "no Sin held by the opponent: built at once"
    assert GAME.view(after, 1)["announced"] is None


def test_sin_answered_by_burnt_offering_then_build() -> None:
    state = table(["Porch", "Burnt Offering"], ["Idol Worship"], step="build")
    state["play"][0].update(priest=True, altar=True, scapegoat="sideways")
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    assert state["step"] == "sin" and state["actor"] == 1
    state = act(state, 1, {"type": "sin", "card": "Idol Worship"})
    assert state["step"] == "answer" and state["actor"] == 0
    state = act(state, 0, {"type": "burnt"})
    assert state["play"][0]["scapegoat"] == "active", "no Blemished Animal held: it stands"
    assert state["structures"][0] == ["Porch"] and state["step"] == "discard"


def test_priest_and_altar_laid_down_after_a_sin_then_atone() -> None:
    """Book: Priest, Altar, Levite, Pray and Fast, Prophet and King cards "may be played at any
    time during your turn": a builder sinned against may lay them down, then offer."""
    state = table(["Porch", "Burnt Offering", "Priest", "Altar"], ["Idol Worship"], step="build")
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    state = act(state, 1, {"type": "sin", "card": "Idol Worship"})
    assert state["step"] == "answer" and "burnt" not in kinds(state, 0)
    state = act(state, 0, {"type": "play", "card": "Priest"})
    state = act(state, 0, {"type": "play", "card": "Altar"})
    assert state["step"] == "answer" and state["actor"] == 0  # no instant held: no window
    state = act(state, 0, {"type": "burnt"})  # no Blemished Animal held: it stands
    assert state["structures"][0] == ["Porch"]


@pytest.mark.parametrize("step", ["defend", "build", "place", "discard"])
def test_lay_down_cards_come_into_play_in_every_phase_of_ones_turn(step: str) -> None:
    hand = ["Priest", "Pray and Fast", "King David", "Levite", "Porch"]
    state = table(hand, ["Doubt"], step=step)
    state["structures"][0] = []
    if step == "defend":  # an army inside the walls and an Israelite Army: a defence to make
        state["armies"][0] = [[2, 2]]
        state["hand"][0].append("Israelite Army")
        state["deck"][0].remove("Israelite Army")
    moves = GAME.legal_moves(state, 0)
    for card in ("Priest", "Pray and Fast", "King David"):
        assert {"type": "play", "card": card} in moves
    assert any(m["type"] == "levite" for m in moves)
    state = act(state, 0, {"type": "play", "card": "King David"})
    assert state["play"][0]["david"] and state["step"] == step


def test_lay_down_cards_wait_for_ones_own_turn_and_not_while_fasting() -> None:
    state = table(["Porch"], ["Priest", "Altar", "Doubt"], step="build")
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    assert state["actor"] == 1 and "play" not in kinds(state, 1)  # the opponent's Sin window
    fasting = table(["Priest", "Altar"], step="defend")
    fasting["play"][0].update(fast=1, fast_wait=False)
    assert "play" not in kinds(fasting, 0)


def test_a_king_laid_down_later_in_the_turn_builds_at_once() -> None:
    """Book: King Solomon "may be played any time during your turn ... There are no limits to the
    number of Structures you may play during your turn after you have King Solomon in play", and
    "No Sin cards can stop King Solomon's actions"."""
    state = table(["King Solomon", "Main Hall", "Porch"], ["Doubt"], step="build")
    state = act(state, 0, {"type": "play", "card": "King Solomon"})
    state = act(state, 0, {"type": "build_now", "card": "Main Hall"})
    assert state["step"] == "build" and state["built"] == 0
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    state = act(state, 1, {"type": "sin", "card": "Doubt"})
    assert state["step"] == "answer", "a Priest, an Altar and a Burnt Offering may be held"
    state = act(state, 0, {"type": "pass"})
    assert state["step"] == "discard", "not answered: the Sin stands"
    state = act(state, 0, {"type": "build_now", "card": "Porch"})
    assert state["structures"][0] == ["Main Hall", "Porch"]


def test_a_kings_build_of_the_last_piece_lets_the_place_step_end_without_a_build() -> None:
    """A King's instant may take the one piece the build was announced for (book: "building a
    Structure does NOT count toward your one (1) card building limit"): the turn goes on."""
    state = table(["Porch"], step="place")
    state["play"][0]["solomon"] = True
    state = act(state, 0, {"type": "build_now", "card": "Porch"})
    assert GAME.legal_moves(state, 0) == [{"type": "skip_build"}]
    assert act(state, 0, {"type": "skip_build"})["step"] == "discard"


def test_pray_and_fast_laid_down_after_the_build_is_allowed_stops_it() -> None:
    """Book: Pray and Fast "may be played at any time during your turn", and then "You may play
    no good cards (including instant cards) for two (2) turns": no atonement, no build."""
    state = table(["Pray and Fast", "Burnt Offering", "Porch"], ["Doubt"], step="build")
    state["play"][0].update(priest=True, altar=True)
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    state = act(state, 1, {"type": "sin", "card": "Doubt"})
    assert "burnt" in kinds(state, 0)
    fasting = act(state, 0, {"type": "play", "card": "Pray and Fast"})
    assert fasting["step"] == "discard", "no atonement left: the Sin stands at once"
    placing = table(["Pray and Fast", "Porch"], step="place")
    placing = act(placing, 0, {"type": "play", "card": "Pray and Fast"})
    assert GAME.legal_moves(placing, 0) == [{"type": "skip_build"}]


def test_priest_or_altar_laid_down_opens_the_window_only_while_an_offering_may_follow() -> None:
    """Book: "Altar - The Altar can be played anytime during your turn". Laid down at any point
    of the turn an Instant Offering may still follow (they "may be played at any time"), so the
    opponent's instant window opens; after a Grain Offering evil instants have no effect, so
    none opens."""
    state = table(["Altar", "Israelite Army"], ["Unclean", "Evil Priest"], step="defend")
    state["armies"][0] = [[2, 2]]
    state["play"][0]["priest"] = True
    state = act(state, 0, {"type": "play", "card": "Altar"})
    assert state["step"] == "instant" and state["actor"] == 1
    state = act(state, 1, {"type": "evil", "card": "Unclean"})
    state = act(state, 1, {"type": "pass"})
    assert state["step"] == "defend" and state["actor"] == 0
    for step in ("place", "discard"):
        late = table(["Altar", "Porch"], ["Unclean"], step=step)
        late["play"][0]["priest"] = True
        late["structures"][0] = ["Porch"] if step == "discard" else []
        late = act(late, 0, {"type": "play", "card": "Altar"})
        assert late["step"] == "instant" and late["actor"] == 1
        assert act(late, 1, {"type": "pass"})["step"] == step
        late = table(["Altar", "Porch"], ["Unclean"], step=step)
        late["play"][0]["priest"] = True
        late["grain"] = True
        late = act(late, 0, {"type": "play", "card": "Altar"})
        assert late["step"] == step and late["actor"] == 0 and late["play"][0]["altar"]


def test_unanswered_sin_stops_the_build() -> None:
    state = table(["Porch"], ["Doubt"], step="build")
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    state = act(state, 1, {"type": "sin", "card": "Doubt"})
    assert state["step"] == "answer" and state["actor"] == 0
    state = act(state, 0, {"type": "pass"})
    assert state["step"] == "discard" and state["structures"][0] == [], "no answer: it stands"


def test_loss_of_heart_cannot_be_atoned() -> None:
    state = table(["Porch", "Burnt Offering"], ["Loss of Heart"], step="build")
    state["play"][0].update(priest=True, altar=True)
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    state = act(state, 1, {"type": "sin", "card": "Loss of Heart"})
    assert state["step"] == "discard" and state["actor"] == 0


def test_blemished_animal_negates_the_burnt_offering() -> None:
    state = table(["Porch", "Burnt Offering"], ["Doubt", "Blemished Animal"], step="build")
    state["play"][0].update(priest=True, altar=True)
    for seat, move in (
        (0, {"type": "announce", "card": "Porch"}),
        (1, {"type": "sin", "card": "Doubt"}),
        (0, {"type": "burnt"}),
        (1, {"type": "blemish"}),
    ):
        state = act(state, seat, move)
    assert state["step"] == "answer", "another Burnt Offering may be held"
    assert GAME.legal_moves(state, 0) == [{"type": "pass"}], "this hand holds none"
    state = act(state, 0, {"type": "pass"})
    assert state["step"] == "discard", "no second sacrifice to offer: the Sin stands"
    assert state["structures"][0] == []


@pytest.mark.parametrize("spoiler", ["Bad Offering", "Blemished Animal"])
def test_a_negated_burnt_offering_may_be_followed_by_another_sacrifice(spoiler: str) -> None:
    """Book: Bad Offering: "The next offering your opponent makes ... is negated"; Blemished
    Animal negates the one "your opponent has just offered". Only that offering is lost: "If a Sin
    card is played against you, you may offer up a Burnt Offering to negate it"; only "If you do
    not have a sacrifice ... go to the Discard Phase"."""
    hand = ["Porch", "Burnt Offering", "Burnt Offering"]
    state = table(hand, ["Doubt", "Blemished Animal"], step="build")
    state["play"][0].update(priest=True, altar=True, bad_offering=spoiler == "Bad Offering")
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    state = act(state, 1, {"type": "sin", "card": "Doubt"})
    state = act(state, 0, {"type": "burnt"})
    if spoiler == "Blemished Animal":
        state = act(state, 1, {"type": "blemish"})
    assert state["step"] == "answer" and state["actor"] == 0
    assert "place" not in kinds(state, 0), "the Sin still stands"
    state = act(state, 0, {"type": "burnt"})
    if spoiler == "Bad Offering":  # the Blemished Animal is still held: its window opens
        state = act(state, 1, {"type": "pass"})
    assert state["structures"][0] == ["Porch"] and state["discard"][0].count("Burnt Offering") == 2


def test_blemished_animal_answers_peace_and_guilt_offerings_too() -> None:
    state = table(["Peace Offering", "Guilt Offering", "Levite"], ["Blemished Animal"])
    state["play"][0].update(priest=True, altar=True)
    state = act(state, 0, {"type": "offer", "card": "Peace Offering"})
    assert state["step"] == "blemish" and state["actor"] == 1
    assert GAME.view(state, 1)["offering"] == "Peace Offering"
    state = act(state, 1, {"type": "blemish"})
    assert state["step"] == "main" and state["actor"] == 0 and state["offering"] is None
    assert state["hand"][0] == ["Guilt Offering", "Levite"], "the Peace Offering did nothing"
    state["hand"][1].append("Blemished Animal")
    state["deck"][1].remove("Blemished Animal")
    state = act(state, 0, {"type": "offer", "card": "Guilt Offering"})
    assert state["step"] == "blemish" and state["offering"] == "Guilt Offering"
    state = act(state, 1, {"type": "pass"})
    drawn = len(state["hand"][0]) + (state["play"][0]["scapegoat"] is not None)
    assert state["actor"] == 0 and drawn == HAND, "Guilt redraws eight"


def test_grain_offering_is_no_animal_and_opens_no_blemish_window() -> None:
    state = table(["Grain Offering", "Levite"], ["Blemished Animal"])
    state["play"][0].update(priest=True, altar=True)
    state = act(state, 0, {"type": "offer", "card": "Grain Offering"})
    assert state["step"] == "main" and state["actor"] == 0 and state["grain"]


def test_unclean_in_the_sin_window_stops_the_burnt_offering() -> None:
    state = table(["Porch", "Burnt Offering"], ["Doubt", "Unclean"], step="build")
    state["play"][0].update(priest=True, altar=True)
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    state = act(state, 1, {"type": "evil", "card": "Unclean"})
    state = act(state, 1, {"type": "sin", "card": "Doubt"})
    assert "burnt" not in kinds(state, 0)


def test_scapegoat_negates_a_sin_with_a_priest() -> None:
    state = table(["Porch"], ["Arrogance"], step="build")
    state["play"][0].update(priest=True, scapegoat="active")
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    state = act(state, 1, {"type": "sin", "card": "Arrogance"})
    state = act(state, 0, {"type": "scapegoat"})
    assert state["structures"][0] == ["Porch"] and state["play"][0]["scapegoat"] is None


def test_an_unclean_priest_cannot_send_the_scapegoat_away() -> None:
    """Book: "Unclean disables the Priest (good), making him unable to offer up ANY sacrifice for
    the current [turn]" and the Scapegoat: "A Priest (good) must be in play to use the
    Scapegoat." A disabled Priest is not a Priest in play."""
    state = table(["Porch", "Levite"], ["Arrogance", "Unclean"], step="build")
    state["play"][0].update(priest=True, scapegoat="active")
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    state = act(state, 1, {"type": "evil", "card": "Unclean"})
    state = act(state, 1, {"type": "sin", "card": "Arrogance"})
    assert state["step"] == "discard", "no answer left: the Sin stands at once"
    assert state["play"][0]["scapegoat"] == "active" and state["structures"][0] == []
    state.update(step="answer", actor=0, sin="Arrogance")
    assert "scapegoat" not in kinds(state, 0)


def test_grain_offering_keeps_sin_away() -> None:
    state = table(["Porch"], ["Doubt"], step="build")
    state["grain"] = True
    state = act(state, 0, {"type": "announce", "card": "Porch"})
    assert state["structures"][0] == ["Porch"] and state["step"] == "discard"


def test_furnishing_needs_its_structure_and_cooperation_places_two() -> None:
    state = table(["Cherubim", "Veil", "Cooperation"], step="place")
    assert "place" not in kinds(state, 0)
    state["structures"][0] = ["Holy of Holies"]
    state = act(state, 0, {"type": "place", "card": "Cherubim", "with": "Veil"})
    assert state["furnishings"][0] == ["Cherubim", "Veil"] and state["hand"][0] == []


def test_guarded_gate_goes_on_an_open_gate_only() -> None:
    state = table(["Guarded Gate"], step="place")
    state["guarded"][0] = [True, False, True]
    assert GAME.legal_moves(state, 0) == [{"type": "place", "card": "Guarded Gate", "gate": 1}]


# -- Phase IV and the end ---------------------------------------------------------------------


def test_discard_up_to_two() -> None:
    state = table(["Doubt", "Arrogance", "Veil"], step="discard")
    state = act(state, 0, {"type": "discard", "card": "Doubt"})
    state = act(state, 0, {"type": "discard", "card": "Veil"})
    assert kinds(state, 0) == {"end_turn"}


def test_eight_unplaceable_furnishings_may_be_reshuffled() -> None:
    hand = [
        "Veil",
        "Cherubim",
        "Ark of the Covenant",
        "Bronze Sea",
        "Bronze Lavers",
        "Capital of Boaz",
        "Capital of Jachin",
        "Golden Lampstand",
    ]
    state = table(hand, step="discard")
    assert "reshuffle" in kinds(state, 0)
    state = act(state, 0, {"type": "reshuffle"})
    assert state["turn"] == 1 and state["hand"][0] == []
    while state["turn"] != 0:  # "At the start of your next turn, draw eight (8) new cards."
        state = act(state, state["actor"], _skip(state))
    assert len(state["hand"][0]) + (state["play"][0]["scapegoat"] is not None) == HAND


def test_turn_limit_gives_the_larger_temple() -> None:
    state = table(step="discard")
    state["turn_no"] = state["turn_limit"]
    state["structures"][1] = ["Porch"]
    state = act(state, 0, {"type": "end_turn"})
    outcome = GAME.outcome(state)
    assert outcome and outcome.winners == [1] and outcome.breakdown[1]


def test_every_refusal_names_its_rule() -> None:
    state = table(["Porch"], step="build")
    for bad in ({"type": "place", "card": "Porch"}, {"type": "play", "card": "Veil"}, {"x": 1}):
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, 0, bad, RNG)
        assert err.value.message
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 1, {"type": "skip_build"}, RNG)
    assert err.value.code == "not_your_turn"


# -- random games -----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_random_games_keep_every_card_and_refuse_outside_moves(seed: int) -> None:
    play = play_random(GAME, 2, SolomonOptions(), f"sol:{seed}")
    state = play.state
    assert GAME.outcome(state) is not None
    for seat in range(2):
        assert total_cards(state, seat) == Counter(COUNTS), "a card was lost or made"
        assert len(state["armies"][seat]) <= 5


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 300))
def test_views_hide_hands_and_piles(seed: int, steps: int) -> None:
    chooser = Random(seed)
    state = GAME.setup(2, SolomonOptions(), Random(seed))
    for _ in range(steps):
        if not GAME.to_act(state):
            break
        seat = next(iter(GAME.to_act(state)))
        state = GAME.apply(state, seat, chooser.choice(GAME.legal_moves(state, seat)), chooser)[0]
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        for seat in range(2):
            assert (view["sides"][seat]["hand"] is not None) == (viewer == seat)
            assert "deck" not in view["sides"][seat]
        other = dict(state, hand=[list(h) for h in state["hand"]])
        if viewer != 0:
            other["hand"][0] = ["Doubt"] * len(state["hand"][0])
        if viewer != 1:
            other["hand"][1] = ["Doubt"] * len(state["hand"][1])
        assert GAME.view(other, viewer) == view
    acting = GAME.to_act(state)
    if acting:
        seat = next(iter(acting))
        for bogus in (
            {"type": "place", "card": "Nothing"},
            {"type": "move", "army": 9, "dir": "n"},
        ):
            with pytest.raises(IllegalMove):
                GAME.apply(state, seat, bogus, chooser)
