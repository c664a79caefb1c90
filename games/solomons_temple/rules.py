"""Solomon's Temple: build the Temple while your opponent sins against you and besieges your city.

One turn runs Phase I (draw, play cards), II (attack the opponent's board; the opponent then may
answer with Israelite Armies), III (announce a build, the opponent may sin, you may atone, you
build), IV (discard up to two). Reaction windows are steps whose `to_act` is the reacting seat and
that are opened on public facts only, whether or not the seat holds an answering card, so nothing
leaks. Besides the book's windows (Sin, atonement, Blemished Animal, Israelite Army) the `instant`
window lets the seat not on turn play its instants where one could change something.
"""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from games.protocol import (
    Event,
    IllegalMove,
    Move,
    Outcome,
    State,
    clone,
    is_legal,
    ranking_from_scores,
)
from games.solomons_temple import board, military
from games.solomons_temple.common import (
    army_at,
    distinct,
    fasting,
    open_instant,
    resume_actor,
    use_card,
)
from games.solomons_temple.data import (
    COUNTS,
    FURNISHINGS,
    GATES,
    GOOD,
    HAND,
    PROPHETS,
    SINS,
    STRUCTURES,
    TEXT,
)

TURN_LIMIT = 200
"""Guard (the book has none): after this many turns the most-built Temple wins. See RULES.md."""

UNDOABLE = ("move", "siege_move", "relocate", "drop_siege")
"""Move types that show nobody a hidden card (see `undoable`)."""
EVIL_INSTANTS = ("Evil Priest", "Broken Altar", "Unclean", "Bad Offering")
PASSES = ("pass", "end_military", "skip_build", "end_turn", "to_military")
COMPASS = {"n": "north", "s": "south", "e": "east", "w": "west"}
# The log's sentence for each move whose text needs at most the card's name.
_SENTENCES = {
    "play": "played {card}",
    "offer": "offered a {card}",
    "evil": "played {card} against the opponent",
    "sack": "carried {card} off the Temple, back into its owner's draw pile",
    "sin": "answered with the Sin {card}",
    "fast_take": "took {card} back from the discard pile",
    "discard": "discarded {card}",
    "army": "placed a Babylonian Army at the north gate",
    "siege": "laid siege",
    "drop_siege": "gave up the siege",
    "israelite": "answered with an Israelite Army",
    "israelite2": "answered with two Israelite Armies",
    "burnt": "answered with a Burnt Offering",
    "scapegoat": "sent away the Scapegoat",
    "blemish": "answered with a Blemished Animal",
    "reshuffle": "shuffled a hand of Furnishings back into the draw pile",
    "to_military": "ended Phase I",
    "end_military": "ended the attack",
    "announce": "announced a build",
    "skip_build": "did not build",
    "end_turn": "ended the turn",
    "pass": "passed",
}
# The card texts every view carries, in deck order: built once, copied per view.
_TEXTS = {name: TEXT[name] for name in COUNTS}
# Searches: the opponent's redacted copy has no card, so the card is named only when present.
_SEARCHES = {
    "levite": "played a Levite and searched the draw pile for a Structure",
    "peace_take": "took a card from the draw pile",
    "peace_give": "put a card back into the draw pile",
}


class SolomonOptions(BaseModel):
    """Both decks are the same reconstructed 100 cards; only the guard's turn limit is chosen."""

    turn_limit: int = Field(
        TURN_LIMIT,
        ge=10,
        le=400,
        description=(
            "A safety limit (the book's game ends only when a Temple is complete and its Holy "
            "of Holies filled): after this many turns, yours and your opponent's counted "
            "together, the player with more Temple pieces built wins."
        ),
    )


