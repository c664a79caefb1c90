"""What each seat may see of a 5 Realms state, the log text of moves, and the scrambler.

A card's banner side is public wherever it lies; its character side shows only to the seats
that have looked at it (`known`) or to everybody once recruited (`public`). The deck's order and
the faces of unseen cards never leave the state.
"""

from __future__ import annotations

from random import Random
from typing import Any

from games.five_realms import effects, square
from games.five_realms.data import (
    BANNER_NAMES,
    CHARACTER_NAMES,
    REALMS,
    character_name,
)
from games.protocol import Move, State, clone

QUESTIONS: dict[str, str] = {
    "place": "Place the drawn card on an empty spot next to a card, keeping Alkane 3x3.",
    "collect": "Collect one of the different banners next to the card you placed.",
    "action": "Choose to recruit or to influence with the collected cards.",
    "recruit": "Recruit one of the collected characters you may take, or decline.",
    "replace": "Your council is full: choose a character of it to discard.",
    "wild": "Put each Imperial Order banner in a realm column you already have.",
    "order": "Choose which triggered council effect resolves next.",
    "strike": "Steal a castle, or destroy one of the opponent's characters or Titans.",
    "witch": "Pick one card of the discard pile.",
    "witch_use": "Recruit or influence with the card your Witch picked.",
}


def visible(state: State, viewer: int | None) -> set[str]:
    """Card ids whose character side `viewer` has seen."""
    seen = set(state["public"])
    if viewer is not None:
        seen.update(state["known"][viewer])
    return seen


def card_view(state: State, card: str, seen: set[str]) -> dict[str, Any]:
    """A card for the renderer: its banner always, its character only if seen."""
    face = state["faces"][card]
    out: dict[str, Any] = {"card": card, "banner": face["banner"],
                           "character": None, "name": None}
    if card in seen:
        out["character"] = face["character"]
        out["name"] = character_name(face)
    return out


def view_of(state: State, viewer: int | None) -> dict[str, Any]:
    """The whole table as `viewer` (None: a spectator) may see it."""
    seen = visible(state, viewer)
    cards = [card_view(state, c, seen) for c in state["discard"]]
    return {
        "you": viewer,
        "turn": state["turn"],
        "over": state["over"],
        "winner": state["winner"],
        "extra_turns": state["extra_turns"],
        "square": _square(state),
        "last": list(state["last"]) if state["last"] is not None else None,
        "recent": _recent(state),
        "scores": [seat["castles"] for seat in state["seats"]],
        "deck": {"count": len(state["deck"]),
                 "top_banner": _banner_of(state, state["deck"][:1]),
                 "next_banner": _banner_of(state, state["deck"][_in_sight(state) - 1:][:1])},
        "discard": {"count": len(cards), "top_banner": _banner_of(state, state["discard"][-1:]),
                    "cards": cards},
        "hand": [card_view(state, c, seen) for c in state["hand"]],
        "pending": _pending(state, seen),
        "players": [_player(state, s, seen) for s in range(state["players"])],
        "realms": list(REALMS),
        "banner_names": dict(BANNER_NAMES),
        "character_names": dict(CHARACTER_NAMES),
    }


def _recent(state: State) -> dict[str, Any] | None:
    """The latest turn's placed card and taken cards, by id: all were face up on Alkane or the
    discard pile when taken, so every seat may know them."""
    recent = state.get("recent")
    if not recent:
        return None
    return {"seat": recent["seat"], "placed": recent["placed"], "cards": list(recent["cards"])}


def _in_sight(state: State) -> int:
    """Deck cards whose banner anyone can see: the top one, and while the drawn top card is
    being placed the one under it too (the deck lies banner side up)."""
    placing = not state["over"] and state["todo"][0]["kind"] == "place"
    return 2 if placing else 1


def _banner_of(state: State, cards: list[str]) -> str | None:
    return state["faces"][cards[0]]["banner"] if cards else None


