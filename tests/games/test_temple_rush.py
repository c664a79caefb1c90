"""Temple Rush: a test per rule of the book, from hand-made states, plus random-game properties."""

from __future__ import annotations

import copy
import hashlib
import json
from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import IllegalMove
from games.protocol import replay
from games.temple_rush.board import all_block_ids, supply_counts, zone_mask
from games.temple_rush.data import (
    BLOCK_COUNTS,
    BLOCK_SIZES,
    COLOURS,
    DIE_FACES,
    LIGHTNING,
    SHAPE_MASKS,
    SILHOUETTES,
    STAR,
    colour,
    value,
)
from games.temple_rush.geometry import (
    block_mask,
    buildable,
    contacts,
    fewest_blocks,
    fewest_tiles,
    joined_tiling,
    joins_all,
    one_piece,
    pieces,
    tileable,
)
from games.temple_rush.moves import bonus_moves
from games.temple_rush.robot import robot_done
from games.temple_rush.rounds import settle
from games.temple_rush.rules import TempleRush, TempleRushOptions, _score
from tests.games.playout import Playout, play_random, start, step

GAME = TempleRush()
# Card 0 is ".###." over "#####": e.g. a 1x2 and a 1x3 on the ground joined by a 1x2 and a
# 1x1 on top (blocks join only on top of one another).
SMALL = 0
# Card 3 is ".##." twice over "####": a 1x4 with two upright 1x2 on it.
TOWER = 3


def new(players: int, seed: int = 1, **options: Any) -> dict:
    return GAME.setup(players, TempleRushOptions(**options), Random(seed))


def blk(size: int, col: int, row: int, direction: str = "flat") -> tuple[int, int, int, str]:
    return size, col, row, direction


def build(state: dict, seat: int, zone: int, *blocks: tuple[int, int, int, str]) -> dict:
    """Put blocks from `seat`'s supply into a zone (test set-up, not a move)."""
    player = state["seats"][seat]
    for size, col, row, direction in blocks:
        block_id = next(i for i in player["supply"] if BLOCK_SIZES[i] == size)
        player["supply"].remove(block_id)
        player["zones"][zone].append(
            {"id": block_id, "size": size, "col": col, "row": row, "dir": direction})
    return state


def table(players: int = 2, holders: tuple[int | None, ...] = (SMALL, TOWER),
          dice: tuple[int, ...] | None = None, deck: list[int] | None = None,
          **options: Any) -> dict:
    """A fresh game with chosen cards in the holders, dice and deck."""
    state = new(players, **options)
    state["holders"] = list(holders)
    for player in state["seats"]:
        player["zones"] = [[] for _ in holders]
        player["held"] = [[] for _ in holders]
    state["dice"] = list(dice or [STAR] * players)
    state["deck"] = list(deck if deck is not None else [20, 21, 22])
    return state


def place(zone: int, size: int, col: int, row: int, direction: str = "flat",
          **extra: Any) -> dict:
    return {"type": "place", "zone": zone, "size": size, "col": col, "row": row,
            "dir": direction, **extra}


def play(state: dict, *moves: tuple[int, dict]) -> dict:
    """Apply moves; (seat, PASS) where the book forbids a pass is `sit_out` (test set-up), and a
    completion's bonus choice, unless the next move makes it, banks the largest block."""
    for n, (seat, move) in enumerate(moves):
        if move == PASS and PASS not in GAME.legal_moves(state, seat):
            state = sit_out(state, seat)
        else:
            state, _ = GAME.apply(state, seat, move, Random(0))
        choices = bonus_moves(state, seat)
        chosen_next = n + 1 < len(moves) and moves[n + 1][1].get("type") == "bonus"
        if choices and not chosen_next:
            state, _ = GAME.apply(state, seat, choices[-1], Random(0))
    return state


def sit_out(state: dict, seat: int) -> dict:
    """Test set-up: `seat` does nothing this round, as if it could not place (not a move)."""
    state = copy.deepcopy(state)
    state["done"][seat] = "pass"
    settle(state, Random(0))
    return state


PASS = {"type": "pass"}


# -- components --------------------------------------------------------------------------------


def test_a_bigger_temple_is_never_worth_less():
    """Book: "The cards have different point values, depending on the size of the temples."
    Over every pair of the 32 temple cards (the lightning card is no temple)."""
    cells = [SHAPE_MASKS[card].bit_count() for card in range(32)]
    wrong = [(a, b) for a in range(32) for b in range(32)
             if cells[a] > cells[b] and value(a) < value(b)]
    assert wrong == []
    bands = {colour(first): (min(cells[first:first + 8]), max(cells[first:first + 8]))
             for first in range(0, 32, 8)}
    assert bands == {"green": (7, 10), "blue": (10, 12), "red": (12, 16), "brown": (16, 20)}


def test_thirty_two_cards_four_colours_of_eight_with_book_values():
    assert len(SILHOUETTES) == 32
    assert [colour(c) for c in range(0, 32, 8)] == list(COLOURS)
    assert {colour(c): value(c) for c in range(32)} == {
        "green": 3, "blue": 4, "red": 5, "brown": 6}
    assert value(LIGHTNING) == 3
    assert len(set(SILHOUETTES)) == 32


@pytest.mark.parametrize("card", range(32))
def test_every_temple_is_buildable_in_one_piece_from_one_players_blocks(card):
    """A solver proves each silhouette can be built from 13 blocks, block by block, each new
    block joining the figure on top or underneath (the connection rule), and that its value is
    the fewest blocks of such a build."""
    laid = joined_tiling((), SHAPE_MASKS[card], BLOCK_COUNTS)
    assert laid is not None
    union = 0
    for mask in laid:
        assert not union & mask
        union |= mask
    assert union == SHAPE_MASKS[card]
    counts = [0, 0, 0, 0]
    for mask in laid:
        counts[mask.bit_count() - 1] += 1
    assert all(n <= most for n, most in zip(counts, BLOCK_COUNTS, strict=True))
    order, rest = [laid[0]], list(laid[1:])  # lay them one at a time, each joining the figure
    while rest:
        nxt = next(m for m in rest if m & contacts(sum(order)))
        order.append(nxt)
        rest.remove(nxt)
    assert fewest_blocks(SHAPE_MASKS[card], BLOCK_COUNTS) == value(card)


def test_fewest_tiles_counts_blocks_joined_or_not():
    row = block_mask(4, 0, 0, "flat") | block_mask(1, 4, 0, "flat")  # five cells in a row
    assert fewest_tiles(row, (1, 1, 1, 1)) == 2
    assert fewest_tiles(row, (1, 2, 0, 0)) == 3
    assert fewest_tiles(row, (5, 0, 0, 0)) == 5
    assert fewest_tiles(row, (0, 0, 0, 1)) is None
    # Two 1x2s end to end are not joined (nothing on top): no build, but still two blocks.
    assert fewest_blocks(block_mask(4, 0, 0, "flat"), (0, 2, 0, 0)) is None
    assert fewest_tiles(block_mask(4, 0, 0, "flat"), (0, 2, 0, 0)) == 2
    assert fewest_tiles(0, (0, 0, 0, 0)) == 0
    for card, shape in enumerate(SHAPE_MASKS):  # no joins asked: never more than a build's
        assert fewest_tiles(shape, BLOCK_COUNTS) <= value(card)


def test_blocks_join_on_top_or_underneath_not_side_by_side():
    """Book: loose blocks "lying next to each other" are not allowed without Mortar, and with it
    they lie "next to each other ... although the blocks do not immediately connect"."""
    left, right = block_mask(2, 0, 0, "flat"), block_mask(2, 2, 0, "flat")
    assert not one_piece([left, right]), "end to end in one layer: not joined"
    assert one_piece([left, right, block_mask(2, 1, 1, "flat")]), "a block on top bridges them"
    side = block_mask(3, 2, 0, "upright")
    assert not one_piece([left, side]), "beside an upright block: not joined"
    assert one_piece([block_mask(3, 1, 0, "upright"), block_mask(3, 0, 3, "flat")])


_BLOCKS = st.builds(block_mask, st.integers(1, 4), st.integers(0, 3), st.integers(0, 3),
                    st.sampled_from(["flat", "upright"]))


@settings(max_examples=300, deadline=None)
@given(blocks=st.lists(_BLOCKS, max_size=6), new=_BLOCKS)
def test_adding_a_block_to_the_figures_agrees_with_one_piece(blocks, new):
    # Move generation tries many blocks on one construction through its figures (`pieces`).
    assert joins_all(pieces(blocks), new) == one_piece([*blocks, new])


def test_blocks_and_dice_match_the_box():
    assert sorted(BLOCK_SIZES) == [1] * 3 + [2] * 4 + [3] * 3 + [4] * 3
    assert supply_counts(list(range(13))) == (3, 4, 3, 3)


