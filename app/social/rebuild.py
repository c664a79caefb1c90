"""Rebuild every rating from the recorded results: `python -m app.social.rebuild`.

The results of each rated game (who sat where, their ranks) are kept by the transaction that
ended it; this replays them in the order they were rated, from the starting rating, with the
same `ratings.rate`, and rewrites the ratings and each result's before/after. On an intact
database it gives the very same numbers; after a change to the rating model it recomputes
them all.
"""

from __future__ import annotations

import asyncio
from typing import Any

from app.social.ratings import START, rate
from app.social.store import SocialStore


def replay(results: list[Any]) -> tuple[dict[tuple[str, str], tuple[float, float]],
                                          dict[int, tuple[float, float, float, float]]]:
    """The ratings (rater, game) -> (mu, sigma) and each result's before/after, from results
    ordered by id (a game's rows are rated together, at its first row's place)."""
    games: dict[str, list[Any]] = {}
    for r in results:
        games.setdefault(r.room_code, []).append(r)
    current: dict[tuple[str, str], tuple[float, float]] = {}
    written: dict[int, tuple[float, float, float, float]] = {}
    for rows in games.values():
        game = rows[0].game
        priors = {r.rater: current.get((r.rater, game), START) for r in rows}
        after = rate([(r.rater, r.rank) for r in rows], priors)
        for r in rows:
            written[r.id] = (*priors[r.rater], *after[r.rater])
        current.update({(rater, game): value for rater, value in after.items()})
    return current, written


async def rebuild(social: SocialStore) -> int:
    """Recompute and rewrite every rating; the number of rated games."""
    results = await social.every_result()
    ratings, written = replay(results)
    await social.rewrite(ratings, written)
    return len({r.room_code for r in results})


async def _main() -> None:
    from app.config import get_settings
    from app.store.choice import open_social, open_store

    social = open_social(open_store(get_settings(), "rebuild"))
    try:
        print(f"rebuilt the ratings of {await rebuild(social)} games")
    finally:
        await social.close()


if __name__ == "__main__":
    asyncio.run(_main())
