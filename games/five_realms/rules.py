"""5 Realms (GRRRE Games, 2024), rulebook ../shared/rulebooks/five-realms.txt, 2 players.

Order, as in every game module: constants, options, the game, helpers. Reconstructions (card
data, the tie rule, lines of influence, effect order) are argued in RULES.md beside this file.

A turn is a queue of tasks (`todo`). Some run by themselves (count effects, end the turn); the
others wait for the active seat's move, one atomic choice at a time, so a reload mid-turn comes
back to the same question. Only the active seat (`turn`) ever moves.

State (plain JSON):
    players          always 2
    faces            card id -> {banner, character}; ids are random per game (secret table)
    deck             card ids, top first (the top banner is public, and the one under it while
                     the drawn top card is placed; the rest is not)
    square           "x,y" -> card id: Alkane, re-based to start at 0,0
    hand             card ids collected (or picked by a Witch) and not yet placed
    discard          card ids, bottom first
    seats            per seat {castles, throne, council, titans, influence: {realm: [ids]},
                     earned: {why: castles} for the end screen}
    public           card ids whose character side everybody has seen (recruited once)
    known            per seat, card ids whose character side only that seat has seen
    turn             the active seat; extra_turns: General turns still owed to it
    todo             pending tasks, the first one is current
    last             the spot the latest card was placed on, for the renderer
    recent           the latest turn's public story for the renderer: {seat, placed: the card
                     drawn and placed, cards: the cards collected (or picked by a Witch)}
    winner           the seat that won on Titans, else None; over: the game has ended
"""

from __future__ import annotations

import json
from collections.abc import Callable
from random import Random
from typing import Any, ClassVar

from pydantic import BaseModel

from games.five_realms import effects, square
from games.five_realms.data import (
    BANNER_NAMES,
    CAPTAIN,
    COLONEL,
    COUNCIL_SIZE,
    GENERAL,
    POPESS,
    POPESS_CASTLES,
    QUEEN,
    REALMS,
    REFILL_BELOW,
    START_CASTLES,
    STEAL,
    TITAN_CASTLES,
    TITANS,
    TITANS_TO_WIN,
    WARRIOR,
    WARRIOR_MONK,
    a_banner,
    character_name,
    faces,
)
from games.five_realms.view import QUESTIONS, describe_move, scramble, view_of
from games.protocol import Event, IllegalMove, Move, Outcome, State, clone

PLAYERS = 2
Task = dict[str, Any]
Events = list[Event]


class FiveRealmsOptions(BaseModel):
    """5 Realms has no variants."""