def test_a_die_shows_each_block_size_once_and_two_stars():
    """Book: "draw the block that matches the symbol on the die"; "Her die shows a star which
    allows her to draw any building block" (faces found in reviews: 1x1, 1x2, 1x3, 1x4, two
    stars)."""
    assert sorted(DIE_FACES) == [STAR, STAR, 1, 2, 3, 4]
    state = new(4, seed=3)
    for _ in range(6):
        assert len(state["dice"]) == 4 and set(state["dice"]) <= set(DIE_FACES), "one die a seat"
        state = play(state, *((seat, PASS) for seat in range(4)))


# -- setup -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "pile", "holders"), [(2, 9, 2), (3, 11, 2), (4, 13, 3)])
def test_setup_pile_holders_and_lightning(players, pile, holders):
    state = new(players)
    assert len(state["holders"]) == holders and None not in state["holders"]
    assert len(state["deck"]) == pile - holders + 1
    assert state["deck"].count(LIGHTNING) == 1
    cards = state["holders"] + [c for c in state["deck"] if c != LIGHTNING]
    assert len(set(cards)) == pile
    for player in state["seats"]:
        assert player["supply"] == list(range(13))
        assert len(player["zones"]) == holders
        assert player["powers"] == {"hammer": "unused", "bag": "unused", "mortar": "unused"}
    assert GAME.to_act(state) == frozenset(range(players)), "everyone builds at once"
    assert state["round"] == 1 and state["roller"] == 0


def test_the_roller_rotates_each_round():
    state = table(3, dice=(STAR, STAR, STAR))
    state = play(state, (0, PASS), (1, PASS), (2, PASS))
    assert state["round"] == 2 and state["roller"] == 1


@pytest.mark.parametrize("players", [0, 5])
def test_player_counts_outside_one_to_four_are_refused(players):
    with pytest.raises(IllegalMove) as refused:
        new(players)
    assert refused.value.code == "bad_options"


def test_cooperative_finale_needs_three_or_four_players():
    with pytest.raises(IllegalMove) as refused:
        new(2, cooperative_finale=True)
    assert refused.value.code == "bad_options"
    assert new(3, cooperative_finale=True)["options"]["cooperative_finale"]


def test_solo_setup_decks_holders_and_tokens():
    state = new(1, robot_card_value=5)
    mine, robot = state["seats"][0], state["robot"]
    assert mine["powers"] == {"hammer": "unused", "mortar": "unused"}, "no Bag in solo"
    assert len(state["holders"]) == 2 and len(state["deck"]) == 3
    assert colour(state["holders"][0]) == "brown", "the extra brown card is on top"
    assert len(robot["deck"]) == 4
    assert not state["deck"].count(LIGHTNING)
    robot_cards = [*robot["cards"], *([robot["holder"]] if robot["holder"] is not None else []),
                   *robot["deck"]]
    assert len(robot_cards) == 5
    assert sorted(colour(c) for c in robot_cards).count("red") == 2, "difficulty card is red"
    assert GAME.to_act(state) == frozenset({0})


def test_solo_decks_one_card_of_each_colour_plus_brown_for_you_and_blue_for_the_robot():
    """Book (solo): "Select four random temple cards, one in each of the four colours, for each
    player." "Add one additional card on top of each of the two decks: a brown card (6 points)
    for the solo player and a blue card (4 points) for the Robot." "Draw two cards from the
    solo player's deck and one card from the Robot's deck"."""
    for seed in range(5):
        state = new(1, seed=seed)
        robot = state["robot"]
        mine = [*state["holders"], *state["deck"]]
        assert len(state["holders"]) == 2 and colour(mine[0]) == "brown"
        assert sorted(colour(c) for c in mine[1:]) == sorted(COLOURS)
        its = [robot["holder"], *robot["deck"]]
        assert len(its) == 5 and colour(its[0]) == "blue", "the blue card lies on top"
        assert sorted(colour(c) for c in its[1:]) == sorted(COLOURS)


def test_solo_decks_never_share_a_card_even_with_a_brown_robot_card():
    state = new(1, robot_card_value=6)
    robot = state["robot"]
    cards = [*state["holders"], *state["deck"], *robot["cards"], *robot["deck"]]
    cards += [robot["holder"]] if robot["holder"] is not None else []
    assert len(cards) == len(set(cards)) == 10


# -- building ----------------------------------------------------------------------------------


def spots(state: dict, seat: int = 0, zone: int = 0) -> set[tuple]:
    return {(m["size"], m["col"], m["row"], m["dir"], m.get("power"))
            for m in GAME.legal_moves(state, seat)
            if m["type"] == "place" and m["zone"] == zone}


def plain(state: dict, seat: int = 0, zone: int = 0) -> set[tuple]:
    """Placements without a power token."""
    return {spot for spot in spots(state, seat, zone) if spot[4] is None}


def test_the_die_decides_the_block_and_a_star_allows_any():
    state = table(dice=(2, STAR))
    assert {s[0] for s in spots(state) if s[4] is None} == {2}
    assert {s[0] for s in spots(state, seat=1) if s[4] is None} == {1, 2, 3, 4}


def test_a_block_lies_inside_the_silhouette_flat_or_on_end():
    state = table(dice=(4, 4))
    assert plain(state) == {(4, 0, 0, "flat", None), (4, 1, 0, "flat", None)}
    state["dice"] = [2, 2]
    tower = plain(state, zone=1)
    assert (2, 1, 1, "upright", None) in tower and (2, 1, 1, "flat", None) in tower
    assert (2, 0, 1, "flat", None) not in tower, "outside the silhouette"


def test_later_blocks_must_join_on_top_or_underneath_and_not_overlap():
    state = build(table(dice=(1, 1)), 0, 0, blk(4, 0, 0))
    ones = {(c, r) for size, c, r, _, power in spots(state) if power is None}
    assert ones == {(1, 1), (2, 1), (3, 1)}, "(4, 0) lies beside the 1x4: that does not join"


def test_building_can_start_anywhere_not_only_at_the_bottom():
    state = table(dice=(1, 1))
    assert (1, 2, 1, "flat", None) in spots(state)


def test_mortar_allows_a_loose_block_and_lasts_until_that_zone_completes():
    state = build(table(dice=(1, 1)), 0, 1, blk(2, 1, 2, "flat"))
    loose = place(1, 1, 0, 0, power="mortar")
    assert loose in GAME.legal_moves(state, 0)
    state = play(state, (0, loose), (1, PASS))
    player = state["seats"][0]
    assert player["powers"]["mortar"] == "active" and player["mortar_zone"] == 1
    state["dice"] = [1, 1]
    assert (1, 3, 0, "flat", None) in spots(state, zone=1), "further loose blocks are free"


def test_hammer_and_mortar_combine_for_a_loose_block_of_another_size():
    state = build(table(dice=(1, 1)), 0, 1, blk(2, 1, 2, "flat"))
    both = place(1, 4, 0, 0, power="hammer+mortar")
    assert both in GAME.legal_moves(state, 0)
    state = play(state, (0, both))
    player = state["seats"][0]
    assert player["powers"] == {"hammer": "used", "bag": "unused", "mortar": "active"}
    assert player["mortar_zone"] == 1


def test_without_mortar_no_loose_blocks():
    state = build(table(dice=(1, 1)), 0, 1, blk(2, 1, 2, "flat"))
    state["seats"][0]["powers"]["mortar"] = "used"
    assert all(power != "mortar" for *_, power in spots(state, zone=1))
    assert (1, 0, 0, "flat", None) not in spots(state, zone=1)


def test_hammer_and_chisel_takes_a_block_of_another_size():
    state = table(dice=(1, 1))
    move = place(0, 4, 0, 0, power="hammer")
    assert move in GAME.legal_moves(state, 0)
    state = play(state, (0, move))
    assert state["seats"][0]["powers"]["hammer"] == "used"
    state["seats"][0]["powers"]["hammer"] = "used"
    state["done"] = [False, False]
    assert move not in GAME.legal_moves(state, 0)


def test_hammer_and_chisel_swaps_a_placed_block_for_another_size():
    """Book: "exchange ... a block already used for a temple with a block of a different size".
    It goes back to the supply; the new one goes anywhere in that temple where it fits."""
    state = build(table(dice=(2, 2)), 0, 0, blk(3, 0, 0), blk(1, 2, 1))
    move = {"type": "chisel", "zone": 0, "block": 7}
    assert move in GAME.legal_moves(state, 0)
    state = play(state, (0, move))
    player = state["seats"][0]
    assert player["powers"]["hammer"] == "used" and 7 in player["supply"]
    assert [b["size"] for b in player["zones"][0]] == [1]
    after = GAME.legal_moves(state, 0)
    assert {m["type"] for m in after} == {"place"} and {m["zone"] for m in after} == {0}
    assert 3 not in {m["size"] for m in after}, "a block of a different size"
    where = {(m["size"], m["col"], m["row"], m["dir"]) for m in after}
    assert (4, 0, 0, "flat") in where and (4, 1, 0, "flat") in where, "not only from the corner"
    assert (2, 0, 0, "flat") not in where, "a 1x2 there would leave the 1x1 hanging loose"
    state = play(state, (0, place(0, 4, 1, 0)))
    assert sorted(b["size"] for b in state["seats"][0]["zones"][0]) == [1, 4]
    assert 0 in GAME.to_act(state), "a free action: the die's block still goes down"
    state = play(state, (0, PASS), (1, PASS))
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "chisel"], "once a game"


