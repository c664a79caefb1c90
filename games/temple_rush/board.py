"""A player's blocks: supply, build zones and bonus area, and the moves of blocks between them.

Every player owns blocks 0..12 (sizes in `BLOCK_SIZES`); each sits in exactly one place: the
supply, a build zone, the bonus area, or a lightning build. Helpers here mutate the player dict
they are given; the rules module hands them its own fresh copy.
"""

from __future__ import annotations

from typing import Any

from games.temple_rush.data import BLOCK_SIZES
from games.temple_rush.geometry import block_mask, cells_of, one_piece

Block = dict[str, Any]
Player = dict[str, Any]


def new_block(block_id: int, col: int, row: int, direction: str) -> Block:
    return {"id": block_id, "size": BLOCK_SIZES[block_id], "col": col, "row": row,
            "dir": direction}


def mask(block: Block) -> int:
    return block_mask(block["size"], block["col"], block["row"], block["dir"])


def zone_mask(blocks: list[Block]) -> int:
    out = 0
    for block in blocks:
        out |= mask(block)
    return out


def block_view(block: Block) -> dict[str, Any]:
    """A placed block for renderers: its id, size, position and the cells it covers."""
    return {**block, "cells": cells_of(mask(block))}


def supply_counts(ids: list[int]) -> tuple[int, int, int, int]:
    """How many blocks of each size (1..4) are among `ids`."""
    counts = [0, 0, 0, 0]
    for block_id in ids:
        counts[BLOCK_SIZES[block_id] - 1] += 1
    return counts[0], counts[1], counts[2], counts[3]


def supply_sizes(player: Player) -> set[int]:
    return {BLOCK_SIZES[i] for i in player["supply"]}


def take(player: Player, size: int) -> int:
    """Remove the lowest-numbered supply block of `size` and return its id."""
    block_id = next(i for i in player["supply"] if BLOCK_SIZES[i] == size)
    player["supply"].remove(block_id)
    return block_id


def give_back(player: Player, block_ids: list[int]) -> None:
    player["supply"] = sorted(player["supply"] + block_ids)


def intact_without(player: Player, zone: int, block_id: int) -> bool:
    """Whether a construction stays in one piece once `block_id` leaves it (Mortar excuses)."""
    rest = [mask(b) for b in player["zones"][zone] if b["id"] != block_id]
    return player["mortar_zone"] == zone or one_piece(rest)


def remove_from_zone(player: Player, zone: int, block_id: int) -> Block:
    blocks = player["zones"][zone]
    block = next(b for b in blocks if b["id"] == block_id)
    blocks.remove(block)
    return block


def clear_zone(player: Player, zone: int) -> None:
    """Every block of a construction goes back to the supply."""
    give_back(player, [b["id"] for b in player["zones"][zone]])
    player["zones"][zone] = []


def bank_completed(player: Player, zone: int, block_id: int | None) -> int | None:
    """After a completed temple: the chosen block goes to the bonus area (None: every size of
    the temple is banked already), the rest back to the supply. Returns the banked size."""
    size = None
    if block_id is not None:
        size = remove_from_zone(player, zone, block_id)["size"]
        player["bonus"] = sorted([*player["bonus"], block_id])
    clear_zone(player, zone)
    return_held(player, zone)
    if player["mortar_zone"] == zone:
        player["mortar_zone"] = None
        player["powers"]["mortar"] = "used"
    return size


def hold(player: Player, zone: int) -> None:
    """Another player won the card this construction was for: its blocks come off the board and
    are held, to be rebuilt into the new card's temple (or returned) by the player's own moves."""
    held = player.setdefault("held", [[] for _ in player["zones"]])
    held[zone] = sorted(held[zone] + [b["id"] for b in player["zones"][zone]])
    player["zones"][zone] = []


def return_held(player: Player, zone: int) -> int:
    """Held blocks of a zone go back to the supply; returns how many."""
    held = player.get("held") or []
    if zone >= len(held) or not held[zone]:
        return 0
    count = len(held[zone])
    give_back(player, held[zone])
    held[zone] = []
    return count


def all_block_ids(player: Player) -> list[int]:
    """Every block id the player holds anywhere except a lightning build (for checks)."""
    zoned = [b["id"] for blocks in player["zones"] for b in blocks]
    held = [i for ids in player.get("held") or [] for i in ids]
    return sorted(player["supply"] + player["bonus"] + zoned + held)
