"""Temple Rush (Jacob's Brick Games, 2021), rulebook ../shared/rulebooks/temple-rush.txt.

Order, as in every game module: options, the game, then helpers for setup, moves, scoring and
presentation. How a round ends (completions, new cards, the lightning race, the end of the game)
is in rounds.py; legal moves in moves.py. Reconstructions (shapes, how blocks join, the Robot's
choices, the cooperative last temple) are argued in RULES.md.

State (plain JSON):
    players, options, solo     as given to setup; solo = one human against the Robot
    phase                      "build", "rebuild" (right after a card was won: the others
                               rebuild, before the next dice), "lightning" (a race) or "over"
    round, roller              1-based round; the seat whose turn it is to roll
    quiet_rounds               rounds in a row in which no temple was won (stalemate guard)
    dice                       this round's face per seat (0 = star, else the block size)
    done                       per seat, this round's move type once it acted (place, exchange,
                               pass, bag, or "complete" after a completing chisel), else None
    holders                    card in each card holder (None: empty), one build zone each
    deck                       the face-down deck, top first (LIGHTNING = -1 is the lightning card)
    completions                this round's completed temples, in the order they were made, each
                               with the move that made it (`by`) and its bonus block (None: still
                               to be chosen by a `bonus` move)
    last                       per seat, the block it laid last (type, zone or None in a race,
                               size, col, row, dir), or None
    lightning                  the race in progress: card, holder, builds, out, winner; or None
    last_race                  the latest finished race: card, winner (seat or None), round (the
                               round at whose end it was run); None before the first race
    seats                      per seat: supply, zones, held, bonus, powers, mortar_zone, swap,
                               cards, tokens, coop_points; held lists per zone the blocks taken
                               off when another player won that card, to be rebuilt; swap is
                               the block taken out by a Hammer & Chisel or an exchange (zone,
                               by, size, col, row, dir) until its replacement is placed
    robot                      solo only: the Robot's deck, holder, zone, supply, bonus, cards, die
    end_reason                 why the game ended, once over
"""

from __future__ import annotations

from functools import lru_cache
from random import Random
from typing import Any, ClassVar

import orjson
from pydantic import BaseModel, Field

from games.protocol import Event, IllegalMove, Move, Outcome, State, clone
from games.temple_rush.board import (
    block_view,
    give_back,
    new_block,
    remove_from_zone,
    return_held,
    supply_sizes,
    take,
    zone_mask,
)
from games.temple_rush.data import (
    BLOCK_SIZES,
    CARDS_PER_COLOUR,
    COLOUR_VALUES,
    COLOURS,
    HOLDERS,
    LIGHTNING,
    PILE_SIZE,
    POWERS,
    SHAPE_MASKS,
    SOLO_POWERS,
    STAR,
    card_view,
    value,
)
from games.temple_rush.geometry import cells_of
from games.temple_rush.moves import (
    PASS,
    WITHDRAW,
    bag_tiling,
    bonus_choices,
    build_moves,
    candidates,
    race_moves,
    rebuild_moves,
    rebuilders,
    top_two,
)
from games.temple_rush.robot import new_robot
from games.temple_rush.rounds import FACE_NAMES, drop_unfit, next_round, settle

FIELDS: dict[str, frozenset[str]] = {
    "place": frozenset({"zone", "size", "col", "row", "dir"}),
    "exchange": frozenset({"zone", "block"}),
    "bag": frozenset({"zone", "seat", "from_zone"}),
    "chisel": frozenset({"zone", "block"}),
    "bonus": frozenset({"zone", "block"}),
    "rebuild": frozenset({"zone", "size", "col", "row", "dir"}),
    "return": frozenset({"zone"}),
    "pass": frozenset(),
    "race": frozenset({"size", "col", "row", "dir"}),
    "withdraw": frozenset(),
}
OPTIONAL_FIELDS: dict[str, frozenset[str]] = {"place": frozenset({"power", "from_zone", "block"})}
TEXT_FIELDS = frozenset({"type", "dir", "power"})


