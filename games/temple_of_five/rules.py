"""Temple of Five (Red Cat Games, 2025), rulebook ../shared/rulebooks/temple-of-five.txt.

Six rounds (level 1: 3, level 2: 2, level 3: 1). Each round: a hidden simultaneous draft
(`assign` one tile at a time; with the ultimate goal each seat first picks its card's side,
`goal`), a simultaneous construction (`place` one tile, `blank` on level 3), then priests in
turn (`chain`, `occupy`, `private`, `pass`). `bonus` pieces go down any time of one's own
steps: while drafting, while building, and in one's priest turn between chains.

State (plain JSON): players, options, round, phase (draft|build|priests|over), first, turn,
deck (tile faces, top first), specials, decks (per god, top first), open (per god: card or
None), seats: per seat {printed, tiles, bonuses, hand, sent, placing, reserve, priests, chains,
used, reused, effect, pending, won, private, private_taken, placed_bonuses, goal}, supply,
last (the latest move the board marks: {seat, kind, cells, card?}, or None).

Events tell what a move led to (a card won, a new card revealed, a bonus piece drawn, priests
back, the next step or round); the move's own log line is `describe`'s, so no event restates it.
"""

from __future__ import annotations

from itertools import combinations
from random import Random
from typing import Any, ClassVar, Literal, get_args

from pydantic import BaseModel, Field, model_validator

from games.protocol import Event, IllegalMove, Move, Outcome, State, clone, is_legal
from games.temple_of_five import board
from games.temple_of_five.data import (
    BOARDS,
    GOALS,
    GOD_NAMES,
    GODS,
    PRIESTS,
    ROUNDS,
    SHAPES,
    SIZE,
    SLOTS,
    blessing_deck,
    bonus_supply,
    decoration_tiles,
    printed,
    special_tiles,
)

Events = list[Event]
LABELS = {
    "assign": "passed on a drafted tile",
    "place": "placed a tile",
    "blank": "placed the special tile face down",
    "bonus": "placed a bonus decoration",
    "chain": "used a chain",
    "occupy": "put priests on a blessing card",
    "private": "took a private blessing card",
    "goal": "chose a side of the ultimate goal card",
    "pass": "ended the priest turn",
}
EFFECT_WORDS = {"reuse": "may once use a chain that already holds one of its priests",
                "bonus2": "draws 2-space bonus pieces",
                "three": "may use three chains this turn",
                "private": "may take a private blessing card in its priest turn"}
DESTINATIONS = {"keep": "kept a drafted tile", "left": "gave a tile to the left",
                "right": "gave a tile to the right", "discard": "discarded a special tile"}


FirstPlayer = Literal["random", "seat 1", "seat 2", "seat 3", "seat 4"]
FIRST_PLAYER: tuple[str, ...] = get_args(FirstPlayer)


class TempleOfFiveOptions(BaseModel):
    """Variants from the book, each a room option, and who takes the first player token."""

    effect_tiles: bool = Field(
        False, title="Effect tiles",
        description="Effect tiles: the level-3 special tiles each give a bonus (reuse a chain, "
                    "draw two bonus pieces, use a third chain, or a private blessing card).")
    mixed_set: bool = Field(
        False, title="Mixed set",
        description="Mixed set: level 3 uses 4 single-colour tiles and 4 effect tiles "
                    "(not together with Effect tiles).")
    bird_in_hand: bool = Field(
        False, title="A bird in the hand",
        description="A bird in the hand: in the exchange you see your drawn tiles one at a time "
                    "and must give or keep each before seeing the next.")
    ultimate_goal: bool = Field(
        False, title="The ultimate goal",
        description="The ultimate goal: each player secretly picks one side of a goal card "
                    "with three extra goals (4, 4 and 3 points) scored at the end.")
    first_player: FirstPlayer = Field(
        "random", title="First player",
        description="First player: who takes the first player token (the book gives it to "
                    "the player who last saw a pyramid), a seat you pick or random.")

    @model_validator(mode="after")
    def _one_special_set(self) -> TempleOfFiveOptions:
        if self.effect_tiles and self.mixed_set:
            raise ValueError("choose effect tiles or the mixed set, not both")
        return self


def _refuse(code: str, message: str) -> IllegalMove:
    return IllegalMove(code, message)