def test_the_chisel_is_offered_only_for_a_block_something_can_replace():
    state = build(table(dice=(2, 2)), 0, 0, blk(2, 0, 0), blk(3, 1, 1))
    player = state["seats"][0]
    player["supply"] = []
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "chisel"]
    player["supply"] = [10, 11, 12]  # a 1x4 can stand in for the 1x2, not for the top 1x3
    chisels = [m for m in GAME.legal_moves(state, 0) if m["type"] == "chisel"]
    assert chisels == [{"type": "chisel", "zone": 0, "block": 3}]


def test_a_missing_block_may_come_from_another_intact_construction():
    state = build(table(dice=(1, 1)), 0, 1, blk(4, 0, 0), blk(1, 1, 1), blk(1, 2, 1))
    state = build(state, 0, 0, blk(1, 2, 1))
    assert not [i for i in state["seats"][0]["supply"] if BLOCK_SIZES[i] == 1]
    moves = [m for m in GAME.legal_moves(state, 0) if m.get("from_zone") is not None]
    assert {(m["from_zone"], m["block"]) for m in moves} == {(1, 0), (1, 1), (0, 2)}, (
        "either 1x1 of zone 2 may leave it intact; zone 1's lone block may go too")


def test_a_star_moves_a_block_between_constructions_only_when_the_supply_is_empty():
    state = build(table(dice=(STAR, STAR)), 0, 1, blk(4, 0, 0), blk(2, 1, 1), blk(1, 1, 2))
    state = build(state, 0, 0, blk(1, 2, 1))
    assert not [m for m in GAME.legal_moves(state, 0) if "from_zone" in m], (
        "the supply still has blocks: the star's block comes from it")
    player = state["seats"][0]
    player["bonus"], player["supply"] = player["supply"], []
    moves = [m for m in GAME.legal_moves(state, 0) if "from_zone" in m]
    assert {m["size"] for m in moves} == {1, 4}, "an empty supply: any block that can leave"


def test_no_move_from_a_construction_that_would_fall_apart():
    state = table(dice=(1, 1))
    state = build(state, 0, 0, blk(2, 0, 0), blk(1, 2, 0), blk(2, 3, 0))
    state = build(state, 0, 1, blk(2, 1, 1, "upright"), blk(1, 1, 0), blk(2, 2, 0))
    player = state["seats"][0]
    player["supply"].remove(2)
    player["bonus"] = [2]
    assert not [m for m in GAME.legal_moves(state, 0) if "from_zone" in m], (
        "each 1x1 holds its construction together, so none may leave")


def test_a_seat_passes_only_when_it_cannot_place_the_dies_block():
    state = table(dice=(1, 1))
    assert {"type": "pass"} not in GAME.legal_moves(state, 0), "a 1x1 fits: no pass"
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 0, PASS, Random(0))
    assert refused.value.code == "illegal_move"
    state["seats"][0]["supply"] = [i for i in state["seats"][0]["supply"] if BLOCK_SIZES[i] != 1]
    assert PASS in GAME.legal_moves(state, 0), "no 1x1 left: the seat must pass"
    state, _ = GAME.apply(state, 0, PASS, Random(0))
    assert GAME.to_act(state) == frozenset({1})
    assert GAME.legal_moves(state, 0) == []
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 0, PASS, Random(0))
    assert refused.value.code == "not_your_turn"


def test_completing_a_temple_with_the_chisel_ends_the_seats_round():
    state = build(table(dice=(2, 2)), 0, 0, blk(2, 0, 0), blk(2, 3, 0), blk(3, 1, 1))
    state, _ = GAME.apply(state, 0, {"type": "chisel", "zone": 0, "block": 3}, Random(0))
    state, events = GAME.apply(state, 0, place(0, 3, 0, 0), Random(0))
    assert any("temple complete" in e.text for e in events)
    assert {m["type"] for m in GAME.legal_moves(state, 0)} == {"bonus"}, "only the bonus block"
    state, _ = GAME.apply(state, 0, GAME.legal_moves(state, 0)[0], Random(0))
    assert 0 not in GAME.to_act(state), "take no further action until the others finish"
    assert GAME.legal_moves(state, 0) == []


def test_the_bonus_block_is_the_players_choice():
    # SMALL built of a 1x1, two 1x2 and a 1x3: banking the 1x1 now keeps larger sizes free.
    state = finish_small(table(dice=(1, 1)), 0)
    state, _ = GAME.apply(state, 0, place(0, 1, 3, 1), Random(0))
    choices = GAME.legal_moves(state, 0)
    assert choices == [{"type": "bonus", "zone": 0, "block": 0},
                       {"type": "bonus", "zone": 0, "block": 3},
                       {"type": "bonus", "zone": 0, "block": 7}]
    state = play(state, (0, choices[0]), (1, PASS))
    assert state["seats"][0]["bonus"] == [0] and state["seats"][0]["cards"] == [SMALL]
    assert sorted(state["seats"][0]["supply"]) == [i for i in range(13) if i != 0]


def test_a_building_mistake_is_corrected_by_exchanging_one_block_for_one_from_the_supply():
    """Book: "use their turn to correct the build by exchanging one incorrect building block
    with one correct building block from the player's supply ... does not draw any additional
    blocks in that round". (A mistake no single exchange corrects: any replacement.)"""
    state = build(table(dice=(4, 4)), 0, 0, blk(2, 1, 0), blk(1, 2, 1))
    state["seats"][0]["supply"].remove(12)  # two 1x4 left in the supply
    move = {"type": "exchange", "zone": 0, "block": 3}
    assert move in GAME.legal_moves(state, 0)
    state = play(state, (0, move))
    assert 3 in state["seats"][0]["supply"] and 0 in GAME.to_act(state)
    after = GAME.legal_moves(state, 0)
    assert {m["type"] for m in after} == {"place"} and {m["zone"] for m in after} == {0}
    assert {m["size"] for m in after} == {1, 2, 3, 4}, "any block of the supply, not the die's"
    assert not [m for m in after if (m["size"], m["col"], m["row"]) == (2, 1, 0)
                and m["dir"] == "flat"], "putting the same block back is no exchange"
    state = play(state, (0, place(0, 4, 0, 0)))
    assert 0 not in GAME.to_act(state), "the exchange was the turn: no die block this round"
    assert state["done"][0] == "exchange"
    player = state["seats"][0]
    assert sorted(b["size"] for b in player["zones"][0]) == [1, 4]
    assert sorted(player["supply"]) == sorted(set(range(13)) - {0, 10, 12}), "one out, one in"


def test_an_exchange_is_offered_only_for_a_temple_built_wrong():
    """Book: "If players discover that a temple has been built incorrectly, they may use their
    turn to correct the build by exchanging one incorrect building block with one correct
    building block from the player's supply." A build that can still become the card's temple
    in one piece is not incorrect: no exchange, so no way around placing the die's block."""
    right = build(table(dice=(4, 4)), 0, 0, blk(3, 0, 0))
    assert "exchange" not in kinds_of(right, 0)
    with pytest.raises(IllegalMove):
        GAME.apply(right, 0, {"type": "exchange", "zone": 0, "block": 7}, Random(0))
    # A 1x4 from column 1 leaves column 5 of SMALL's bottom layer alone: nothing can reach it.
    wrong = build(table(dice=(4, 4)), 0, 0, blk(4, 0, 0))
    assert [m for m in GAME.legal_moves(wrong, 0) if m["type"] == "exchange"] == [
        {"type": "exchange", "zone": 0, "block": 10}]
    wrong = play(wrong, (0, {"type": "exchange", "zone": 0, "block": 10}))
    offered = GAME.legal_moves(wrong, 0)
    assert place(0, 3, 0, 0) in offered and place(0, 2, 3, 0) in offered, "correct blocks"
    assert place(0, 4, 1, 0) not in offered, "another wrong block is no correction"
    assert place(0, 1, 4, 0) not in offered


def test_a_mistake_no_single_exchange_corrects_may_still_be_worked_on():
    """Two wrong blocks (the 1x2 cuts off column 1, the 1x1 on top splits the top layer): no
    one exchange makes SMALL buildable, so each block may be exchanged, one a turn."""
    state = build(table(), 0, 0, blk(2, 1, 0), blk(1, 2, 1))
    assert {m["block"] for m in GAME.legal_moves(state, 0) if m["type"] == "exchange"} == {0, 3}


def test_no_block_is_simply_taken_back():
    state = build(table(), 0, 0, blk(4, 0, 0), blk(1, 4, 0))
    kinds = {m["type"] for m in GAME.legal_moves(state, 0)}
    assert "takeback" not in kinds and "exchange" in kinds
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 0, {"type": "takeback", "zone": 0, "block": 10}, Random(0))
    assert refused.value.code == "bad_move"


