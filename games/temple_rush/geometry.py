"""Grid geometry of temple silhouettes: cells as bits, block placements, and a tiling solver.

A silhouette is a side view: columns x layers, layer 0 at the bottom. A cell (col, row) is bit
`row * STRIDE + col`; column STRIDE - 1 is never part of a shape, so neighbour shifts that wrap
around a row edge land on a cell no shape holds and vanish when masked.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

STRIDE = 8
MAX_WIDTH = STRIDE - 1
MAX_HEIGHT = 7
SIZES = (1, 2, 3, 4)
FLAT, UPRIGHT = "flat", "upright"


def bit(col: int, row: int) -> int:
    return 1 << (row * STRIDE + col)


@lru_cache(maxsize=4096)
def block_mask(size: int, col: int, row: int, direction: str) -> int:
    """Cells of a block: laid flat it runs right along a layer, stood upright it runs up."""
    if direction == FLAT:
        return sum(bit(col + i, row) for i in range(size))
    return sum(bit(col, row + i) for i in range(size))


def cells_of(mask: int) -> list[list[int]]:
    """[[col, row], ...] of a mask, bottom layer first, left to right."""
    return [list(cell) for cell in _cells(mask)]


@lru_cache(maxsize=8192)
def _cells(mask: int) -> tuple[tuple[int, int], ...]:
    out = []
    index = 0
    while mask:
        if mask & 1:
            out.append((index % STRIDE, index // STRIDE))
        mask >>= 1
        index += 1
    return tuple(out)


def mask_of(rows: tuple[str, ...]) -> int:
    """The mask of an ASCII silhouette, written top layer first with '#' for filled cells."""
    mask = 0
    for depth, line in enumerate(rows):
        row = len(rows) - 1 - depth
        for col, char in enumerate(line):
            if char == "#":
                mask |= bit(col, row)
    return mask


def neighbours(mask: int) -> int:
    """Cells edge-adjacent to `mask` (may include guard-column bits; mask them away)."""
    return (mask << 1) | (mask >> 1) | (mask << STRIDE) | (mask >> STRIDE)


def connected(mask: int) -> bool:
    """True when the cells of `mask` form one edge-connected piece (or none at all)."""
    if not mask:
        return True
    seen = mask & -mask
    while True:
        grown = (seen | neighbours(seen)) & mask
        if grown == seen:
            return seen == mask
        seen = grown


@dataclass(frozen=True, slots=True)
class Placement:
    """One way to put one block inside a silhouette."""

    size: int
    col: int
    row: int
    direction: str
    mask: int
    around: int

    def as_move(self) -> dict[str, int | str]:
        return {"size": self.size, "col": self.col, "row": self.row, "dir": self.direction}


def placements_in(shape: int) -> tuple[Placement, ...]:
    """Every block placement lying inside `shape` (a 1x1 only flat, so each is listed once)."""
    out = []
    for size in SIZES:
        for direction in (FLAT, UPRIGHT) if size > 1 else (FLAT,):
            for row in range(MAX_HEIGHT):
                for col in range(MAX_WIDTH):
                    if direction == FLAT and col + size > MAX_WIDTH:
                        continue
                    if direction == UPRIGHT and row + size > MAX_HEIGHT:
                        continue
                    mask = block_mask(size, col, row, direction)
                    if mask & ~shape == 0:
                        out.append(Placement(size, col, row, direction, mask, neighbours(mask)))
    return tuple(out)


def _anchored(cell: int, size: int) -> list[int]:
    """Masks of a block whose lowest cell is bit `cell` (flat goes right, upright goes up)."""
    col, row = cell % STRIDE, cell // STRIDE
    out = []
    if col + size <= MAX_WIDTH:
        out.append(block_mask(size, col, row, FLAT))
    if size > 1 and row + size <= MAX_HEIGHT:
        out.append(block_mask(size, col, row, UPRIGHT))
    return out


_ANCHORED = {(cell, size): _anchored(cell, size)
             for cell in range(STRIDE * MAX_HEIGHT) for size in SIZES}


@lru_cache(maxsize=200_000)
def tileable(region: int, counts: tuple[int, int, int, int]) -> bool:
    """Whether `region` can be exactly covered by blocks, at most counts[s-1] of size s."""
    if not region:
        return True
    cell = (region & -region).bit_length() - 1
    for size in SIZES:
        if not counts[size - 1]:
            continue
        rest = list(counts)
        rest[size - 1] -= 1
        for mask in _ANCHORED[(cell, size)]:
            if mask & region == mask and tileable(region & ~mask, tuple(rest)):
                return True
    return False


def tiling(region: int, counts: tuple[int, int, int, int]) -> list[tuple[int, int]] | None:
    """One tiling of `region` as (size, mask) pairs, larger blocks tried first; None if none."""
    if not region:
        return []
    cell = (region & -region).bit_length() - 1
    for size in sorted(SIZES, reverse=True):
        if not counts[size - 1]:
            continue
        rest = list(counts)
        rest[size - 1] -= 1
        for mask in _ANCHORED[(cell, size)]:
            if mask & region == mask and tileable(region & ~mask, tuple(rest)):
                return [(size, mask), *(tiling(region & ~mask, tuple(rest)) or [])]
    return None


@lru_cache(maxsize=20_000)
def fewest_blocks(region: int, counts: tuple[int, int, int, int]) -> int | None:
    """The fewest blocks that tile `region` within `counts`; None when it cannot be tiled."""
    if not region:
        return 0
    cell = (region & -region).bit_length() - 1
    best = None
    for size in SIZES:
        if not counts[size - 1]:
            continue
        rest = list(counts)
        rest[size - 1] -= 1
        for mask in _ANCHORED[(cell, size)]:
            if mask & region != mask:
                continue
            sub = fewest_blocks(region & ~mask, tuple(rest))
            if sub is not None and (best is None or sub + 1 < best):
                best = sub + 1
    return best
