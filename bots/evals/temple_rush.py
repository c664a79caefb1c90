"""Temple Rush: points so far, plus each card in the holders by who is likely to finish it first.

Everything on the table is public (only the decks' order is hidden, and the search hands this
module determinised states), so it reads the state's public parts directly: the view is a JSON
round trip per call, most of an iteration's cost.

A card goes to the first seat to complete it, so a construction is worth its card's value times
that seat's chance of winning the race for it: a softmax over the rounds each seat still needs
(cells missing over the cells a die gives a round). A construction that can no longer become its
temple from the supply (a building mistake, which random play makes often) needs exchanges
first: a few rounds more. A temple completed this round scores its card already (it is settled
only when the round ends, after the other seats' moves). In solo play the Robot builds its own
cards and the game ends with its last one: there the race is against that end (see `_solo`).

`hard` (the `deeper` evaluation) counts a race in blocks still to lay instead of cells: a seat
lays one block a round, whatever its size, so a gap of four single cells takes four rounds where
a 1x4 gap takes one, and a supply of small blocks makes every temple slower.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from typing import Any

from bots.evals import Evaluation, from_points
from games.protocol import Game, State
from games.temple_rush.board import mask, supply_counts, zone_mask
from games.temple_rush.data import (
    BLOCK_SIZES,
    COLOURS,
    ROBOT_BONUS,
    SHAPE_MASKS,
    colour,
    value,
)
from games.temple_rush.geometry import fewest_tiles
from games.temple_rush.moves import completable

UNDER_WAY = 0.8  # share of a card's value a construction can earn before it is won
CELLS_PER_ROUND = 2.5  # what a die's block covers, on average, when it fits
ROUNDS_PER_BLOCK = 1.3  # `hard`: rounds a block still to lay takes (duels: 1.15-1.3 best)
STUCK_ROUNDS = 3.0  # what a construction that cannot be finished as it stands costs, in rounds
RACE_SLOPE = 1.0  # rounds ahead that make a seat e times likelier to win a card
ROBOT_CELLS_PER_ROUND = 2.7  # the Robot lays the largest useful block, die size or next to it
SOLO_SPREAD = 3.0  # cells: how sharply a temple's chance falls as it outgrows the cells left
RoundsLeft = Callable[[dict[str, Any], int, int], float]
MEAN_CELLS = {name: statistics.fmean(mask_.bit_count() for card, mask_ in enumerate(SHAPE_MASKS)
                                     if colour(card) == name) for name in COLOURS}


def _score(player: dict[str, Any]) -> float:
    """The rules' score: cards, point tokens, bonus blocks, unused powers, cooperative points."""
    return float(sum(value(card) for card in player["cards"]) + sum(player.get("tokens", []))
                 + sum(BLOCK_SIZES[i] for i in player["bonus"])
                 + sum(1 for status in player.get("powers", {}).values() if status == "unused")
                 + player.get("coop_points", 0))


def _gap(player: dict[str, Any], zone: int, card: int) -> tuple[int, bool]:
    """The cells still missing from the card's temple in this zone (a mask), and whether the
    construction can still become it from the supply (in one piece)."""
    blocks = player["zones"][zone]
    gap = SHAPE_MASKS[card] & ~zone_mask(blocks)
    if not blocks:
        return gap, True
    masks = [mask(block) for block in blocks]
    return gap, completable(player, zone, card, masks, list(supply_counts(player["supply"])))


def _rounds_by_cells(player: dict[str, Any], zone: int, card: int) -> float:
    """Rounds a construction still needs, from its missing cells (a die's block covers about
    2.5 when it fits), a few more when it is stuck."""
    gap, ok = _gap(player, zone, card)
    return gap.bit_count() / CELLS_PER_ROUND + (0.0 if ok else STUCK_ROUNDS)


def _rounds_by_blocks(player: dict[str, Any], zone: int, card: int) -> float:
    """Rounds a construction still needs, from the fewest supply blocks that fill it: a seat
    lays one block a round, whatever its size, and its die shows a given size (or a star) half
    the time. A stuck construction (or a gap the supply cannot fill) is judged by its cells."""
    gap, ok = _gap(player, zone, card)
    tiles = fewest_tiles(gap, supply_counts(player["supply"])) if ok else None
    if tiles is None:
        return gap.bit_count() / CELLS_PER_ROUND + STUCK_ROUNDS
    return ROUNDS_PER_BLOCK * tiles