def test_blocks_never_move_between_zones_otherwise():
    state = build(table(dice=(4, 4)), 0, 0, blk(4, 0, 0))
    assert all("from_zone" not in m for m in GAME.legal_moves(state, 0))


# -- completing --------------------------------------------------------------------------------


def finish_small(state: dict, seat: int) -> dict:
    """Build card 0 up to its last cell, leaving the top 1x1 at (3, 1) to place."""
    return build(state, seat, 0, blk(2, 0, 0), blk(3, 2, 0), blk(2, 1, 1))


def test_completing_wins_the_card_banks_one_block_and_turns_up_a_new_card():
    state = finish_small(table(dice=(1, 1), deck=[20, 21]), 0)
    state = play(state, (0, place(0, 1, 3, 1)))
    assert state["completions"] == [{"seat": 0, "zone": 0, "card": 0, "borrowed": [],
                                     "by": "place", "bonus": 7}]
    state = play(state, (1, PASS))
    player = state["seats"][0]
    assert player["cards"] == [SMALL]
    assert player["bonus"] == [7], "the chosen 1x3 goes to the bonus area"
    assert player["zones"][0] == [] and len(player["supply"]) == 12
    assert state["holders"][0] == 20 and state["deck"] == [21]


def test_bonus_area_holds_one_block_of_each_size():
    state = finish_small(table(dice=(1, 1)), 0)
    state["seats"][0]["bonus"] = [9]
    state["seats"][0]["supply"].remove(9)
    state, _ = GAME.apply(state, 0, place(0, 1, 3, 1), Random(0))
    offered = {BLOCK_SIZES[m["block"]] for m in GAME.legal_moves(state, 0)}
    assert offered == {1, 2}, "a 1x3 is in the bonus area already"


def test_a_second_completion_of_the_same_temple_takes_a_point_token():
    state = finish_small(finish_small(table(dice=(1, 1)), 0), 1)
    state = play(state, (1, place(0, 1, 3, 1)), (0, place(0, 1, 3, 1)))
    assert state["seats"][1]["cards"] == [SMALL], "seat 2 finished first"
    assert state["seats"][0]["tokens"] == [3] and state["seats"][0]["cards"] == []
    assert state["seats"][0]["zones"][0] == []


def test_every_later_completer_of_the_same_temple_takes_a_point_token():
    """Book (FAQ): "Two or more players complete the same temple in the same round? Answer: One
    player receives the temple card while the other player(s) receives a point token of the
    same value."
    """
    state = table(3, dice=(1, 1, 1))
    for seat in range(3):
        finish_small(state, seat)
    state = play(state, (2, place(0, 1, 3, 1)), (0, place(0, 1, 3, 1)), (1, place(0, 1, 3, 1)))
    assert [p["cards"] for p in state["seats"]] == [[], [], [SMALL]]
    assert [p["tokens"] for p in state["seats"]] == [[3], [3], []]
    assert all(len(p["bonus"]) == 1 and p["zones"][0] == [] for p in state["seats"])


def test_completions_of_different_temples_resolve_in_the_order_made():
    state = finish_small(table(dice=(2, 1), deck=[20, 21]), 1)
    state = build(state, 0, 1, blk(4, 0, 0), blk(2, 1, 1, "upright"))
    state = play(state, (0, place(1, 2, 2, 1, "upright")), (1, place(0, 1, 3, 1)))
    assert state["holders"] == [21, 20], "zone 2 (first completed) drew first"


def kinds_of(state: dict, seat: int) -> set[str]:
    return {m["type"] for m in GAME.legal_moves(state, seat)}


def test_others_rebuild_their_blocks_into_the_new_card_first():
    """Book: the others "may now rebuild their figure to match the figure on the temple card
    that replaces it — or return the building blocks to their supply"."""
    state = finish_small(table(dice=(1, 1), deck=[TOWER + 4]), 0)  # card 7: .##. x3 over ####
    state = build(state, 1, 0, blk(4, 1, 0), blk(1, 2, 1))  # the 1x4 pokes out of card 7
    state["holders"][1] = None
    state = play(state, (0, place(0, 1, 3, 1)), (1, PASS))
    assert state["holders"][0] == 7
    player = state["seats"][1]
    assert player["zones"][0] == [] and player["held"][0] == [0, 10]
    assert kinds_of(state, 1) == {"rebuild", "return"}, "rebuilding comes before the die"
    moved = {"type": "rebuild", "zone": 0, "size": 4, "col": 0, "row": 0, "dir": "flat"}
    assert moved in GAME.legal_moves(state, 1), "rearranged, not only kept where it stood"
    state = play(state, (1, moved))
    on_top = {"type": "rebuild", "zone": 0, "size": 1, "col": 1, "row": 1, "dir": "flat"}
    assert on_top in GAME.legal_moves(state, 1)
    assert {"type": "rebuild", "zone": 0, "size": 1, "col": 1, "row": 3, "dir": "flat"} not in (
        GAME.legal_moves(state, 1)), "a rebuilt block joins those rebuilt so far"
    state = play(state, (1, on_top))
    assert [b["id"] for b in state["seats"][1]["zones"][0]] == [10, 0]
    assert state["seats"][1]["held"][0] == [] and "place" in kinds_of(state, 1)


def test_a_rebuilding_player_may_return_blocks_instead():
    state = finish_small(table(dice=(1, 1), deck=[TOWER + 4]), 0)
    state = build(state, 1, 0, blk(4, 0, 0), blk(1, 2, 1))
    state["holders"][1] = None
    state = play(state, (0, place(0, 1, 3, 1)), (1, PASS))
    state = play(state, (1, {"type": "rebuild", "zone": 0, "size": 4, "col": 0, "row": 0,
                             "dir": "flat"}), (1, {"type": "return", "zone": 0}))
    player = state["seats"][1]
    assert [b["size"] for b in player["zones"][0]] == [4] and 0 in player["supply"]
    assert player["held"][0] == [] and "place" in kinds_of(state, 1)


def test_blocks_that_cannot_go_into_the_new_temple_go_home():
    state = finish_small(table(dice=(1, 1), deck=[2]), 0)  # card 2: .#. over ### over ###
    state = build(state, 1, 0, blk(4, 0, 0), blk(1, 2, 1))
    state["holders"][1] = None
    state = play(state, (0, place(0, 1, 3, 1)), (1, PASS))
    player = state["seats"][1]
    assert player["held"][0] == [0, 10], "only the 1x1 fits card 2, the 1x4 waits for now"
    assert {m["size"] for m in GAME.legal_moves(state, 1) if m["type"] == "rebuild"} == {1}
    state = play(state, (1, {"type": "rebuild", "zone": 0, "size": 1, "col": 1, "row": 2,
                             "dir": "flat"}))
    player = state["seats"][1]
    assert player["held"][0] == [] and 10 in player["supply"], "the 1x4 went back to the supply"
    state2 = finish_small(table(dice=(1, 1), deck=[2]), 0)
    state2 = build(state2, 1, 0, blk(4, 0, 0))
    state2["holders"][1] = None
    state2 = play(state2, (0, place(0, 1, 3, 1)), (1, PASS))
    assert state2["seats"][1]["held"][0] == [] and len(state2["seats"][1]["supply"]) == 13, (
        "nothing fits: everything goes home at once")


def rebuilding(holders: tuple[int | None, ...], held: list[int], **options: Any) -> dict:
    """Test set-up: the rebuild phase right after a card was won, seat 2 holding `held`."""
    state = table(dice=(1, 1), holders=holders, **options)
    state["phase"] = "rebuild"
    state["done"] = ["place", "place"]
    state["seats"][1]["held"][0] = list(held)
    for block_id in held:
        state["seats"][1]["supply"].remove(block_id)
    return state


def test_the_others_rebuild_as_soon_as_the_card_is_won_before_the_next_dice():
    """Book: "When a player wins a temple card, all other players with building blocks placed
    in the same build zone as the just completed temple, may now rebuild their figure to match
    the figure on the temple card that replaces it — or return the building blocks to their
    supply." Now: when the card is won, not in the next round after its dice."""
    state = finish_small(table(dice=(1, 1), deck=[TOWER + 4, 20, 21]), 0)
    state = build(state, 1, 0, blk(4, 0, 0), blk(1, 2, 1))
    state = play(state, (0, place(0, 1, 3, 1)), (1, PASS))
    assert state["seats"][0]["cards"] == [SMALL] and state["holders"][0] == TOWER + 4
    assert state["phase"] == "rebuild" and GAME.to_act(state) == {1}
    assert state["round"] == 1 and state["dice"] == [1, 1], "no new dice before the rebuild"
    assert GAME.view(state, 0)["phase"] == "rebuild"
    assert GAME.legal_moves(state, 0) == [], "the winner waits"
    state = play(state, (1, {"type": "return", "zone": 0}))
    assert state["phase"] == "build" and state["round"] == 2 and GAME.to_act(state) == {0, 1}


