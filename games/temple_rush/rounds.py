"""How a round ends and the next begins: completions resolve, cards are replaced, the lightning
race runs, the others rebuild (before the next dice), and the game ends. Helpers mutate the
fresh state copy `apply` hands them."""

from __future__ import annotations

from itertools import combinations
from random import Random
from typing import Any

from games.protocol import Event, State
from games.temple_rush.board import (
    bank_completed,
    clear_zone,
    give_back,
    hold,
    mask,
    new_block,
    return_held,
    zone_mask,
)
from games.temple_rush.data import DIE_FACES, LIGHTNING, SHAPE_MASKS, STAR, card_view, value
from games.temple_rush.geometry import buildable, one_piece
from games.temple_rush.moves import race_counts, rebuilders, relay_spots
from games.temple_rush.robot import robot_done, robot_turn

FACE_NAMES = {STAR: "star", 1: "1x1", 2: "1x2", 3: "1x3", 4: "1x4"}


# -- the end of a round ------------------------------------------------------------------------


def settle(state: State, rng: Random) -> list[Event]:
    """Close the round, the rebuild or the race once its last seat is done, then go on."""
    if state["phase"] == "lightning":
        race = state["lightning"]
        if race["winner"] is None and not all(race["out"]):
            return []
        return _finish_race(state) + _go_on(state, rng)
    if state["phase"] == "rebuild":
        if rebuilders(state):
            return []
        return _end_round(state, rebuilding=True) + _go_on(state, rng)
    if not all(state["done"]):
        return []
    return _end_round(state) + _go_on(state, rng)


def _go_on(state: State, rng: Random) -> list[Event]:
    """After a round (or a rebuild, or a race): a lightning card turned up is raced for at once;
    then whoever holds blocks from a card another player won rebuilds them, still before the
    next dice (book: "When a player wins a temple card, all other players ... may now rebuild");
    then the next round."""
    events: list[Event] = []
    if state["lightning"] is not None:
        events += _start_race(state)
        if state["phase"] == "lightning":
            return events
        events += _finish_race(state)
    seats = sorted(rebuilders(state))
    if seats:
        state["phase"] = "rebuild"
        names = " and ".join(f"seat {s + 1}" for s in seats)
        return [*events, Event(f"Before the next roll, {names} may rebuild into the new temple "
                               "or return the blocks.", data={"rebuild": seats})]
    return events + next_round(state, rng)


def _end_round(state: State, rebuilding: bool = False) -> list[Event]:
    """Completions resolve in the order they were made; then the cooperative last temple. A
    rebuild is no round: it leaves the count of quiet rounds alone unless it wins a temple."""
    events: list[Event] = []
    completions = state["completions"]
    if completions:
        state["quiet_rounds"] = 0
    elif not rebuilding:
        state["quiet_rounds"] += 1
    for done in completions:
        events += _resolve(state, done, completions)
    state["completions"] = []
    return events + _cooperative_finale(state)


def _resolve(state: State, done: dict[str, Any], completions: list[dict[str, Any]]) -> list[Event]:
    """The first to complete a card wins it; a later one this round takes a point token."""
    seat, zone, card = done["seat"], done["zone"], done["card"]
    player = state["seats"][seat]
    events: list[Event] = []
    if state["holders"][zone] == card:
        player["cards"].append(card)
        events.append(Event(f"Seat {seat + 1} wins the {card_name(card)}.",
                            data={"seat": seat, "card": card, "won": "card"}))
        rivals = {c["seat"] for c in completions if c["zone"] == zone and c["card"] == card}
        banked = bank_completed(player, zone, done["bonus"])
        events += _replace_card(state, zone, skip=rivals)
    else:
        player["tokens"].append(value(card))
        events.append(Event(f"Seat {seat + 1} also completed the {card_name(card)} and takes "
                            f"a point token worth {value(card)}.",
                            data={"seat": seat, "card": card, "won": "token"}))
        banked = bank_completed(player, zone, done["bonus"])
    if banked:
        events.append(Event(f"Seat {seat + 1} puts a 1x{banked} block in the bonus area.",
                            data={"seat": seat, "bonus": banked}))
    return events


