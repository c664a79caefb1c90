"""Ratings, profiles, friends, invitations and series (app/social/): routes only."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Response

from app.api.deps import AdminDep, CurrentPlayer, HallDep
from app.core import rooms
from app.errors import ApiError
from app.social import friends, profiles, series
from app.table import lobby

router = APIRouter(prefix="/api")

# The name an anonymised player is shown by (their results stay, under it).
ANONYMOUS = "Anonymous"


def _id(body: Any, key: str = "id") -> Any:
    if not isinstance(body, dict):
        raise ApiError(422, "bad_body", f"Send a JSON object with '{key}'.")
    return body.get(key)


@router.get("/players/me/friends")
async def my_friends(player: CurrentPlayer, hall: HallDep) -> list[dict[str, Any]]:
    return await friends.friends(hall.social, player.id)


@router.post("/players/me/friends", status_code=201)
async def add_friend(player: CurrentPlayer, hall: HallDep,
                     body: Annotated[Any, Body()] = None) -> dict[str, Any]:
    friend_id = _id(body)
    await friends.add(hall.social, player.id, friend_id)
    return {"id": friend_id}


@router.delete("/players/me/friends/{friend_id}", status_code=204)
async def remove_friend(friend_id: str, player: CurrentPlayer, hall: HallDep) -> Response:
    await friends.remove(hall.social, player.id, friend_id)
    return Response(status_code=204)


@router.get("/players/me/played-with")
async def played_with(player: CurrentPlayer, hall: HallDep) -> list[dict[str, Any]]:
    """"People you played with": everyone who shared a room with the caller."""
    return await friends.played_with(hall.social, player.id)


@router.get("/players/me/invites")
async def my_invites(player: CurrentPlayer, hall: HallDep) -> list[dict[str, Any]]:
    return await friends.invites(hall.social, player.id)


@router.post("/players/me/invites", status_code=201)
async def invite(player: CurrentPlayer, hall: HallDep,
                 body: Annotated[Any, Body()] = None) -> dict[str, Any]:
    friend_id, code = _id(body), _id(body, "code")
    if not isinstance(friend_id, str) or not isinstance(code, str):
        raise ApiError(422, "bad_body", "Send the friend's 'id' and the room's 'code'.")
    code = rooms.normalize_code(code)
    message = await hall.rooms.room_message(code)
    await friends.invite(hall.social, player.id, friend_id, code,
                         None if message is None else message["room"])
    await hall.notify.invite(friend_id, code)  # also on their channels (mail, webhook), if set
    return {"id": friend_id, "code": code}


@router.get("/players/me/leaderboard")
async def leaderboard(player: CurrentPlayer, hall: HallDep,
                      game: Annotated[str, Query(max_length=40)]) -> list[dict[str, Any]]:
    return await friends.leaderboard(hall.social, player.id, game)


@router.get("/players/{player_id}")
async def player_profile(player_id: str, player: CurrentPlayer,
                         hall: HallDep) -> dict[str, Any]:
    return await profiles.profile(hall.social, player.id, player_id)


@router.get("/rooms/{code}/series")
async def room_series(code: str, hall: HallDep) -> dict[str, Any]:
    """The series the room belongs to (its chain of rematches) and the wins in it."""
    await lobby.room(hall, code)  # 404 for an unknown room
    return await series.series(hall.social, rooms.normalize_code(code))


@router.get("/rooms/{code}/ratings")
async def room_ratings(code: str, hall: HallDep) -> list[dict[str, Any]]:
    """Each seat's rating after this game and its change (empty: not rated, or not over)."""
    await lobby.room(hall, code)  # 404 for an unknown room
    return await series.room_ratings(hall.social, rooms.normalize_code(code))


@router.delete("/admin/players/{player_id}/name", status_code=204, dependencies=[AdminDep])
async def anonymise(player_id: str, hall: HallDep) -> Response:
    """Remove a player's name: they are shown as "Anonymous"; their results stay."""
    if not await hall.social.anonymise(player_id, ANONYMOUS):
        raise ApiError(404, "player_not_found", "There is no player with that id.")
    return Response(status_code=204)