def _race(state: State, rounds_left: RoundsLeft = _rounds_by_cells) -> list[float]:
    """Per seat, its points plus its expected share of the cards in the holders, each raced
    in the rounds `rounds_left` says each seat still needs for it."""
    seats = state["seats"]
    points = [_score(player) for player in seats]
    done = {(c["seat"], c["zone"]) for c in state["completions"]}
    for zone, card in enumerate(state["holders"]):
        if card is None:
            continue
        rounds = [-math.inf if (s, zone) in done else rounds_left(player, zone, card)
                  for s, player in enumerate(seats)]
        if -math.inf in rounds:  # completed this round: its card (or an equal token) is won
            for s, r in enumerate(rounds):
                points[s] += value(card) if r == -math.inf else 0.0
            continue
        best = min(rounds)
        weights = [math.exp(-(r - best) / RACE_SLOPE) for r in rounds]
        total = sum(weights)
        for s, weight in enumerate(weights):
            points[s] += UNDER_WAY * value(card) * weight / total
    return points


def _mean_cells(card: int) -> float:
    """A face-down card's size: the mean of its colour's temples (which colours a deck holds
    follows from the setup and the cards seen; which temples, not)."""
    return MEAN_CELLS[colour(card)]


def _likely(cells: float, before: float, budget: float) -> float:
    """The chance that `cells` more, after `before`, fit in the `budget` of cells left."""
    return 1.0 / (1.0 + math.exp(-(budget - before - cells) / SOLO_SPREAD))


def _solo(state: State) -> list[float]:
    """The final scores, as the race against the Robot's last card is likely to end.

    The game ends when the Robot has built its last card, and it builds one block a round: that
    sets how many cells the seat can still lay. The seat finishes its temples cheapest first
    (one block a round feeds either zone), then the deck's cards, each with a bonus block (the
    largest size its bonus area lacks); the Robot scores all its cards and its fixed bonuses.
    """
    player, robot = state["seats"][0], state["robot"]
    mine = _score(player)
    done = {c["zone"] for c in state["completions"]}
    todo: list[tuple[float, int]] = []  # (cells to lay, value)
    for zone, card in enumerate(state["holders"]):
        if card is None:
            continue
        if zone in done:
            mine += value(card)
            continue
        gap, ok = _gap(player, zone, card)
        todo.append((gap.bit_count() + (0.0 if ok else STUCK_ROUNDS * CELLS_PER_ROUND),
                     value(card)))
    todo.sort()
    todo += [(_mean_cells(card), value(card)) for card in state["deck"]]
    robot_cells = sum(_mean_cells(card) for card in robot["deck"])
    rival = _score(robot) + sum(value(card) for card in robot["deck"])
    if robot["holder"] is not None:
        robot_cells += (SHAPE_MASKS[robot["holder"]] & ~zone_mask(robot["zone"])).bit_count()
        rival += value(robot["holder"])
    won = len(robot["cards"]) + (robot["holder"] is not None) + len(robot["deck"])
    rival += sum(ROBOT_BONUS[len(robot["cards"]):won])
    budget = robot_cells / ROBOT_CELLS_PER_ROUND * CELLS_PER_ROUND
    banked = {BLOCK_SIZES[i] for i in player["bonus"]}
    bonuses = [size for size in (4, 3, 2, 1) if size not in banked]
    laid = 0.0
    for n, (cells, points) in enumerate(todo):
        mine += _likely(cells, laid, budget) * (points + (bonuses[n] if n < len(bonuses) else 0))
        laid += cells
    return from_points([mine], scale=2.0, rival=rival)


def values(game: Game, state: State, players: int) -> list[float]:
    if state["solo"]:
        return _solo(state)
    return from_points(_race(state), scale=2.0)


def block_values(game: Game, state: State, players: int) -> list[float]:
    """The deeper evaluation: each race in blocks still to lay (`_rounds_by_blocks`)."""
    if state["solo"]:
        return _solo(state)
    return from_points(_race(state, _rounds_by_blocks), scale=2.0)


DEEPER = Evaluation(values=block_values, rollout_plies=1, priors=True)
EVALUATION = Evaluation(values=values, rollout_plies=1, priors=True, deeper=DEEPER)
