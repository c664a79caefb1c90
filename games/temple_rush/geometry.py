"""Grid geometry of temple silhouettes: cells as bits, block placements, how blocks join, and
the solvers (tilings, and tilings that make one piece).

A silhouette is a side view: columns x layers, layer 0 at the bottom. A cell (col, row) is bit
`row * STRIDE + col`; column STRIDE - 1 is never part of a shape, so a placement never wraps
around a row edge. Blocks join only on top of one another (`contacts`), see RULES.md.
"""

from __future__ import annotations

from collections.abc import Iterator
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


def contacts(mask: int) -> int:
    """The cells directly above and below `mask`: the only way one block joins another.

    The bricks interlock on top and bottom; blocks lying side by side "do not immediately
    connect" (the book's Mortar example). See RULES.md, "How blocks connect"."""
    return (mask << STRIDE) | (mask >> STRIDE)


def one_piece(masks: tuple[int, ...] | list[int]) -> bool:
    """True when the blocks `masks` are joined into one figure (or there are none)."""
    if len(masks) <= 1:
        return True
    reach, rest = masks[0], list(masks[1:])
    while rest:
        touch = contacts(reach)
        joined = [m for m in rest if m & touch]
        if not joined:
            return False
        for m in joined:
            reach |= m
        rest = [m for m in rest if not m & touch]
    return True


def pieces(masks: list[int]) -> list[int]:
    """The separate figures the blocks `masks` make, each the union of its blocks' cells."""
    out: list[int] = []
    for mask in masks:
        around, joined, apart = contacts(mask), mask, []
        for piece in out:
            if piece & around:
                joined |= piece
            else:
                apart.append(piece)
        out = [*apart, joined]
    return out


def joins_all(figures: list[int], mask: int) -> bool:
    """Whether a block `mask` added to the figures of `pieces` leaves one piece: it must touch
    each of them. `one_piece` of the blocks plus this one, when many blocks are tried on the
    same figures (contacts are symmetric, so touching a figure is touching one of its blocks)."""
    around = contacts(mask)
    return all(piece & around for piece in figures)


@dataclass(frozen=True, slots=True)
class Placement:
    """One way to put one block inside a silhouette."""

    size: int
    col: int
    row: int
    direction: str
    mask: int
    around: int  # contacts(mask): where the block joins others

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
                        out.append(Placement(size, col, row, direction, mask, contacts(mask)))
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


def tilings(region: int, counts: tuple[int, int, int, int]) -> Iterator[tuple[int, ...]]:
    """Every tiling of `region` within `counts`, as block masks, larger blocks tried first."""
    if not region:
        yield ()
        return
    for mask, left in _first_blocks(region, counts):
        for more in tilings(region & ~mask, left):
            yield (mask, *more)


def _first_blocks(region: int, counts: tuple[int, int, int, int]
                  ) -> Iterator[tuple[int, tuple[int, int, int, int]]]:
    """Each block within `counts` that covers the lowest cell of `region` and leaves a tileable
    rest, larger blocks first, with the counts left after it: the one step both `tilings` and
    `_join` take, so that they try blocks in the same order."""
    cell = (region & -region).bit_length() - 1
    for size in sorted(SIZES, reverse=True):
        if not counts[size - 1]:
            continue
        rest = list(counts)
        rest[size - 1] -= 1
        left = (rest[0], rest[1], rest[2], rest[3])
        for mask in _ANCHORED[(cell, size)]:
            if mask & region == mask and tileable(region & ~mask, left):
                yield mask, left


@lru_cache(maxsize=200_000)
def fewest_tiles(region: int, counts: tuple[int, int, int, int]) -> int | None:
    """The fewest blocks within `counts` that exactly cover `region`, joined or not; None if
    none do. (What a construction still needs at one block a round, for the bots' estimate.)"""
    if not region:
        return 0
    rests = [fewest_tiles(region & ~mask, left) for mask, left in _first_blocks(region, counts)]
    found = [n for n in rests if n is not None]
    return 1 + min(found) if found else None


@lru_cache(maxsize=100_000)
def joined_tiling(build: tuple[int, ...], region: int,
                  counts: tuple[int, int, int, int]) -> tuple[int, ...] | None:
    """Blocks within `counts` that fill `region` and join the blocks `build` (sorted) into one
    figure; None if there are none. With such blocks the figure can also be *built* block by
    block, each joining what is there: lay them in the order they are reached from `build`."""
    for laid in tilings(region, counts):
        if one_piece(build + laid):
            return laid
    return None


def buildable(build: tuple[int, ...], region: int, counts: tuple[int, int, int, int]) -> bool:
    """Whether `region` can still be filled from `counts` into one figure with `build` (the same
    answer as `joined_tiling(...) is not None`, found without listing every tiling)."""
    return tileable(region, counts) and _joinable(tuple(sorted(build)), region, counts)


@lru_cache(maxsize=100_000)
def _joinable(build: tuple[int, ...], region: int, counts: tuple[int, int, int, int]) -> bool:
    """Depth-first tiling, lowest cell first, that gives up on a branch as soon as a figure can
    no longer be joined: a figure touching no empty cell (above or below) stays apart for good.
    (A wrong build has many tilings, none joined: listing them all, as `joined_tiling` does,
    took seconds.)"""
    return _join(list(build), region, counts)


def _join(blocks: list[int], region: int, counts: tuple[int, int, int, int]) -> bool:
    if not region:
        return one_piece(blocks)
    if any(not contacts(figure) & region for figure in pieces(blocks)):
        return False
    return any(_join([*blocks, mask], region & ~mask, left)
               for mask, left in _first_blocks(region, counts))


def fewest_blocks(region: int, counts: tuple[int, int, int, int]) -> int | None:
    """The fewest blocks that build `region` in one piece within `counts`; None if none do."""
    return min((len(laid) for laid in tilings(region, counts) if one_piece(laid)), default=None)
