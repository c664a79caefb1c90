"""The Robot of solo play: it builds inside `apply`, never as a seat.

Its own rules (book, solo play): it need not connect its blocks "until the Robot can build the
entire temple"; if the die's block is of no use it may take one a size bigger or smaller, else it
passes; after each temple it banks a fixed block (1x4, 1x3, 1x2, 1x1, then none). "Of use" here
means the block fits the silhouette and the rest of the temple can still be built from the
Robot's supply so that the finished temple is in one piece (loose blocks are allowed only on the
way there); among those it takes the largest block and the lowest, leftmost spot, which brings it
closest to completion.
"""

from __future__ import annotations

from typing import Any

from games.protocol import Event
from games.temple_rush.board import give_back, mask, new_block, supply_counts, take, zone_mask
from games.temple_rush.data import BLOCK_SIZES, ROBOT_BONUS, SHAPE_MASKS, SHAPE_PLACEMENTS, STAR
from games.temple_rush.geometry import SIZES, Placement, buildable

Robot = dict[str, Any]


def new_robot(deck: list[int]) -> Robot:
    return {"deck": deck[1:], "holder": deck[0], "zone": [], "supply": list(range(13)),
            "bonus": [], "cards": [], "die": None}


def robot_done(robot: Robot) -> bool:
    """The Robot has no temple left to build."""
    return robot["holder"] is None and not robot["deck"]


def size_options(die: int) -> list[list[int]]:
    """The sizes the Robot tries, in order: the die's (any for a star), then one up or down."""
    if die == STAR:
        return [sorted(SIZES, reverse=True)]
    return [[die], [s for s in (die + 1, die - 1) if s in SIZES]]


def best_spot(robot: Robot, sizes: list[int]) -> Placement | None:
    """The largest useful block among `sizes` in its lowest, leftmost useful spot: one that
    leaves the temple finishable from the supply into one piece with the blocks laid so far (the
    Robot may leave its blocks unconnected only "until the Robot can build the entire temple")."""
    card = robot["holder"]
    shape = SHAPE_MASKS[card]
    filled = zone_mask(robot["zone"])
    laid = tuple(mask(b) for b in robot["zone"])
    counts = supply_counts(robot["supply"])
    for size in sorted(sizes, reverse=True):
        if not counts[size - 1]:
            continue
        rest = list(counts)
        rest[size - 1] -= 1
        for spot in SHAPE_PLACEMENTS[card]:
            if spot.size == size and not spot.mask & filled and buildable(
                (*laid, spot.mask), shape & ~filled & ~spot.mask,
                (rest[0], rest[1], rest[2], rest[3]),
            ):
                return spot
    return None


def robot_turn(robot: Robot) -> list[Event]:
    """The Robot places its block for this round (mutates `robot`, a fresh copy)."""
    if robot["holder"] is None:
        return []
    for sizes in size_options(robot["die"]):
        spot = best_spot(robot, sizes)
        if spot is not None:
            block_id = take(robot, spot.size)
            robot["zone"].append(new_block(block_id, spot.col, spot.row, spot.direction))
            events = [Event(f"The Robot places a 1x{spot.size} block.",
                            data={"robot": True, **spot.as_move()})]
            if zone_mask(robot["zone"]) == SHAPE_MASKS[robot["holder"]]:
                events += _complete(robot)
            return events
    return [Event("The Robot cannot use its block and passes.", data={"robot": True})]


def _complete(robot: Robot) -> list[Event]:
    """The Robot wins its card, banks its fixed bonus block and turns up its next card."""
    card = robot["holder"]
    robot["cards"].append(card)
    give_back(robot, [b["id"] for b in robot["zone"]])
    robot["zone"] = []
    done = len(robot["cards"])
    text = f"The Robot completes its temple and wins card {card}"
    if done <= len(ROBOT_BONUS):
        size = ROBOT_BONUS[done - 1]
        if any(BLOCK_SIZES[i] == size for i in robot["supply"]):
            robot["bonus"] = sorted([*robot["bonus"], take(robot, size)])
            text += f", banking a 1x{size} block"
    robot["holder"] = robot["deck"].pop(0) if robot["deck"] else None
    return [Event(text + ".", data={"robot": True, "card": card})]
