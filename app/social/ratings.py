"""Ratings per game: openskill's Plackett-Luce model (2-5 seats, ties), shown as one number.

Pure: the store reads the raters' current (mu, sigma), calls `rate` inside the transaction that
ends the game, and writes what it answers. The rebuild (`app.social.rebuild`) calls the same
function over the recorded results in the order they were written, so it gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

# openskill's defaults (mu 25, sigma 25/3); the ordinal mu - 3 sigma starts at 0.
_MODEL = PlackettLuce()
START = (_MODEL.mu, _MODEL.sigma)
BOT_PREFIX = "bot:"


def bot_rater(level: str) -> str:
    """The pseudo-player every bot of one level is rated as, per game: "bot:hard"."""
    return f"{BOT_PREFIX}{level}"


def ordinal(mu: float, sigma: float) -> float:
    """The one number a player sees: a conservative estimate (mu - 3 sigma), one decimal."""
    return round(mu - 3 * sigma, 1)


def rate(placings: Sequence[tuple[str, int]],
         priors: Mapping[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Each rater's (mu, sigma) after one game. `placings`: (rater, rank) per seat, rank 1
    best and shared by ties; `priors`: the raters' ratings before it (missing: `START`).

    A rater on several seats (two bots of one level) is rated on each seat from the same prior
    and keeps the mean of the results."""
    teams = [[_MODEL.rating(*priors.get(rater, START))] for rater, _ in placings]
    rated = _MODEL.rate(teams, ranks=[float(rank) for _, rank in placings])
    sums: dict[str, list[float]] = {}
    for (rater, _), [after] in zip(placings, rated, strict=True):
        acc = sums.setdefault(rater, [0.0, 0.0, 0.0])
        acc[0] += after.mu
        acc[1] += after.sigma
        acc[2] += 1
    return {rater: (mu / n, sigma / n) for rater, (mu, sigma, n) in sums.items()}