class FiveRealms:
    """The game object registered as `five-realms`."""

    id: ClassVar[str] = "five-realms"
    title: ClassVar[str] = "5 Realms"
    description: ClassVar[str] = (
        "Place Banner cards on the Alkane square and collect them to recruit a council of "
        "characters or to spread your influence over five realms. Most castles when the deck "
        "runs out wins, or recruit five different Titans."
    )
    min_players: ClassVar[int] = PLAYERS
    max_players: ClassVar[int] = PLAYERS
    Options: ClassVar[type[BaseModel]] = FiveRealmsOptions

    # -- lifecycle -----------------------------------------------------------------------------

    def setup(self, players: int, options: BaseModel, rng: Random) -> State:
        if players != PLAYERS:
            raise IllegalMove("bad_options", "5 Realms is for exactly 2 players.")
        box = faces()
        rng.shuffle(box)
        ids = [f"c{n:02d}" for n in range(len(box))]
        deck = list(ids)
        rng.shuffle(deck)
        thrones = list(REALMS)
        rng.shuffle(thrones)
        alkane, deck = square.refill({}, deck)
        return {
            "players": players,
            "faces": dict(zip(ids, box, strict=True)),
            "deck": deck,
            "square": alkane,
            "hand": [],
            "discard": [],
            "seats": [_seat(thrones[s]) for s in range(players)],
            "public": [],
            "known": [[] for _ in range(players)],
            "turn": rng.randrange(players),
            "extra_turns": 0,
            "todo": _new_turn(),
            "last": None,
            "recent": None,
            "winner": None,
            "over": False,
        }

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state["over"] else frozenset({state["turn"]})

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state["over"] or seat != state["turn"]:
            return []
        return CHOICES[state["todo"][0]["kind"]][0](state)

    def apply(self, state: State, seat: int, move: Move, rng: Random) -> tuple[State, Events]:
        if state["over"]:
            raise IllegalMove("game_over", "The game is over.")
        if seat != state["turn"]:
            raise IllegalMove("not_your_turn", "It is not your turn.")
        _check(state, move)
        return self.apply_legal(state, seat, move, rng)

    def apply_legal(self, state: State, seat: int, move: Move,
                    rng: Random) -> tuple[State, Events]:
        """See `Game.apply_legal`: `apply` less its check."""
        new = clone(state)
        events = _play(new, move)
        return new, events + _advance(new)

    def outcome(self, state: State) -> Outcome | None:
        if not state["over"]:
            return None
        scores = [float(s["castles"]) for s in state["seats"]]
        if state["winner"] is not None:
            winner = state["winner"]
            ranking = [1 if s == winner else 2 for s in range(PLAYERS)]
            return Outcome(scores, [winner], ranking, f"Seat {winner + 1} gathered 5 Titans.",
                           _breakdown(state))
        keys = [(s["castles"], _influence_total(s)) for s in state["seats"]]
        ranking = [1 + sum(1 for other in keys if other > mine) for mine in keys]
        winners = [s for s in range(PLAYERS) if ranking[s] == 1]
        return Outcome(scores, winners, ranking, _end_reason(keys, winners), _breakdown(state))

    def zombie_move(self, state: State, seat: int) -> Move:
        return self.legal_moves(state, seat)[0]

    # -- presentation --------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view_of(state, seat)

    def describe(self, move: Move) -> str:
        return describe_move(move)

    def redact_move(self, move: Move, seat: int, viewer: int | None) -> Move | None:
        # Moves name cards by per-game random ids and public choices only: nothing to hide.
        return move

    def undoable(self, state: State, seat: int, move: Move) -> bool:
        """A step inside your own turn that shows nobody anything new: after it the same seat
        is still mid-turn (the turn did not end, so Alkane was not dealt afresh and no new banner
        came into sight), no character side was looked at or shown, and the game goes on.
        Which moves that leaves, type by type, is in RULES.md ("Take-backs"). No move draws
        randomness (only setup shuffles), so trying the move here is exactly what it did."""
        if state["over"] or seat != state["turn"]:
            return False
        try:
            new, events = self.apply(state, seat, move, Random(0))
        except IllegalMove:
            return False
        return (not new["over"] and new["turn"] == seat and new["todo"][0]["kind"] != "place"
                and new["public"] == state["public"] and new["known"] == state["known"]
                and all(event.to is None for event in events))

    def scramble_hidden(self, state: State, viewer: int | None, rng: Random) -> State:
        return scramble(state, viewer, rng)


# -- setup and small helpers -------------------------------------------------------------------


def _seat(throne: str) -> dict[str, Any]:
    return {"castles": START_CASTLES, "throne": throne, "council": [], "titans": [],
            "influence": {realm: [] for realm in REALMS}, "earned": {}}


def _breakdown(state: State) -> list[dict[str, float]]:
    """Per seat: the starting castles, then castles by the card or effect that earned (or lost)
    them, as recorded by `_gain` and `_steal`."""
    return [{"Starting castles": float(START_CASTLES),
             **{why: float(n) for why, n in seat.get("earned", {}).items()}}
            for seat in state["seats"]]


def _earn(state: State, seat: int, why: str, castles: int) -> None:
    earned = state["seats"][seat].setdefault("earned", {})
    earned[why] = earned.get(why, 0) + castles


def _influence_total(seat: dict[str, Any]) -> int:
    return sum(len(column) for column in seat["influence"].values())


def _end_reason(keys: list[tuple[int, int]], winners: list[int]) -> str:
    if len(winners) == PLAYERS:
        return "The deck is empty: castles and influence are tied, the victory is shared."
    if keys[0][0] == keys[1][0]:
        return f"The deck is empty: castles tied, seat {winners[0] + 1} has more influence."
    return f"The deck is empty: seat {winners[0] + 1} has the most castles."


def _count(n: int, thing: str) -> str:
    """'1 castle', '2 castles': log lines without "(s)"."""
    return f"{n} {thing}{'' if n == 1 else 's'}"


def _name(state: State, card: str) -> str:
    return character_name(state["faces"][card])


