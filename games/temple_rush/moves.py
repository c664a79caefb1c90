"""Legal move generation: placements in the build rounds, the Bag, and the lightning race.

Move shapes (all small JSON dicts):
    {"type": "place", "zone", "size", "col", "row", "dir"}   the die's block, from the supply
        + {"from_zone", "block"}   that block moved from another construction (none in supply)
        + {"power": "hammer"}      a block of another size than the die shows
        + {"power": "mortar"}      a loose block: activates Mortar on that zone
        + {"power": "hammer+mortar"}   both: a loose block of another size
    {"type": "exchange", "zone", "block"}     a building mistake (offered only in a construction
                                            that can no longer become its card's temple): the
                                            block goes back to the supply; the seat's next (and
                                            last) move this round is a `place` in that zone
    {"type": "bag", "zone", "seat", "from_zone"}   complete a zone with another's top two
                                                   blocks (a completion: the seat's round ends)
    {"type": "chisel", "zone", "block"}     Hammer & Chisel on a placed block: it goes back to the
                                            supply; the seat's next move is a `place` in that
                                            zone of a block of another size, anywhere it fits (a
                                            free action, unless that block completes the temple)
    {"type": "bonus", "zone", "block"}      after completing a temple: the block (one per size
                                            the bonus area lacks) that goes to the bonus area
    {"type": "rebuild", "zone", "size", "col", "row", "dir"}   one held block into the new
                                            temple after another player won the old card (phase
                                            "rebuild", right after the win, before the next dice)
    {"type": "return", "zone"}              the remaining held blocks back to the supply
    {"type": "pass"}                        only when the die's block cannot go anywhere
    {"type": "race", "size", "col", "row", "dir"}   one block of the lightning build
    {"type": "withdraw"}                             leave the lightning race
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from games.protocol import Move
from games.temple_rush.board import (
    Block,
    Player,
    intact_without,
    mask,
    supply_counts,
    supply_sizes,
    zone_mask,
)
from games.temple_rush.data import BLOCK_SIZES, SHAPE_MASKS, SHAPE_PLACEMENTS, STAR
from games.temple_rush.geometry import (
    SIZES,
    UPRIGHT,
    Placement,
    buildable,
    joined_tiling,
    joins_all,
    pieces,
    tileable,
    tilings,
)

PASS: Move = {"type": "pass"}
HAMMER_MORTAR = "hammer+mortar"
WITHDRAW: Move = {"type": "withdraw"}


def build_moves(state: dict[str, Any], seat: int) -> list[Move]:
    """Everything `seat` may do in a build round: place, take back, use a power, or pass."""
    choosing = bonus_moves(state, seat)
    if choosing:
        return choosing
    player = state["seats"][seat]
    if player.get("swap"):
        return replacement_moves(state, seat)
    closed = closed_zones(state, seat)
    allowed = _die_sizes(state, seat)
    moves: list[Move] = []
    for zone, card in enumerate(state["holders"]):
        if card is not None and zone not in closed:
            moves += _placements(player, zone, card, allowed, closed)
    may_pass = not any(_uses_the_die(move) for move in moves)
    moves += swap_moves(state, seat, "exchange")
    moves += chisel_moves(state, seat)
    moves += bag_moves(state, seat)
    if may_pass:
        moves.append(dict(PASS))
    return moves


def _uses_the_die(move: Move) -> bool:
    """A placement of the die's block from the supply: while one exists, passing is not allowed
    (the book: players pass when they cannot use their block)."""
    return "power" not in move and "from_zone" not in move


def candidates(state: dict[str, Any], seat: int, move: Move) -> list[Move]:
    """The legal moves of `move`'s kind (and zone), enough to judge it without listing all."""
    kind = move["type"]
    if kind in ("race", "withdraw"):
        return race_moves(state, seat) if state["phase"] == "lightning" else []
    if state["phase"] == "rebuild":
        return [m for m in rebuild_moves(state, seat) if m["type"] == kind]
    if state["phase"] != "build" or kind in ("rebuild", "return"):
        return []
    choosing = bonus_moves(state, seat)
    if choosing or kind == "bonus":
        return choosing
    if state["seats"][seat].get("swap"):
        return replacement_moves(state, seat) if kind == "place" else []
    closed = closed_zones(state, seat)
    if kind == "place":
        zone = move["zone"]
        card = state["holders"][zone] if 0 <= zone < len(state["holders"]) else None
        if card is None or zone in closed:
            return []
        return _placements(state["seats"][seat], zone, card, _die_sizes(state, seat), closed)
    if kind in ("exchange", "chisel"):
        return swap_moves(state, seat, kind)
    if kind == "bag":
        return bag_moves(state, seat)
    return [m for m in build_moves(state, seat) if m["type"] == "pass"]


