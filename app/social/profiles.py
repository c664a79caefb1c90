"""A player's profile (`GET /api/players/{id}`): games played and won and the rating per game
with its history, the last 20 games, and the head-to-head record against the viewer.

Privacy: the games are shown only to the player, to the people the player added as friends
and to those who shared a room with them; anyone else sees the name alone. A profile is built
from results only (ranks, wins, ratings, room codes): never from a game's state, so no hidden
game information can reach it. Replays are linked; they open only once a game is over.
"""

from __future__ import annotations

from typing import Any

from app.errors import ApiError
from app.social.ratings import ordinal
from app.social.store import SocialStore

RECENT = 20


async def may_see(social: SocialStore, owner: str, viewer: str) -> bool:
    """Whether `viewer` may see `owner`'s games."""
    return (viewer == owner or await social.is_friend(owner, viewer)
            or await social.shared_room(owner, viewer))


async def profile(social: SocialStore, viewer: str, player_id: str) -> dict[str, Any]:
    names = await social.names([player_id])
    if player_id not in names:
        raise ApiError(404, "player_not_found", "There is no player with that id.")
    shown = await may_see(social, player_id, viewer)
    answer: dict[str, Any] = {
        "id": player_id, "name": names[player_id], "visible": shown, "games": {},
        "recent": [], "history": {}, "head_to_head": None,
        "friend": viewer != player_id and await social.is_friend(viewer, player_id)}
    if not shown:
        return answer
    results = await social.results_of(player_id)
    for r in results:
        game = answer["games"].setdefault(r.game, {"played": 0, "won": 0, "rating": None})
        game["played"] += 1
        game["won"] += int(r.won)
        game["rating"] = ordinal(r.mu_after, r.sigma_after)
        answer["history"].setdefault(r.game, []).append(
            {"at": r.at.isoformat(), "rating": game["rating"]})
    answer["recent"] = [_recent(r) for r in reversed(results[-RECENT:])]
    if viewer != player_id:
        answer["head_to_head"] = _record(await social.head_to_head(viewer, player_id))
    return answer


def _recent(r: Any) -> dict[str, Any]:
    after, before = ordinal(r.mu_after, r.sigma_after), ordinal(r.mu_before, r.sigma_before)
    return {"code": r.room_code, "game": r.game, "result": "won" if r.won else "lost",
            "rank": r.rank, "rating": after, "change": round(after - before, 1),
            "standin": r.standin, "at": r.at.isoformat(),
            "replay": f"/r/{r.room_code}/replay"}


def _record(games: list[tuple[str, str, int, int]]) -> dict[str, int]:
    """The viewer's wins, losses and draws against the player (by rank in shared games)."""
    won = sum(1 for *_, mine, theirs in games if mine < theirs)
    lost = sum(1 for *_, mine, theirs in games if mine > theirs)
    return {"played": len(games), "won": won, "lost": lost, "drawn": len(games) - won - lost}
