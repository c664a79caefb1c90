"""Temple of Five: the scores every seat can read in the public view, plus the longest chains on
each seat's board (a tile's worth shows only when priests go out, which a short search seldom
sees). A chain holding the seat's priest still counts: picking a chain is the first step of
using it, and a bonus that dropped at that step would teach the bot never to send priests.
"""

from __future__ import annotations

from typing import Any

from bots.evals import Evaluation, from_points
from games.protocol import Game, State

CHAIN_CELL = 0.25  # points per space of one of a seat's two longest chains
LATER_CELL = 0.1  # points per space of its other chains (for later priest phases)
USABLE = 2  # chains a seat may use per priest phase


def _chains(seat: dict[str, Any]) -> list[int]:
    """Lengths of the same-colour chains (2+ spaces side by side, seen from above), longest
    first."""
    top = seat["top"]
    seen: set[tuple[int, int]] = set()
    lengths = []
    for y, row in enumerate(top):
        for x, (_, colour) in enumerate(row):
            if colour is None or (x, y) in seen:
                continue
            chain, todo = [], [(x, y)]
            seen.add((x, y))
            while todo:
                cx, cy = todo.pop()
                chain.append((cx, cy))
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if (0 <= ny < len(top) and 0 <= nx < len(top[ny])
                            and (nx, ny) not in seen and top[ny][nx][1] == colour):
                        seen.add((nx, ny))
                        todo.append((nx, ny))
            if len(chain) >= 2:
                lengths.append(len(chain))
    return sorted(lengths, reverse=True)


def values(game: Game, state: State, players: int) -> list[float]:
    view = game.view(state, None)
    points = []
    for score, seat in zip(view["scores"], view["seats"], strict=True):
        chains = _chains(seat)
        points.append(float(score) + CHAIN_CELL * sum(chains[:USABLE])
                      + LATER_CELL * sum(chains[USABLE:]))
    return from_points(points, scale=4.0)


EVALUATION = Evaluation(values=values, rollout_plies=0, priors=True)