class TempleOfFive:
    """The game object registered as `temple-of-five`."""

    id: ClassVar[str] = "temple-of-five"
    title: ClassVar[str] = "Temple of Five"
    description: ClassVar[str] = (
        "Draft decoration tiles in secret, build a three-level pyramid and read its colour chains "
        "from above to send priests onto the blessing cards of five gods."
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    Options: ClassVar[type[BaseModel]] = TempleOfFiveOptions

    # ----- protocol -------------------------------------------------------------------------
    def setup(self, players: int, options: BaseModel, rng: Random) -> State:
        if not isinstance(options, TempleOfFiveOptions):
            raise _refuse("bad_options", "these are not Temple of Five options")
        if not 2 <= players <= 4:
            raise _refuse("bad_options", "Temple of Five is for 2 to 4 players")
        chosen = FIRST_PLAYER.index(options.first_player) - 1
        if chosen >= players:
            raise _refuse("bad_options", f"there is no {options.first_player} in this room")
        deck = decoration_tiles()
        rng.shuffle(deck)
        kind = "effect" if options.effect_tiles else "mixed" if options.mixed_set else "single"
        specials = special_tiles(kind)
        rng.shuffle(specials)
        decks = {}
        for god in GODS:
            cards = blessing_deck(god)
            rng.shuffle(cards)
            decks[god] = cards
        state: State = {
            "players": players,
            "options": options.model_dump(),
            "round": 0,
            "phase": "draft",
            "first": 0,
            "turn": 0,
            "deck": deck,
            "specials": specials,
            "decks": decks,
            "open": {god: None for god in GODS},
            "supply": bonus_supply(),
            "last": None,
            "seats": [_new_seat() for _ in range(players)],
        }
        for god in GODS:
            _reveal(state, god)
        _deal(state)
        # "Shuffle the player boards and randomly deal one to each player."
        boards = list(range(BOARDS))
        rng.shuffle(boards)
        for data, board_id in zip(state["seats"], boards, strict=False):
            data["printed"] = printed(board_id)
        # "The player who last saw a pyramid takes the first player token": the room says who,
        # or lets chance decide (drawn last, so a seed deals the same tiles either way).
        state["first"] = state["turn"] = rng.randrange(players) if chosen < 0 else chosen
        return state

    def to_act(self, state: State) -> frozenset[int]:
        phase = state["phase"]
        seats = range(state["players"])
        if phase == "draft":
            return frozenset(s for s in seats if state["seats"][s]["hand"])
        if phase == "build":
            return frozenset(s for s in seats if state["seats"][s]["placing"])
        if phase == "priests":
            return frozenset({state["turn"]})
        return frozenset()

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        me = state["seats"][seat]
        phase = state["phase"]
        if phase == "draft":
            if state["options"]["ultimate_goal"] and me["goal"] is None:
                return [{"type": "goal", "side": side} for side in GOALS]
            return _draft_moves(state, me) + _bonus_moves(me)
        moves: list[Move] = []
        if phase == "build":
            level = ROUNDS[state["round"]][0]
            free = board.free_slots(me, level)
            for t in range(len(me["placing"])):
                for slot in free:
                    moves += [{"type": "place", "tile": t, "slot": slot, "rot": r}
                              for r in range(4)]
                if level == 3:
                    moves += [{"type": "blank", "tile": t}]
        else:
            if me["pending"] is not None:
                return _occupy_moves(state, seat)
            moves += [{"type": "chain", "x": x, "y": y} for x, y in _usable_chains(state, seat)]
            moves += _private_moves(state, me)
            moves.append({"type": "pass"})
        if me["pending"] is None:
            moves += _bonus_moves(me)
        return moves

    def apply(self, state: State, seat: int, move: Move, rng: Random) -> tuple[State, Events]:
        if not isinstance(move, dict) or not is_legal(move, self.legal_moves(state, seat)):
            raise _refuse("illegal_move", "that move is not legal now")
        return self.apply_legal(state, seat, move, rng)

    def apply_legal(self, state: State, seat: int, move: Move,
                    rng: Random) -> tuple[State, Events]:
        """See `Game.apply_legal`: `apply` less its check."""
        state = _copy(state)
        me = state["seats"][seat]
        events: Events = []
        kind = move["type"]
        if kind == "goal":
            me["goal"] = move["side"]
        elif kind == "assign":
            tile = me["hand"].pop(move["tile"])
            me["sent"][move["to"]].append(tile)
            if _draft_full(state, me):
                me["sent"][_last_slot(state, me)].extend(me["hand"])
                me["hand"] = []
            if not any(s["hand"] for s in state["seats"]):
                _exchange(state)
                events.append(Event("Everyone has passed on their tiles: the tiles change "
                                    "hands and construction begins."))
        elif kind in ("place", "blank"):
            tile = me["placing"].pop(move["tile"])
            level = ROUNDS[state["round"]][0]
            if kind == "blank":
                tile = {"faces": [None] * 4, "effect": None}
                slot, rot = 0, 0
            else:
                slot, rot = move["slot"], move["rot"]
            events += _place_tile(state, seat, tile, level, slot, rot, rng)
            if not any(s["placing"] for s in state["seats"]):
                state["phase"] = "priests"
                state["turn"] = state["first"]
                events.append(Event(f"Every tile is placed: the priests' turns begin with seat "
                                    f"{state['first'] + 1}."))
                events += _start_turn(state)
        elif kind == "bonus":
            piece = me["reserve"].pop(move["piece"])
            cells = [list(c) for c in move["cells"]]
            level = board.top(me)[tuple(cells[0])][0]
            me["bonuses"].append({"colour": piece["colour"], "cells": cells, "level": level})
            me["placed_bonuses"] += 1
            _mark(state, seat, "bonus", cells)
            if state["phase"] == "priests":
                events += _end_turn_if_done(state, seat)
        elif kind == "chain":
            cells = board.chain_at(me, move["x"], move["y"])
            colour = board.top(me)[(move["x"], move["y"])][1]
            me["chains"].append([move["x"], move["y"]])
            me["priests"] -= 1
            me["pending"] = {"length": len(cells), "colour": colour}
            me["used"] += 1
            if any(tuple(p) in cells for p in me["chains"][:-1]):
                me["reused"] = True
            _mark(state, seat, "chain", sorted([list(c) for c in cells]))
            events.append(Event(
                f"It is a {colour} chain of {len(cells)}: seat {seat + 1} may put priests worth "
                f"up to {len(cells)} on a {colour} or white blessing card."))
        elif kind == "occupy":
            events += _occupy(state, seat, move["card"], move["cells"], rng)
            me["pending"] = None
            events += _end_turn_if_done(state, seat)
        elif kind == "private":
            me["private"] = _fresh_card(state["decks"][move["god"]].pop(0))
            me["private_taken"] = True
        elif kind == "pass":
            events += _next_turn(state)
        return state, events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        goals_open = all(data["goal"] for data in state["seats"])
        bird_in_hand = state["options"]["bird_in_hand"]
        seats = [_seat_view(data, s == seat, goals_open, bird_in_hand)
                 for s, data in enumerate(state["seats"])]
        level = ROUNDS[min(state["round"], len(ROUNDS) - 1)][0]
        return {
            "players": state["players"],
            "options": dict(state["options"]),
            "round": state["round"] + 1,
            "rounds": len(ROUNDS),
            "level": level,
            "phase": state["phase"],
            "first": state["first"],
            "turn": state["turn"] if state["phase"] == "priests" else None,
            "deck_count": len(state["deck"]),
            "decks": {god: len(cards) for god, cards in state["decks"].items()},
            "open": clone(state["open"]),
            "god_names": dict(GOD_NAMES),
            "supply_count": len(state["supply"]),
            "goals": {side: list(text) for side, text in GOALS.items()}
            if state["options"]["ultimate_goal"] else None,
            "seats": seats,
            # The running score: what each seat would score if the game ended now (RULES.md).
            "scores": running_scores(state),
            # The latest marked move (a tile, a bonus piece, a chain, priests on a card), so the
            # board marks it after a reload too.
            "last": clone(state.get("last")),
        }

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        scores = _scores(state)
        keys = [(scores[s], state["seats"][s]["priests"]) for s in range(state["players"])]
        ranking = [1 + sum(1 for other in keys if other > mine) for mine in keys]
        winners = [s for s, rank in enumerate(ranking) if rank == 1]
        return Outcome([float(x) for x in scores], winners, ranking, "The temple is complete.",
                       breakdown=_breakdown(state))

    def zombie_move(self, state: State, seat: int) -> Move:
        moves = self.legal_moves(state, seat)
        for move in moves:
            if move["type"] in ("pass", "place", "assign"):
                return move
        return moves[0]

    def describe(self, move: Move) -> str:
        if not isinstance(move, dict):
            return "made a move"
        kind = move.get("type")
        if kind == "assign" and move.get("to") in DESTINATIONS:
            return DESTINATIONS[move["to"]]
        if kind == "place" and isinstance(move.get("slot"), int):
            return f"placed a tile in slot {move['slot'] + 1}, turned {move.get('rot', 0) * 90}°"
        if kind == "occupy" and isinstance(move.get("cells"), list):
            n = len(move["cells"])
            card = ("their private blessing card" if move.get("card") == "private"
                    else f"the {move.get('card')} blessing card")
            return f"put {n} priest{'' if n == 1 else 's'} on {card}"
        if kind == "bonus" and isinstance(move.get("cells"), list):
            return f"placed a {len(move['cells'])}-space bonus piece"
        if kind == "private" and isinstance(move.get("god"), str):
            return f"took the top {move['god']} blessing card as a private card"
        return LABELS.get(kind, "made a move") if isinstance(kind, str) else "made a move"

    def redact_move(self, move: Move, seat: int, viewer: int | None) -> Move | None:
        """Others see no drafted or built tile and no goal side; of a bonus piece only the
        spaces it covers (its colour shows on the pyramid): `piece` indexes the hidden reserve,
        and with the reserve's order it would tell the colour of an earlier piece."""
        kind = move.get("type")
        if viewer == seat or kind not in ("assign", "place", "blank", "goal", "bonus"):
            return dict(move)
        if kind == "bonus":
            return {"type": kind, "cells": clone(move.get("cells"))}
        return {"type": kind}

    def undoable(self, state: State, seat: int, move: Move) -> bool:
        """A step the seat may take back (RULES.md, "Taking a step back"): it keeps the same
        step going (same phase, round and priest turn), draws nothing (no bonus piece, no
        blessing card) and shows nothing hidden — not a bonus piece from the reserve, not a
        special tile face up, not the next tile of a bird in the hand, not the goal sides."""
        kind = move.get("type") if isinstance(move, dict) else None
        if kind in ("bonus", "private", "pass") or not is_legal(move,
                                                                 self.legal_moves(state, seat)):
            return False
        if kind == "place" and ROUNDS[state["round"]][0] == 3:
            return False
        after, _ = self.apply(state, seat, move, Random(0))
        if any(after[k] != state[k] for k in ("phase", "round", "turn", "supply")):
            return False
        if [len(cards) for cards in after["decks"].values()] != [
                len(cards) for cards in state["decks"].values()]:
            return False
        mine = after["seats"][seat]
        if kind == "assign" and state["options"]["bird_in_hand"] and mine["hand"]:
            return False
        return not (kind == "goal" and all(data["goal"] for data in after["seats"]))

    def scramble_hidden(self, state: State, viewer: int | None, rng: Random) -> State:
        state = clone(state)
        others = [d for s, d in enumerate(state["seats"]) if s != viewer]
        own = None if viewer is None else state["seats"][viewer]
        hidden_own = own is not None and state["options"]["bird_in_hand"] and own["hand"]
        # Tiles of this round's kind: the draw pile, other seats' hands, sent and received tiles.
        level = ROUNDS[min(state["round"], len(ROUNDS) - 1)][0]
        source = "specials" if level == 3 else "deck"
        pool = list(state[source])
        for data in others:
            pool += data["hand"] + data["placing"]
            for sent in data["sent"].values():
                pool += sent
        if hidden_own:
            pool += own["hand"][1:]
        rng.shuffle(pool)
        for data in others:
            data["hand"] = [pool.pop() for _ in data["hand"]]
            data["placing"] = [pool.pop() for _ in data["placing"]]
            for to in data["sent"]:
                data["sent"][to] = [pool.pop() for _ in data["sent"][to]]
        if hidden_own:
            own["hand"] = own["hand"][:1] + [pool.pop() for _ in own["hand"][1:]]
        state[source] = pool
        rng.shuffle(state["deck" if source == "specials" else "specials"])
        # Bonus pieces: the supply and other seats' reserves.
        pieces = list(state["supply"])
        for data in others:
            pieces += data["reserve"]
        rng.shuffle(pieces)
        for data in others:
            data["reserve"] = [pieces.pop() for _ in data["reserve"]]
        state["supply"] = pieces
        # Ultimate goal sides are secret until every seat has chosen.
        if not all(data["goal"] for data in state["seats"]):
            for data in others:
                if data["goal"]:
                    data["goal"] = rng.choice(sorted(GOALS))
        for cards in state["decks"].values():
            rng.shuffle(cards)
        return state


# ----- helpers ---------------------------------------------------------------------------------
def _copy(state: State) -> State:
    """A copy for `apply` to change. The blessing decks are two thirds of the state and change
    only by losing their top card: their lists are copied, their cards shared between states.
    So a card in `decks` is never changed in place (`_fresh_card` copies it as it leaves)."""
    copy = clone({**state, "decks": None})
    copy["decks"] = {god: list(cards) for god, cards in state["decks"].items()}
    return copy


def _new_seat() -> dict[str, Any]:
    """An empty seat; its board (`printed`) is dealt once the decks are shuffled."""
    return {
        "printed": {}, "tiles": [], "bonuses": [], "hand": [], "placing": [],
        "sent": {"keep": [], "left": [], "right": [], "discard": []}, "reserve": [],
        "priests": PRIESTS,
        "chains": [], "used": 0, "reused": False, "effect": None, "pending": None, "won": [],
        "private": None, "private_taken": False, "placed_bonuses": 0, "goal": None,
    }


def _seat_view(data: dict[str, Any], mine: bool, goals_open: bool,
               bird_in_hand: bool) -> dict[str, Any]:
    """One seat's part of a view, copied in one JSON round trip: the view never aliases the
    state, and one copy per seat is cheaper than one per field."""
    return clone({
        "printed": data["printed"],
        "tiles": data["tiles"],
        "bonuses": data["bonuses"],
        "top": board.top_rows(data),
        "priests": data["priests"],
        "chains": data["chains"],
        "won": data["won"],
        "private": data["private"],
        "used": data["used"],
        "effect": data["effect"],
        "goal": data["goal"] if mine or goals_open else None,
        "pending": data["pending"],
        "hand_count": len(data["hand"]),
        "placing_count": len(data["placing"]),
        "reserve_count": len(data["reserve"]),
        "hand": (data["hand"][:1] if bird_in_hand else data["hand"]) if mine else None,
        "sent": data["sent"] if mine else None,
        "placing": data["placing"] if mine else None,
        "reserve": data["reserve"] if mine else None,
    })


def _reveal(state: State, god: str) -> None:
    deck = state["decks"][god]
    state["open"][god] = _fresh_card(deck.pop(0)) if deck else None


def _fresh_card(card: dict[str, Any]) -> dict[str, Any]:
    """A card leaving its deck, with no priests on it: a deep copy (deck cards are shared)."""
    return {**clone(card), "priests": [None] * len(card["cells"])}


def _deal(state: State) -> None:
    """Each seat draws the round's tiles (special tiles on level 3)."""
    level, drawn = ROUNDS[state["round"]]
    source = state["specials"] if level == 3 else state["deck"]
    for data in state["seats"]:
        data["hand"] = [source.pop(0) for _ in range(drawn)]
        data["sent"] = {"keep": [], "left": [], "right": [], "discard": []}


def _capacity(state: State) -> dict[str, int]:
    level = ROUNDS[state["round"]][0]
    if level == 3:
        return {"keep": 1, "discard": 1}
    if level == 2:
        return {"keep": 1, "left": 1}
    if state["players"] == 2:
        return {"keep": 1, "left": 2}
    return {"keep": 1, "left": 1, "right": 1}


def _draft_moves(state: State, me: dict[str, Any]) -> list[Move]:
    tiles = range(1 if state["options"]["bird_in_hand"] else len(me["hand"]))
    cap = _capacity(state)
    return [{"type": "assign", "tile": t, "to": to} for t in tiles
            for to, n in cap.items() if len(me["sent"][to]) < n]


def _draft_full(state: State, me: dict[str, Any]) -> bool:
    """True when only one destination still has room: the remaining tiles go there."""
    cap = _capacity(state)
    return sum(1 for to, n in cap.items() if len(me["sent"][to]) < n) <= 1


def _last_slot(state: State, me: dict[str, Any]) -> str:
    cap = _capacity(state)
    return next(to for to, n in cap.items() if len(me["sent"][to]) < n)


def _exchange(state: State) -> None:
    """Kept tiles stay, given tiles move to the neighbour, discarded special tiles leave play."""
    n = state["players"]
    for data in state["seats"]:
        data["placing"] = list(data["sent"]["keep"])
    for s, data in enumerate(state["seats"]):
        state["seats"][(s + 1) % n]["placing"] += data["sent"]["left"]
        state["seats"][(s - 1) % n]["placing"] += data["sent"]["right"]
        data["sent"] = {"keep": [], "left": [], "right": [], "discard": []}
    state["phase"] = "build"


def _place_tile(state: State, seat: int, tile: Any, level: int, slot: int, rot: int,
                rng: Random) -> Events:
    me = state["seats"][seat]
    faces = tile["faces"] if isinstance(tile, dict) else tile
    faces = faces[-rot:] + faces[:-rot] if rot else list(faces)
    x0, y0 = SLOTS[level][slot]
    covered = {(x0 + dx, y0 + dy) for dx in (0, 1) for dy in (0, 1)}
    back = [p for p in me["chains"] if tuple(p) in covered]
    me["chains"] = [p for p in me["chains"] if tuple(p) not in covered]
    me["priests"] += len(back)
    me["tiles"].append({"level": level, "slot": slot, "faces": faces})
    _mark(state, seat, "place", sorted(map(list, covered)))
    events: Events = []
    if back:
        word = "priest comes" if len(back) == 1 else "priests come"
        events.append(Event(f"{len(back)} {word} back to seat {seat + 1}: the tile covers "
                            f"the space{'' if len(back) == 1 else 's'} "
                            f"{'it' if len(back) == 1 else 'they'} stood on."))
    effect = tile.get("effect") if isinstance(tile, dict) else None
    if effect and any(faces):
        me["effect"] = effect
        words = EFFECT_WORDS[effect]
        if effect == "bonus2":
            drawn = sum(_draw_bonus(state, seat, 2, rng) for _ in range(2))
            words = (f"draws {drawn} 2-space bonus piece{'' if drawn == 1 else 's'}" if drawn
                     else "would draw 2-space bonus pieces, but none are left")
        events.append(Event(f"Effect tile: seat {seat + 1} {words}."))
    return events


def _mark(state: State, seat: int, kind: str, cells: list[list[int]],
          card: str | None = None) -> None:
    """Remember the move the board marks (the view's `last`): events no longer carry it."""
    state["last"] = {"seat": seat, "kind": kind, "cells": clone(cells)}
    if card is not None:
        state["last"]["card"] = card


def _start_turn(state: State) -> Events:
    """A seat's priest turn begins; with nothing to do but "pass" it passes by itself (skipping
    is the book's own choice, "or skip this step entirely", and here it is the only one)."""
    seat = state["turn"]
    me = state["seats"][seat]
    me["used"], me["reused"], me["pending"] = 0, False, None
    if _has_choice(state, seat):
        return []
    return [Event(f"Seat {seat + 1} has no chain to use: the priest turn passes."),
            *_next_turn(state)]


def _next_turn(state: State) -> Events:
    n = state["players"]
    state["seats"][state["turn"]]["pending"] = None
    nxt = (state["turn"] + 1) % n
    if nxt != state["first"]:
        state["turn"] = nxt
        return _start_turn(state)
    state["round"] += 1
    state["first"] = (state["first"] + 1) % n
    if state["round"] >= len(ROUNDS):
        state["phase"] = "over"
        return [Event("The last round is over: the temple is complete.")]
    state["phase"] = "draft"
    _deal(state)
    level = ROUNDS[state["round"]][0]
    return [Event(f"Round {state['round'] + 1} of {len(ROUNDS)} (level {level}): new tiles are "
                  f"dealt; seat {state['first'] + 1} takes the first player token.")]


def _has_choice(state: State, seat: int) -> bool:
    """Whether the seat's priest turn offers anything but "pass"."""
    me = state["seats"][seat]
    return bool(_usable_chains(state, seat) or _private_moves(state, me) or _bonus_possible(me))


def _bonus_possible(me: dict[str, Any]) -> bool:
    """Whether a piece of the reserve might be laid, judged on what the others see: how many
    pieces it holds, not their sizes. Judged on the real sizes, a turn that passed by itself told
    the others that none of its pieces fitted (issue 33); now, when a size that fits might be
    held, the seat is asked (and may find only "pass")."""
    if not me["reserve"]:
        return False
    return bool(_bonus_moves({**me, "reserve": [{"size": size, "colour": None}
                                                for size in SHAPES]}))


def _end_turn_if_done(state: State, seat: int) -> Events:
    """After a chain or a bonus piece: end the priest turn when only "pass" is left."""
    return [] if _has_choice(state, seat) else _next_turn(state)


def _private_moves(state: State, me: dict[str, Any]) -> list[Move]:
    """The private-card effect: once, in the priest turn, the top card of a deck of one's choice."""
    if me["effect"] != "private" or me["private_taken"]:
        return []
    return [{"type": "private", "god": god} for god in GODS if state["decks"][god]]


def _chain_limit(me: dict[str, Any]) -> int:
    return 3 if me["effect"] == "three" else 2


def _usable_chains(state: State, seat: int) -> list[tuple[int, int]]:
    """Every space of every usable chain: the priest stands on the space the player picks."""
    me = state["seats"][seat]
    if me["used"] >= _chain_limit(me) or me["priests"] < 2:
        return []
    out = []
    mine = {tuple(p) for p in me["chains"]}
    may_reuse = me["effect"] == "reuse" and not me["reused"]
    for cells, colour in board.chains(me):
        if mine & cells and not may_reuse:
            continue
        if any(_fits(card, colour, len(cells), me["priests"] - 1)
               for card in _cards_for(state, seat)):
            out += sorted(cells)
    return out


def _cards_for(state: State, seat: int) -> list[dict[str, Any]]:
    cards = [c for c in state["open"].values() if c is not None]
    if state["seats"][seat]["private"] is not None:
        cards.append(state["seats"][seat]["private"])
    return cards


def _fits(card: dict[str, Any], colour: str, length: int, priests: int) -> bool:
    if card["god"] != "white" and card["god"] != colour:
        return False
    free = [c["n"] for c, p in zip(card["cells"], card["priests"], strict=True) if p is None]
    return priests >= 1 and bool(free) and min(free) <= length


def _occupy_moves(state: State, seat: int) -> list[Move]:
    me = state["seats"][seat]
    pending = me["pending"]
    moves: list[Move] = []
    targets = [(g, state["open"][g]) for g in GODS] + [("private", me["private"])]
    for key, card in targets:
        if card is None or (card["god"] != "white" and card["god"] != pending["colour"]):
            continue
        free = [i for i, p in enumerate(card["priests"]) if p is None]
        for k in range(1, min(len(free), me["priests"]) + 1):
            for pick in combinations(free, k):
                if sum(card["cells"][i]["n"] for i in pick) <= pending["length"]:
                    moves.append({"type": "occupy", "card": key, "cells": list(pick)})
    return moves


def _occupy(state: State, seat: int, key: str, cells: list[int], rng: Random) -> Events:
    me = state["seats"][seat]
    card = me["private"] if key == "private" else state["open"][key]
    for i in cells:
        card["priests"][i] = seat
    me["priests"] -= len(cells)
    _mark(state, seat, "occupy", list(cells), card["id"])
    events: Events = []
    size = card["cells"][cells[0]]["bonus"] if len(cells) == 1 else None
    if size and _draw_bonus(state, seat, size, rng):
        events.append(Event(f"Seat {seat + 1} draws a {size}-space bonus piece."))
    if all(p is not None for p in card["priests"]):
        winner = majority(card["priests"])
        for p in card["priests"]:
            state["seats"][p]["priests"] += 1
        state["seats"][winner]["won"].append({k: card[k] for k in ("id", "god", "big", "small")})
        events.append(Event(f"The card is full: seat {winner + 1} wins the {card['god']} "
                            "blessing card and every priest on it goes home."))
        if winner != seat and _draw_bonus(state, seat, 2, rng):
            events.append(Event(f"Seat {seat + 1} filled it without winning it and draws a "
                                "2-space bonus piece."))
        if key == "private":
            me["private"] = None
        else:
            _reveal(state, key)
            events.append(Event(f"A new {key} blessing card is turned up." if state["open"][key]
                                else f"The {key} deck is empty: no new card there."))
    return events


def majority(priests: list[int | None]) -> int:
    """Most priests wins; a tie goes to the tied seat with the leftmost priest."""
    placed = [p for p in priests if p is not None]
    best = max(placed.count(p) for p in placed)
    return next(p for p in placed if placed.count(p) == best)


def _draw_bonus(state: State, seat: int, size: int, rng: Random) -> bool:
    """Draw a random bonus piece of `size` into the seat's reserve; False if none is left."""
    options = [i for i, piece in enumerate(state["supply"]) if piece["size"] == size]
    if options:
        state["seats"][seat]["reserve"].append(state["supply"].pop(rng.choice(options)))
    return bool(options)


def _placements(size: int) -> list[tuple[tuple[int, int], ...]]:
    """Every way a piece of `size` covers board spaces, each once (cells sorted)."""
    out = set()
    for shape in SHAPES[size]:
        for x in range(SIZE):
            for y in range(SIZE):
                cells = tuple(sorted((x + dx, y + dy) for dx, dy in shape))
                if all(0 <= cx < SIZE and 0 <= cy < SIZE for cx, cy in cells):
                    out.add(cells)
    return sorted(out)


PLACEMENTS = {size: _placements(size) for size in SHAPES}


# The board's spaces that level-1 tiles cover: there, level 0 is a slot not built yet.
TILE_AREA = frozenset((x0 + dx, y0 + dy) for x0, y0 in SLOTS[1] for dx in (0, 1) for dy in (0, 1))


def _bonus_moves(me: dict[str, Any]) -> list[Move]:
    """Each distinct piece on each set of empty spaces all on one level (RULES.md: the board's
    ring, built tiles' empty spaces, a face-down tile; never a tile slot not built yet)."""
    if not me["reserve"]:
        return []
    empty = {spot: level for spot, (level, colour) in board.top(me).items()
             if colour is None and (level > 0 or spot not in TILE_AREA)}
    moves: list[Move] = []
    seen: set[tuple[int, str]] = set()
    for i, piece in enumerate(me["reserve"]):
        key = (piece["size"], piece["colour"])
        if key in seen:
            continue
        seen.add(key)
        for cells in PLACEMENTS[piece["size"]]:
            level = empty.get(cells[0])
            if level is not None and all(empty.get(c) == level for c in cells[1:]):
                moves.append({"type": "bonus", "piece": i, "cells": [list(c) for c in cells]})
    return moves


def running_scores(state: State) -> list[int]:
    """What each seat would score if the game ended now, as every seat may know it: the
    ultimate goals count once every side is chosen (the view's running score, RULES.md)."""
    return _scores(state, goals=all(data["goal"] for data in state["seats"]))


def _scores(state: State, goals: bool = True) -> list[int]:
    """Each seat's score as the end counts it; without `goals` the ultimate goals are left out
    (while a side is still secret, counting it would tell which side a seat chose)."""
    return [int(sum(parts.values())) for parts in _breakdown(state, goals)]


def _breakdown(state: State, goals: bool = True) -> list[dict[str, float]]:
    """Per seat, points per scoring category (they add up to the score)."""
    parts: list[dict[str, float]] = [
        {"Won cards": sum(c["big"] for c in d["won"]), "Unfinished cards": 0,
         "Bonus reserve": len(d["reserve"])} for d in state["seats"]]
    cards = [c for c in state["open"].values() if c is not None]
    cards += [d["private"] for d in state["seats"] if d["private"] is not None]
    for card in cards:
        if any(p is not None for p in card["priests"]):
            parts[majority(card["priests"])]["Unfinished cards"] += card["small"]
    if state["options"]["ultimate_goal"] and goals:
        for s, seat_parts in enumerate(parts):
            side = state["seats"][s]["goal"]
            seat_parts["Ultimate goals"] = sum(
                value for value, measure in _goal_measures(state, side)
                if measure[s] > 0 and measure[s] == max(measure))
    return parts


def _goal_measures(state: State, side: str | None) -> list[tuple[int, list[int]]]:
    """The invented goals of one side (RULES.md): (points, per-seat measure; the most wins)."""
    seats = state["seats"]
    if side is None:
        return []
    if side == "A":
        return [
            (4, [max((len(c) for c, _ in board.chains(d)), default=0) for d in seats]),
            (4, [len(d["won"]) for d in seats]),
            (3, [d["priests"] for d in seats]),
        ]
    return [
        (4, [d["placed_bonuses"] for d in seats]),
        (4, [sum(1 for c in d["won"] if c["god"] == "white") for d in seats]),
        (3, [len({c["god"] for c in d["won"]}) for d in seats]),
    ]
