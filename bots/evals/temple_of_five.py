"""Temple of Five: the scores every seat can read in the public view, plus the chains each seat
could still use (a tile's worth shows only when priests go out, which the search seldom sees)."""

from __future__ import annotations

from typing import Any

from bots.evals import Evaluation, from_points
from games.protocol import Game, State

CHAIN_CELL = 0.35  # points per space of one of the two longest chains a seat may still use
USABLE = 2  # chains a seat may use per priest phase


def _free_chains(seat: dict[str, Any]) -> list[int]:
    """Lengths of the same-colour chains (2+ spaces side by side, seen from above) that hold
    none of this seat's priests, longest first."""
    top = seat["top"]
    taken = {tuple(p) for p in seat.get("chains") or ()}
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
            if len(chain) >= 2 and not taken.intersection(chain):
                lengths.append(len(chain))
    return sorted(lengths, reverse=True)


def values(game: Game, state: State, players: int) -> list[float]:
    view = game.view(state, None)
    points = [float(score) + CHAIN_CELL * sum(_free_chains(seat)[:USABLE])
              for score, seat in zip(view["scores"], view["seats"], strict=True)]
    return from_points(points, scale=4.0)


EVALUATION = Evaluation(values=values, rollout_plies=4, priors=True)
