"""A room's end screen: each seat's rating after the game and its change, and the series: the
room and the chain of rematches ("Play again") that led to it, with each player's wins across
it ("3 - 2")."""

from __future__ import annotations

from typing import Any

from app.social.ratings import BOT_PREFIX, ordinal
from app.social.store import SocialStore


async def series(social: SocialStore, code: str) -> dict[str, Any]:
    """{"games": rated games in the series, "score": [{"id", "name", "bot", "wins"}] in the
    order of the seats of its first game}."""
    rows = await social.series(code)
    wins: dict[str, int] = {}
    for r in rows:
        wins[r.rater] = wins.get(r.rater, 0) + int(r.won)
    names = await social.names([r for r in wins if not r.startswith(BOT_PREFIX)])
    return {"games": len({r.room_code for r in rows}),
            "score": [{"id": None if rater.startswith(BOT_PREFIX) else rater,
                       "name": names.get(rater, f"Bot ({rater[len(BOT_PREFIX):]})"),
                       "bot": rater.startswith(BOT_PREFIX), "wins": n}
                      for rater, n in wins.items()]}


async def room_ratings(social: SocialStore, code: str) -> list[dict[str, Any]]:
    """Each rated seat's rating after the game and its change (empty: not rated)."""
    out = []
    for r in await social.room_results(code):
        after, before = ordinal(r.mu_after, r.sigma_after), ordinal(r.mu_before, r.sigma_before)
        out.append({"seat": r.seat, "id": r.player_id, "rater": r.rater, "rank": r.rank,
                    "won": r.won, "standin": r.standin, "rating": after,
                    "change": round(after - before, 1)})
    return out