def _banner(state: State, card: str) -> str:
    return state["faces"][card]["banner"]


def _owns_character(state: State, seat: int, card: str) -> bool:
    """Same character = same character type and banner (two Reptile Queens, not two Queens)."""
    face = state["faces"][card]
    mine = state["seats"][seat]["council"] + state["seats"][seat]["titans"]
    return any(state["faces"][c] == face for c in mine)


def _gain(state: State, seat: int, castles: int, why: str) -> Events:
    if not castles:
        return []
    state["seats"][seat]["castles"] += castles
    _earn(state, seat, why, castles)
    return [Event(f"Seat {seat + 1} earns {_count(castles, 'castle')}: {why}.",
                  data={"seat": seat, "castles": castles})]


def _steal(state: State, seat: int, most: int, why: str) -> Events:
    """Take up to `most` castles from the opponent (never below zero)."""
    other = 1 - seat
    taken = min(most, state["seats"][other]["castles"])
    state["seats"][other]["castles"] -= taken
    state["seats"][seat]["castles"] += taken
    if taken:
        _earn(state, seat, f"Stolen: {why}", taken)
        _earn(state, other, f"Lost to a steal: {why}", -taken)
    return [Event(f"Seat {other + 1} loses {_count(taken, 'castle')} to seat {seat + 1}: {why}.",
                  data={"seat": seat, "stolen": taken})]


def _recent_cards(state: State, cards: list[str]) -> None:
    """Add cards taken this turn to `recent` (a state saved before it existed starts one)."""
    recent = state.get("recent") or {"seat": state["turn"], "placed": None, "cards": []}
    state["recent"] = {**recent, "cards": [*recent["cards"], *cards]}


def _push(state: State, *tasks: Task) -> None:
    """Put tasks in front of the queue, in the given order."""
    state["todo"][:0] = list(tasks)


def _reveal(state: State, seat: int, cards: list[str], why: str) -> Events:
    """Let `seat` alone look at the character sides of `cards`."""
    known = state["known"][seat]
    known += [c for c in cards if c not in known]
    names = ", ".join(_name(state, c) for c in cards)
    return [Event(f"{why}: {names}.", to=(seat,), data={"cards": {c: state["faces"][c]
                                                                   for c in cards}})]


# -- checking a move ---------------------------------------------------------------------------


def _canon(move: Any) -> str | None:
    """A move's exact JSON text (so True never passes for 1), or None if it is not JSON."""
    try:
        return json.dumps(move, sort_keys=True)
    except (TypeError, ValueError):
        return None


def _check(state: State, move: Any) -> None:
    legal = CHOICES[state["todo"][0]["kind"]][0](state)
    text = _canon(move)
    if text is not None and any(_canon(m) == text for m in legal):
        return
    kinds = sorted({m["type"] for m in legal})
    if not isinstance(move, dict) or move.get("type") not in kinds:
        raise IllegalMove("illegal_move", f"Now the move must be one of: {', '.join(kinds)}.")
    raise IllegalMove("illegal_move", QUESTIONS[state["todo"][0]["kind"]])


# -- the turn, one choice at a time ------------------------------------------------------------


def _play(state: State, move: Move) -> Events:
    """Carry out a checked move of the current task."""
    return CHOICES[state["todo"][0]["kind"]][1](state, move)


def _advance(state: State) -> Events:
    """Run automatic tasks and forced choices until a real choice (or the end) is reached."""
    events: Events = []
    while not state["over"]:
        task = state["todo"][0]
        kind = task["kind"]
        if kind in AUTOMATIC:
            events += AUTOMATIC[kind](state)
            continue
        if not task.get("entered"):
            task["entered"] = True
            events += ENTER.get(kind, _no_entry)(state)
            continue
        legal = CHOICES[kind][0](state)
        if kind in FORCED and len(legal) == 1:
            events += CHOICES[kind][1](state, legal[0])
            continue
        break
    return events


def _no_entry(state: State) -> Events:
    return []


# place and collect


def _place_moves(state: State) -> list[Move]:
    return [{"type": "place", "x": x, "y": y} for x, y in square.legal_spots(state["square"])]


