"""Reconstructed components (no public data exists; every choice is argued in RULES.md)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

COLOURS = ("red", "yellow", "green", "blue")
GODS = ("red", "yellow", "green", "blue", "white")
# The gods' names as the book's construction step gives them ("God of Fire (red)", ...). Its FAQ
# once calls the yellow god "God of Agriculture"; RULES.md says why we keep "Hunting".
GOD_NAMES = {"red": "God of Fire", "yellow": "God of Hunting", "green": "God of Vegetation",
             "blue": "God of Water", "white": "Supreme God"}
SIZE = 8  # the board is 8x8 spaces; its outer ring is level 0
PRIESTS = 10
BOARDS = 4  # four player boards, each slightly different, dealt at random
EFFECTS = ("reuse", "bonus2", "three", "private")

# Tile slots: origin (x, y) of each 2x2 tile, per level.
SLOTS: dict[int, list[tuple[int, int]]] = {
    1: [(1 + 2 * i, 1 + 2 * j) for j in range(3) for i in range(3)],
    2: [(2 + 2 * i, 2 + 2 * j) for j in range(2) for i in range(2)],
    3: [(3, 3)],
}
OFFSETS = ((0, 0), (1, 0), (1, 1), (0, 1))  # a tile's four spaces, clockwise from top-left

# One round per entry: (level, tiles drawn per seat).
ROUNDS = ((1, 3), (1, 3), (1, 3), (2, 2), (2, 2), (3, 2))

# Bonus piece shapes (cell offsets): 2-space dominoes, 3-space straight and L pieces.
SHAPES: dict[int, list[tuple[tuple[int, int], ...]]] = {
    2: [((0, 0), (1, 0)), ((0, 0), (0, 1))],
    3: [
        ((0, 0), (1, 0), (2, 0)),
        ((0, 0), (0, 1), (0, 2)),
        ((0, 0), (1, 0), (0, 1)),
        ((0, 0), (1, 0), (1, 1)),
        ((0, 0), (0, 1), (1, 1)),
        ((1, 0), (0, 1), (1, 1)),
    ],
}


def decoration_tiles() -> list[list[str | None]]:
    """The 52 decoration tiles: 12 with one decoration, 28 with two, 12 with four."""
    tiles: list[list[str | None]] = []
    for colour in COLOURS:
        tiles += [[colour, None, None, None]] * 3
        tiles += [[colour, colour, None, None]] * 4
    for a, b in combinations(COLOURS, 2):
        tiles += [[a, b, None, None]] * 2
        tiles += [[a, a, b, b]] * 2
    return [list(t) for t in tiles]


def special_tiles(kind: str) -> list[dict[str, Any]]:
    """Eight special tiles: single-colour, effect (2 decorations + effect) or mixed."""
    single = [{"faces": [c] * 4, "effect": None} for c in COLOURS for _ in range(2)]
    effect = [
        {"faces": [COLOURS[i % 4], COLOURS[i % 4], None, None], "effect": EFFECTS[i % 4]}
        for i in range(8)
    ]
    if kind == "single":
        return single
    if kind == "effect":
        return effect
    return single[::2] + effect[:4]


def printed(board: int) -> dict[str, str]:
    """A board's 8 printed ring decorations, 2 per colour, shifted one colour per board."""
    spots = [(0, 1), (0, 5), (7, 2), (7, 6), (2, 0), (6, 0), (1, 7), (5, 7)]
    return {f"{x},{y}": COLOURS[(i // 2 + board) % 4] for i, (x, y) in enumerate(spots)}


CELLS = ((2, 3), (3, 2, 2), (4, 3, 2), (3, 3, 2, 2), (4, 3, 3, 2), (4, 4, 3, 2, 2),
         (2, 2), (4, 2, 2), (3, 3, 3, 2), (4, 4, 3, 3, 2))


def blessing_deck(god: str) -> list[dict[str, Any]]:
    """Ten cards of one god, in order: cells (number, bonus symbol), big and small points."""
    deck = []
    for i, numbers in enumerate(CELLS):
        cells = []
        for k, n in enumerate(numbers):
            bonus = 3 if (n == 4 and k == 0) else 2 if (k == len(numbers) - 1 and i % 2) else 0
            cells.append({"n": n, "bonus": bonus})
        minimum = sum(numbers)
        big = minimum // 2 + len(numbers) - (1 if god == "white" else 0)
        deck.append({"id": f"{god}{i}", "god": god, "cells": cells, "min": minimum,
                     "big": big, "small": max(1, big // 3)})
    return deck


def bonus_supply() -> list[dict[str, Any]]:
    """28 two-space pieces (7 per colour) and 24 three-space pieces (6 per colour)."""
    return [{"size": 2, "colour": c} for c in COLOURS for _ in range(7)] + [
        {"size": 3, "colour": c} for c in COLOURS for _ in range(6)
    ]


GOALS = {
    "A": ("longest chain seen from above: 4 points", "most cards won: 4 points",
          "most priests in reserve: 3 points"),
    "B": ("most bonus decorations placed: 4 points", "most white cards won: 4 points",
          "most different gods among won cards: 3 points"),
}
