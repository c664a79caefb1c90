"""Bot levels: what kind of player each is, and how long it may think.

A searching level is bounded twice: by wall time (what a table waits) and by an iteration cap
(what makes a seeded choice reproducible when the machine is idle, and what tests use instead of
time). Whichever runs out first ends the search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["random", "greedy", "search"]


@dataclass(frozen=True, slots=True)
class Level:
    """One bot level. `seconds` is the per-decision budget; `iterations` the deterministic cap;
    `deeper`: it plays with the game's dearer evaluation, where the game has one."""

    name: str
    kind: Kind
    seconds: float = 0.0
    iterations: int = 0
    deeper: bool = False


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("random", "random"),
        Level("greedy", "greedy"),
        Level("easy", "search", seconds=0.1, iterations=150),
        Level("normal", "search", seconds=0.5, iterations=5_000),
        Level("hard", "search", seconds=2.0, iterations=20_000, deeper=True),
    )
}
DEFAULT_LEVEL = "normal"