def rebuild_moves(state: dict[str, Any], seat: int) -> list[Move]:
    """A seat's moves in the rebuild phase: the bonus block of a temple its rebuild completed,
    else its rebuilding."""
    return bonus_moves(state, seat) or relay_moves(state, seat)


def rebuilders(state: dict[str, Any]) -> frozenset[int]:
    """Seats with something to do before the next dice: blocks held from a card another player
    won (book: they "may now rebuild"), or the bonus choice of a temple a rebuild completed."""
    return frozenset(s for s in range(state["players"]) if rebuild_moves(state, s))


def relay_moves(state: dict[str, Any], seat: int) -> list[Move]:
    """Rebuilding after another player won the card a construction was for: one held block at a
    time into the new temple (`rebuild`), or the rest back to the supply (`return`), for the
    first zone with held blocks that is open."""
    player = state["seats"][seat]
    closed = closed_zones(state, seat)
    for zone, held in enumerate(player.get("held") or []):
        card = state["holders"][zone]
        if held and card is not None and zone not in closed:
            spots = relay_spots(player, zone, card)
            return [*({"type": "rebuild", "zone": zone, **spot.as_move()} for spot in spots),
                    {"type": "return", "zone": zone}]
    return []


def relay_spots(player: Player, zone: int, card: int) -> Iterator[Placement]:
    """Where a held block may go in the new temple: inside it on free cells, connected to the
    blocks rebuilt so far (any spot for the first one; Mortar excuses)."""
    sizes = {BLOCK_SIZES[i] for i in player["held"][zone]}
    filled = zone_mask(player["zones"][zone])
    loose_ok = player["mortar_zone"] == zone or not filled
    for spot in SHAPE_PLACEMENTS[card]:
        if spot.size in sizes and not spot.mask & filled and (loose_ok or spot.around & filled):
            yield spot


def bonus_choices(player: Player, zone: int) -> list[Block]:
    """One block per size of a completed construction that the bonus area still lacks."""
    banked = {BLOCK_SIZES[i] for i in player["bonus"]}
    found: dict[int, Block] = {}
    for block in sorted(player["zones"][zone], key=lambda b: b["id"]):
        if block["size"] not in banked:
            found.setdefault(block["size"], block)
    return [found[size] for size in sorted(found)]


def bonus_moves(state: dict[str, Any], seat: int) -> list[Move]:
    """The bonus block still to be chosen for a temple `seat` completed this round."""
    for done in state["completions"]:
        if done["seat"] == seat and done.get("bonus", -1) is None:
            blocks = bonus_choices(state["seats"][seat], done["zone"])
            return [{"type": "bonus", "zone": done["zone"], "block": b["id"]} for b in blocks]
    return []


def completed_zones(state: dict[str, Any], seat: int) -> set[int]:
    """Zones `seat` completed this round: they wait, untouchable, for the round to resolve."""
    return {done["zone"] for done in state["completions"] if done["seat"] == seat}


def lent_zones(state: dict[str, Any], seat: int) -> set[int]:
    """Zones of `seat` whose top two blocks another player's Bag borrowed this round: those
    blocks are away until the round ends, so the construction cannot be touched meanwhile."""
    return {done["lent"]["zone"] for done in state["completions"]
            if done.get("lent") and done["lent"]["seat"] == seat}


def closed_zones(state: dict[str, Any], seat: int) -> set[int]:
    return completed_zones(state, seat) | lent_zones(state, seat)


def _die_sizes(state: dict[str, Any], seat: int) -> set[int]:
    die = state["dice"][seat]
    return set(SIZES) if die == STAR else {die}