def _place(state: State, move: Move) -> Events:
    seat, card = state["turn"], state["deck"].pop(0)
    spot = (move["x"], move["y"])
    state["square"][square.key(spot)] = card
    state["last"] = [move["x"], move["y"]]
    state["recent"] = {"seat": seat, "placed": card, "cards": []}
    options = square.collect_options(state["square"], lambda c: _banner(state, c), spot)
    events = [Event(f"The card is {a_banner(_banner(state, card))}.",
                    data={"seat": seat, "card": card, "x": spot[0], "y": spot[1]})]
    state["todo"][0] = {"kind": "collect",
                        "options": [{"banner": b, "cards": c} for b, c in options]}
    return events


def _collect_moves(state: State) -> list[Move]:
    return [{"type": "collect", "banner": o["banner"]} for o in state["todo"][0]["options"]]


def _collect(state: State, move: Move) -> Events:
    seat = state["turn"]
    option = next(o for o in state["todo"][0]["options"] if o["banner"] == move["banner"])
    state["hand"] = option["cards"]
    state["square"] = square.without(state["square"], option["cards"])
    state["last"] = None
    _recent_cards(state, option["cards"])
    state["todo"][0] = {"kind": "action"}
    count, name = len(option["cards"]), BANNER_NAMES[option["banner"]]
    goes = "goes" if count == 1 else "go"
    return [Event(f"{_count(count, name + ' banner')} {goes} to seat {seat + 1}'s hand.",
                  data={"seat": seat, "cards": option["cards"], "banner": option["banner"]})]


# recruit or influence


def _action_moves(state: State) -> list[Move]:
    moves = [{"type": "recruit"}]
    if effects.can_influence(state):
        moves.append({"type": "influence"})
    return moves


def _action(state: State, move: Move) -> Events:
    """RECRUIT or INFLUENCE, after a collection or with the card a Witch picked."""
    collected = state["todo"].pop(0)["kind"] == "action"
    if move["type"] == "recruit":
        _push(state, {"kind": "recruit", "look": collected})
        return []
    return _influence(state)


def _influence(state: State) -> Events:
    """Put the hand into the columns (Imperial banners wait for a column each), then effects."""
    seat = state["turn"]
    before = effects.counts(state, seat)
    realm_cards = [c for c in state["hand"] if _banner(state, c) in REALMS]
    for card in realm_cards:
        state["seats"][seat]["influence"][_banner(state, card)].append(card)
        state["hand"].remove(card)
    tasks = [{"kind": "wild"}] if state["hand"] else []
    _push(state, *tasks, {"kind": "effects", "before": before})
    moved = len(realm_cards)
    text = (f"{_count(moved, 'banner')} {'goes' if moved == 1 else 'go'} into seat {seat + 1}'s "
            "columns")
    if state["hand"]:
        waiting = len(state["hand"])
        text += (f"; {_count(waiting, 'Imperial Order banner')} "
                 f"{'waits' if waiting == 1 else 'wait'} for a column")
    return [Event(f"{text}.", data={"seat": seat})]


def _wild_moves(state: State) -> list[Move]:
    card, columns = state["hand"][0], state["seats"][state["turn"]]["influence"]
    return [{"type": "wild", "card": card, "realm": r} for r in REALMS if columns[r]]


def _wild(state: State, move: Move) -> Events:
    seat = state["turn"]
    state["hand"].remove(move["card"])
    state["seats"][seat]["influence"][move["realm"]].append(move["card"])
    if not state["hand"]:
        state["todo"].pop(0)
    return []  # the move's own line says it all


def _effects(state: State) -> Events:
    """Work out what this influence fired; the seat orders council effects, Throne last."""
    seat, task = state["turn"], state["todo"].pop(0)
    entries = effects.triggers(state, seat, task["before"])
    throne = effects.throne_gain(state, seat, task["before"])
    tasks = [{"kind": "order", "entries": entries}] if entries else []
    if throne:
        tasks.append({"kind": "throne", "castles": throne})
    _push(state, *tasks)
    return []


def _throne(state: State) -> Events:
    seat, task = state["turn"], state["todo"].pop(0)
    return _gain(state, seat, task["castles"], "Throne Room")


# council effects


def _order_moves(state: State) -> list[Move]:
    return [{"type": "resolve", "card": e["card"]} for e in state["todo"][0]["entries"]]


def _order(state: State, move: Move) -> Events:
    task = state["todo"][0]
    entry = next(e for e in task["entries"] if e["card"] == move["card"])
    task["entries"].remove(entry)
    if not task["entries"]:
        state["todo"].pop(0)
    return _resolve(state, entry["card"], entry["times"])