class SolomonsTemple:
    id: ClassVar[str] = "solomons-temple"
    title: ClassVar[str] = "Solomon's Temple"
    description: ClassVar[str] = (
        "Two players build Solomon's Temple piece by piece. Sin stops a build unless a Priest "
        "offers on the Altar; Babylonian armies break through the gates to tear it down."
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    Options: ClassVar[type[BaseModel]] = SolomonOptions

    def setup(self, players: int, options: BaseModel, rng: Random) -> State:
        if players != 2:
            raise IllegalMove("bad_options", "Solomon's Temple is for exactly 2 players.")
        limit = SolomonOptions.model_validate(options.model_dump()).turn_limit
        decks, hands, plays = [], [], []
        for seat in range(2):
            deck = [name for name, n in COUNTS.items() for _ in range(n)]
            deck.remove(PROPHETS[seat])  # each player starts with one Prophet in play
            rng.shuffle(deck)
            hands.append(deck[:HAND])
            decks.append(deck[HAND:])
            plays.append(_empty_play(PROPHETS[seat]))
            if "Scapegoat" in hands[seat]:  # drawn: it goes into play sideways at once
                hands[seat].remove("Scapegoat")
                plays[seat]["scapegoat"] = "sideways"
        return {
            "turn": 0,
            "turn_no": 1,
            "step": "main",
            "actor": 0,
            "deck": decks,
            "hand": hands,
            "discard": [[], []],
            "play": plays,
            "structures": [[], []],
            "furnishings": [[], []],
            "guarded": [[False, False, False], [False, False, False]],
            "armies": [[], []],
            "moved": [],
            "carded": [],
            "wrecked": [],
            "wrecking": False,
            "built": 0,
            "sin": None,
            "grain": False,
            "good_played": False,
            "discarded": 0,
            "peace": False,
            "offering": None,
            "back": None,
            "resume": None,
            "die": None,
            "listened": False,
            "sack": 0,
            "relocate": [],
            "announced": None,
            "last": None,
            "turn_limit": limit,
            "winner": None,
            "reason": "",
        }

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state["step"] == "over" else frozenset({state["actor"]})

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state["step"] == "over" or seat != state["actor"]:
            return []
        return _LEGAL[state["step"]](state, seat)

    def apply(self, state: State, seat: int, move: Move, rng: Random) -> tuple[State, list[Event]]:
        if state["step"] == "over":
            raise IllegalMove("game_over", "The game is over.")
        if seat != state["actor"]:
            raise IllegalMove("not_your_turn", f"It is Seat {state['actor'] + 1}'s move.")
        if not isinstance(move, dict) or not is_legal(move, self.legal_moves(state, seat)):
            raise IllegalMove("illegal_move", _why_not(state, move))
        return self.apply_legal(state, seat, move, rng)

    def apply_legal(self, state: State, seat: int, move: Move,
                    rng: Random) -> tuple[State, list[Event]]:
        """See `Game.apply_legal`: `apply` less its check."""
        new = _copy(state)
        # The move's own log line is the platform's (`describe` of each viewer's copy); the
        # events are what it led to. `last` is the move as everyone may see it (the opponent's
        # copy: a search's or an announced build's card stays hidden), for the board to outline.
        shown = self.redact_move(move, seat, 1 - seat) or {"type": move["type"]}
        new["last"] = {"seat": seat, **shown}
        events = _APPLY[move["type"]](new, seat, move, rng)
        events += _settle(new, rng)
        return new, events

    def outcome(self, state: State) -> Outcome | None:
        if state["step"] != "over":
            return None
        winner = state["winner"]
        scores = [0.5, 0.5] if winner is None else [float(s == winner) for s in range(2)]
        winners = [s for s in range(2) if scores[s] == max(scores)]
        return Outcome(
            scores, winners, ranking_from_scores(scores), state["reason"], _breakdown(state, scores)
        )

    def zombie_move(self, state: State, seat: int) -> Move:
        legal = self.legal_moves(state, seat)
        for kind in PASSES:
            for move in legal:
                if move["type"] == kind:
                    return dict(move)
        return dict(legal[0])

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        def side(s: int) -> dict[str, Any]:
            return {
                "hand": list(state["hand"][s]) if seat == s else None,
                "hand_size": len(state["hand"][s]),
                "deck_size": len(state["deck"][s]),
                "discard": list(state["discard"][s]),
                "play": dict(state["play"][s]),
                "structures": list(state["structures"][s]),
                "furnishings": list(state["furnishings"][s]),
                "guarded": list(state["guarded"][s]),
                "armies": [list(a) for a in state["armies"][s]],
            }

        return {
            "sides": [side(0), side(1)],
            "turn": state["turn"],
            "turn_no": state["turn_no"],
            "step": state["step"],
            "actor": state["actor"] if state["step"] != "over" else None,
            "sin": state["sin"],
            "offering": state["offering"],
            "grain": state["grain"],
            "built": state["built"],
            "die": dict(state["die"]) if state["die"] else None,
            "listened": state["listened"],
            "sack": state["sack"],
            "relocate": list(state["relocate"]),
            "moved": list(state["moved"]),
            "carded": list(state["carded"]),
            "wrecked": list(state["wrecked"]),
            "wrecking": state["wrecking"],
            "winner": state["winner"],
            "reason": state["reason"],
            "texts": dict(_TEXTS),
            "last": dict(state["last"]) if state.get("last") else None,
            # Temple pieces built, out of 15: what decides the game (15 and the Filling win;
            # at the turn limit the larger Temple). Not "scores": the score is 1 for the win.
            "pieces": [
                len(state["structures"][s]) + len(state["furnishings"][s]) for s in range(2)
            ],
            "announced": dict(state["announced"])
            if state.get("announced") and seat == state["turn"]
            else None,
            "gates": list(GATES),
            "turn_limit": state["turn_limit"],
        }

    def describe(self, move: Move) -> str:
        kind, card = move.get("type"), move.get("card")
        if kind == "announce" and card:  # the builder's own line: the piece is secret
            return f"announced a build ({self.describe({**move, 'type': 'place'})})"
        if kind in _SENTENCES:
            return _SENTENCES[kind].format(card=card)
        if kind in _SEARCHES:  # the card is gone from the opponent's copy of the move
            return _SEARCHES[kind] + (f" ({card})" if card else "")
        army = f"army {move['army'] + 1}" if "army" in move else ""
        gate = f" on gate {move['gate'] + 1}" if "gate" in move else ""
        if kind == "build_now":
            return f"built {card} at once{gate}"
        if kind == "place":
            extra = f" and {move['with']} (Cooperation)" if move.get("with") else ""
            if move.get("cooperation"):
                extra = " with Cooperation (the only Furnishing it could place)"
            return f"built {card}{gate}{extra}"
        if kind == "move":
            return f"moved {army} {COMPASS[move['dir']]}"
        if kind == "siege_move":
            return f"moved {army} {COMPASS[move['dir']]} after the siege"
        if kind == "destroy":
            what = "the Temple" if move["target"] == "temple" else f"gate {move['target'] + 1}"
            return f"sent {army} to destroy {what}"
        if kind == "relocate" and move.get("stay"):
            return f"left {army} where it stands"
        if kind == "relocate":
            return f"re-located {army} to {board.square_name((move['row'], move['col']))}"
        if kind == "passage":
            return f"led {army} through a Secret Passage"
        if kind == "siege_break":
            return f"broke gate {move['gate'] + 1} after the siege"
        return str(kind)

    def redact_move(self, move: Move, seat: int, viewer: int | None) -> Move | None:
        if viewer != seat and move.get("type") in ("levite", "peace_take", "peace_give",
                                                   "announce"):
            return {"type": move["type"]}
        return move

    def undoable(self, state: State, seat: int, move: Move) -> bool:
        """Only the moves that name no card and open nothing: an army's step (`move`,
        `siege_move`), an Israelite Army's re-location (`relocate`) and giving up a siege
        (`drop_siege`), and only while the same seat stays in the same step afterwards (no
        window, phase or turn end followed). Every card played names a card of a hidden hand;
        draws, dice and shuffles are random; passes and phase ends open the next step."""
        if move.get("type") not in UNDOABLE or not is_legal(move, self.legal_moves(state, seat)):
            return False
        after, _ = self.apply(state, seat, move, Random(0))
        return after["actor"] == seat and after["step"] == state["step"]

    def scramble_hidden(self, state: State, viewer: int | None, rng: Random) -> State:
        """Re-deal every hidden card: the other hands and all draw piles (order is secret too)."""
        new = _copy(state)
        for s in range(2):
            pool = list(new["deck"][s]) + ([] if viewer == s else list(new["hand"][s]))
            rng.shuffle(pool)
            if viewer != s:
                new["hand"][s] = pool[: len(state["hand"][s])]
                pool = pool[len(state["hand"][s]) :]
            new["deck"][s] = pool
        return new


_CARD_PILES = ("deck", "hand", "discard")


def _copy(state: State) -> State:
    """A deep copy of a state. The piles of cards are most of it and hold only card names
    (strings, never changed in place), so copying their lists is a deep copy, and the whole
    costs under half of `clone`'s JSON round trip; a bot's search makes one a move."""
    copy = clone({**state, **dict.fromkeys(_CARD_PILES)})
    for pile in _CARD_PILES:
        copy[pile] = [list(cards) for cards in state[pile]]
    return copy


def _breakdown(state: State, scores: list[float]) -> list[dict[str, float]]:
    """Per seat where the point came from: the Filling, or the bigger Temple at the turn limit."""
    if state["winner"] is None:
        return [{"Equal Temples at the turn limit": 0.5} for _ in scores]
    filled = "filled the Holy of Holies" in state["reason"]
    how = "Filled the Holy of Holies" if filled else "Larger Temple at the turn limit"
    return [{how: score} for score in scores]


def _empty_play(prophet: str | None) -> dict[str, Any]:
    return {
        "priest": False,
        "evil_priest": False,
        "altar": False,
        "bad_offering": False,
        "prophet": prophet,
        "david": False,
        "solomon": False,
        "scapegoat": None,
        "unclean": False,
        "fast": 0,
        "fast_wait": False,
        "siege": 0,
    }


# -- helpers -------------------------------------------------------------------------------------


def _priest_in_play(state: State, seat: int) -> bool:
    """A Priest (good) that may act: an Evil Priest replaces him, Unclean "disables the Priest
    (good)" for the turn; a disabled Priest is no Priest in play (the Scapegoat needs one)."""
    p = state["play"][seat]
    return p["priest"] and not p["evil_priest"] and not p["unclean"]


def _can_offer(state: State, seat: int) -> bool:
    return _priest_in_play(state, seat) and state["play"][seat]["altar"]


def _temple_complete(state: State, seat: int) -> bool:
    return len(state["structures"][seat]) == 5 and len(state["furnishings"][seat]) == 10


def _pieces(state: State, seat: int, kind: str | None = None) -> list[Move]:
    """Every piece in hand `seat` could place now (Structures, Furnishings, Guarded Gates)."""
    hand = set(state["hand"][seat])
    out: list[Move] = []
    for card in sorted(hand):
        if (card in STRUCTURES and card not in state["structures"][seat]) or (
            card in FURNISHINGS
            and FURNISHINGS[card] in state["structures"][seat]
            and card not in state["furnishings"][seat]
        ):
            out.append({"type": kind or "place", "card": card})
        elif card == "Guarded Gate":
            for g, guarded in enumerate(state["guarded"][seat]):
                if not guarded and not army_at(state, seat, (1, GATES[g])):
                    out.append({"type": kind or "place", "card": card, "gate": g})
    return out


def _draw(state: State, seat: int, n: int, rng: Random) -> None:
    """Draw `n` cards; an empty draw pile takes the shuffled discards (a gap the book leaves).
    A drawn Scapegoat goes straight into play sideways ("When you draw the Scapegoat, it is
    placed in play sideways")."""
    for _ in range(n):
        if not state["deck"][seat]:
            state["deck"][seat], state["discard"][seat] = state["discard"][seat], []
            rng.shuffle(state["deck"][seat])
        if not state["deck"][seat]:
            return
        card = state["deck"][seat].pop()
        if card == "Scapegoat" and not state["play"][seat]["scapegoat"]:
            state["play"][seat]["scapegoat"] = "sideways"  # book: placed in play when drawn
        else:
            state["hand"][seat].append(card)


def _offering_spoiled(state: State, seat: int) -> bool:
    """A Bad Offering on the Altar negates (and is removed by) the next offering."""
    if state["play"][seat]["bad_offering"]:
        state["play"][seat]["bad_offering"] = False
        state["discard"][1 - seat].append("Bad Offering")
        return True
    return False


# -- Phase I: play cards -------------------------------------------------------------------------


def _legal_main(state: State, seat: int) -> list[Move]:
    p = state["play"][seat]
    hand = distinct(state["hand"][seat])
    moves: list[Move] = [{"type": "to_military"}]
    good_ok = not fasting(state, seat)
    for card in hand:
        if card in GOOD and not good_ok:
            continue
        if card in LAID_DOWN:
            moves += _lay_down(state, seat, card)
        elif (card == "Scapegoat" and not p["scapegoat"]) or (
            card == "Filling of the Holy of Holies" and _temple_complete(state, seat)
        ):
            moves.append({"type": "play", "card": card})
        elif card in EVIL_INSTANTS and _evil_target(state, 1 - seat, card):
            moves.append({"type": "evil", "card": card})
    return moves + _offers(state, seat) + _kings_builds(state, seat) + _fast_takes(state, seat)


OFFERINGS = ("Grain Offering", "Peace Offering", "Guilt Offering")
"""The book's "Instant Offerings (Peace, Guilt, and Grain)"; "Instant cards may be played at any
time, whether or not it is the player's turn"."""


def _offers(state: State, seat: int) -> list[Move]:
    """The Instant Offerings `seat` may make now, on its own Priest and Altar (good cards: not
    while fasting). Peace and Guilt wherever `seat` is asked to move (its own turn, and the
    windows of the opponent's turn that offer instants). Grain only in its maker's own turn,
    before the build is announced, one a turn: its effect is that turn's build ("no Sin card may
    be played that turn. You may automatically play any one (1) Structure ...")."""
    if fasting(state, seat) or not _can_offer(state, seat):
        return []
    grain_ok = (
        seat == state["turn"]
        and not state["grain"]
        and state["step"] in ("main", "military", "build")
    )
    return [
        {"type": "offer", "card": c}
        for c in distinct(state["hand"][seat])
        if c in OFFERINGS and (c != "Grain Offering" or grain_ok)
    ]


def _fast_takes(state: State, seat: int) -> list[Move]:
    """Pray and Fast: "On the third turn, you may look through your discard pile and take out one
    (1) good card" (at any point of that turn where its player is asked to move)."""
    if state["play"][seat]["fast"] != 3 or seat != state["turn"]:
        return []
    return [
        {"type": "fast_take", "card": c}
        for c in distinct([c for c in state["discard"][seat] if c in GOOD])
    ]


LAID_DOWN = ("Priest", "Altar", "Levite", "Pray and Fast", *PROPHETS, "King David",
             "King Solomon")
"""The book: "Lay down any Priest (good), Altar, Levite, Pray and Fast, Prophet, and King cards
you wish to bring into play. These cards may be played at any time during your turn." """


def _lay_down(state: State, seat: int, card: str) -> list[Move]:
    """The moves that bring `card` (one of LAID_DOWN, all good cards) into play now."""
    p = state["play"][seat]
    if card == "Levite":
        if len(state["structures"][seat]) >= 5:  # "NOT ... if all Structure pieces are in play"
            return []
        found = distinct([c for c in state["deck"][seat] if c in STRUCTURES])
        # The book forbids nothing else: a search of a pile holding no Structure finds nothing.
        return [{"type": "levite", "card": c} for c in found] or [{"type": "levite"}]
    free = {
        "Priest": not p["priest"],
        "Altar": not p["altar"],
        "Pray and Fast": not p["fast"],
        "King David": not p["david"],
        "King Solomon": not p["solomon"],
    }.get(card, card in PROPHETS and not p["prophet"])
    return [{"type": "play", "card": card}] if free else []


def _lay_downs(state: State, seat: int) -> list[Move]:
    """What the player on turn may play at any other point of its turn where it is asked to move
    (Phases II to IV, and inside Phase III's Sin and atonement): the LAID_DOWN cards, the Instant
    Offerings, the Kings' builds ("no limits to the number of Guarded Gates you may play during
    your turn after you have King David in play"), unless Pray and Fast forbids good cards; and
    the evil instants ("may be played at any time"), which are no good cards."""
    evil = _evil_instants(state, seat)
    if fasting(state, seat):
        return evil
    hand = distinct(state["hand"][seat])
    laid = [m for card in hand if card in LAID_DOWN for m in _lay_down(state, seat, card)]
    offers = _offers(state, seat)
    return laid + offers + _kings_builds(state, seat) + _fast_takes(state, seat) + evil


def _evil_instants(state: State, seat: int) -> list[Move]:
    """The evil instants `seat` holds that have something to hit on the other side now."""
    return [
        {"type": "evil", "card": c}
        for c in distinct(state["hand"][seat])
        if c in EVIL_INSTANTS and _evil_target(state, 1 - seat, c)
    ]


def _evil_target(state: State, target: int, card: str) -> bool:
    """Whether an evil instant has something to hit on `target`'s side. After a Grain Offering
    evil instants against its maker have no effect that turn (book), so they are not offered."""
    opp = state["play"][target]
    if state["grain"] and target == state["turn"]:
        return False
    if card in ("Evil Priest", "Unclean"):
        return bool(opp["priest"]) and not (card == "Unclean" and opp["unclean"])
    if card == "Broken Altar":
        return bool(opp["altar"])
    return bool(opp["altar"]) and not opp["bad_offering"]


def _apply_play(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    card, p = move["card"], state["play"][seat]
    state["hand"][seat].remove(card)
    earlier = state["good_played"]  # a good card before this one (Pray and Fast's count)
    if card in GOOD:
        state["good_played"] = True
    if card == "Filling of the Holy of Holies":
        state["discard"][seat].append(card)
        return _finish(state, seat, f"Seat {seat + 1} filled the Holy of Holies.")
    if card == "Priest":
        p["priest"] = True
        if p["evil_priest"]:
            p["evil_priest"] = False
            state["discard"][1 - seat].append("Evil Priest")
    elif card == "Altar":
        p["altar"] = True
    if card in ("Priest", "Altar") and _can_offer(state, seat) and _offering_ahead(state):
        open_instant(state, state["step"])  # back to wherever the turn was
    elif card in PROPHETS:
        p["prophet"] = card
    elif card == "King David":
        p["david"] = True
    elif card == "King Solomon":
        p["solomon"] = True
    elif card == "Scapegoat":
        p["scapegoat"] = "sideways"
    elif card == "Pray and Fast":
        # "The first turn is the turn in which Pray and Fast is played as long as no good cards
        # have been played that turn": otherwise the count starts on the next turn.
        p["fast"], p["fast_wait"] = 1, earlier
    return []


def _offering_ahead(state: State) -> bool:
    """Whether an evil instant could still change something this turn: an offering may follow at
    any point of the turn (the Instant Offerings at any time, a Burnt Offering answering a Sin),
    except after a Grain Offering, which keeps every Sin and evil instant away."""
    return not state["grain"]


def _apply_offer(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    card = move["card"]
    use_card(state, seat, card)
    if _offering_spoiled(state, seat):
        return [Event(f"The Bad Offering on Seat {seat + 1}'s Altar spoiled the {card}.")]
    if card == "Grain Offering":
        # "At the end of your turn, Grain Offering is discarded": it lies on the Altar till then.
        state["discard"][seat].pop()
        state["grain"] = True
    elif state["grain"] and seat == state["turn"]:
        # Blemished Animal is an instant evil card: "If an Instant evil card is played after the
        # Grain Offering has been played, the Instant evil card has no effect", so no window.
        state["offering"], state["back"] = card, [state["step"], seat]
        return _offering_stands(state, rng)
    else:
        _open_blemish(state, seat, card)
    return []


def _open_blemish(state: State, seat: int, card: str) -> None:
    """An animal offering (Burnt, Peace, Guilt) is made: the opponent may blemish it before it
    takes effect. The window opens whether or not they hold a Blemished Animal; `back` is where
    the offerer's game goes on once the offering is done."""
    state["offering"], state["back"] = card, [state["step"], seat]
    state["step"], state["actor"] = "blemish", 1 - seat


def _offering_stands(state: State, rng: Random) -> list[Event]:
    """Nobody blemished the animal offering: it takes effect."""
    card, seat = state["offering"], _back(state)[1]
    state["offering"], state["actor"] = None, seat
    if card == "Burnt Offering":
        return _atoned(state)
    if card == "Guilt Offering":
        state["deck"][seat] += state["hand"][seat]
        state["hand"][seat] = []
        rng.shuffle(state["deck"][seat])
        _draw(state, seat, HAND, rng)
        _offering_done(state)
    else:
        state["step"] = "peace_take"
    return []


def _back(state: State) -> list[Any]:
    """[step, seat] the offering in hand was made from (older states: the turn's Phase I)."""
    return state.get("back") or ["main", state["turn"]]


def _offering_done(state: State) -> None:
    """The offering (and its Peace Offering exchange) is over: back to where it was made."""
    state["step"], state["actor"] = _back(state)
    state["back"] = None


def _apply_levite(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    use_card(state, seat, "Levite")
    found = move.get("card")
    if found:
        state["deck"][seat].remove(found)
        state["hand"][seat].append(found)
    rng.shuffle(state["deck"][seat])
    if found:
        return []
    # Public anyway: the hand is one card smaller than after a search that found one.
    return [Event(f"The Levite found no Structure in Seat {seat + 1}'s draw pile.")]


def _legal_peace_take(state: State, seat: int) -> list[Move]:
    goods = distinct([c for c in state["deck"][seat] if c in GOOD])
    gives = [c for c in state["hand"][seat] if c in GOOD]
    if not goods or not gives:
        return [{"type": "pass"}]
    return [{"type": "peace_take", "card": c} for c in goods] + [{"type": "pass"}]


def _apply_peace_take(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    state["deck"][seat].remove(move["card"])
    state["hand"][seat].append(move["card"])
    state["peace"] = move["card"]
    state["step"] = "peace_give"
    return []


def _legal_peace_give(state: State, seat: int) -> list[Move]:
    hand = list(state["hand"][seat])
    hand.remove(state["peace"])
    return [{"type": "peace_give", "card": c} for c in distinct([c for c in hand if c in GOOD])]


def _apply_peace_give(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    state["hand"][seat].remove(move["card"])
    state["deck"][seat].append(move["card"])
    rng.shuffle(state["deck"][seat])
    state["peace"] = False
    _offering_done(state)
    return []


def _apply_evil(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    card, opp = move["card"], state["play"][1 - seat]
    state["hand"][seat].remove(card)
    if card == "Evil Priest":
        opp["priest"], opp["evil_priest"] = False, True
        state["discard"][1 - seat].append("Priest")
        return []  # Evil Priest stays on the opponent's board until a new Priest comes
    if card == "Broken Altar":
        # Only the Altar goes: a Bad Offering on it stays until the next offering on a new Altar
        # ("The only way to remove it is by making a sacrifice").
        opp["altar"] = False
        state["discard"][1 - seat].append("Altar")
    elif card == "Unclean":
        opp["unclean"] = True
    else:
        opp["bad_offering"] = True
        return []  # lies on the Altar until the next offering
    state["discard"][seat].append(card)
    return []


def _apply_build_now(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    _place(state, seat, move)
    return []


def _apply_fast_take(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    state["discard"][seat].remove(move["card"])
    state["hand"][seat].append(move["card"])
    state["play"][seat]["fast"] = 4  # used; discarded at the end of this turn
    return []


# -- Phase II: military (military.py) ------------------------------------------------------------


def _legal_military(state: State, seat: int) -> list[Move]:
    """The attacker is the seat not on turn: besides its Military cards, its instants."""
    return military.legal_military(state, seat, _instants(state, seat))


def _legal_defend(state: State, seat: int) -> list[Move]:
    """The defender is the player on turn: Israelite Armies and the cards laid down."""
    return military.legal_defend(state, seat) + _lay_downs(state, seat)


# -- Phase III: building -------------------------------------------------------------------------


def _legal_build(state: State, seat: int) -> list[Move]:
    """Announce a build naming the piece (kept secret from the opponent, placed at once when the
    build goes ahead), go to the discards without building, or end the turn right away."""
    moves: list[Move] = [{"type": "end_turn"}, {"type": "skip_build"}, *_lay_downs(state, seat)]
    if not state["built"] and not fasting(state, seat):
        moves += [{**m, "type": "announce"} for m in _placements(state, seat)]
    return moves


def _apply_announce(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    state["announced"] = {**move, "type": "place"}
    if state["grain"]:
        state["step"] = "place"
        return [Event("The Grain Offering keeps every Sin away: the build goes ahead.")]
    state["step"], state["actor"] = "sin", 1 - seat
    return []


def _apply_skip_build(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    state["step"], state["announced"] = "discard", None
    return []


def _legal_sin(state: State, seat: int) -> list[Move]:
    hand = distinct(state["hand"][seat])
    moves: list[Move] = [{"type": "pass"}]
    moves += [{"type": "sin", "card": c} for c in hand if c in SINS]
    return moves + _instants(state, seat)


def _instants(state: State, seat: int, offers: bool = True) -> list[Move]:
    """The instants the seat not on turn may play in any of its windows: evil instants with a
    target on the player on turn, Peace and Guilt Offerings (not while an offering of the player
    on turn waits in the `blemish` window: one offering at a time), Guarded Gates under King
    David, Structures under King Solomon (good cards: not while fasting)."""
    moves = _evil_instants(state, seat) + (_offers(state, seat) if offers else [])
    return moves + _kings_builds(state, seat)


def _kings_builds(state: State, seat: int) -> list[Move]:
    """Pieces the Kings let `seat` build as instants: no Sin stops them, no limit applies."""
    p = state["play"][seat]
    if fasting(state, seat) or not (p["david"] or p["solomon"]):
        return []
    allowed = STRUCTURES if p["solomon"] else ()
    gates = ("Guarded Gate",) if p["david"] else ()
    return [m for m in _pieces(state, seat, "build_now") if m["card"] in (*allowed, *gates)]


def _legal_instant(state: State, seat: int) -> list[Move]:
    return [{"type": "pass"}, *_instants(state, seat)]


def _apply_sin_pass(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    step = state["step"]
    if step == "sin":
        state["step"], state["actor"] = "place", state["turn"]
    elif step == "answer":
        state["step"], state["announced"] = "discard", None
        return [Event(f"The Sin stands: Seat {seat + 1} cannot build this turn.")]
    elif step == "blemish":
        return _offering_stands(state, rng)
    elif step == "defend":  # the defender is the player on turn, who builds next
        state["step"], state["actor"] = "build", state["turn"]
    elif step == "instant":
        state["step"], state["actor"] = state["resume"], resume_actor(state)
        state["resume"] = None
    elif step == "siege_move":
        state["step"] = "military"
    else:  # peace_take with nothing to exchange (or nothing wanted)
        _offering_done(state)
    return []


def _apply_sin(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    use_card(state, seat, move["card"])
    state["sin"] = move["card"]
    state["actor"] = state["turn"]
    if move["card"] == "Loss of Heart":
        state["step"], state["announced"] = "discard", None
        return [Event("Loss of Heart cannot be atoned for: no building this turn.")]
    state["step"] = "answer"
    return []


def _legal_answer(state: State, seat: int) -> list[Move]:
    moves: list[Move] = [{"type": "pass"}, *_lay_downs(state, seat)]
    p = state["play"][seat]
    if fasting(state, seat):  # Pray and Fast laid down after the Sin: no building this turn
        return moves
    if _can_offer(state, seat) and "Burnt Offering" in state["hand"][seat]:
        moves.append({"type": "burnt"})
    if p["scapegoat"] == "active" and _priest_in_play(state, seat):
        moves.append({"type": "scapegoat"})
    return moves


def _apply_burnt(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    use_card(state, seat, "Burnt Offering")
    if _offering_spoiled(state, seat):  # the Sin stands until answered again (answer window)
        return [Event("The Bad Offering on the Altar spoiled the Burnt Offering: the Sin stands.")]
    _open_blemish(state, seat, "Burnt Offering")
    return []


def _atoned(state: State) -> list[Event]:
    builder = state["turn"]
    if state["play"][builder]["scapegoat"] == "sideways":
        state["play"][builder]["scapegoat"] = "active"
    state["step"], state["actor"], state["back"] = "place", builder, None
    return [Event(f"The Sin {state['sin']} is negated; Seat {builder + 1} may build.")]


def _apply_scapegoat(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    state["play"][seat]["scapegoat"] = None
    state["discard"][seat].append("Scapegoat")
    state["step"] = "place"
    return [Event(f"The Scapegoat carries the Sin {state['sin']} away; Seat {seat + 1} may build.")]


def _legal_blemish(state: State, seat: int) -> list[Move]:
    moves: list[Move] = [{"type": "pass"}]
    if "Blemished Animal" in state["hand"][seat]:
        moves.append({"type": "blemish"})
    return moves + _instants(state, seat, offers=False)


def _apply_blemish(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    use_card(state, seat, "Blemished Animal")
    card, state["offering"] = state["offering"], None
    # A blemished Burnt Offering goes back to the answer window: only that offering is negated,
    # the builder may answer the Sin again (another Burnt Offering, the Scapegoat) or pass.
    _offering_done(state)
    if card == "Burnt Offering":
        return [Event("The Burnt Offering was blemished: the Sin stands.")]
    return [Event(f"The {card} was blemished: it is a bad offering and does nothing.")]


def _legal_place(state: State, seat: int) -> list[Move]:
    placements = _placements(state, seat)
    if fasting(state, seat) or not placements:
        # Pray and Fast laid down since the build was allowed, or a King's build took the last
        # piece: the turn goes on without a build (a Levite may still fetch a Structure).
        return [{"type": "skip_build"}, *_lay_downs(state, seat)]
    return placements + _lay_downs(state, seat)


def _placements(state: State, seat: int) -> list[Move]:
    """Every `place` move: one piece, or with Cooperation two Furnishings (or the only one)."""
    pieces = _pieces(state, seat)
    moves = list(pieces)
    if "Cooperation" in state["hand"][seat]:
        furn = [m["card"] for m in pieces if m["card"] in FURNISHINGS]
        if len(furn) == 1:  # "If you only have one (1) Furnishing ... only ... play one"
            moves.append({"type": "place", "card": furn[0], "cooperation": True})
        for i, a in enumerate(furn):
            for b in furn[i + 1 :]:
                moves.append({"type": "place", "card": a, "with": b})
    return moves


def _place(state: State, seat: int, move: Move) -> None:
    card = move["card"]
    use_card(state, seat, card)
    state["discard"][seat].remove(card)
    if card in STRUCTURES:
        state["structures"][seat].append(card)
    elif card in FURNISHINGS:
        state["furnishings"][seat].append(card)
    else:
        state["guarded"][seat][move["gate"]] = True


def _apply_place(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    _place(state, seat, move)
    if move.get("with") or move.get("cooperation"):
        use_card(state, seat, "Cooperation")
    if move.get("with"):
        _place(state, seat, {"card": move["with"]})
    state["built"] = 1
    state["step"], state["announced"] = "discard", None
    return []


# -- Phase IV: discard, and the turn's end -------------------------------------------------------


def _legal_discard(state: State, seat: int) -> list[Move]:
    moves: list[Move] = [{"type": "end_turn"}, *_lay_downs(state, seat)]
    if (
        "Filling of the Holy of Holies" in state["hand"][seat]
        and _temple_complete(state, seat)
        and not fasting(state, seat)
    ):  # "Once you have finished building the Temple ... the Filling ... is played"
        moves.append({"type": "play", "card": "Filling of the Holy of Holies"})
    if state["discarded"] < 2:
        moves += [{"type": "discard", "card": c} for c in distinct(state["hand"][seat])]
    hand = state["hand"][seat]
    if (
        len(hand) == HAND
        and all(c in FURNISHINGS for c in hand)
        and not any(FURNISHINGS[c] in state["structures"][seat] for c in hand)
    ):
        moves.append({"type": "reshuffle"})
    return moves


def _apply_discard(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    state["hand"][seat].remove(move["card"])
    state["discard"][seat].append(move["card"])
    state["discarded"] += 1
    return []


def _apply_reshuffle(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    state["deck"][seat] += state["hand"][seat]
    state["hand"][seat] = []
    rng.shuffle(state["deck"][seat])
    return _apply_end_turn(state, seat, move, rng)


def _apply_end_turn(state: State, seat: int, move: Move, rng: Random) -> list[Event]:
    events: list[Event] = []
    for s in range(2):
        state["play"][s]["unclean"] = False
    if state["grain"]:
        state["discard"][seat].append("Grain Offering")
        state["grain"] = False
    if state["play"][seat]["fast"] >= 3:
        state["play"][seat]["fast"] = 0
        state["discard"][seat].append("Pray and Fast")
    if state["turn_no"] >= state["turn_limit"]:
        built = [len(state["structures"][s]) + len(state["furnishings"][s]) for s in range(2)]
        if built[0] == built[1]:
            return _finish(
                state, None, f"Turn limit reached with equal Temples ({_count(built[0])} each)."
            )
        best = built.index(max(built))
        return _finish(state, best, f"Turn limit reached; Seat {best + 1} built the larger "
                       f"Temple ({_count(built[best])} to {built[1 - best]}).")
    nxt = 1 - seat
    state.update(
        turn=nxt,
        actor=nxt,
        turn_no=state["turn_no"] + 1,
        step="main",
        moved=[],
        carded=[],
        wrecked=[],
        wrecking=False,
        built=0,
        sin=None,
        grain=False,
        good_played=False,
        discarded=0,
        listened=False,
        announced=None,
        die=None,  # the last turn's Prophet die is put away
    )
    p = state["play"][nxt]
    if p["fast_wait"]:
        p["fast_wait"] = False  # played after a good card: this is its first counted turn
    elif 0 < p["fast"] < 3:
        p["fast"] += 1
    if state["turn_no"] > 2:
        _draw(state, nxt, HAND - len(state["hand"][nxt]), rng)
    if _can_offer(state, nxt):
        open_instant(state, "main")  # before any offering of this turn
    return events


def _settle(state: State, rng: Random) -> list[Event]:
    """Make the moves nobody has to decide: a step whose actor could have nothing to play but the
    step's way out, whatever its hidden cards are, is left at once (RULES.md, "Fewer clicks").
    Decided on public facts only (`_in_sight`): a step left because the hand held nothing would
    tell the other seat what the hand holds (issue 33). The announced piece is placed once the
    build may go ahead."""
    events: list[Event] = []
    while state["step"] != "over":
        seat = state["actor"]
        auto = _auto_move(state, seat)
        if auto is None:
            return events
        move, text = auto
        if text:
            events.append(Event(text.format(seat=seat + 1), data={"seat": seat, "auto": True}))
        events += _APPLY[move["type"]](state, seat, move, rng)
    return events


_PASS = {"type": "pass"}


def _auto_move(state: State, seat: int) -> tuple[Move, str] | None:
    """The move made for `seat` when it has nothing to decide in this step, with its log line."""
    step = state["step"]
    if step == "place":  # the builder's own announced piece; placing it shows it anyway
        announced = state.get("announced")
        if announced and announced in _legal_place(state, seat):
            return announced, ""
        return None
    if step not in _QUIET and step not in ("answer", "defend"):
        return None
    seen = _in_sight(state, seat)
    if step == "answer":
        return None if _could_atone(seen, seat) else (_PASS, "")
    if step == "defend":
        quiet = military.legal_defend(seen, seat) == [_PASS]
        return (_PASS, "") if quiet else None
    legal = _LEGAL[step](seen, seat)
    if len(legal) != 1 or legal[0]["type"] != _QUIET[step][0]:
        return None
    return legal[0], _QUIET[step][1]


_QUIET = {
    "main": ("to_military", "Seat {seat} has nothing to play in Phase I."),
    "military": ("end_military", "Seat {seat} has no attack to make."),
    "sin": ("pass", "Seat {seat} plays no Sin: the build goes ahead."),
    "instant": ("pass", ""),
    "blemish": ("pass", ""),
    "peace_take": ("pass", ""),
}
"""Steps left at once when their one legal move is the way out (nothing held to play there)."""


def _in_sight(state: State, seat: int) -> State:
    """`state` as anyone may know it of `seat`'s cards: every card it might hold (its hand and
    draw pile together, a multiset anyone can count: its deck less what lies in sight) in its
    hand, unless the hand is empty, and in its draw pile. Moves come from the cards held (more
    cards, more moves), so a step with only its way out on this copy has only its way out
    whatever the seat really holds: leaving it at once shows nobody anything."""
    pool = [*state["hand"][seat], *state["deck"][seat]]
    seen = dict(state)
    seen["hand"], seen["deck"] = list(state["hand"]), list(state["deck"])
    seen["hand"][seat] = pool if state["hand"][seat] else []
    seen["deck"][seat] = pool
    return seen


def _could_atone(state: State, seat: int) -> bool:
    """Whether the builder could still answer the Sin this turn: the active Scapegoat with a
    Priest, or a Burnt Offering (held, or reachable by a Peace Offering or Pray and Fast's third
    turn) on Priest and Altar, counting a Priest or Altar still in the hand."""
    p, hand = state["play"][seat], state["hand"][seat]
    if fasting(state, seat) or p["unclean"]:
        return False
    priest = (p["priest"] and not p["evil_priest"]) or "Priest" in hand
    if p["scapegoat"] == "active" and priest:
        return True
    altar = p["altar"] or "Altar" in hand
    burnt = "Burnt Offering" in hand or "Peace Offering" in hand or p["fast"] == 3
    return priest and altar and burnt


def _count(pieces: int) -> str:
    """"1 piece", "12 pieces": the turn limit's reason is read by people."""
    return f"{pieces} piece{'' if pieces == 1 else 's'}"


def _finish(state: State, winner: int | None, reason: str) -> list[Event]:
    state["step"], state["winner"], state["reason"] = "over", winner, reason
    return [Event(reason)]


def _why_not(state: State, move: Any) -> str:
    """Name the rule that refuses a move outside the legal list."""
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        return 'A move is an object with a known "type".'
    kind, step = move["type"], state["step"]
    card = move.get("card")
    if (
        card is not None
        and card not in state["hand"][state["actor"]]
        and kind not in ("levite", "peace_take", "fast_take", "sack")
    ):
        return f"You hold no {card!s}."
    reasons = {
        "main": "Phase I: play Priests, Altars, Prophets, Kings, Levites and offerings, or go on.",
        "military": "Phase II: armies enter at the north gate, move one space, one card each.",
        "defend": "Only Israelite Armies answer an attack (or pass).",
        "build": "Phase III: announce a build only with a piece you can place.",
        "sin": "When a build is announced the opponent may play one Sin (or instants, or pass).",
        "answer": "A Sin is answered by a Burnt Offering on Priest and Altar, or the Scapegoat.",
        "blemish": "Only a Blemished Animal answers an animal offering (or pass).",
        "instant": "Only instants may be played in the opponent's turn (or pass).",
        "place": "Place a piece whose Structure stands, or a Guarded Gate on an open gate.",
        "discard": "Phase IV: discard up to two cards, then end the turn.",
        "peace_take": "Peace Offering: take a good card from your draw pile.",
        "sack": "Destruction: choose a Furnishing of the sacked Temple.",
        "siege_move": "Lay Siege: move one army one space, or pass.",
        "relocate": "Israelite Army: choose a free space for the next army inside the walls.",
        "peace_give": "Peace Offering: give back a good card from your hand.",
    }
    return f"{kind!s} is not allowed now. {reasons.get(step, '')}"


_LEGAL = {
    "main": _legal_main,
    "military": _legal_military,
    "defend": _legal_defend,
    "build": _legal_build,
    "sin": _legal_sin,
    "instant": _legal_instant,
    "answer": _legal_answer,
    "blemish": _legal_blemish,
    "place": _legal_place,
    "discard": _legal_discard,
    "peace_take": _legal_peace_take,
    "peace_give": _legal_peace_give,
    "sack": military.legal_sack,
    "relocate": military.legal_relocate,
    "siege_move": military.legal_siege_move,
}
_APPLY = {
    "play": _apply_play,
    "offer": _apply_offer,
    "levite": _apply_levite,
    "evil": _apply_evil,
    "build_now": _apply_build_now,
    "fast_take": _apply_fast_take,
    "to_military": military.apply_to_military,
    "army": military.apply_army,
    "move": military.apply_move,
    "destroy": military.apply_destroy,
    "passage": military.apply_passage,
    "siege": military.apply_siege,
    "siege_break": military.apply_siege_break,
    "drop_siege": military.apply_drop_siege,
    "end_military": military.apply_end_military,
    "israelite": military.apply_israelite,
    "israelite2": military.apply_israelite,
    "announce": _apply_announce,
    "skip_build": _apply_skip_build,
    "pass": _apply_sin_pass,
    "sin": _apply_sin,
    "burnt": _apply_burnt,
    "scapegoat": _apply_scapegoat,
    "blemish": _apply_blemish,
    "place": _apply_place,
    "discard": _apply_discard,
    "reshuffle": _apply_reshuffle,
    "end_turn": _apply_end_turn,
    "peace_take": _apply_peace_take,
    "peace_give": _apply_peace_give,
    "sack": military.apply_sack,
    "relocate": military.apply_relocate,
    "siege_move": military.apply_siege_move,
}
