"""The floating Alkane square: where a card may go and which cards a placement collects.

The square is a dict "x,y" -> card id on an unbounded grid; only its 3x3 bound is fixed, so
coordinates are re-based to start at 0 after every change to keep them small and stable.
"""

from __future__ import annotations

from collections.abc import Callable

from games.five_realms.data import LAYOUT, SIZE

Spot = tuple[int, int]
Square = dict[str, str]
STEPS: tuple[Spot, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


def key(spot: Spot) -> str:
    return f"{spot[0]},{spot[1]}"


def spots(square: Square) -> dict[Spot, str]:
    """The square as {(x, y): card id}."""
    out: dict[Spot, str] = {}
    for where, card in square.items():
        x, y = where.split(",")
        out[(int(x), int(y))] = card
    return out


def neighbours(spot: Spot) -> list[Spot]:
    return [(spot[0] + dx, spot[1] + dy) for dx, dy in STEPS]


def _fits(cells: dict[Spot, str], spot: Spot) -> bool:
    """Whether the cards plus `spot` still fit in a 3x3 square."""
    xs = [x for x, _ in cells] + [spot[0]]
    ys = [y for _, y in cells] + [spot[1]]
    return max(xs) - min(xs) < SIZE and max(ys) - min(ys) < SIZE


def legal_spots(square: Square) -> list[Spot]:
    """Empty spots orthogonally next to a card, inside the floating 3x3 bound, sorted."""
    cells = spots(square)
    found = {n for spot in cells for n in neighbours(spot) if n not in cells}
    return sorted((s for s in found if _fits(cells, s)), key=lambda s: (s[1], s[0]))


def collect_options(
    square: Square, banner_of: Callable[[str], str], spot: Spot
) -> list[tuple[str, list[str]]]:
    """What placing the card now at `spot` may collect: [(banner, card ids)], one or more.

    Same banner next to it: the connected group with the new card (no choice). Otherwise one
    option per different neighbouring banner: every card of it, the new card staying put.
    """
    cells = spots(square)
    new = cells[spot]
    mine = banner_of(new)
    around = [cells[n] for n in neighbours(spot) if n in cells]
    if any(banner_of(card) == mine for card in around):
        return [(mine, _group(cells, banner_of, spot))]
    options: list[tuple[str, list[str]]] = []
    for banner in dict.fromkeys(banner_of(card) for card in around):
        options.append(
            (banner, [c for _, c in sorted(cells.items(), key=_reading) if banner_of(c) == banner])
        )
    return options


def _reading(item: tuple[Spot, str]) -> tuple[int, int]:
    return item[0][1], item[0][0]


def _group(cells: dict[Spot, str], banner_of: Callable[[str], str], start: Spot) -> list[str]:
    """The orthogonally connected cards sharing the banner of the card at `start`."""
    banner = banner_of(cells[start])
    seen, todo = {start}, [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n in cells and n not in seen and banner_of(cells[n]) == banner:
                seen.add(n)
                todo.append(n)
    return [cells[s] for s in sorted(seen, key=lambda s: (s[1], s[0]))]


def without(square: Square, cards: list[str]) -> Square:
    """The square with `cards` taken away, re-based so its corner is at 0,0."""
    gone = set(cards)
    cells = {s: c for s, c in spots(square).items() if c not in gone}
    if not cells:
        return {}
    dx, dy = min(x for x, _ in cells), min(y for _, y in cells)
    return {key((x - dx, y - dy)): c for (x, y), c in cells.items()}


def refill(square: Square, deck: list[str]) -> tuple[Square, list[str]]:
    """Deal Alkane afresh as at setup: the one card left (if any) on A, then clockwise."""
    left = list(square.values())
    deck = list(deck)
    new: Square = {}
    for spot in LAYOUT:
        source = left if left else deck
        if not source:
            break
        new[key(spot)] = source.pop(0)
    return new, deck