class TempleRushOptions(BaseModel):
    """Room options: the book's variants plus a guard against a game that cannot finish."""

    cooperative_finale: bool = Field(
        False,
        description="3-4 players: two players whose pieces together make up the last temple "
        "share it, 1 point per block of theirs in it.",
    )
    robot_card_value: int = Field(
        4, ge=3, le=6,
        description="Solo difficulty: value of the extra card on top of the Robot's deck "
        "(3 = hardest for you, 6 = easiest).",
    )
    stall_rounds: int = Field(
        20, ge=5, le=200,
        description="The game ends early when no temple has been won for this many rounds "
        "in a row (everyone is stuck).",
    )


class TempleRush:
    """The game object registered as `temple-rush`."""

    id: ClassVar[str] = "temple-rush"
    title: ClassVar[str] = "Temple Rush"
    description: ClassVar[str] = (
        "Race to build the temples on the cards from blocks the dice give you. Everyone places "
        "one block a round at the same time; complete a temple first to win its card."
    )
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4
    Options: ClassVar[type[BaseModel]] = TempleRushOptions

    # -- lifecycle -----------------------------------------------------------------------------

    def setup(self, players: int, options: BaseModel, rng: Random) -> State:
        opts = TempleRushOptions.model_validate(options.model_dump())
        if not self.min_players <= players <= self.max_players:
            raise IllegalMove("bad_options", "Temple Rush is for 1 to 4 players.")
        if opts.cooperative_finale and players < 3:
            raise IllegalMove("bad_options", "The cooperative last temple needs 3 or 4 players.")
        state = _solo_setup(opts, rng) if players == 1 else _table_setup(players, opts, rng)
        next_round(state, rng)
        return state

    def to_act(self, state: State) -> frozenset[int]:
        return _to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "lightning":
            return race_moves(state, seat)
        if state["phase"] == "rebuild":
            return rebuild_moves(state, seat)
        return build_moves(state, seat)

    def apply(self, state: State, seat: int, move: Move, rng: Random) -> tuple[State, list[Event]]:
        self._check(state, seat, move)
        return self.apply_legal(state, seat, move, rng)

    def apply_legal(self, state: State, seat: int, move: Move,
                    rng: Random) -> tuple[State, list[Event]]:
        """See `Game.apply_legal`: `apply` less its check."""
        new = clone(state)
        events = _HANDLERS[move["type"]](new, seat, move)
        events += settle(new, rng)
        return new, events

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        if state["solo"]:
            return _solo_outcome(state)
        totals = [float(_score(state["seats"][s])["total"]) for s in range(state["players"])]
        keys = [(totals[s], _best_piece(state["seats"][s])) for s in range(state["players"])]
        ranking = [1 + sum(other > mine for other in keys) for mine in keys]
        winners = [s for s, rank in enumerate(ranking) if rank == 1]
        names = " and ".join(f"seat {s + 1}" for s in winners)
        return Outcome(totals, winners, ranking,
                       f"{state['end_reason']} Won by {names} with {totals[winners[0]]:g} points.",
                       [_breakdown(state["seats"][s]) for s in range(state["players"])])

    def zombie_move(self, state: State, seat: int) -> Move:
        """Withdraw from a race; return held blocks; in a round pass, or place the first block
        offered when the book does not allow a pass; bank the largest bonus block."""
        if state["phase"] == "lightning":
            return dict(WITHDRAW)
        moves = self.legal_moves(state, seat)
        if PASS in moves:
            return dict(PASS)
        if moves[0]["type"] == "bonus":
            return moves[-1]  # the largest size
        if moves[-1]["type"] == "return":
            return moves[-1]  # held blocks go home
        return next(m for m in moves if m["type"] == "place")

    def _check(self, state: State, seat: int, move: Any) -> None:
        """Refuse anything but a legal move, with a reason a person can act on."""
        if state["phase"] == "over":
            raise IllegalMove("game_over", "The game is over.")
        _check_fields(move)
        if seat not in self.to_act(state):
            raise IllegalMove("not_your_turn", "You are not to act now: you have acted this "
                              "round or left the race.")
        if move not in candidates(state, seat, move):
            raise IllegalMove("illegal_move", _why_not(state, move))

    # -- presentation --------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Everything on the table is public; only the deck's order and content stay hidden.

        Returned as a fresh copy, so no caller can reach into the state through it."""
        return orjson.loads(_table_json(orjson.dumps(state)))

    def describe(self, move: Move) -> str:
        return describe_move(move)

    def redact_move(self, move: Move, seat: int, viewer: int | None) -> Move | None:
        return move  # every block goes down in plain view

    def undoable(self, state: State, seat: int, move: Move) -> bool:
        """A move may be taken back when it ends nothing: every block goes down in plain view
        and only the end of a round (dice, cards turned, scoring), of a rebuild or of a race
        (a card turned) reveals something. So: True unless, after it, nobody is left to act in
        the round, the rebuild or the race, or it wins the race."""
        try:
            self._check(state, seat, move)
        except IllegalMove:
            return False
        new = clone(state)
        _HANDLERS[move["type"]](new, seat, move)
        race = new["lightning"]
        if new["phase"] == "lightning" and race["winner"] is not None:
            return False
        return bool(_to_act(new))

    def scramble_hidden(self, state: State, viewer: int | None, rng: Random) -> State:
        """Shuffle the face-down decks: their order (and the lightning card's place) is secret."""
        new = clone(state)
        rng.shuffle(new["deck"])
        if new["robot"] is not None:
            rng.shuffle(new["robot"]["deck"])
        return new


# -- setup -------------------------------------------------------------------------------------


def _new_player(holders: int, powers: tuple[str, ...]) -> dict[str, Any]:
    return {"supply": list(range(len(BLOCK_SIZES))), "zones": [[] for _ in range(holders)],
            "bonus": [], "powers": dict.fromkeys(powers, "unused"), "mortar_zone": None,
            "swap": None, "held": [[] for _ in range(holders)], "cards": [], "tokens": [],
            "coop_points": 0}


def _base_state(players: int, opts: TempleRushOptions) -> State:
    return {"players": players, "options": opts.model_dump(), "solo": players == 1,
            "phase": "build", "round": 0, "quiet_rounds": 0, "roller": players - 1,
            "dice": [STAR] * players, "done": [None] * players, "completions": [],
            "last": [None] * players,
            "lightning": None, "last_race": None, "robot": None, "end_reason": None}


def _table_setup(players: int, opts: TempleRushOptions, rng: Random) -> State:
    """Pile of 9/11/13 cards, 2 or 3 in the holders, the lightning card shuffled into the rest."""
    pile = rng.sample(range(len(COLOURS) * CARDS_PER_COLOUR), PILE_SIZE[players])
    holders = HOLDERS[players]
    deck = [*pile[holders:], LIGHTNING]
    rng.shuffle(deck)
    state = _base_state(players, opts)
    state.update(holders=pile[:holders], deck=deck,
                 seats=[_new_player(holders, POWERS) for _ in range(players)])
    return state


def _solo_setup(opts: TempleRushOptions, rng: Random) -> State:
    """One card of each colour per deck, then a brown card on the player's and the difficulty
    card on the Robot's; two holders for the player, one for the Robot."""
    picks = [rng.sample(range(c * CARDS_PER_COLOUR, (c + 1) * CARDS_PER_COLOUR), 4)
             for c in range(len(COLOURS))]
    mine, robots = [p[0] for p in picks], [p[1] for p in picks]
    rng.shuffle(mine)
    rng.shuffle(robots)
    brown = COLOURS.index("brown")
    robot_colour = next(i for i, c in enumerate(COLOURS)
                        if COLOUR_VALUES[c] == opts.robot_card_value)
    deck = [picks[brown][2], *mine]
    state = _base_state(1, opts)
    holders = HOLDERS[1]
    state.update(holders=deck[:holders], deck=deck[holders:],
                 seats=[_new_player(holders, SOLO_POWERS)],
                 robot=new_robot([picks[robot_colour][3], *robots]))
    return state



# -- moves -------------------------------------------------------------------------------------


def _place(state: State, seat: int, move: Move) -> list[Event]:
    player = state["seats"][seat]
    if player.get("swap"):
        return _replace(state, seat, move)
    zone = move["zone"]
    if "from_zone" in move:
        block_id = remove_from_zone(player, move["from_zone"], move["block"])["id"]
    else:
        block_id = take(player, move["size"])
    player["zones"][zone].append(new_block(block_id, move["col"], move["row"], move["dir"]))
    power = move.get("power", "")
    if "hammer" in power.split("+"):
        player["powers"]["hammer"] = "used"
    if "mortar" in power.split("+"):
        player["powers"]["mortar"] = "active"
        player["mortar_zone"] = zone
    state["done"][seat] = move["type"]
    _mark_last(state, seat, move)
    return _check_complete(state, seat, zone)


def _bag(state: State, seat: int, move: Move) -> list[Event]:
    """Complete a zone with another player's top two blocks; they go home before next round.

    Completing a temple ends the seat's round; the lender's construction is closed until the
    round ends (its top two blocks are away)."""
    zone = move["zone"]
    pair = top_two(state["seats"][move["seat"]]["zones"][move["from_zone"]])
    laid = bag_tiling(state, seat, zone, pair) or ()
    borrowed = [{"seat": move["seat"], "size": mask.bit_count(), "cells": cells_of(mask)}
                for mask in laid]
    state["seats"][seat]["powers"]["bag"] = "used"
    card = state["holders"][zone]
    state["completions"].append({
        "seat": seat, "zone": zone, "card": card, "borrowed": borrowed,
        "lent": {"seat": move["seat"], "zone": move["from_zone"],
                 "blocks": [b["id"] for b in pair]},
    })
    _await_bonus(state, seat, move["type"])
    return [Event(f"Seat {seat + 1}: temple complete!", data={"seat": seat, **move})]


def _swap(state: State, seat: int, move: Move) -> list[Event]:
    """First step of the Hammer & Chisel on a placed block, or of an exchange (a building
    mistake): the block goes back to the supply, and the seat's next move lays its replacement
    in that zone. The chisel is a free action (the die still waits, unless the new block
    completes the temple); an exchange is the seat's turn (book: no block is drawn)."""
    player = state["seats"][seat]
    old = remove_from_zone(player, move["zone"], move["block"])
    give_back(player, [old["id"]])
    if move["type"] == "chisel":
        player["powers"]["hammer"] = "used"
    player["swap"] = {"zone": move["zone"], "by": move["type"], "size": old["size"],
                      "col": old["col"], "row": old["row"], "dir": old["dir"]}
    return [Event(f"The 1x{old['size']} block {_where(old)} of zone {_nth(move['zone'])} goes "
                  f"back to seat {seat + 1}'s supply.",
                  data={"seat": seat, **move, "size": old["size"], "col": old["col"],
                        "row": old["row"], "dir": old["dir"]})]


def _replace(state: State, seat: int, move: Move) -> list[Event]:
    """Second step of a swap: the block that takes the removed one's place."""
    player, zone = state["seats"][seat], move["zone"]
    block_id = take(player, move["size"])
    player["zones"][zone].append(new_block(block_id, move["col"], move["row"], move["dir"]))
    if player["swap"]["by"] == "exchange":
        state["done"][seat] = "exchange"
    player["swap"] = None
    _mark_last(state, seat, move)
    return _check_complete(state, seat, zone)


def _mark_last(state: State, seat: int, move: Move) -> None:
    """The block `seat` laid last (a placement, a replacement, a rebuilt or race block), for the
    board to mark: the move's own log line is the platform's (`describe`), so events only tell
    what a move led to. Kept until the seat lays another block."""
    last = state.setdefault("last", [None] * state["players"])
    last[seat] = {"type": move["type"], "zone": move.get("zone"), "size": move["size"],
                  "col": move["col"], "row": move["row"], "dir": move["dir"]}


def _check_complete(state: State, seat: int, zone: int, acted: str | None = None) -> list[Event]:
    """Record a completion when the zone's blocks now fill its silhouette exactly. A rebuild
    completes outside any round (`acted` = "rebuild"): the seat's coming round is untouched."""
    card = state["holders"][zone]
    if zone_mask(state["seats"][seat]["zones"][zone]) != SHAPE_MASKS[card]:
        return []
    state["completions"].append({"seat": seat, "zone": zone, "card": card, "borrowed": []})
    _await_bonus(state, seat, acted or state["done"][seat] or "complete")
    return [Event(f"Seat {seat + 1}: temple complete!",
                  data={"seat": seat, "zone": zone, "card": card})]


def _await_bonus(state: State, seat: int, acted: str) -> None:
    """Completing a temple ends the seat's round, once it has chosen its bonus block (book: "one
    building block" of the temple): a choice only when two or more sizes are still free."""
    done = state["completions"][-1]
    choices = bonus_choices(state["seats"][seat], done["zone"])
    done["by"] = acted
    done["bonus"] = choices[0]["id"] if len(choices) == 1 else None
    state["done"][seat] = acted if len(choices) < 2 else None


def _bonus(state: State, seat: int, move: Move) -> list[Event]:
    done = next(c for c in state["completions"] if c["seat"] == seat and c["bonus"] is None)
    done["bonus"] = move["block"]
    state["done"][seat] = done["by"]
    size = BLOCK_SIZES[move["block"]]
    return [Event(f"The 1x{size} block goes to seat {seat + 1}'s bonus area (worth {size}).",
                  data={"seat": seat, **move})]


def _rebuild(state: State, seat: int, move: Move) -> list[Event]:
    """One held block into the new temple; when none of the rest fits, they go home."""
    player, zone = state["seats"][seat], move["zone"]
    held = player["held"][zone]
    block_id = next(i for i in held if BLOCK_SIZES[i] == move["size"])
    held.remove(block_id)
    player["zones"][zone].append(new_block(block_id, move["col"], move["row"], move["dir"]))
    _mark_last(state, seat, move)
    return drop_unfit(state, seat, zone) + _check_complete(state, seat, zone, "rebuild")


def _return(state: State, seat: int, move: Move) -> list[Event]:
    returned = return_held(state["seats"][seat], move["zone"])
    word = "block goes" if returned == 1 else "blocks go"
    return [Event(f"{returned} {word} back to seat {seat + 1}'s supply.",
                  data={"seat": seat, **move})]


def _pass(state: State, seat: int, move: Move) -> list[Event]:
    state["done"][seat] = move["type"]
    return []


def _race(state: State, seat: int, move: Move) -> list[Event]:
    """One block of the lightning build: from the supply, else borrowed from a construction
    (or from blocks held for rebuilding)."""
    race, player = state["lightning"], state["seats"][seat]
    size, origin, was = move["size"], None, None
    if size in supply_sizes(player):
        block_id = take(player, size)
    else:
        origin = next((z for z, blocks in enumerate(player["zones"])
                       if any(b["size"] == size for b in blocks)), None)
        if origin is not None:
            block = next(b for b in player["zones"][origin] if b["size"] == size)
            remove_from_zone(player, origin, block["id"])
            block_id, was = block["id"], {k: block[k] for k in ("col", "row", "dir")}
        else:  # held for rebuilding: it goes back to the held blocks (`was` stays None)
            origin, block_id = next((z, i) for z, ids in enumerate(player["held"])
                                    for i in ids if BLOCK_SIZES[i] == size)
            player["held"][origin].remove(block_id)
    build = race["builds"][seat]
    build.append({**new_block(block_id, move["col"], move["row"], move["dir"]),
                  "from": origin, "was": was})
    _mark_last(state, seat, move)
    if zone_mask(build) != SHAPE_MASKS[race["card"]]:
        return []
    race["winner"] = seat
    player["cards"].append(LIGHTNING)
    won = Event(f"Seat {seat + 1} completes the lightning temple first and wins the lightning "
                "card (3 points)!", data={"seat": seat, "lightning": True})
    return [won]


def _withdraw(state: State, seat: int, move: Move) -> list[Event]:
    state["lightning"]["out"][seat] = True
    return []


_HANDLERS = {"place": _place, "exchange": _swap, "bag": _bag, "chisel": _swap,
             "bonus": _bonus, "rebuild": _rebuild, "return": _return, "pass": _pass,
             "race": _race, "withdraw": _withdraw}


def _check_fields(move: Any) -> None:
    """Refuse malformed moves cheaply, before any legality is computed."""
    kind = move.get("type") if isinstance(move, dict) else None
    if not isinstance(kind, str) or kind not in FIELDS:
        raise IllegalMove("bad_move", "A Temple Rush move is a dict with a known 'type' (place, "
                          "exchange, bag, chisel, bonus, rebuild, return, pass, race or "
                          "withdraw).")
    keys = set(move) - {"type"}
    required, optional = FIELDS[kind], OPTIONAL_FIELDS.get(kind, frozenset())
    if not required <= keys <= required | optional:
        names = ", ".join(sorted(required)) or "nothing else"
        maybe = f" (and maybe {', '.join(sorted(optional))})" if optional else ""
        raise IllegalMove("bad_move", f"A {kind} move names {names}{maybe}.")
    for key, field in move.items():
        wanted = str if key in TEXT_FIELDS else int
        if type(field) is not wanted:
            raise IllegalMove("bad_move", f"The field {key!r} must be a "
                              f"{'name' if wanted is str else 'whole number'}.")


def _why_not(state: State, move: Move) -> str:
    kind = move["type"]
    racing = state["phase"] == "lightning"
    if racing != (kind in ("race", "withdraw")):
        return ("During the lightning race you can only race or withdraw." if racing
                else "There is no lightning race now.")
    if state["phase"] == "rebuild" and kind not in ("rebuild", "return", "bonus"):
        return ("A card was just won: before the next roll, only rebuilding (or returning the "
                "blocks) into the new temple is possible.")
    if kind == "place":
        return ("That block cannot go there: take the die's block (or a power's), lie inside "
                "the silhouette on free cells, and sit on or under one of your blocks in that "
                "zone (side by side does not join).")
    if kind == "exchange":
        return ("An exchange corrects a building mistake (it uses your turn): only in a temple "
                "that can no longer be finished in one piece from your supply, for a block a "
                "supply block can replace to put it right.")
    if kind == "bag":
        return "The Bag needs another player's top two blocks to complete a temple you started."
    if kind == "chisel":
        return ("Hammer & Chisel swaps one of your placed blocks for one of another size from "
                "your supply, laid anywhere in that temple where it keeps it in one piece.")
    if kind in ("rebuild", "return"):
        return ("Rebuilding comes right after another player won the card you were building, "
                "before the next roll: lay a held block inside the new temple, joined to those "
                "rebuilt so far, or return the rest.")
    if kind == "bonus":
        return ("Choose one block of the temple you completed, of a size your bonus area lacks; "
                "only after completing a temple.")
    if kind == "race":
        return ("That block does not fit the lightning temple: it must sit on or under your "
                "build and leave the rest buildable in one piece from your blocks.")
    return "That move is not possible now."


def describe_move(move: Move) -> str:
    """One line of text for a move, for logs and the admin."""
    kind = move.get("type")
    if kind in ("place", "race"):
        text = f"placed a 1x{move.get('size')} block {_where(move)}"
        if kind == "race":
            return text + " in the lightning race"
        text += f" in zone {_nth(move.get('zone'))}"
        if "from_zone" in move:
            text += f", moved from zone {_nth(move.get('from_zone'))}"
        power = {"hammer": "Hammer & Chisel", "mortar": "Mortar",
                 "hammer+mortar": "Hammer & Chisel and the Mortar"}.get(move.get("power", ""))
        return text + (f" using the {power}" if power else "")
    if kind == "exchange":
        return (f"took a wrongly built block out of zone {_nth(move.get('zone'))} to exchange it "
                "for a block from the supply (a building mistake)")
    if kind == "bag":
        return (f"used the Bag: the top two blocks of seat {_nth(move.get('seat'))}'s zone "
                f"{_nth(move.get('from_zone'))} complete zone {_nth(move.get('zone'))}")
    if kind == "chisel":
        return (f"used the Hammer & Chisel on a block in zone {_nth(move.get('zone'))}: it goes "
                "back to the supply for another size")
    if kind == "withdraw":
        return "withdrew from the lightning race"
    if kind == "rebuild":
        return (f"rebuilt a 1x{move.get('size')} block {_where(move)} into the new temple of "
                f"zone {_nth(move.get('zone'))}")
    if kind == "return":
        return f"returned the held blocks of zone {_nth(move.get('zone'))} to the supply"
    if kind == "bonus":
        return f"chose a block of zone {_nth(move.get('zone'))} for the bonus area"
    return "passed"


def _nth(index: Any) -> str:
    """Zones, columns and layers as people count them, from 1 (the renderer's numbering)."""
    return str(index + 1) if isinstance(index, int) else "?"


def _where(move: Move) -> str:
    """A block's place: 'on end' or 'flat' (a 1x1 is neither), from its lowest, leftmost cell,
    counted from 1."""
    turned = "" if move.get("size") == 1 else "on end " if move.get("dir") == "upright" else "flat "
    return f"{turned}at column {_nth(move.get('col'))}, layer {_nth(move.get('row'))}"


def _score(player: dict[str, Any]) -> dict[str, int]:
    """Cards + point tokens + bonus blocks + unused power tokens (+ cooperative points)."""
    parts = {
        "cards": sum(value(card) for card in player["cards"]),
        "tokens": sum(player.get("tokens", [])),
        "bonus": sum(BLOCK_SIZES[i] for i in player["bonus"]),
        "powers": sum(1 for status in player.get("powers", {}).values() if status == "unused"),
        "cooperative": player.get("coop_points", 0),
    }
    return {**parts, "total": sum(parts.values())}


def _best_piece(player: dict[str, Any]) -> int:
    """The tie-break: the highest-valued card or point token."""
    return max([*(value(card) for card in player["cards"]), *player.get("tokens", [])], default=0)


def _solo_outcome(state: State) -> Outcome:
    mine, robot = state["seats"][0], state["robot"]
    me, it = _score(mine)["total"], _score(robot)["total"]
    won = (me, _best_piece(mine)) >= (it, _best_piece(robot))
    verdict = "You beat" if won else "You lose to"
    return Outcome([float(me)], [0] if won else [], [1],
                   f"{state['end_reason']} {verdict} the Robot, {me} to {it}.", [_breakdown(mine)])


def _breakdown(player: dict[str, Any]) -> dict[str, float]:
    """The end screen's score parts: every category of `_score` but the total."""
    return {part: float(points) for part, points in _score(player).items() if part != "total"}


def _to_act(state: State) -> frozenset[int]:
    if state["phase"] == "over":
        return frozenset()
    if state["phase"] == "lightning":
        return frozenset(s for s, out in enumerate(state["lightning"]["out"]) if not out)
    if state["phase"] == "rebuild":
        return rebuilders(state)
    return frozenset(s for s, done in enumerate(state["done"]) if not done)


# -- views -------------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _table_json(state_json: bytes) -> bytes:
    """The view as JSON, per state. Every seat and spectator asks for the same view after each
    move: a small memo keyed by the state's exact JSON builds it once."""
    return orjson.dumps(_table(orjson.loads(state_json)))


def _table(state: State) -> dict[str, Any]:
    race = state["lightning"]
    return {
        "players": state["players"],
        "solo": state["solo"],
        "phase": state["phase"],
        "round": state["round"],
        "quiet_rounds": state["quiet_rounds"],
        "stall_rounds": state["options"]["stall_rounds"],
        "roller": state["roller"],
        "dice": [FACE_NAMES[d] for d in state["dice"]],
        "holders": [card_view(c) for c in state["holders"]],
        "deck_count": len(state["deck"]),
        "acted": list(state["done"]),
        "to_act": sorted(_to_act(state)),
        "completions": state["completions"],
        "seats": [_seat_view(state, s) for s in range(state["players"])],
        "scores": [_score(player)["total"] for player in state["seats"]],
        "last": state.get("last") or [None] * state["players"],
        "lightning": None if race is None else _race_view(race),
        "last_race": _last_race_view(state.get("last_race")),
        "robot": _robot_view(state["robot"]) if state["solo"] else None,
        "cooperative_finale": state["options"]["cooperative_finale"],
        "end_reason": state["end_reason"],
    }


def _size_counts(ids: list[int]) -> dict[str, int]:
    counts = {name: 0 for name in ("1x1", "1x2", "1x3", "1x4")}
    for block_id in ids:
        counts[f"1x{BLOCK_SIZES[block_id]}"] += 1
    return counts


def _seat_view(state: State, seat: int) -> dict[str, Any]:
    player = state["seats"][seat]
    complete = {c["zone"] for c in state["completions"] if c["seat"] == seat}
    return {
        "seat": seat,
        "supply": _size_counts(player["supply"]),
        "supply_ids": player["supply"],
        "zones": [{"zone": z, "blocks": [block_view(b) for b in blocks],
                   "mortar": player["mortar_zone"] == z, "complete": z in complete}
                  for z, blocks in enumerate(player["zones"])],
        "bonus": [{"id": i, "size": BLOCK_SIZES[i]} for i in player["bonus"]],
        "powers": player["powers"],
        "held": [[{"id": i, "size": BLOCK_SIZES[i]} for i in ids]
                 for ids in player.get("held") or [[] for _ in player["zones"]]],
        "swap": None if not player.get("swap") else {
            "zone": player["swap"]["zone"], "by": player["swap"]["by"],
            "size": player["swap"]["size"]},
        "cards": [card_view(card) for card in player["cards"]],
        "tokens": player["tokens"],
        "coop_points": player["coop_points"],
        "score": _score(player),
    }


def _race_view(race: dict[str, Any]) -> dict[str, Any]:
    return {"card": card_view(race["card"]), "holder": race["holder"],
            "builds": [[block_view(b) for b in build] for build in race["builds"]],
            "out": race["out"], "winner": race["winner"]}


def _last_race_view(last: dict[str, Any] | None) -> dict[str, Any] | None:
    if last is None:
        return None
    return {"card": card_view(last["card"]), "winner": last["winner"], "round": last["round"]}


def _robot_view(robot: dict[str, Any]) -> dict[str, Any]:
    return {"die": None if robot["die"] is None else FACE_NAMES[robot["die"]],
            "card": card_view(robot["holder"]), "deck_count": len(robot["deck"]),
            "zone": [block_view(b) for b in robot["zone"]],
            "supply": _size_counts(robot["supply"]),
            "bonus": [{"id": i, "size": BLOCK_SIZES[i]} for i in robot["bonus"]],
            "cards": [card_view(card) for card in robot["cards"]], "score": _score(robot)}