def _resolve(state: State, card: str, times: int) -> Events:
    """One council card's THROUGHOUT effect, `times` over (Queen twice for 1 -> 4 banners)."""
    seat, name = state["turn"], _name(state, card)
    if card not in state["seats"][seat]["council"]:
        return [Event(f"{name} has left the council: its effect is lost.")]
    kind = effects.character(state, card)
    if kind in SIMPLE_GAINS:
        return _gain(state, seat, SIMPLE_GAINS[kind] * times, name)
    if kind == GENERAL:
        state["extra_turns"] += times
        return [Event(f"{name}: seat {seat + 1} will play {_count(times, 'extra turn')}.")]
    task = "strike" if kind == WARRIOR else "witch"
    _push(state, *[{"kind": task, "source": card} for _ in range(times)])
    return []


SIMPLE_GAINS: dict[str, int] = {QUEEN: 1, COLONEL: 1, POPESS: POPESS_CASTLES}


def _strike_moves(state: State) -> list[Move]:
    target = state["seats"][1 - state["turn"]]
    return [{"type": "steal"}] + [{"type": "destroy", "card": c}
                                  for c in target["council"] + target["titans"]]


def _strike(state: State, move: Move) -> Events:
    seat, task = state["turn"], state["todo"].pop(0)
    why = _name(state, task["source"])
    if move["type"] == "steal":
        return _steal(state, seat, STEAL, why)
    target = state["seats"][1 - seat]
    zone = "council" if move["card"] in target["council"] else "titans"
    target[zone].remove(move["card"])
    state["discard"].append(move["card"])
    where, other = ("council" if zone == "council" else "Titans"), 1 - seat
    return [Event(f"{_name(state, move['card'])} leaves seat {other + 1}'s {where} for the discard "
                  f"pile: {why}.", data={"seat": seat, "card": move["card"]})]


def _witch_entry(state: State) -> Events:
    """The Witch looks at the whole discard pile (only her owner sees it)."""
    seat = state["turn"]
    if not state["discard"]:
        state["todo"].pop(0)
        return [Event(f"Seat {seat + 1}'s Witch finds the discard pile empty.")]
    return _reveal(state, seat, state["discard"], "Your Witch looks at the discard pile")


def _witch_moves(state: State) -> list[Move]:
    return [{"type": "pick", "card": c} for c in reversed(state["discard"])]


def _witch(state: State, move: Move) -> Events:
    seat = state["turn"]
    state["discard"].remove(move["card"])
    state["hand"] = [move["card"]]
    state["todo"][0] = {"kind": "witch_use"}
    _recent_cards(state, [move["card"]])
    banner = a_banner(_banner(state, move["card"]))
    return [Event(f"The picked card is {banner}.", data={"seat": seat, "card": move["card"]})]


# recruiting


def _recruit_entry(state: State) -> Events:
    if not state["todo"][0]["look"]:
        return []  # a Witch's pick: already seen
    return _reveal(state, state["turn"], state["hand"], "You look at the collected characters")


def _recruit_moves(state: State) -> list[Move]:
    seat = state["turn"]
    moves = [{"type": "choose", "card": c} for c in state["hand"]
             if not _owns_character(state, seat, c)]
    return [*moves, {"type": "decline"}]


def _recruit(state: State, move: Move) -> Events:
    seat = state["turn"]
    state["todo"].pop(0)
    if move["type"] == "decline":
        state["discard"] += state["hand"]
        n = len(state["hand"])
        state["hand"] = []
        return [Event(f"{_count(n, 'card')} {'goes' if n == 1 else 'go'} to the discard pile.")]
    card = move["card"]
    state["discard"] += [c for c in state["hand"] if c != card]
    state["hand"] = [card]
    state["public"].append(card)
    name, data = _name(state, card), {"seat": seat, "card": card, "face": state["faces"][card]}
    if effects.character(state, card) in TITANS:
        return [Event(f"{name} joins seat {seat + 1}'s Titans.", data=data),
                *_seat_titan(state, card)]
    if len(state["seats"][seat]["council"]) >= COUNCIL_SIZE:
        _push(state, {"kind": "replace", "card": card})
        return [Event(f"{name} is recruited; seat {seat + 1}'s council is full, so a member "
                      "must leave.", data=data)]
    events = [Event(f"{name} joins seat {seat + 1}'s council.", data=data)]
    state["seats"][seat]["council"].append(card)
    state["hand"] = []
    return events + _on_recruit(state, card)


