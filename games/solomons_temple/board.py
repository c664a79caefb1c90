"""Army geometry on one player's 5x5 board: row 0 outside the north wall, row 1 the wall with
gates at columns 0, 2, 4, rows 2-3 the city, row 4 the Temple at columns 1-3."""

from __future__ import annotations

from games.solomons_temple.data import COLS, GATES, ROWS, TEMPLE_CELLS

DIRS = {"n": (-1, 0), "s": (1, 0), "w": (0, -1), "e": (0, 1)}
"""North is row 0, outside the wall, where the attacker comes from."""


def passable(cell: tuple[int, int], guarded: list[bool]) -> bool:
    """Whether an army may stand on `cell` (wall only at open gates, never on the Temple)."""
    r, c = cell
    if not (0 <= r < ROWS and 0 <= c < COLS):
        return False
    if r == 1:
        return c in GATES and not guarded[GATES.index(c)]
    return (r, c) not in TEMPLE_CELLS


def next_to(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def next_to_temple(cell: tuple[int, int]) -> bool:
    return any(next_to(cell, t) for t in TEMPLE_CELLS)


def inside(cell: tuple[int, int]) -> bool:
    """Inside the city walls (rows 2 to 4)."""
    return cell[0] >= 2


def square_name(cell: tuple[int, int]) -> str:
    """The one name of a space, used by the log and the browser alike."""
    r, c = cell
    if r == 0:
        return f"outside the wall, column {c + 1}"
    if r == 1:
        return f"gate {GATES.index(c) + 1}" if c in GATES else f"the wall, column {c + 1}"
    if r == 4:
        return f"beside the Temple, column {c + 1}"
    return f"in the city, row {r - 1}, column {c + 1}"
