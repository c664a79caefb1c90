"""Friends: "People you played with", adding and removing friends, who is online (in a room
now), invitations to a room, and a leaderboard per game among a player and their friends."""

from __future__ import annotations

from typing import Any

from app.errors import ApiError
from app.social.ratings import ordinal
from app.social.store import SocialStore


async def friends(social: SocialStore, player_id: str) -> list[dict[str, Any]]:
    return [{"id": i, "name": name, "online": bool(online)}
            for i, name, online in await social.friends(player_id)]


async def played_with(social: SocialStore, player_id: str) -> list[dict[str, Any]]:
    return [{"id": i, "name": name} for i, name in await social.played_with(player_id)]


async def add(social: SocialStore, player_id: str, friend_id: Any) -> None:
    if not isinstance(friend_id, str) or not friend_id:
        raise ApiError(422, "bad_player", "Send the friend's player id as 'id'.")
    if friend_id == player_id:
        raise ApiError(422, "self_friend", "You cannot add yourself as a friend.")
    if not await social.add_friend(player_id, friend_id):
        raise ApiError(404, "player_not_found", "There is no player with that id.")


async def remove(social: SocialStore, player_id: str, friend_id: str) -> None:
    if not await social.remove_friend(player_id, friend_id):
        raise ApiError(404, "not_a_friend", "That player is not among your friends.")


async def invite(social: SocialStore, player_id: str, friend_id: str, code: str,
                 room: dict[str, Any] | None) -> None:
    """Invite a friend to a room the inviter sits in or hosts. The invitation waits in the
    friend's lobby (`invites`); the route also hands it to app/notify's channels."""
    if room is None:
        raise ApiError(404, "room_not_found", "That room does not exist.")
    seated = {(s.get("player") or {}).get("id") for s in room["seats"]}
    if player_id not in seated and room.get("host") != player_id:
        raise ApiError(403, "not_seated", "Only the players of a room can invite to it.")
    if not await social.is_friend(player_id, friend_id):
        raise ApiError(403, "not_a_friend", "You can invite only your friends.")
    await social.invite(friend_id, player_id, code)


async def invites(social: SocialStore, player_id: str) -> list[dict[str, Any]]:
    return [{"id": r.id, "code": r.room_code, "game": r.game, "at": r.at.isoformat(),
             "from": {"id": r.from_id, "name": r.from_name}}
            for r in await social.invites(player_id)]


async def leaderboard(social: SocialStore, player_id: str, game: str) -> list[dict[str, Any]]:
    """The player and their friends by rating in `game`, best first (unrated last)."""
    people = [(player_id, (await social.names([player_id])).get(player_id, "")),
              *[(i, name) for i, name, _ in await social.friends(player_id)]]
    rated = await social.ratings(game, [i for i, _ in people])
    board = [{"id": i, "name": name,
              "rating": ordinal(*rated[i]) if i in rated else None} for i, name in people]
    return sorted(board, key=lambda row: (row["rating"] is None, -(row["rating"] or 0)))
