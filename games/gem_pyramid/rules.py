"""Lucent (Fat Elf Games, 2020), rulebook ../shared/rulebooks/gem-pyramid.txt.

Order, as in every game module: constants, options, the game, helpers. Reconstructions (deck,
colours, Geomancer rules) are argued in RULES.md beside this file.

State (plain JSON):
    players, options      as given to setup
    game_no               1-based game of the series (the Points variant plays several)
    rows                  9 lists; row r has 9 - r slots holding a kind or None
    hands                 per seat, {kind: count}
    removed               kinds set aside face down (Wildcard variant, spare Geomancers)
    out                   per seat, True once the seat could not play (or emptied its hand)
    turn                  the seat to act, or None when the game (series) is over
    last_placer           the seat that placed the latest gem of this game
    last                  {seat, gem, row, pos} of that placement (None before the first), so a
                          renderer can mark it after a reload too
    points                per seat, over the series
    earned                per seat, {reason: points} over the series, for the end screen
    first                 the seat that opened this game
    finished              True when the series is over
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import Any, ClassVar

from pydantic import BaseModel, Field, model_validator

from games.protocol import (
    Event,
    IllegalMove,
    Move,
    Outcome,
    State,
    clone,
    ranking_from_scores,
)

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple")
WILD = "wild"
GEOMANCER = "geomancer"
KINDS: tuple[str, ...] = (*COLOURS, WILD, GEOMANCER)
WILDS = frozenset({WILD, GEOMANCER})
GEMS_PER_COLOUR = 9
BASE_WIDTH = 9
FOCUS_POS = 4
WILDCARDS = 2


class LucentOptions(BaseModel):
    """The rulebook's variants, chosen when the room is made."""

    # Each description reads "Label: what it does": the lobby shows the label beside the box and
    # the rest as help under it.
    points: bool = Field(
        False,
        description="Points variant: play a series of games. Each game, placing the last gem "
        "scores 1 and playing every gem in your hand scores 1; most points at the end wins.",
    )
    games: int = Field(
        3, ge=2, le=9,
        description="Games in a Points series: how many games the series lasts, 2 to 9.",
    )
    wildcard: bool = Field(
        False,
        description="Wildcard variant: two gems leave the game unseen and two Wildcards come "
        "in; a Wildcard goes anywhere and any colour may rest on it.",
    )
    geomancer: bool = Field(
        False,
        description="Geomancer Point variant: everyone starts with a Geomancer, played like a "
        "Wildcard; playing it as your very last gem scores 1 point. Keeps score.",
    )
    geomancer_focus: bool = Field(
        False,
        description="Use a Geomancer as the Focus Gem: the middle gem of the base row is a "
        "Geomancer, so any colour may build on it. Not with the Geomancer Point variant.",
    )

    @model_validator(mode="after")
    def _one_use_of_geomancers(self) -> LucentOptions:
        if self.geomancer and self.geomancer_focus:
            raise ValueError("Geomancers are either dealt to players or used as the Focus Gem.")
        return self