def _replace_card(state: State, zone: int, skip: set[int]) -> list[Event]:
    """A new card in the holder; everyone else building there rebuilds to it."""
    events = _draw(state, zone)
    race = state["lightning"]
    if race is not None and race["holder"] == zone:
        return events  # the rebuild waits for the card drawn after the race
    return events + _rebuild_all(state, zone, skip)


def _rebuild_all(state: State, zone: int, skip: set[int]) -> list[Event]:
    """Everyone else building in `zone` takes those blocks off to rebuild them into the new
    card's temple with `rebuild` moves (or return them); with no card left they go home."""
    events = []
    card = state["holders"][zone]
    for seat, player in enumerate(state["seats"]):
        if seat in skip or not player["zones"][zone]:
            continue
        if card is None:
            returned = len(player["zones"][zone]) + return_held(player, zone)
            clear_zone(player, zone)
            events.append(Event(f"Seat {seat + 1} returns {returned} block(s) from zone "
                                f"{zone + 1} to the supply.", data={"seat": seat, "zone": zone}))
            continue
        hold(player, zone)
        events.append(Event(f"Seat {seat + 1} may rebuild its blocks from zone {zone + 1} into "
                            "the new temple.", data={"seat": seat, "zone": zone, "held": True}))
        events += drop_unfit(state, seat, zone)
    return events


def drop_unfit(state: State, seat: int, zone: int) -> list[Event]:
    """Held blocks none of which can go into the new temple right away go back to the supply
    (book: blocks that "do not match the new temple, or cannot be connected right away")."""
    player = state["seats"][seat]
    card = state["holders"][zone]
    if card is not None and next(relay_spots(player, zone, card), None) is not None:
        return []
    returned = return_held(player, zone)
    if not returned:
        return []
    return [Event(f"Seat {seat + 1} returns {returned} block(s) from zone {zone + 1} to the "
                  "supply: they no longer fit.", data={"seat": seat, "zone": zone})]


def _draw(state: State, zone: int) -> list[Event]:
    """Turn up the deck's top card into holder `zone`; the lightning card starts a race."""
    deck = state["deck"]
    card = deck.pop(0) if deck else None
    state["holders"][zone] = None if card == LIGHTNING else card
    if card == LIGHTNING and not deck:
        return [Event("The lightning card comes up last, with no temple left to race for.")]
    if card == LIGHTNING:
        race_card = deck.pop(0)
        players = state["players"]
        state["lightning"] = {"card": race_card, "holder": zone, "out": [False] * players,
                              "builds": [[] for _ in range(players)], "winner": None}
        return [Event(f"The lightning card! The {card_name(race_card)} is raced for.",
                      data={"lightning": race_card})]
    if card is None:
        return [Event(f"The deck is empty: holder {zone + 1} stays empty.")]
    return [Event(f"New card in holder {zone + 1}: the {card_name(card)}.",
                  data={"holder": zone, "card": card})]


def _cooperative_finale(state: State) -> list[Event]:
    """Variant: two players whose separate pieces together make up the last temple share it."""
    if not state["options"]["cooperative_finale"] or state["deck"] or state["lightning"]:
        return []
    live = [z for z, card in enumerate(state["holders"]) if card is not None]
    if len(live) != 1:
        return []
    zone = live[0]
    shape = SHAPE_MASKS[state["holders"][zone]]
    masks = [zone_mask(player["zones"][zone]) for player in state["seats"]]
    blocks = [[mask(blk) for blk in player["zones"][zone]] for player in state["seats"]]
    for a, b in combinations(range(state["players"]), 2):
        if masks[a] and masks[b] and not masks[a] & masks[b] and masks[a] | masks[b] == shape \
                and one_piece(blocks[a] + blocks[b]):
            for seat in (a, b):
                state["seats"][seat]["coop_points"] += len(state["seats"][seat]["zones"][zone])
            state["holders"][zone] = None
            for player in state["seats"]:
                give_back(player, [blk["id"] for blk in player["zones"][zone]])
                player["zones"][zone] = []
            return [Event(f"Seats {a + 1} and {b + 1} put their pieces together and complete "
                          "the last temple; each scores 1 point per block of theirs in it.",
                          data={"seats": [a, b], "cooperative": True})]
    return []