def _placements(player: Player, zone: int, card: int, allowed: set[int],
                closed: set[int]) -> list[Move]:
    in_supply = supply_sizes(player)
    # FAQ: a block may come from another construction only when the die's block is not in the
    # supply; a star shows any block, so only an empty supply lacks it.
    missing = allowed - in_supply if len(allowed) == 1 or not in_supply else set()
    sources = _sources(player, zone, missing, closed)
    hammer = player["powers"].get("hammer") == "unused"
    mortar_free = player["powers"].get("mortar") == "unused"
    loose_ok = player["mortar_zone"] == zone
    filled = zone_mask(player["zones"][zone])
    moves: list[Move] = []
    for size in SIZES:
        if size in allowed and (size in in_supply or size in missing):
            how = "die" if size in in_supply else "move"
        elif hammer and size in in_supply:
            how = "hammer"
        else:
            continue
        for spot, base in _spot_moves(card, zone, size):
            if spot.mask & filled:
                continue
            loose = bool(filled) and not spot.around & filled and not loose_ok
            if loose and not mortar_free:
                continue
            if how == "hammer":  # the tokens combine: "at any given time", each once
                moves.append({**base, "power": HAMMER_MORTAR if loose else "hammer"})
                continue
            if loose:
                base = {**base, "power": "mortar"}
            if how == "die":
                moves.append(dict(base))
            else:
                moves += [{**base, "from_zone": z, "block": b} for z, b in sources[size]]
    return moves


@lru_cache(maxsize=1024)
def _spot_moves(card: int, zone: int, size: int) -> tuple[tuple[Placement, Move], ...]:
    """Every placement of a `size` block on `card`, with its place move (copied before use)."""
    return tuple((spot, {"type": "place", "zone": zone, **spot.as_move()})
                 for spot in SHAPE_PLACEMENTS[card] if spot.size == size)


def _sources(player: Player, target: int, sizes: set[int],
             closed: set[int]) -> dict[int, list[tuple[int, int]]]:
    """Blocks of the die's size, missing from the supply, that another construction can spare."""
    found: dict[int, list[tuple[int, int]]] = {size: [] for size in sizes}
    if not found:
        return found
    for zone, blocks in enumerate(player["zones"]):
        if zone == target or zone in closed:
            continue
        for block in blocks:
            if block["size"] in found and intact_without(player, zone, block["id"]):
                found[block["size"]].append((zone, block["id"]))
    return found


def swap_moves(state: dict[str, Any], seat: int, kind: str) -> list[Move]:
    """First step of a swap, `chisel` (Hammer & Chisel) or `exchange` (a building mistake): a
    placed block that can leave its construction because some supply block (for the chisel, of
    another size) can take its place there (see `replacements`). An exchange only in a
    construction built wrong, for a block whose exchange corrects it (see `mistakes`)."""
    if kind == "exchange":
        return mistakes(state, seat)
    player = state["seats"][seat]
    if player["powers"].get("hammer") != "unused":
        return []
    closed = closed_zones(state, seat)
    in_supply = supply_sizes(player)
    moves: list[Move] = []
    for zone, card in enumerate(state["holders"]):
        if card is None or zone in closed:
            continue
        blocks = player["zones"][zone]
        masks = [mask(b) for b in blocks]
        for i, block in enumerate(blocks):
            rest = masks[:i] + masks[i + 1:]
            sizes = in_supply - {block["size"]}
            if next(replacements(player, zone, card, rest, sizes, _where(block)), None) is not None:
                moves.append({"type": kind, "zone": zone, "block": block["id"]})
    return moves


def building_counts(player: Player) -> list[int]:
    """Blocks per size (1..4) a player builds with: the supply. Blocks in other constructions are
    spoken for (and may be waiting there for the very block this one lacks), the bonus area
    never comes back; so a temple that cannot be finished from the supply is stuck."""
    return list(supply_counts(player["supply"]))


def completable(player: Player, zone: int, card: int, masks: list[int],
                counts: list[int]) -> bool:
    """Whether a construction of blocks `masks` can still become the card's temple from blocks
    `counts` (in one piece; in any pieces where Mortar is active). False for a block outside the
    figure: the book's "built incorrectly" is a build that is not (and cannot become) the card's."""
    filled = 0
    for block_mask in masks:
        filled |= block_mask
    shape = SHAPE_MASKS[card]
    if filled & ~shape or min(counts) < 0:
        return False
    region = shape & ~filled
    left = (counts[0], counts[1], counts[2], counts[3])
    if player["mortar_zone"] == zone:
        return tileable(region, left)
    return buildable(tuple(masks), region, left)


