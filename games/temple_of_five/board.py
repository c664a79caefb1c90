"""A pyramid seen from above: the topmost space wins, chains are same-colour orthogonal groups."""

from __future__ import annotations

from typing import Any

from games.temple_of_five.data import OFFSETS, SIZE, SLOTS

Top = dict[tuple[int, int], tuple[int, str | None]]
_BOARD = [(x, y) for x in range(SIZE) for y in range(SIZE)]


def top(seat: dict[str, Any]) -> Top:
    """(level, colour or None) of the topmost space at every spot of the 8x8 board.

    Unbuilt spots are empty board spaces (level 0): the book lets bonus decorations go on "the
    empty spaces of the board or the pyramid", and a later tile simply covers them.
    """
    out: Top = {spot: (0, None) for spot in _BOARD}
    for key, colour in seat["printed"].items():
        x, y = map(int, key.split(","))
        out[(x, y)] = (0, colour)
    layers = [(t["level"], 0, t) for t in seat["tiles"]] + [
        (b["level"], 1, b) for b in seat["bonuses"]]
    for level, kind, item in sorted(layers, key=lambda e: (e[0], e[1])):
        if kind == 0:
            x0, y0 = SLOTS[level][item["slot"]]
            for (dx, dy), colour in zip(OFFSETS, item["faces"], strict=True):
                out[(x0 + dx, y0 + dy)] = (level, colour)
        else:
            for x, y in item["cells"]:
                out[(x, y)] = (level, item["colour"])
    return out


def top_json(seat: dict[str, Any]) -> list[list[Any]]:
    """The view from above as rows of [level, colour] (colour None on an empty space)."""
    t = top(seat)
    return [[list(t[(x, y)]) for x in range(SIZE)] for y in range(SIZE)]


def chains(seat: dict[str, Any]) -> list[tuple[set[tuple[int, int]], str]]:
    """Every chain: 2+ same-colour spaces orthogonally adjacent as seen from above."""
    t = top(seat)
    seen: set[tuple[int, int]] = set()
    out = []
    for start in sorted(t):
        colour = t[start][1]
        if colour is None or start in seen:
            continue
        group, stack = {start}, [start]
        while stack:
            x, y = stack.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in t and n not in group and t[n][1] == colour:
                    group.add(n)
                    stack.append(n)
        seen |= group
        if len(group) >= 2:
            out.append((group, colour))
    return out


def chain_at(seat: dict[str, Any], x: int, y: int) -> set[tuple[int, int]]:
    for cells, _ in chains(seat):
        if (x, y) in cells:
            return cells
    return set()


def free_slots(seat: dict[str, Any], level: int) -> list[int]:
    taken = {t["slot"] for t in seat["tiles"] if t["level"] == level}
    return [s for s in range(len(SLOTS[level])) if s not in taken]