class GemPyramid:
    """The game object registered as `gem-pyramid`."""

    id: ClassVar[str] = "gem-pyramid"
    title: ClassVar[str] = "Lucent"
    description: ClassVar[str] = (
        "Build a pyramid of coloured gems nine wide. A gem on a higher row rests on two gems and "
        "matches one of them in colour. Run out of plays and you are out; the last to place wins."
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    Options: ClassVar[type[BaseModel]] = LucentOptions

    # -- lifecycle -----------------------------------------------------------------------------

    def setup(self, players: int, options: BaseModel, rng: Random) -> State:
        opts = LucentOptions.model_validate(options.model_dump())
        if not self.min_players <= players <= self.max_players:
            raise IllegalMove("bad_options", "Lucent is for 2 to 5 players.")
        state: State = {
            "players": players,
            "options": opts.model_dump(),
            "game_no": 0,
            "points": [0] * players,
            "earned": [{} for _ in range(players)],
            "finished": False,
        }
        return _deal(state, first=0, rng=rng)

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state["turn"] is None else frozenset({state["turn"]})

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state["turn"] != seat:
            return []
        return _plays(state, seat)

    def apply(self, state: State, seat: int, move: Move, rng: Random) -> tuple[State, list[Event]]:
        if state["turn"] != seat:
            raise IllegalMove("not_your_turn", "It is not your turn.")
        _check_play(state, seat, move)
        return self.apply_legal(state, seat, move, rng)

    def apply_legal(self, state: State, seat: int, move: Move,
                    rng: Random) -> tuple[State, list[Event]]:
        """See `Game.apply_legal`: `apply` less its check."""
        new = clone(state)
        kind, row, pos = move["gem"], move["row"], move["pos"]
        new["rows"][row][pos] = kind
        new["hands"][seat][kind] -= 1
        new["last_placer"] = seat
        new["last"] = {"seat": seat, "gem": kind, "row": row, "pos": pos}
        # The placement's own log line is the platform's (`describe`); events tell only what it
        # led to, and the board marks the gem from `last`. RULES.md, "Log".
        events: list[Event] = []
        if _hand_size(new["hands"][seat]) == 0:
            events += _empty_hand(new, seat, kind)
        events += _advance(new, seat, rng)
        return new, events

    def outcome(self, state: State) -> Outcome | None:
        if not state["finished"]:
            return None
        scores = [float(p) for p in state["points"]]
        best = max(scores)
        winners = [seat for seat, score in enumerate(scores) if score == best]
        if _series(state["options"]):
            reason = f"Most points after {state['game_no']} games."
        elif _scored(state["options"]):
            reason = "Most points."
        else:
            reason = f"Seat {winners[0] + 1} placed the last gem."
        earned = state.get("earned", [{} for _ in scores])
        breakdown = [{why: float(n) for why, n in mine.items()} for mine in earned]
        return Outcome(scores, winners, ranking_from_scores(scores), reason, breakdown)

    def zombie_move(self, state: State, seat: int) -> Move:
        return self.legal_moves(state, seat)[0]

    # -- presentation --------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        # Every list is copied here (the view never aliases the state), which is cheaper than
        # a JSON round trip of the finished view on a path that runs for every seat per move.
        shown: dict[str, Any] = {
            "rows": [list(row) for row in state["rows"]],
            "focus": {"row": 0, "pos": FOCUS_POS},
            "hand": dict(state["hands"][seat]) if seat is not None else None,
            "hand_sizes": [_hand_size(hand) for hand in state["hands"]],
            "out": list(state["out"]),
            "turn": state["turn"],
            "last_placer": state["last_placer"],
            "last": dict(last) if (last := state.get("last")) else None,
            "points": list(state["points"]),
            "game_no": state["game_no"],
            "games": state["options"]["games"] if state["options"]["points"] else 1,
            "scored": _scored(state["options"]),
            "colours": list(COLOURS),
        }
        if shown["scored"]:
            # The running score (the room's players panel): points are public as they are won.
            shown["scores"] = list(state["points"])
        return shown

    def describe(self, move: Move) -> str:
        where = "the base row" if move["row"] == 0 else f"row {move['row'] + 1}"
        return f"placed a {move['gem']} gem on {where}, slot {move['pos'] + 1}"

    def redact_move(self, move: Move, seat: int, viewer: int | None) -> Move | None:
        return move  # every placement is public

    def undoable(self, state: State, seat: int, move: Move) -> bool:
        """Never: the only move, a placement, turns a gem of a secret hand face up (everyone
        learns you held it) and passes the turn on. RULES.md, "Take-backs"."""
        return False

    def reveals(self, state: State, seat: int, move: Move) -> bool:
        """Always, as `undoable` says: a placement turns a gem of a secret hand face up (the
        platform asks this before letting a take-back be asked across a move)."""
        return True

    def scramble_hidden(self, state: State, viewer: int | None, rng: Random) -> State:
        """Re-deal every card the viewer cannot see, keeping each hidden hand's size."""
        new = clone(state)
        hidden_seats = [s for s in range(state["players"]) if s != viewer]
        pool = [k for s in hidden_seats for k, n in state["hands"][s].items() for _ in range(n)]
        pool += state["removed"]
        sizes = [_hand_size(state["hands"][s]) for s in hidden_seats]
        rng.shuffle(pool)
        for s, size in zip(hidden_seats, sizes, strict=True):
            new["hands"][s] = _count(pool[:size])
            pool = pool[size:]
        new["removed"] = pool
        return new


# -- dealing -----------------------------------------------------------------------------------


def _deal(state: State, first: int, rng: Random) -> State:
    """Deal a fresh game of the series into `state` (mutated: callers pass their own copy)."""
    opts, players = state["options"], state["players"]
    deck = [colour for colour in COLOURS for _ in range(GEMS_PER_COLOUR)]
    rng.shuffle(deck)
    removed: list[str] = []
    if opts["wildcard"]:
        removed, deck = deck[:WILDCARDS], [*deck[WILDCARDS:], *[WILD] * WILDCARDS]
        rng.shuffle(deck)
    hands = [[GEOMANCER] if opts["geomancer"] else [] for _ in range(players)]
    rows: list[list[str | None]] = [[None] * (BASE_WIDTH - r) for r in range(BASE_WIDTH)]
    if opts["geomancer_focus"]:
        rows[0][FOCUS_POS] = GEOMANCER
    share, spare = divmod(len(deck), players)
    for seat in range(players):
        hands[seat] += deck[seat * share : (seat + 1) * share]
    leftover = deck[players * share :]
    if spare and rows[0][FOCUS_POS] is None:
        rows[0][FOCUS_POS], leftover = leftover[0], leftover[1:]
    state.update(
        game_no=state["game_no"] + 1,
        rows=rows,
        hands=[_count(hand) for hand in hands],
        removed=removed + leftover,
        out=[False] * players,
        turn=first,
        first=first,
        last_placer=None,
        last=None,
    )
    return state


def _count(kinds: list[str]) -> dict[str, int]:
    counts = dict.fromkeys(KINDS, 0)
    for kind in kinds:
        counts[kind] += 1
    return counts


def _hand_size(hand: dict[str, int]) -> int:
    return sum(hand.values())


def _scored(opts: dict[str, Any]) -> bool:
    return bool(opts["points"] or opts["geomancer"])


def _series(opts: dict[str, Any]) -> bool:
    """Whether games are numbered: only the Points variant plays more than one."""
    return bool(opts["points"])


# -- legality ----------------------------------------------------------------------------------


def _open_slots(rows: list[list[str | None]]) -> Iterator[tuple[int, int, frozenset[str] | None]]:
    """Empty slots a gem may go in, each with the colours it may be (None: any colour).

    The rule of `_slot_open`, scanned row by row (a third faster than asking it slot by slot),
    lazily: `_can_play` mostly stops at the first slot.
    """
    base = rows[0]
    if base[FOCUS_POS] is None:
        yield 0, FOCUS_POS, None
        return
    for pos in range(BASE_WIDTH):
        if base[pos] is None and (
            (pos > 0 and base[pos - 1] is not None)
            or (pos < BASE_WIDTH - 1 and base[pos + 1] is not None)
        ):
            yield 0, pos, None
    for row in range(1, BASE_WIDTH):
        below = rows[row - 1]
        for pos, here in enumerate(rows[row]):
            if here is None and below[pos] is not None and below[pos + 1] is not None:
                yield row, pos, _slot_colours(rows, row, pos)


def _slot_open(rows: list[list[str | None]], row: int, pos: int) -> bool:
    """Whether a gem may go in this slot now (one of `_open_slots`): the Focus Gem first, then
    base-row gems next to one already there, and higher gems resting on two."""
    if rows[row][pos] is not None:
        return False
    base = rows[0]
    if base[FOCUS_POS] is None:
        return row == 0 and pos == FOCUS_POS
    if row == 0:
        return (pos > 0 and base[pos - 1] is not None) or (
            pos < BASE_WIDTH - 1 and base[pos + 1] is not None)
    below = rows[row - 1]
    return below[pos] is not None and below[pos + 1] is not None


def _slot_colours(rows: list[list[str | None]], row: int, pos: int) -> frozenset[str] | None:
    """The colours an open slot takes: those of the two gems below (None: any colour)."""
    if row == 0:
        return None
    left, right = rows[row - 1][pos], rows[row - 1][pos + 1]
    if left in WILDS or right in WILDS:
        return None
    return frozenset({left, right})


def _plays(state: State, seat: int) -> list[Move]:
    kinds = _kinds_in_hand(state, seat)
    return [
        {"type": "place", "gem": kind, "row": row, "pos": pos}
        for row, pos, allowed in _open_slots(state["rows"])
        for kind in kinds
        if _fits(kind, allowed)
    ]


def _can_play(state: State, seat: int) -> bool:
    """Whether `seat` has any play: `_plays` without building the list (the turn passes on)."""
    kinds = _kinds_in_hand(state, seat)
    return any(_fits(kind, allowed) for _, _, allowed in _open_slots(state["rows"])
               for kind in kinds)


def _kinds_in_hand(state: State, seat: int) -> list[str]:
    hand = state["hands"][seat]
    return [kind for kind in KINDS if hand[kind] > 0]


def _fits(kind: str, allowed: frozenset[str] | None) -> bool:
    return allowed is None or kind in WILDS or kind in allowed


def _is_play(rows: list[list[str | None]], kind: str, row: int, pos: int) -> bool:
    """Whether placing `kind` (in hand) at (row, pos) is among `_plays`: apply checks the one
    slot instead of listing every play."""
    return _slot_open(rows, row, pos) and _fits(kind, _slot_colours(rows, row, pos))


def _check_play(state: State, seat: int, move: Any) -> None:
    """Refuse anything but a legal placement, with a reason a person can act on."""
    if not isinstance(move, dict) or move.get("type") != "place":
        raise IllegalMove("bad_move", "A Lucent move is placing a gem: {type: 'place', …}.")
    if set(move) != {"type", "gem", "row", "pos"}:
        raise IllegalMove("bad_move", "A placement names exactly a gem, a row and a slot.")
    kind, row, pos = move["gem"], move["row"], move["pos"]
    if kind not in KINDS:
        raise IllegalMove("bad_move", f"There is no gem called {kind!r}.")
    if not (
        type(row) is int
        and type(pos) is int
        and 0 <= row < BASE_WIDTH
        and 0 <= pos < BASE_WIDTH - row
    ):
        raise IllegalMove("bad_move", "That slot is not on the pyramid.")
    if state["hands"][seat][kind] == 0:
        raise IllegalMove("illegal_move", f"You have no {kind} gem in your hand.")
    if not _is_play(state["rows"], kind, row, pos):
        raise IllegalMove("illegal_move", _why_not(state["rows"], row, pos))


def _why_not(rows: list[list[str | None]], row: int, pos: int) -> str:
    if rows[row][pos] is not None:
        return "That slot already holds a gem."
    if rows[0][FOCUS_POS] is None:
        return "The first gem is the Focus Gem, in the middle of the base row."
    if row == 0:
        return "A base-row gem must sit right next to a gem already on the base row."
    below = rows[row - 1]
    if below[pos] is None or below[pos + 1] is None:
        return "A gem on a higher row must rest on two gems."
    return f"A gem there must match {below[pos]} or {below[pos + 1]}."


# -- turn order and scoring --------------------------------------------------------------------


def _score(state: State, seat: int, why: str) -> None:
    """One point for `seat`, remembered by reason for the end screen's breakdown."""
    state["points"][seat] += 1
    earned = state.setdefault("earned", [{} for _ in state["points"]])[seat]
    earned[why] = earned.get(why, 0) + 1


def _empty_hand(state: State, seat: int, last_kind: str) -> list[Event]:
    """A seat that played every card is done; in scored games it earns its points."""
    state["out"][seat] = True
    events = [Event(f"Seat {seat + 1} has played every gem.")]
    if _scored(state["options"]):
        _score(state, seat, "Empty hand")
        events.append(Event(f"Seat {seat + 1} scores a point for an empty hand."))
        if last_kind == GEOMANCER and state["options"]["geomancer"]:
            _score(state, seat, "Geomancer played last")
            events.append(Event(f"Seat {seat + 1} scores a point for a Geomancer played last."))
    return events


def _advance(state: State, seat: int, rng: Random) -> list[Event]:
    """Pass the turn on, knocking out each seat that cannot play, and end the game when due."""
    events: list[Event] = []
    players = state["players"]
    nxt = seat
    for _ in range(players):
        nxt = (nxt + 1) % players
        if state["out"][nxt]:
            continue
        if _lone_survivor_stops(state, nxt):
            break
        if _can_play(state, nxt):
            state["turn"] = nxt
            return events
        state["out"][nxt] = True
        events.append(Event(f"Seat {nxt + 1} cannot play and is out of this game."))
    return events + _end_game(state, rng)


def _lone_survivor_stops(state: State, seat: int) -> bool:
    """A lone seat that placed the latest gem wins whatever it does next, so with nothing more
    to score play stops. A lone seat that did not place last plays on: it wins if it places."""
    alive = [s for s in range(state["players"]) if not state["out"][s]]
    return alive == [seat] and state["last_placer"] == seat and not _scored(state["options"])


def _end_game(state: State, rng: Random) -> list[Event]:
    winner = state["last_placer"]
    state["turn"] = None
    opts = state["options"]
    if _series(opts):
        won = f"wins game {state['game_no']} of {opts['games']}, scoring a point"
    elif _scored(opts):
        won = "scores a point for it"
    else:
        won = "wins"
    events = [Event(f"Seat {winner + 1} placed the last gem and {won}.")]
    _score(state, winner, "Last gem placed")
    series_over = not _series(opts) or state["game_no"] >= opts["games"]
    if series_over:
        state["finished"] = True
        return events
    _deal(state, first=(state["first"] + 1) % state["players"], rng=rng)
    return [*events, Event(f"Game {state['game_no']} is dealt; seat {state['first'] + 1} opens.")]