def _after(counts: list[int], back: int | None, used: int) -> list[int]:
    """`counts` with a block of size `back` returned (None: none) and one of size `used` laid."""
    out = list(counts)
    if back is not None:
        out[back - 1] += 1
    out[used - 1] -= 1
    return out


def mistakes(state: dict[str, Any], seat: int) -> list[Move]:
    """Exchanges (book: "If players discover that a temple has been built incorrectly, they may
    use their turn to correct the build by exchanging one incorrect building block with one
    correct building block"): only in a construction that can no longer become its card's
    temple, and only for a block some supply block can replace so that it can again. When no
    single exchange corrects it, any block with a replacement (one exchange a turn, as at the
    table, until it is right)."""
    player = state["seats"][seat]
    closed = closed_zones(state, seat)
    in_supply = supply_sizes(player)
    moves: list[Move] = []
    for zone, card in enumerate(state["holders"]):
        blocks = player["zones"][zone]
        if card is None or zone in closed or not blocks:
            continue
        counts = building_counts(player)
        masks = [mask(b) for b in blocks]
        if completable(player, zone, card, masks, counts):
            continue
        fixing, any_spot = [], []
        for i, block in enumerate(blocks):
            rest = masks[:i] + masks[i + 1:]
            spots = list(replacements(player, zone, card, rest, in_supply | {block["size"]},
                                      _where(block)))
            move = {"type": "exchange", "zone": zone, "block": block["id"]}
            if spots:
                any_spot.append(move)
            if any(completable(player, zone, card, [*rest, spot.mask],
                               _after(counts, block["size"], spot.size)) for spot in spots):
                fixing.append(move)
        moves += fixing or any_spot
    return moves


def chisel_moves(state: dict[str, Any], seat: int) -> list[Move]:
    return swap_moves(state, seat, "chisel")


def _where(block: Block) -> tuple[int, int, int, str]:
    return block["size"], block["col"], block["row"], block["dir"]


def replacements(player: Player, zone: int, card: int, rest: list[int], sizes: set[int],
                 old: tuple[int, int, int, str]) -> Iterator[Placement]:
    """Where a block of one of `sizes` may replace the block `old` (size, col, row, dir) taken
    out of a construction whose other blocks' masks are `rest`: anywhere in that temple, on free
    cells, leaving the construction in one piece (unless Mortar is active there), and not
    exactly where the old block lay."""
    filled = 0
    for block_mask in rest:
        filled |= block_mask
    figures = pieces(rest)
    loose_ok = player["mortar_zone"] == zone
    for spot in SHAPE_PLACEMENTS[card]:
        if spot.size not in sizes or spot.mask & filled:
            continue
        if (spot.size, spot.col, spot.row, spot.direction) == old:
            continue
        if loose_ok or joins_all(figures, spot.mask):
            yield spot


def replacement_moves(state: dict[str, Any], seat: int) -> list[Move]:
    """Second step of a swap: the block that takes the removed one's place, from the supply
    (for the Hammer & Chisel, of another size; for an exchange, a block after which the temple
    can again be completed, if any can, and not the same block put back where it was)."""
    player = state["seats"][seat]
    swap = player["swap"]
    zone, card = swap["zone"], state["holders"][swap["zone"]]
    sizes = supply_sizes(player)
    if swap["by"] == "chisel":
        sizes -= {swap["size"]}
    old = (swap["size"], swap["col"], swap["row"], swap["dir"])
    rest = [mask(b) for b in player["zones"][zone]]
    spots = list(replacements(player, zone, card, rest, sizes, old))
    if swap["by"] == "exchange":
        counts = building_counts(player)
        correct = [spot for spot in spots if completable(
            player, zone, card, [*rest, spot.mask], _after(counts, None, spot.size))]
        spots = correct or spots
    return [{"type": "place", "zone": zone, **spot.as_move()} for spot in spots]


def top_two(blocks: list[Block]) -> list[Block]:
    """The two highest blocks of a construction (the ones the Bag may borrow)."""
    def top(block: Block) -> int:
        return block["row"] + (block["size"] - 1 if block["dir"] == UPRIGHT else 0)

    return sorted(blocks, key=lambda b: (-top(b), b["id"]))[:2]