def _seat_titan(state: State, card: str) -> Events:
    """Titans sit apart, +1 castle each; a fifth different one wins at once."""
    seat = state["turn"]
    titans = state["seats"][seat]["titans"]
    titans.append(card)
    state["hand"] = []
    events = _gain(state, seat, TITAN_CASTLES, _name(state, card))
    if len(titans) >= TITANS_TO_WIN:
        state.update(over=True, winner=seat, todo=[])
        events.append(Event(f"Seat {seat + 1} has {TITANS_TO_WIN} different Titans and wins."))
    return events


def _replace_moves(state: State) -> list[Move]:
    return [{"type": "replace", "card": c} for c in state["seats"][state["turn"]]["council"]]


def _replace(state: State, move: Move) -> Events:
    seat, task = state["turn"], state["todo"].pop(0)
    council = state["seats"][seat]["council"]
    council[council.index(move["card"])] = task["card"]
    state["discard"].append(move["card"])
    state["hand"] = []
    event = Event(f"{_name(state, move['card'])} leaves seat {seat + 1}'s council for the "
                  f"discard pile; {_name(state, task['card'])} takes its place.",
                  data={"seat": seat, "card": move["card"]})
    return [event, *_on_recruit(state, task["card"])]


def _on_recruit(state: State, card: str) -> Events:
    """WHEN RECRUITED effects of council characters (Titans are handled apart)."""
    seat, kind = state["turn"], effects.character(state, card)
    if kind == CAPTAIN:
        return _gain(state, seat, effects.majorities(state, seat), _name(state, card))
    if kind == WARRIOR_MONK:
        _push(state, {"kind": "strike", "source": card})
    return []


def _witch_use_moves(state: State) -> list[Move]:
    return _action_moves(state)


# end of turn and of game


def _end_turn(state: State) -> Events:
    seat = state["turn"]
    events: Events = []
    if len(state["square"]) < REFILL_BELOW:
        state["square"], state["deck"] = square.refill(state["square"], state["deck"])
        events.append(Event("Alkane is dealt afresh.", data={"square": state["square"]}))
    if not state["deck"]:
        return events + _end_game(state)
    if state["extra_turns"]:
        state["extra_turns"] -= 1
        events.append(Event(f"Seat {seat + 1} plays an extra turn (General)."))
    else:
        state["turn"] = 1 - seat
    state["todo"] = _new_turn()
    return events


def _new_turn() -> list[Task]:
    return [{"kind": "place"}, {"kind": "end_turn"}]


def _end_game(state: State) -> Events:
    """The deck is out: end-of-game effects (all gains, then Warrior Monk steals)."""
    events = [Event("The Banner deck is empty: end-of-game effects.")]
    for seat in range(PLAYERS):
        for card, castles in effects.end_gains(state, seat):
            events += _gain(state, seat, castles, _name(state, card))
    steals = [effects.end_steal(state, seat) for seat in range(PLAYERS)]
    for seat in range(PLAYERS):
        if steals[seat]:
            events += _steal(state, seat, steals[seat], "Warrior Monk")
    state.update(over=True, todo=[])
    return events


Chooser = tuple[Callable[[State], list[Move]], Callable[[State, Move], Events]]

CHOICES: dict[str, Chooser] = {
    "place": (_place_moves, _place),
    "collect": (_collect_moves, _collect),
    "action": (_action_moves, _action),
    "recruit": (_recruit_moves, _recruit),
    "replace": (_replace_moves, _replace),
    "wild": (_wild_moves, _wild),
    "order": (_order_moves, _order),
    "strike": (_strike_moves, _strike),
    "witch": (_witch_moves, _witch),
    "witch_use": (_witch_use_moves, _action),
}
FORCED = frozenset({"collect", "action", "wild", "order", "strike", "witch_use"})
ENTER: dict[str, Callable[[State], Events]] = {"recruit": _recruit_entry, "witch": _witch_entry}
AUTOMATIC: dict[str, Callable[[State], Events]] = {
    "effects": _effects, "throne": _throne, "end_turn": _end_turn,
}
