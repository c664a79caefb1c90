"""A pyramid seen from above: the topmost space wins, chains are same-colour orthogonal groups."""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import Any

import orjson

from games.temple_of_five.data import OFFSETS, SIZE, SLOTS

Top = dict[tuple[int, int], tuple[int, str | None]]
Space = tuple[int, str | None]
_BOARD = [(x, y) for x in range(SIZE) for y in range(SIZE)]
# The view from above is painted on a flat list, index x * SIZE + y (the order of _BOARD): these
# tables turn a printed key, a tile slot, a board row and a space's neighbours into indices once,
# at import.
_INDEX = {f"{x},{y}": x * SIZE + y for x, y in _BOARD}
_TILE_INDICES = {level: [tuple((x0 + dx) * SIZE + y0 + dy for dx, dy in OFFSETS)
                         for x0, y0 in origins] for level, origins in SLOTS.items()}
_ROWS = [range(y, SIZE * SIZE, SIZE) for y in range(SIZE)]
_NEIGHBOURS = [[(x + dx) * SIZE + y + dy for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE] for x, y in _BOARD]
_level = itemgetter("level")
_EMPTY: Space = (0, None)


def top(seat: dict[str, Any]) -> Top:
    """(level, colour or None) of the topmost space at every spot of the 8x8 board.

    Unbuilt spots read as level 0 with no decoration; whether a bonus piece may go there is
    the rules' question (not on a tile slot still to be built, see RULES.md).
    """
    return dict(zip(_BOARD, _painted(seat), strict=True))


def _painted(seat: dict[str, Any]) -> list[Space]:
    """The view from above as a flat list (see _INDEX): the printed ring, then level by level
    the tiles and, over them, that level's bonus pieces (a stable sort keeps list order)."""
    out = [_EMPTY] * (SIZE * SIZE)
    for key, colour in seat["printed"].items():
        out[_INDEX[key]] = (0, colour)
    for item in sorted([*seat["tiles"], *seat["bonuses"]], key=_level):
        level = item["level"]
        if "slot" in item:
            for i, colour in zip(_TILE_INDICES[level][item["slot"]], item["faces"], strict=True):
                out[i] = (level, colour)
        else:
            space = (level, item["colour"])
            for x, y in item["cells"]:
                out[x * SIZE + y] = space
    return out


def _fingerprint(seat: dict[str, Any]) -> bytes:
    """The exact JSON of what drawing a board reads: the key of the memos below."""
    return orjson.dumps([seat["printed"], seat["tiles"], seat["bonuses"]])


def top_rows(seat: dict[str, Any]) -> tuple[tuple[Space, ...], ...]:
    """The view from above as rows of (level, colour), colour None on an empty space.

    Every seat's board goes into every viewer's view, so one move draws each board once per
    viewer: a small memo keyed by the exact JSON of what the drawing reads draws it once.
    The result is immutable and shared; a view copies it out as JSON lists.
    """
    return _top_rows(_fingerprint(seat))


def _drawn(fingerprint: bytes) -> list[Space]:
    """`_painted` of the board a `_fingerprint` names."""
    printed, tiles, bonuses = orjson.loads(fingerprint)
    return _painted({"printed": printed, "tiles": tiles, "bonuses": bonuses})


@lru_cache(maxsize=256)
def _top_rows(fingerprint: bytes) -> tuple[tuple[Space, ...], ...]:
    spaces = _drawn(fingerprint)
    return tuple(tuple(spaces[i] for i in row) for row in _ROWS)


Chain = tuple[frozenset[tuple[int, int]], str]


def chains(seat: dict[str, Any]) -> tuple[Chain, ...]:
    """Every chain: 2+ same-colour spaces orthogonally adjacent as seen from above.

    Legal moves, priests and the bots' evaluation ask this of the same boards again and again
    (most moves change one board): memoised like `top_rows`, immutable and shared.
    """
    return _chains(_fingerprint(seat))


@lru_cache(maxsize=1024)
def _chains(fingerprint: bytes) -> tuple[Chain, ...]:
    colours = [colour for _, colour in _drawn(fingerprint)]
    seen: set[int] = set()
    out = []
    for start, colour in enumerate(colours):
        if colour is None or start in seen:
            continue
        group, stack = {start}, [start]
        while stack:
            for n in _NEIGHBOURS[stack.pop()]:
                if n not in group and colours[n] == colour:
                    group.add(n)
                    stack.append(n)
        seen |= group
        if len(group) >= 2:
            out.append((frozenset(_BOARD[i] for i in group), colour))
    return tuple(out)


def chain_at(seat: dict[str, Any], x: int, y: int) -> frozenset[tuple[int, int]]:
    for cells, _ in chains(seat):
        if (x, y) in cells:
            return cells
    return frozenset()


def free_slots(seat: dict[str, Any], level: int) -> list[int]:
    taken = {t["slot"] for t in seat["tiles"] if t["level"] == level}
    return [s for s in range(len(SLOTS[level])) if s not in taken]
