"""Character effects that are pure arithmetic on a state: counts, triggers, end-of-game scoring.

Interactive effects (Warrior's steal-or-destroy, Witch's pick, General's extra turn) are turned
into tasks by rules.py; this module only says how often each one fires.
"""

from __future__ import annotations

from typing import Any

from games.five_realms import data
from games.five_realms.data import (
    COLONEL_END_CASTLES,
    GAIA_END_CASTLES,
    IMPERIAL,
    KING_CASTLES,
    MARSHAL_CASTLES,
    MONK_END_STEAL,
    POPESS_AT,
    QUEEN_AT,
    REALMS,
    RELIGIOUS,
    THRONE_AT,
    THRONE_CASTLES,
    WARRIOR_AT,
    WARRIOR_MONK,
    WARRIORS,
    WITCH_AT,
)
from games.protocol import State

Counts = dict[str, int]


def counts(state: State, seat: int) -> Counts:
    """Influence per realm: the length of each column (Imperial wilds included)."""
    influence = state["seats"][seat]["influence"]
    return {realm: len(influence[realm]) for realm in REALMS}


def can_influence(state: State) -> bool:
    """Whether the hand may INFLUENCE: Religious banners never, Imperial ones need a column."""
    banners = {banner(state, c) for c in state["hand"]}
    columns = state["seats"][state["turn"]]["influence"]
    return RELIGIOUS not in banners and (IMPERIAL not in banners or any(columns.values()))


def lines(column_counts: Counts) -> int:
    """Complete lines of 5 influences: a row across all five columns, so the shortest column."""
    return min(column_counts.values())


def character(state: State, card: str) -> str:
    return state["faces"][card]["character"]


def banner(state: State, card: str) -> str:
    return state["faces"][card]["banner"]


def _crossed(before: Counts, after: Counts, realm: str, marks: tuple[int, ...]) -> int:
    """How many of the `marks` (3rd, 4th … banner) this influence reached in `realm`."""
    return sum(1 for mark in marks if before[realm] < mark <= after[realm])


def triggers(state: State, seat: int, before: Counts) -> list[dict[str, Any]]:
    """Council cards whose THROUGHOUT effect this influence fired, with how many times."""
    after = counts(state, seat)
    new_lines = lines(after) - lines(before)
    entries = []
    for card in state["seats"][seat]["council"]:
        realm = banner(state, card)
        match character(state, card):
            case data.QUEEN:
                times = _crossed(before, after, realm, QUEEN_AT)
            case data.WARRIOR:
                times = _crossed(before, after, realm, (WARRIOR_AT,))
            case data.WITCH:
                times = _crossed(before, after, realm, WITCH_AT)
            case data.POPESS:
                times = sum(_crossed(before, after, r, (POPESS_AT,)) for r in REALMS)
            case data.COLONEL | data.GENERAL:
                times = new_lines
            case _:
                times = 0
        if times:
            entries.append({"card": card, "times": times})
    return entries


def throne_gain(state: State, seat: int, before: Counts) -> int:
    """The Throne Room's one-time castles when its realm reaches its 3rd influence."""
    realm = state["seats"][seat]["throne"]
    return THRONE_CASTLES * _crossed(before, counts(state, seat), realm, (THRONE_AT,))


def majorities(state: State, seat: int) -> int:
    """Realms where `seat` has strictly more influence than the opponent (the Captain)."""
    mine, theirs = counts(state, seat), counts(state, 1 - seat)
    return sum(1 for realm in REALMS if mine[realm] > theirs[realm])


def _imperials(state: State, seat: int) -> int:
    return sum(1 for c in state["seats"][seat]["council"] if banner(state, c) == IMPERIAL)


def _warriors(state: State, seat: int) -> int:
    return sum(1 for c in state["seats"][seat]["council"] if character(state, c) in WARRIORS)


def end_gains(state: State, seat: int) -> list[tuple[str, int]]:
    """AT THE END OF THE GAME castle gains of `seat`: [(card id, castles)], zeros left out."""
    gains = []
    for card in state["seats"][seat]["council"] + state["seats"][seat]["titans"]:
        gain = _end_gain(state, seat, card)
        if gain:
            gains.append((card, gain))
    return gains


def _end_gain(state: State, seat: int, card: str) -> int:
    other = 1 - seat
    mine, theirs = counts(state, seat), counts(state, other)
    match character(state, card):
        case data.KING:
            realm = banner(state, card)
            return KING_CASTLES if mine[realm] > theirs[realm] else 0
        case data.CAPTAIN:
            return majorities(state, seat)
        case data.COLONEL:
            return COLONEL_END_CASTLES if lines(mine) > lines(theirs) else 0
        case data.MARSHAL:
            return MARSHAL_CASTLES if _imperials(state, seat) > _imperials(state, other) else 0
        case data.GAIA:
            ahead = len(state["seats"][seat]["titans"]) > len(state["seats"][other]["titans"])
            return GAIA_END_CASTLES if ahead else 0
        case _:
            return 0


def end_steal(state: State, seat: int) -> int:
    """The Warrior Monk's end-of-game steal: 2 with strictly more Warriors and Warrior Monks."""
    has_monk = any(character(state, c) == WARRIOR_MONK for c in state["seats"][seat]["council"])
    if has_monk and _warriors(state, seat) > _warriors(state, 1 - seat):
        return MONK_END_STEAL
    return 0
