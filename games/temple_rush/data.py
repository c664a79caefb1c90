"""Component data of Temple Rush: blocks, dice, temple cards (silhouettes), point values.

Found facts and reconstructions are argued in RULES.md. Silhouettes are side views written top
layer first, '#' filled; each card's value equals the fewest blocks that build it in one piece
(blocks join only on top of one another; a test proves it and that one player's 13 blocks
suffice), and a bigger temple is never worth less (book: "The cards have different point values,
depending on the size of the temples"): green 7-10 cells, blue 10-12, red 12-16, brown 16-20.
"""

from __future__ import annotations

from games.temple_rush.geometry import cells_of, mask_of, placements_in

# Block ids 0..12 of every player, smallest first: three 1x1, four 1x2, three 1x3, three 1x4.
BLOCK_SIZES: tuple[int, ...] = (1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4)
BLOCK_COUNTS: tuple[int, int, int, int] = (3, 4, 3, 3)
STAR = 0
DIE_FACES: tuple[int, ...] = (1, 2, 3, 4, STAR, STAR)

COLOURS: tuple[str, ...] = ("green", "blue", "red", "brown")
COLOUR_VALUES: dict[str, int] = {"green": 3, "blue": 4, "red": 5, "brown": 6}
CARDS_PER_COLOUR = 8
LIGHTNING = -1
LIGHTNING_VALUE = 3
POWERS: tuple[str, ...] = ("hammer", "bag", "mortar")
SOLO_POWERS: tuple[str, ...] = ("hammer", "mortar")
ROBOT_BONUS: tuple[int, ...] = (4, 3, 2, 1)

PILE_SIZE = {2: 9, 3: 11, 4: 13}
HOLDERS = {1: 2, 2: 2, 3: 2, 4: 3}

SILHOUETTES: tuple[tuple[str, ...], ...] = (
    # green: worth 3, fewest blocks in one piece 3
    ('.###.', '#####'),
    ('..##..', '######'),
    ('.#.', '###', '###'),
    ('.##.', '.##.', '####'),
    ('.#.', '.#.', '.#.', '###', '###'),
    ('.#.', '.#.', '###', '###'),
    ('.####.', '######'),
    ('.##.', '.##.', '.##.', '####'),
    # blue: worth 4, fewest blocks in one piece 4
    ('..#..', '..#..', '.###.', '#####'),
    ('.#.', '.#.', '###', '###', '###'),
    ('.##.', '.##.', '####', '####'),
    ('..#..', '..#..', '..#..', '.###.', '#####'),
    ('.#.', '###', '###', '###'),
    ('..##..', '..##..', '######'),
    ('..##..', '.####.', '######'),
    ('.###.', '.###.', '#####'),
    # red: worth 5, fewest blocks in one piece 5
    ('..#..', '..#..', '.###.', '.###.', '#####'),
    ('..#..', '..#..', '#####', '#####'),
    ('..##..', '..##..', '.####.', '######'),
    ('.##.', '.##.', '####', '####', '####'),
    ('.####.', '######', '######'),
    ('..##..', '..##..', '..##..', '.####.', '######'),
    ('..#..', '.###.', '.###.', '#####'),
    ('.###.', '#####', '#####'),
    # brown: worth 6, fewest blocks in one piece 6
    ('..##..', '..##..', '######', '######'),
    ('..#..', '#####', '#####', '#####'),
    ('..##..', '.####.', '######', '######'),
    ('..##..', '..##..', '.####.', '.####.', '######'),
    ('.###.', '.###.', '#####', '#####'),
    ('.####.', '.####.', '######', '######'),
    ('..#..', '..#..', '#####', '#####', '#####'),
    ('..##..', '.####.', '.####.', '.####.', '######'),
)

SHAPE_MASKS: tuple[int, ...] = tuple(mask_of(rows) for rows in SILHOUETTES)
SHAPE_PLACEMENTS = tuple(placements_in(mask) for mask in SHAPE_MASKS)
SHAPE_CELLS: tuple[list[list[int]], ...] = tuple(cells_of(mask) for mask in SHAPE_MASKS)


def colour(card: int) -> str:
    return "lightning" if card == LIGHTNING else COLOURS[card // CARDS_PER_COLOUR]


def value(card: int) -> int:
    return LIGHTNING_VALUE if card == LIGHTNING else COLOUR_VALUES[colour(card)]


def card_view(card: int | None) -> dict[str, object] | None:
    """A temple card as a renderer needs it: colour, value and the silhouette as cells."""
    if card is None:
        return None
    if card == LIGHTNING:
        return {"id": card, "colour": "lightning", "value": LIGHTNING_VALUE}
    rows = SILHOUETTES[card]
    return {"id": card, "colour": colour(card), "value": value(card), "rows": list(rows),
            "width": len(rows[0]), "height": len(rows), "cells": SHAPE_CELLS[card]}