# -- the lightning race ------------------------------------------------------------------------


def _start_race(state: State) -> list[Event]:
    """Everyone races; a seat whose blocks cannot make the temple at all sits it out."""
    race = state["lightning"]
    shape = SHAPE_MASKS[race["card"]]
    race["out"] = [not buildable((), shape, race_counts(p)) for p in state["seats"]]
    state["phase"] = "lightning"
    if all(race["out"]):
        state["phase"] = "build"
        return [Event("No one has the blocks to build the lightning temple.")]
    return [Event("The lightning round begins: build the temple as fast as you can!")]


def _finish_race(state: State) -> list[Event]:
    """Blocks go home (borrowed ones to their constructions), the temple card is discarded, and
    the emptied holder gets a new card. `last_race` keeps the result: the move that wins a race
    also ends it, so the race itself never shows a winner."""
    race = state["lightning"]
    for seat, build in enumerate(race["builds"]):
        player = state["seats"][seat]
        for block in build:
            if block["from"] is None:
                give_back(player, [block["id"]])
            elif block["was"] is None:  # borrowed from blocks held for rebuilding
                player["held"][block["from"]] = sorted([*player["held"][block["from"]],
                                                        block["id"]])
            else:
                was = block["was"]
                player["zones"][block["from"]].append(
                    new_block(block["id"], was["col"], was["row"], was["dir"]))
    state["lightning"] = None
    state["last_race"] = {"card": race["card"], "winner": race["winner"], "round": state["round"]}
    state["phase"] = "build"
    if race["winner"] is not None:
        state["quiet_rounds"] = 0
    zone = race["holder"]
    return _draw(state, zone) + _rebuild_all(state, zone, skip=set())


# -- rounds and the end ------------------------------------------------------------------------


def next_round(state: State, rng: Random) -> list[Event]:
    """Roll every die for a new round (the Robot builds first), or end the game."""
    if _cards_gone(state):
        return _end(state, "Every temple card has been built.")
    if state["solo"] and robot_done(state["robot"]):
        return _end(state, "The Robot has no temple left to build.")
    limit = state["options"]["stall_rounds"]
    if state["quiet_rounds"] >= limit:
        return _end(state, f"No temple was won in {limit} rounds in a row.")
    players = state["players"]
    state["round"] += 1
    state["roller"] = (state["roller"] + 1) % players
    state["dice"] = [rng.choice(DIE_FACES) for _ in range(players)]
    state["done"] = [None] * players
    state["phase"] = "build"
    faces = ", ".join(FACE_NAMES[d] for d in state["dice"])
    events = [Event(f"Round {state['round']}: seat {state['roller'] + 1} rolls {faces}.",
                    data={"round": state["round"], "dice": state["dice"]})]
    if state["solo"]:
        robot = state["robot"]
        robot["die"] = rng.choice(DIE_FACES)
        won_before = len(robot["cards"])
        events += robot_turn(robot)
        if len(robot["cards"]) > won_before:
            state["quiet_rounds"] = 0
        if robot_done(robot):
            events += _end(state, "The Robot has no temple left to build.")
    return events


def _cards_gone(state: State) -> bool:
    return not state["deck"] and state["lightning"] is None and all(
        card is None for card in state["holders"])


def _end(state: State, reason: str) -> list[Event]:
    state["phase"] = "over"
    state["end_reason"] = reason
    return [Event(f"Game over. {reason}", data={"over": True})]


def card_name(card: int) -> str:
    view = card_view(card) or {}
    return f"{view.get('colour')} temple card #{card} ({view.get('value')} points)"