def _square(state: State) -> dict[str, Any]:
    cards = [{"x": x, "y": y, "card": c, "banner": state["faces"][c]["banner"]}
             for (x, y), c in sorted(square.spots(state["square"]).items())]
    placing = not state["over"] and state["todo"][0]["kind"] == "place"
    spots = square.legal_spots(state["square"]) if placing else []
    xs = [c["x"] for c in cards] + [x for x, _ in spots]
    ys = [c["y"] for c in cards] + [y for _, y in spots]
    bounds = {"min_x": min(xs, default=0), "max_x": max(xs, default=0),
              "min_y": min(ys, default=0), "max_y": max(ys, default=0)}
    return {"cards": cards, "legal_spots": [{"x": x, "y": y} for x, y in spots],
            "bounds": bounds}


def _player(state: State, seat: int, seen: set[str]) -> dict[str, Any]:
    mine = state["seats"][seat]
    counts = effects.counts(state, seat)
    return {
        "seat": seat,
        "castles": mine["castles"],
        "throne": mine["throne"],
        "council": [card_view(state, c, seen) for c in mine["council"]],
        "titans": [card_view(state, c, seen) for c in mine["titans"]],
        "influence": {r: [{"card": c, "banner": state["faces"][c]["banner"]}
                          for c in mine["influence"][r]] for r in REALMS},
        "influence_counts": counts,
        "lines": effects.lines(counts),
    }


def _pending(state: State, seen: set[str]) -> dict[str, Any] | None:
    """The question now asked of the active seat, with only its public details."""
    if state["over"]:
        return None
    task = state["todo"][0]
    kind = task["kind"]
    out: dict[str, Any] = {"kind": kind, "seat": state["turn"], "prompt": QUESTIONS[kind]}
    if kind == "collect":
        out["options"] = [{"banner": o["banner"], "cards": list(o["cards"])}
                          for o in task["options"]]
    elif kind == "order":
        out["entries"] = [{**e, "name": character_name(state["faces"][e["card"]])}
                          for e in task["entries"]]
    elif kind in ("strike", "replace"):
        which = task["source"] if kind == "strike" else task["card"]
        out["card"] = card_view(state, which, seen)
    elif kind == "wild":
        out["card"] = state["hand"][0]
    elif kind in ("action", "witch_use"):
        out["can_influence"] = effects.can_influence(state)
    return out



def scramble(state: State, viewer: int | None, rng: Random) -> State:
    """Shuffle the deck below the banners in sight and deal the unseen character sides anew."""
    new = clone(state)
    shown = _in_sight(state)
    rest = new["deck"][shown:]
    rng.shuffle(rest)
    new["deck"] = new["deck"][:shown] + rest
    seen = visible(state, viewer)
    by_banner: dict[str, list[str]] = {}
    for card in sorted(state["faces"]):
        if card not in seen:
            by_banner.setdefault(state["faces"][card]["banner"], []).append(card)
    for banner, cards in by_banner.items():
        characters = [state["faces"][c]["character"] for c in cards]
        rng.shuffle(characters)
        for card, character in zip(cards, characters, strict=True):
            new["faces"][card] = {"banner": banner, "character": character}
    return new


def describe_move(move: Move) -> str:
    """One line for the log. Cards go unnamed: their ids mean nothing to a person and the
    move's events name what may be named (a recruit, a destroyed character)."""
    match move:
        case {"type": "place", "x": x, "y": y}:
            return f"places the drawn card on Alkane ({x}, {y})"
        case {"type": "collect", "banner": banner}:
            return f"collects the {BANNER_NAMES.get(banner, banner)} banners"
        case {"type": "recruit"}:
            return "recruits"
        case {"type": "influence"}:
            return "influences"
        case {"type": "choose"}:
            return "recruits one of the collected characters"
        case {"type": "decline"}:
            return "recruits nobody"
        case {"type": "replace"}:
            return "discards a character from the council"
        case {"type": "wild", "realm": realm}:
            return f"adds an Imperial banner to the {BANNER_NAMES.get(realm, realm)} column"
        case {"type": "resolve"}:
            return "resolves a council effect"
        case {"type": "steal"}:
            return "steals a castle"
        case {"type": "destroy"}:
            return "destroys a character of the opponent"
        case {"type": "pick"}:
            return "picks a card from the discard pile"
        case _:
            return f"makes a move ({move.get('type')})"