def bag_region(state: dict[str, Any], seat: int, zone: int) -> int:
    """The cells still missing from `seat`'s temple in `zone`."""
    card = state["holders"][zone]
    return SHAPE_MASKS[card] & ~zone_mask(state["seats"][seat]["zones"][zone])


def pair_counts(pair: list[Block]) -> tuple[int, int, int, int]:
    counts = [0, 0, 0, 0]
    for block in pair:
        counts[block["size"] - 1] += 1
    return counts[0], counts[1], counts[2], counts[3]


def _bag_targets(state: dict[str, Any], seat: int) -> list[tuple[int, int]]:
    """(zone, missing cells) of started temples that two blocks could finish (2 to 8 cells)."""
    targets = []
    closed = closed_zones(state, seat)
    for zone, card in enumerate(state["holders"]):
        if card is not None and zone not in closed and state["seats"][seat]["zones"][zone]:
            region = bag_region(state, seat, zone)
            if 2 <= region.bit_count() <= 8:
                targets.append((zone, region))
    return targets


def bag_moves(state: dict[str, Any], seat: int) -> list[Move]:
    """Zones the Bag completes with the top two blocks of another player's construction."""
    if state["seats"][seat]["powers"].get("bag") != "unused" or not _bag_targets(state, seat):
        return []
    pairs = [
        (other, zone, top_two(blocks))
        for other, rival in enumerate(state["seats"])
        if other != seat
        for zone, blocks in enumerate(rival["zones"])
        if len(blocks) >= 2 and zone not in closed_zones(state, other)
        and (rival.get("swap") or {}).get("zone") != zone
    ]
    moves: list[Move] = []
    for zone, region in _bag_targets(state, seat):
        for other, their_zone, pair in pairs:
            if sum(b["size"] for b in pair) == region.bit_count() and bag_tiling(
                state, seat, zone, pair
            ) is not None:
                moves.append({"type": "bag", "zone": zone, "seat": other, "from_zone": their_zone})
    return moves


def bag_tiling(state: dict[str, Any], seat: int, zone: int,
               pair: list[Block]) -> tuple[int, ...] | None:
    """Where the two borrowed blocks go to complete `seat`'s temple in `zone` in one piece
    (Mortar active there: in any pieces); None if they cannot."""
    player = state["seats"][seat]
    region = bag_region(state, seat, zone)
    counts = pair_counts(pair)
    if not tileable(region, counts):
        return None
    if player["mortar_zone"] == zone:
        return next(tilings(region, counts), None)
    return joined_tiling(tuple(sorted(mask(b) for b in player["zones"][zone])), region, counts)


def race_counts(player: Player) -> tuple[int, int, int, int]:
    """Blocks a player may race with: the supply plus those borrowable from constructions
    (and from blocks held for rebuilding)."""
    held = [i for ids in player.get("held") or [] for i in ids]
    ids = player["supply"] + [b["id"] for blocks in player["zones"] for b in blocks] + held
    return supply_counts(ids)


def race_spots(card: int, build: list[Block], counts: tuple[int, int, int, int]) -> list[Placement]:
    """Placements that join the lightning build and leave the rest buildable from `counts`, in
    one piece with it."""
    shape = SHAPE_MASKS[card]
    filled = zone_mask(build)
    masks = tuple(mask(b) for b in build)
    spots = []
    for spot in SHAPE_PLACEMENTS[card]:
        if spot.mask & filled or (filled and not spot.around & filled):
            continue
        if not counts[spot.size - 1]:
            continue
        rest = list(counts)
        rest[spot.size - 1] -= 1
        if buildable((*masks, spot.mask), shape & ~filled & ~spot.mask,
                     (rest[0], rest[1], rest[2], rest[3])):
            spots.append(spot)
    return spots


def race_moves(state: dict[str, Any], seat: int) -> list[Move]:
    race = state["lightning"]
    build = race["builds"][seat]
    counts = race_counts(state["seats"][seat])
    spots = race_spots(race["card"], build, counts)
    return [*({"type": "race", **spot.as_move()} for spot in spots), dict(WITHDRAW)]