def test_rebuilt_blocks_may_complete_the_new_temple_and_the_round_still_comes():
    """Book: "When a player's temple matches the temple on a card, the player shouts ... and
    wins the card" — also a rebuilt one. Chosen (RULES.md): the rebuild comes before the dice,
    so a rebuild that completes the new temple wins it at once and costs the seat nothing of the
    next round: it still rolls and places its die's block."""
    state = rebuilding((TOWER, None), [3, 4, 10], deck=[20, 21])  # two 1x2 and a 1x4 held
    state = play(state, (1, {"type": "rebuild", "zone": 0, "size": 4, "col": 0, "row": 0,
                             "dir": "flat"}),
                 (1, {"type": "rebuild", "zone": 0, "size": 2, "col": 1, "row": 1,
                      "dir": "upright"}),
                 (1, {"type": "rebuild", "zone": 0, "size": 2, "col": 2, "row": 1,
                      "dir": "upright"}))
    assert state["seats"][1]["cards"] == [TOWER], "won at once, when the rebuild completed it"
    assert state["holders"][0] == 20
    assert state["phase"] == "build" and state["round"] == 2
    assert 1 in GAME.to_act(state) and "place" in kinds_of(state, 1), "the round is not lost"


def test_an_empty_deck_leaves_the_holder_empty_and_the_last_card_ends_the_game():
    state = finish_small(table(dice=(1, 1), holders=(SMALL,), deck=[]), 0)
    state = play(state, (0, place(0, 1, 3, 1)), (1, PASS))
    assert state["phase"] == "over" and GAME.to_act(state) == frozenset()
    outcome = GAME.outcome(state)
    assert outcome.winners == [0]
    assert outcome.scores == [3 + 3 + 3, 3.0], "card + 1x3 bonus + three unused tokens"


def test_mortar_is_spent_when_its_zone_completes():
    state = finish_small(table(dice=(1, 1), deck=[20, 21]), 0)
    state["seats"][0].update(mortar_zone=0)
    state["seats"][0]["powers"]["mortar"] = "active"
    state = play(state, (0, place(0, 1, 3, 1)), (1, PASS))
    assert state["seats"][0]["powers"]["mortar"] == "used"
    assert state["seats"][0]["mortar_zone"] is None


def test_mortar_lets_rebuilt_blocks_lie_loose():
    state = rebuilding((TOWER, None), [0, 10])
    first = {"type": "rebuild", "zone": 0, "size": 1, "col": 1, "row": 2, "dir": "flat"}
    loose = {"type": "rebuild", "zone": 0, "size": 4, "col": 0, "row": 0, "dir": "flat"}
    mortared = copy.deepcopy(state)
    state = play(state, (1, first))
    assert 10 in state["seats"][1]["supply"], "it cannot be connected right away: it goes home"
    mortared["seats"][1]["mortar_zone"] = 0
    mortared["seats"][1]["powers"]["mortar"] = "active"
    mortared = play(mortared, (1, first))
    assert loose in GAME.legal_moves(mortared, 1)


def test_hammer_is_not_offered_with_a_star():
    state = table(dice=(STAR, STAR))
    assert all(m.get("power") != "hammer" for m in GAME.legal_moves(state, 0))


def test_the_last_card_won_empties_its_holder_and_sends_other_builders_home():
    state = finish_small(table(dice=(1, 1), deck=[]), 0)
    state = build(state, 1, 0, blk(4, 0, 0))
    state = play(state, (0, place(0, 1, 3, 1)), (1, PASS))
    assert state["holders"] == [None, TOWER] and state["phase"] == "build"
    assert state["seats"][1]["zones"][0] == [] and len(state["seats"][1]["supply"]) == 13


def test_a_lightning_card_with_nothing_beneath_is_set_aside():
    state = finish_small(table(dice=(1, 1), deck=[LIGHTNING]), 0)
    state = play(state, (0, place(0, 1, 3, 1)), (1, PASS))
    assert state["lightning"] is None and state["phase"] == "build"
    assert state["holders"] == [None, TOWER] and state["deck"] == []


# -- the Bag -----------------------------------------------------------------------------------


def test_the_bag_completes_a_temple_with_anothers_top_two_blocks():
    state = build(table(dice=(3, 3)), 0, 1, blk(4, 0, 0))
    state["seats"][1]["supply"] = [i for i in range(13) if i not in (3, 4, 10)]
    state["seats"][1]["zones"][0] = [
        {"id": 10, "size": 4, "col": 0, "row": 0, "dir": "flat"},
        {"id": 3, "size": 2, "col": 0, "row": 1, "dir": "upright"},
        {"id": 4, "size": 2, "col": 1, "row": 1, "dir": "upright"},
    ]
    move = {"type": "bag", "zone": 1, "seat": 1, "from_zone": 0}
    assert move in GAME.legal_moves(state, 0)
    state = play(state, (0, move))
    assert state["seats"][0]["powers"]["bag"] == "used"
    assert len(state["completions"][0]["borrowed"]) == 2
    assert 0 not in GAME.to_act(state), "completing a temple ends the seat's round"
    state = play(state, (1, PASS))
    assert state["seats"][0]["cards"] == [TOWER]
    assert len(state["seats"][1]["zones"][0]) == 3, "borrowed blocks went home"


def bag_table() -> dict:
    """Seats 1 and 3 each have the tower's 1x4 down; seat 2 has a whole tower in zone 1."""
    state = table(3, dice=(3, 3, 3))
    for seat in (0, 2):
        build(state, seat, 1, blk(4, 0, 0))
    build(state, 1, 0, blk(4, 0, 0), blk(2, 0, 1, "upright"), blk(2, 1, 1, "upright"))
    return state


def test_the_same_blocks_are_lent_to_one_player_only():
    move = {"type": "bag", "zone": 1, "seat": 1, "from_zone": 0}
    state = bag_table()
    assert move in GAME.legal_moves(state, 2)
    state = play(state, (0, move))
    assert move not in GAME.legal_moves(state, 2), "those blocks are already away"


def test_the_lender_cannot_touch_a_construction_whose_blocks_are_lent():
    state = bag_table()
    touching = [m for m in GAME.legal_moves(state, 1)
                if (m["type"] != "place" and m.get("zone") == 0) or m.get("from_zone") == 0]
    assert touching, "before lending, the construction may be taken back from or chiselled"
    state = play(state, (0, {"type": "bag", "zone": 1, "seat": 1, "from_zone": 0}))
    assert not [m for m in GAME.legal_moves(state, 1)
                if m.get("zone") == 0 or m.get("from_zone") == 0]


def test_the_bag_cannot_borrow_from_a_temple_finished_this_round():
    state = table(3, dice=(2, 2, 2))
    build(state, 0, 1, blk(4, 0, 0))
    build(state, 1, 1, blk(4, 0, 0), blk(2, 1, 1, "upright"))
    state = play(state, (1, place(1, 2, 2, 1, "upright")))
    assert state["completions"] and state["completions"][0]["seat"] == 1
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "bag"]


def test_the_bag_is_offered_only_when_the_two_blocks_complete_the_temple():
    state = build(table(dice=(3, 3)), 0, 1, blk(4, 0, 0))
    state["seats"][1]["zones"][0] = [
        {"id": 10, "size": 4, "col": 0, "row": 0, "dir": "flat"},
        {"id": 0, "size": 1, "col": 2, "row": 1, "dir": "flat"},
        {"id": 1, "size": 1, "col": 4, "row": 0, "dir": "flat"},
    ]
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "bag"]


# -- the lightning round -----------------------------------------------------------------------


def lightning_table() -> dict:
    state = finish_small(table(dice=(1, 1), deck=[LIGHTNING, TOWER + 4, 20]), 0)
    return play(state, (0, place(0, 1, 3, 1)), (1, PASS))


def test_the_lightning_card_starts_a_race_on_the_card_beneath():
    state = lightning_table()
    assert state["phase"] == "lightning"
    assert state["lightning"]["card"] == 7 and state["holders"][0] is None
    assert GAME.to_act(state) == frozenset({0, 1}), "everyone races at once"
    assert {m["type"] for m in GAME.legal_moves(state, 0)} == {"race", "withdraw"}


def race_to_the_end(state: dict, seat: int) -> dict:
    while state["phase"] == "lightning":
        move = GAME.legal_moves(state, seat)[0]
        state = play(state, (seat, move))
    return state


def test_the_first_complete_build_wins_the_lightning_card_and_all_blocks_go_home():
    state = lightning_table()
    state = play(state, (1, GAME.legal_moves(state, 1)[0]))
    state = race_to_the_end(state, 0)
    assert state["seats"][0]["cards"] == [SMALL, LIGHTNING]
    assert state["seats"][1]["cards"] == []
    assert state["holders"][0] == 20, "the emptied holder got a new card"
    for player in state["seats"]:
        assert all_block_ids(player) == list(range(13))
    assert _score(state["seats"][0])["cards"] == 6


