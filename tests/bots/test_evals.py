"""Per-game evaluations read what they should."""

from __future__ import annotations

import copy
from random import Random

from bots.evals import evaluation_for
from bots.evals.temple_of_five import coming_gain
from games import REGISTRY
from games.protocol import match_rng
from games.temple_rush.data import BLOCK_SIZES


def test_temple_rush_counts_a_temple_completed_before_its_round_settles() -> None:
    # The round settles once every seat has acted; a search judges the state in between, and
    # a completing move that scored nothing there would look no better than any other.
    game = REGISTRY["temple-rush"]
    state = game.setup(2, game.Options(), match_rng("eval", 0))
    values = evaluation_for("temple-rush").values
    before = values(game, state, 2)
    state["completions"] = [{"seat": 0, "zone": 0, "card": state["holders"][0], "borrowed": []}]
    after = values(game, state, 2)
    assert after[0] > before[0] + 0.2
    assert after[1] < before[1]


def test_temple_rush_hard_counts_blocks_to_lay_not_cells() -> None:
    # A seat lays one block a round whatever its size: the same empty zones take a seat left
    # with 1x1s and 1x2s twice the rounds. Only the deeper evaluation sees it.
    game = REGISTRY["temple-rush"]
    state = game.setup(2, game.Options(), match_rng("eval", 0))
    small = copy.deepcopy(state)
    small["seats"][0]["supply"] = [b for b in state["seats"][0]["supply"] if BLOCK_SIZES[b] <= 2]
    plain = evaluation_for("temple-rush").values
    deeper = evaluation_for("temple-rush", deeper=True).values
    assert plain(game, small, 2) == plain(game, state, 2)
    assert deeper(game, small, 2)[0] < deeper(game, state, 2)[0] - 0.1
    assert deeper(game, small, 2)[1] > deeper(game, state, 2)[1]


def _temple_of_five_priest_turn() -> tuple[dict, int]:
    """A seeded random game of Temple of Five played to a priest turn whose seat has a chain
    some open card takes."""
    game = REGISTRY["temple-of-five"]
    for n in range(50):
        state = game.setup(2, game.Options(), match_rng(f"outlook:{n}", 0))
        chooser = Random(n)
        while acting := game.to_act(state):
            seat = min(acting)
            if state["phase"] == "priests" and coming_gain(state, seat) > 0:
                return state, seat
            state, _ = game.apply(state, seat, chooser.choice(game.legal_moves(state, seat)),
                                  match_rng(f"outlook:{n}", 1))
    raise AssertionError("no priest turn with a gain in 50 games")


def test_temple_of_five_outlook_counts_only_chains_an_open_card_takes() -> None:
    state, seat = _temple_of_five_priest_turn()
    assert all(data["private"] is None for data in state["seats"])  # no effect tiles here
    assert coming_gain(dict(state, open=dict.fromkeys(state["open"])), seat) == 0


def test_temple_of_five_outlook_needs_a_priest_for_the_chain_and_one_for_the_card() -> None:
    game = REGISTRY["temple-of-five"]
    state, seat = _temple_of_five_priest_turn()
    deeper = evaluation_for("temple-of-five", deeper=True).values
    plain = evaluation_for("temple-of-five").values
    seats = [dict(data) for data in state["seats"]]
    seats[seat]["priests"] = 1
    one_priest = dict(state, seats=seats)
    assert coming_gain(one_priest, seat) == 0
    # Priests in reserve score nothing in the base game: only the outlook tells the states apart.
    assert plain(game, one_priest, 2) == plain(game, state, 2)
    assert deeper(game, one_priest, 2)[seat] < deeper(game, state, 2)[seat]
    seats[seat]["priests"] = 2
    assert coming_gain(dict(state, seats=seats), seat) > 0


def test_the_deeper_evaluation_is_the_games_own_or_the_plain_one() -> None:
    assert evaluation_for("temple-of-five", deeper=True) is not evaluation_for("temple-of-five")
    assert evaluation_for("temple-rush", deeper=True) is not evaluation_for("temple-rush")
    assert evaluation_for("five-realms", deeper=True) is evaluation_for("five-realms")


def test_temple_of_five_outlook_counts_the_chain_just_picked() -> None:
    # Picking a chain puts a priest on it, so the chain is no longer free; its use on a card is
    # still to come (the next move must be it), and an outlook that forgot it would teach the
    # bot that picking a chain loses what the chain promised.
    game = REGISTRY["temple-of-five"]
    state, seat = _temple_of_five_priest_turn()
    picks = [m for m in game.legal_moves(state, seat) if m["type"] == "chain"]
    counted = []
    for move in picks:
        after, _ = game.apply(state, seat, move, match_rng("pick", 0))
        assert after["seats"][seat]["pending"] is not None
        seats = [dict(data) for data in after["seats"]]
        seats[seat]["pending"] = None
        counted.append(coming_gain(after, seat) > coming_gain(dict(after, seats=seats), seat))
    assert any(counted)