def test_the_view_keeps_the_last_race_and_its_winner_after_the_race_ends():
    state = lightning_table()
    assert GAME.view(state, 0)["last_race"] is None, "no race has finished yet"
    raced_in = state["round"]
    state = play(state, (1, GAME.legal_moves(state, 1)[0]))
    state = race_to_the_end(state, 0)
    assert state["phase"] == "build" and state["lightning"] is None
    for viewer in (0, 1, None):
        view = GAME.view(state, viewer)
        assert view["lightning"] is None, "the winning move also ended the race"
        assert view["last_race"] == {"card": GAME.view(state, None)["last_race"]["card"],
                                     "winner": 0, "round": raced_in}
        assert view["last_race"]["card"]["id"] == 7
    assert view["round"] == raced_in + 1, "the next round started right after the race"
    state = play(state, (0, PASS), (1, PASS))
    assert GAME.view(state, 1)["last_race"]["winner"] == 0, "kept until the next race"


def test_a_race_everyone_gave_up_is_kept_with_no_winner():
    state = lightning_table()
    state = play(state, (0, {"type": "withdraw"}), (1, {"type": "withdraw"}))
    last = GAME.view(state, None)["last_race"]
    assert last["winner"] is None and last["card"]["id"] == 7 and last["round"] == 1


def test_a_racer_short_of_blocks_borrows_from_constructions_and_gets_them_back():
    state = lightning_table()
    player = state["seats"][0]
    state = build(state, 0, 1, blk(4, 0, 0), blk(4, 0, 1))
    player["supply"].remove(12)  # test set-up: the third 1x4 is in the bonus area
    player["bonus"].append(12)
    assert not [i for i in player["supply"] if BLOCK_SIZES[i] == 4]
    before = copy.deepcopy(state["seats"][0]["zones"][1])
    state = play(state, (0, {"type": "race", "size": 4, "col": 0, "row": 0, "dir": "flat"}))
    assert state["lightning"]["builds"][0][0]["from"] == 1
    state = play(state, (1, {"type": "withdraw"}))
    state = race_to_the_end(state, 0)
    assert sorted(b["id"] for b in state["seats"][0]["zones"][1]) == sorted(
        b["id"] for b in before)


def test_race_placements_never_lead_into_a_dead_end():
    state = lightning_table()
    moves = GAME.legal_moves(state, 0)[:-1]
    assert moves
    for move in moves:
        mask = block_mask(move["size"], move["col"], move["row"], move["dir"])
        counts = [3, 4, 2, 3]  # every block but the 1x3 in the bonus area
        counts[move["size"] - 1] -= 1
        assert buildable((mask,), SHAPE_MASKS[7] & ~mask,
                         (counts[0], counts[1], counts[2], counts[3])), "joined to the block"


def test_during_the_race_only_race_moves_are_accepted():
    state = lightning_table()
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 0, PASS, Random(0))
    assert refused.value.code == "illegal_move" and "race" in refused.value.message


def test_no_power_token_works_in_the_lightning_race():
    """The race is played "without using the dice or the player boards", where the tokens lie
    (RULES.md argues it): no power move is offered or accepted, and the tokens stay unused."""
    state = build(lightning_table(), 0, 1, blk(4, 0, 0), blk(2, 1, 1))
    assert all(set(m) <= {"type", "size", "col", "row", "dir"}
               for m in GAME.legal_moves(state, 0)), "race moves carry no power"
    for move in ({"type": "chisel", "zone": 1, "block": 3},
                 {"type": "race", "size": 4, "col": 0, "row": 0, "dir": "flat",
                  "power": "mortar"},
                 place(1, 1, 1, 2, power="hammer")):
        with pytest.raises(IllegalMove):
            GAME.apply(state, 0, move, Random(0))
    state = play(state, (1, {"type": "withdraw"}))
    state = race_to_the_end(state, 0)
    assert state["seats"][0]["powers"] == {"hammer": "unused", "bag": "unused",
                                           "mortar": "unused"}


@pytest.mark.parametrize("move", [
    {"type": "place", "zone": 0, "size": 1, "col": 0, "row": 0},
    {"type": "place", "zone": 0, "size": 1, "col": 0, "row": 0, "dir": "flat", "x": 1},
    {"type": "place", "zone": True, "size": 1, "col": 0, "row": 0, "dir": "flat"},
    {"type": "fly"},
    ["pass"],
])
def test_malformed_moves_are_refused_as_bad(move):
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(table(), 0, move, Random(0))
    assert refused.value.code == "bad_move"


def test_a_zombie_passes_in_a_round_and_withdraws_from_a_race():
    assert GAME.zombie_move(table(), 0) in GAME.legal_moves(table(), 0)
    state = table(dice=(1, 1))
    state["seats"][0]["supply"] = [i for i in state["seats"][0]["supply"] if BLOCK_SIZES[i] != 1]
    assert GAME.zombie_move(state, 0) == PASS
    state = lightning_table()
    zombie = GAME.zombie_move(state, 1)
    assert zombie == {"type": "withdraw"} and zombie in GAME.legal_moves(state, 1)


def test_when_everyone_withdraws_no_one_wins_the_lightning_card():
    state = lightning_table()
    state = play(state, (0, {"type": "withdraw"}), (1, {"type": "withdraw"}))
    assert state["phase"] == "build" and state["round"] == 2
    assert all(LIGHTNING not in p["cards"] for p in state["seats"])


# -- end of the game and scoring ---------------------------------------------------------------


def scored(state: dict) -> dict:
    state["phase"], state["end_reason"] = "over", "Test."
    return state


def test_score_adds_cards_tokens_bonus_and_unused_powers():
    state = new(2)
    player = state["seats"][0]
    player.update(cards=[0, 16], tokens=[6, 4], bonus=[10, 0])  # 3+5 + 6+4 + 4+1
    player["powers"].update(hammer="used", bag="used")
    assert _score(player)["total"] == 24, "the book's worked example"


def test_each_bonus_block_scores_its_size():
    """Book: "The 1x1 blocks gives 1 point, the 1x2 block gives 2 points, the 1x3 block gives
    3 points, the 1x4 brick gives 4 points."
    """
    player = new(2)["seats"][0]
    for block_id, size in ((0, 1), (3, 2), (7, 3), (10, 4)):
        player["bonus"] = [block_id]
        assert _score(player)["bonus"] == size
    player["bonus"] = [0, 3, 7, 10]
    assert _score(player)["bonus"] == 10


def test_only_power_tokens_never_used_score_a_point():
    """Book: "Each unused power token left on the player board at the end of the game gives 1
    point"; "Once used, flip the token so the X points upwards" (a Mortar still at work in its
    zone has been used)."""
    player = new(2)["seats"][0]
    assert _score(player)["powers"] == 3
    player["powers"].update(mortar="active")
    assert _score(player)["powers"] == 2
    player["powers"].update(hammer="used", mortar="used")
    assert _score(player)["powers"] == 1


def test_ties_go_to_the_highest_card_or_token_then_are_shared():
    state = scored(new(3))
    state["seats"][0].update(cards=[24], tokens=[])        # 6 + 3 = 9, best 6
    state["seats"][1].update(cards=[0, 1], tokens=[])      # 3 + 3 + 3 = 9, best 3
    state["seats"][2].update(cards=[], tokens=[6])         # 6 + 3 = 9, best 6
    outcome = GAME.outcome(state)
    assert outcome.scores == [9.0, 9.0, 9.0]
    assert outcome.winners == [0, 2] and outcome.ranking == [1, 3, 1]


def test_the_cooperative_last_temple_is_shared_by_two_pieces():
    state = table(3, holders=(TOWER, None), dice=(1, 1, 1), deck=[],
                  cooperative_finale=True)
    state = build(state, 0, 0, blk(4, 0, 0))
    state = build(state, 1, 0, blk(2, 1, 1, "upright"))
    state = build(state, 1, 0, blk(1, 2, 1))
    state = play(state, (0, PASS), (2, PASS), (1, place(0, 1, 2, 2)))
    assert state["phase"] == "over"
    assert [p["coop_points"] for p in state["seats"]] == [1, 3, 0]
    assert all(p["cards"] == [] for p in state["seats"]), "the card is discarded"


def test_without_the_variant_two_pieces_win_nothing():
    state = table(3, holders=(TOWER, None), dice=(1, 1, 1), deck=[])
    state = build(state, 0, 0, blk(4, 0, 0))
    state = build(state, 1, 0, blk(2, 1, 1, "upright"), blk(1, 2, 1))
    state = play(state, (0, PASS), (2, PASS), (1, place(0, 1, 2, 2)))
    assert state["phase"] == "build"


def test_a_stalled_game_ends_after_the_quiet_rounds():
    state = table(dice=(1, 1), stall_rounds=5)
    for _ in range(5):
        state = play(state, (0, PASS), (1, PASS))
    assert state["phase"] == "over" and "No temple" in state["end_reason"]


# -- solo and the Robot ------------------------------------------------------------------------


def robot_table(die: int, card: int = TOWER, placed: tuple = ()) -> dict:
    state = new(1)
    robot = state["robot"]
    robot.update(holder=card, zone=[], supply=list(range(13)), die=die, deck=[20])
    for size, col, row, direction in placed:
        block_id = next(i for i in robot["supply"] if BLOCK_SIZES[i] == size)
        robot["supply"].remove(block_id)
        robot["zone"].append({"id": block_id, "size": size, "col": col, "row": row,
                              "dir": direction})
    return state


def robot_step(state: dict, die: int) -> dict:
    from games.temple_rush.robot import robot_turn

    state = copy.deepcopy(state)
    state["robot"]["die"] = die
    robot_turn(state["robot"])
    return state


def test_the_robot_begins_each_round_before_the_player():
    state = new(1)
    assert state["robot"]["die"] is not None and len(state["robot"]["zone"]) == 1
    state = play(state, (0, PASS))
    assert state["round"] == 2 and len(state["robot"]["zone"]) == 2


def test_the_robot_need_not_connect_its_blocks():
    """Book (solo): "The Robot is not required to connect the blocks on its player board until
    the Robot can build the entire temple."
    """
    state = robot_table(4, placed=(blk(2, 1, 2, "flat"),))  # the tower's top layer
    state = robot_step(state, 4)
    top, ground = (block_mask(b["size"], b["col"], b["row"], b["dir"])
                   for b in state["robot"]["zone"])
    assert ground == block_mask(4, 0, 0, "flat") and not one_piece([top, ground]), (
        "the 1x4 lies loose under the top, a layer apart")


def robot_builds(card: int, dice: list[int]) -> list[int]:
    """The Robot builds `card` alone with the dice in turn, until it wins it: its blocks' masks."""
    from games.temple_rush.robot import robot_turn

    robot = robot_table(dice[0], card=card)["robot"]
    laid: list[int] = []
    for die in dice * 10:
        robot["die"] = die
        for event in robot_turn(robot):
            if "size" in event.data:
                laid.append(block_mask(event.data["size"], event.data["col"],
                                       event.data["row"], event.data["dir"]))
        if robot["cards"]:
            return laid
    raise AssertionError("the Robot never finished its temple")


@pytest.mark.parametrize("card", [1, 12, 17, 25])
@pytest.mark.parametrize("die", [2, 3, 4])
def test_the_robots_finished_temple_is_assembled_in_one_piece(card, die):
    """Book (solo): "The Robot is not required to connect the blocks on its player board until
    the Robot can build the entire temple." Loose blocks only until then: the temple it wins is
    built correctly, "all the building blocks are assembled together" (no Mortar for the Robot:
    "The Robot does not receive any tokens")."""
    laid = robot_builds(card, [die, die, die, STAR])
    assert sum(laid) == SHAPE_MASKS[card]
    assert one_piece(laid), "the Robot's temple is one piece"


def test_the_robot_takes_one_size_up_or_down_when_the_die_is_useless():
    state = robot_table(3, placed=(blk(4, 0, 0),))  # left: two 2-cell columns
    state = robot_step(state, 3)
    assert [b["size"] for b in state["robot"]["zone"]] == [4, 2], "no 1x3 fits: a 1x2 instead"


def test_the_robot_passes_when_nothing_fits():
    state = robot_table(4, placed=(blk(4, 0, 0), blk(2, 1, 1, "upright")))
    state["robot"]["supply"] = [i for i in state["robot"]["supply"] if BLOCK_SIZES[i] == 4]
    state = robot_step(state, 4)
    assert len(state["robot"]["zone"]) == 2


def test_the_robot_banks_fixed_blocks_one_size_down_per_temple():
    state = robot_table(2, placed=(blk(4, 0, 0), blk(2, 1, 1, "upright")))
    state = robot_step(state, 2)
    robot = state["robot"]
    assert robot["cards"] == [TOWER] and [BLOCK_SIZES[i] for i in robot["bonus"]] == [4]
    assert robot["holder"] == 20
    assert _score(robot)["total"] == 3 + 4


def test_the_robot_banks_1x4_1x3_1x2_1x1_then_nothing_used_or_not():
    """Book (solo): "a 1x4 block for the 1st temple, a 1x3 block for the 2nd temple, a 1x2 block
    for the 3rd temple, a 1x1 block for the 4th temple and no block for the 5th temple. This
    applies even if the building block was not used in building the particular temple."
    """
    state = robot_table(2)
    robot = state["robot"]
    robot["deck"] = [TOWER] * 4  # test set-up: five towers (a 1x4 and two 1x2) in a row
    banked = []
    for _ in range(5):
        for size, col, row, direction in (blk(4, 0, 0), blk(2, 1, 1, "upright")):
            block_id = next(i for i in robot["supply"] if BLOCK_SIZES[i] == size)
            robot["supply"].remove(block_id)
            robot["zone"].append({"id": block_id, "size": size, "col": col, "row": row,
                                  "dir": direction})
        state = robot_step(state, 2)
        robot = state["robot"]
        banked.append(sorted(BLOCK_SIZES[i] for i in robot["bonus"]))
    assert banked == [[4], [3, 4], [2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]
    assert len(robot["cards"]) == 5 and robot_done(robot)
    assert _score(robot)["total"] == 5 * 3 + 4 + 3 + 2 + 1


def test_on_a_star_the_robot_takes_the_largest_useful_block():
    state = robot_step(robot_table(STAR), STAR)
    assert [b["size"] for b in state["robot"]["zone"]] == [4]


def test_the_solo_player_has_no_bag():
    state = new(1)
    state["completions"] = []
    assert all(m["type"] != "bag" for m in GAME.legal_moves(state, 0))


def test_solo_ends_when_the_robot_has_no_temple_left_and_compares_scores():
    state = new(1, robot_card_value=3)
    state["robot"].update(holder=None, deck=[], cards=[24, 25], bonus=[10])
    state["done"] = [False]
    state = play(state, (0, PASS))
    outcome = GAME.outcome(state)
    assert state["phase"] == "over" and outcome.winners == [], "12 + 4 beats 2 tokens"
    assert outcome.ranking == [1] and "Robot" in outcome.reason


def test_solo_ends_when_the_player_has_no_temple_left():
    """Book (solo): "The game ends when the player or the Robot has no more temple cards left to
    build."
    """
    state = finish_small(table(1, holders=(SMALL, None), dice=(1,), deck=[]), 0)
    state = play(state, (0, place(0, 1, 3, 1)))
    assert state["phase"] == "over" and state["robot"]["holder"] is not None
    assert state["seats"][0]["cards"] == [SMALL]
    assert GAME.outcome(state).scores == [3 + 3 + 2], "card + 1x3 bonus + two unused tokens"


def test_solo_player_can_win():
    state = scored(new(1))
    state["seats"][0].update(cards=[24, 25, 26])
    assert GAME.outcome(state).winners == [0]


# -- properties of whole games -----------------------------------------------------------------


def check_invariants(state: dict) -> None:
    for player in state["seats"]:
        ids = all_block_ids(player)
        if state["lightning"] is not None:
            ids = sorted(ids + [b["id"] for b in state["lightning"]["builds"][
                state["seats"].index(player)]])
        assert ids == list(range(13)), "every block is in exactly one place"
        assert len({BLOCK_SIZES[i] for i in player["bonus"]}) == len(player["bonus"])
        for zone, blocks in enumerate(player["zones"]):
            card = state["holders"][zone]
            if blocks and card is not None:
                assert zone_mask(blocks) & ~SHAPE_MASKS[card] == 0
    won = [card for player in state["seats"] for card in player["cards"]]
    if state["robot"] is not None:
        won += state["robot"]["cards"]
    in_play = [c for c in state["holders"] if c is not None] + state["deck"]
    assert len(won) == len(set(won)) and not set(won) & set(in_play), "a card is won once"
    assert len(in_play) == len(set(in_play))


def builder_game(players: int, options: TempleRushOptions, seed: int,
                 check: bool = False) -> Playout:
    """A seeded game whose seats pick a random building move when they have one: unlike
    uniform play it wins cards, races and finishes games, so every rule gets exercised."""
    played = start(GAME, players, options, f"builder:{seed}")
    chooser = Random(seed)
    while GAME.to_act(played.state):
        if check:
            check_invariants(played.state)
        seat = chooser.choice(sorted(GAME.to_act(played.state)))
        moves = GAME.legal_moves(played.state, seat)
        step(played, seat, sensible(played.state, seat, moves, chooser)
             or unstick(played.state, seat, moves) or chooser.choice(moves))
    check_invariants(played.state)
    return played


def unstick(state: dict, seat: int, moves: list[dict]) -> dict | None:
    """With no useful placement: exchange a block of a temple the supply can no longer finish
    for one after which it can (the book's correction of a building mistake), else pass if
    allowed, else exchange a block rather than spoil a temple."""
    player = state["seats"][seat]
    mends = []
    for move in moves:
        if move["type"] != "exchange":
            continue
        if finishable(state, seat, move["zone"], 0, player["supply"]):
            continue
        after, _ = GAME.apply(state, seat, move, Random(0))
        if sensible(after, seat, GAME.legal_moves(after, seat), Random(0)) is not None:
            mends.append(move)
    if mends:  # mend the least advanced construction first
        return min(mends, key=lambda m: zone_mask(player["zones"][m["zone"]]).bit_count())
    if PASS in moves:
        return PASS
    # The die's block would spoil every temple: correct a construction instead of placing it.
    return next((m for m in moves if m["type"] == "exchange"), None)


def sensible(state: dict, seat: int, moves: list[dict], chooser: Random) -> dict | None:
    """A random race block or Bag, else a random placement after which the temple can still
    be finished from the supply, in the most advanced construction first (blocks spread over
    every zone can leave none finishable); None if there is none."""
    special = [m for m in moves if m["type"] in ("race", "bag")]
    if special:
        return chooser.choice(special)
    player = state["seats"][seat]
    places = [m for m in moves if m["type"] == "place"]
    chooser.shuffle(places)
    places.sort(key=lambda m: -zone_mask(player["zones"][m["zone"]]).bit_count())
    for move in places:
        new = block_mask(move["size"], move["col"], move["row"], move["dir"])
        supply = list(player["supply"])
        if "from_zone" not in move:
            supply.remove(next(i for i in supply if BLOCK_SIZES[i] == move["size"]))
        if finishable(state, seat, move["zone"], new, supply):
            return move
    return None


def finishable(state: dict, seat: int, zone: int, new: int, supply: list[int]) -> bool:
    """Whether `seat`'s temple in `zone`, with the block `new` (0: none) added, can still be
    finished from `supply` in one piece (in any pieces where Mortar is active)."""
    player = state["seats"][seat]
    masks = [block_mask(b["size"], b["col"], b["row"], b["dir"]) for b in player["zones"][zone]]
    masks += [new] if new else []
    filled = sum(masks)
    rest = SHAPE_MASKS[state["holders"][zone]] & ~filled
    if player["mortar_zone"] == zone:
        return tileable(rest, supply_counts(supply))
    return buildable(tuple(masks), rest, supply_counts(supply))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sensible_games_end_by_the_books_rule(players):
    """Players who keep their temples finishable win every card: the game ends because the
    last temple card was won, not through the stall guard (a safety net, see RULES.md)."""
    for seed in range(20):
        options = TempleRushOptions(cooperative_finale=players >= 3 and seed % 2 == 1)
        state = builder_game(players, options, seed).state
        assert state["end_reason"] == "Every temple card has been built.", (players, seed)
        assert state["quiet_rounds"] < options.stall_rounds


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 4), seed=st.integers(0, 10**6), coop=st.booleans())
def test_random_games_keep_blocks_and_scores_consistent(players, seed, coop):
    options = TempleRushOptions(cooperative_finale=coop and players >= 3)
    played = builder_game(players, options, seed, check=True)
    outcome = GAME.outcome(played.state)
    assert outcome is not None and len(outcome.scores) == players
    view_totals = [s["score"]["total"] for s in GAME.view(played.state, None)["seats"]]
    assert outcome.scores == [float(total) for total in view_totals]


GOLDEN = {  # (players, cooperative finale, seed) -> (moves, scores, sha256 of the final view)
    (1, False, 7): (34, [23.0],
                    "6b30c9b4e9400540a2fd9cb8a0a6d016e6c6e05ebc4d5b3f986a7fa35c8db3a0"),
    (2, False, 7): (135, [24.0, 36.0],
                    "6f8837c6a94619fa78b57805407e8faf8514d30f7ca963f773422be57de8e18a"),
    (3, True, 7): (183, [17.0, 22.0, 29.0],
                   "4e33ab90802a5da86940510887eed1e0b6f725dd711e22f6bd3470edd15af8cf"),
    (4, False, 7): (270, [29.0, 25.0, 21.0, 18.0],
                    "9a0320ecf24f835d171f8362174f094add9d32c8c82f73c4895bcfcd2d4db69b"),
}


@pytest.mark.parametrize(("players", "coop", "seed"), sorted(GOLDEN))
def test_golden_replays(players, coop, seed):
    """Seed + moves -> the same final view; a change here is a change of the rules."""
    played = builder_game(players, TempleRushOptions(cooperative_finale=coop), seed)
    final = GAME.view(played.state, None)
    digest = hashlib.sha256(json.dumps(final, sort_keys=True).encode()).hexdigest()
    assert (len(played.moves), GAME.outcome(played.state).scores, digest) == GOLDEN[
        (players, coop, seed)]
    options = TempleRushOptions(cooperative_finale=coop)
    assert replay(GAME, players, options, f"builder:{seed}", played.moves) == played.state


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_uniformly_random_games_end(players):
    for n in range(10):
        state = play_random(GAME, players, TempleRushOptions(), f"end:{players}:{n}").state
        assert state["phase"] == "over"


# -- the table's conventions: running score, take-back -----------------------------------------


def test_the_view_carries_every_seats_running_score():
    """The book's score (cards + tokens + bonus + unused powers), per seat, as `scores`."""
    state = finish_small(table(dice=(1, 1), deck=[20, 21]), 0)
    assert GAME.view(state, None)["scores"] == [3, 3], "three unused power tokens each"
    state = play(state, (0, place(0, 1, 3, 1)), (1, PASS))
    view = GAME.view(state, 1)
    assert view["scores"] == [3 + 3 + 3, 3], "the card (3) and the banked 1x3 (3)"
    assert view["scores"] == [s["score"]["total"] for s in view["seats"]]


def test_a_placement_may_be_taken_back_while_the_round_goes_on():
    """Undo: only a move that shows nobody anything new. A block goes down in plain view; the
    last move of a round rolls the dice (and may turn cards), so it cannot be taken back."""
    state = table(dice=(1, 1))
    first = place(0, 1, 0, 0)
    assert GAME.undoable(state, 0, first), "seat 2 still to act: the round goes on"
    state = play(state, (0, first))
    assert not GAME.undoable(state, 1, place(0, 1, 0, 0)), "the last one rolls the next dice"
    assert not GAME.undoable(state, 1, place(0, 1, 9, 9)), "an illegal move is no move"


def test_the_first_step_of_an_exchange_may_be_taken_back_but_not_a_race_win():
    state = build(table(dice=(4, 4)), 0, 0, blk(4, 0, 0))
    assert GAME.undoable(state, 0, {"type": "exchange", "zone": 0, "block": 10})
    racing = table(dice=(1, 1), holders=(None, None), deck=[])
    racing["phase"] = "lightning"
    racing["lightning"] = {"card": TOWER, "holder": 0, "out": [False, False], "winner": None,
                           "builds": [[], []]}
    start = {"type": "race", "size": 4, "col": 0, "row": 0, "dir": "flat"}
    assert GAME.undoable(racing, 0, start)
    racing = play(racing, (0, start),
                  (0, {"type": "race", "size": 2, "col": 1, "row": 1, "dir": "upright"}))
    assert not GAME.undoable(racing, 0, {"type": "race", "size": 2, "col": 2, "row": 1,
                                         "dir": "upright"}), "winning ends the race: a new card"


def test_the_log_counts_columns_and_layers_from_one_like_the_buttons():
    """One numbering for people: the buttons say 'column 1, layer 1' for (0, 0), so does the log."""
    text = GAME.describe(place(0, 2, 0, 0, "upright"))
    assert text == "placed a 1x2 block on end at column 1, layer 1 in zone 1"
    _, events = GAME.apply(build(table(dice=(4, 4)), 0, 0, blk(4, 0, 0)), 0,
                           {"type": "exchange", "zone": 0, "block": 10}, Random(0))
    assert events[0].text == ("The 1x4 block flat at column 1, layer 1 of zone 1 goes back to "
                              "seat 1's supply."), "the block the move line cannot name"


def test_the_events_tell_what_a_move_led_to_not_the_move_again():
    """The platform writes each move's own line (`describe`); events add only what followed.
    The block laid last is in the view, for the board to mark."""
    state, events = GAME.apply(table(dice=(1, 1)), 0, place(0, 1, 0, 0), Random(0))
    assert events == []
    assert GAME.view(state, 1)["last"] == [{"type": "place", "zone": 0, "size": 1, "col": 0,
                                            "row": 0, "dir": "flat"}, None]


def test_a_1x1_block_is_neither_flat_nor_on_end_in_its_line() -> None:
    small = {"type": "place", "size": 1, "dir": "flat", "col": 1, "row": 0, "zone": 0}
    assert GAME.describe(small) == "placed a 1x1 block at column 2, layer 1 in zone 1"
    assert GAME.describe({**small, "size": 2}) == (
        "placed a 1x2 block flat at column 2, layer 1 in zone 1")
