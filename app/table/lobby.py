"""The lobby's rarer services: a token renewed, the open rooms, a room read, leaving, votes for
an absent seat, taking a seat back, a rematch and the move log. Each takes what the route
parsed, makes one store call, and tells this process's sockets (and the bots) what changed.
"""

from __future__ import annotations

from typing import Any

from app.context import Context, RoomRead
from app.core import rooms
from app.core.movelog import log_entry
from app.core.views import PlayerView
from app.errors import ApiError
from app.guard.auth import token_times
from app.utc import utcnow
from games import REGISTRY


async def renew_token(hall: Context, player: PlayerView) -> dict[str, str | None]:
    """Push the token's expiry TOKEN_TTL_DAYS from now; the token itself stays the same, so
    every tab holding it goes on working. An expired token cannot be renewed (the caller's
    token was checked before)."""
    player.token_renewed_at = utcnow()  # the player was read outside any session
    assert player.device_id is not None  # a player read by token
    await hall.players.renew_token(player.device_id, player.token_renewed_at)
    return {"id": player.id, "name": player.name, **token_times(player, hall.settings.token_ttl)}


async def open_rooms(hall: Context) -> list[dict[str, Any]]:
    """Public rooms in the lobby that still have a free seat, newest first."""
    return [r for r in await hall.rooms.open_rooms()
            if any(s["player"] is None and s["bot"] is None for s in r["seats"])]


async def room(hall: Context, code: str) -> dict[str, Any]:
    """The wire `room` object, as committed now."""
    message = await hall.rooms.room_message(rooms.normalize_code(code))
    if message is None:
        raise ApiError(404, "room_not_found", f"There is no room with the code {code!r}.")
    return message["room"]


async def answer(hall: Context, code: str) -> dict[str, Any]:
    """Read once after a commit: the answer, and the room and state this process's sockets are
    sent (the read also replaces the room held, so nothing need be forgotten)."""
    read = await hall.read_room(code)
    if read is None:
        raise ApiError(404, "room_not_found", f"There is no room with the code {code!r}.")
    await hall.after_room_change(code, forget=False, read=read)
    return read.message["room"]


async def change_seats(hall: Context, code: str, action: Any, *args: Any) -> dict[str, Any]:
    """A seat action (`rooms.*_seats`) under the room's lock, then the answer: the room as the
    store's write left it when the store knows it, else read once after the commit.

    The sockets here are pushed the write's message too, unless a read of the room was numbered
    (`RoomSockets.ticket`) since just before the write: then a read made after the commit.
    A message built from the write, numbered after a read that saw a change committed just
    after this one (a socket counted), would overwrite it; a change committed after this one
    has its message numbered after `mark` (it is read or built once that change committed),
    so either it comes before the write's number, and a read is made instead, or after, and
    it overwrites the write's message, as it should."""
    async with hall.locks.get(code):
        mark = hall.sockets.ticket()
        done = await hall.rooms.change_seats(code, action, *args)
    if done is None:
        return await answer(hall, code)
    read = None
    if not hall.sockets.read_since(code, mark):
        read = RoomRead(hall.sockets.ticket(), *done)
    await hall.after_room_change(code, forget=False, read=read)  # only if it has sockets here
    return done[0]["room"]


async def leave(hall: Context, code: str, player: PlayerView) -> dict[str, Any]:
    """In the lobby the seat frees up; in a game a bot takes it over (and may be to move)."""
    async with hall.locks.get(rooms.normalize_code(code)):
        code = await hall.rooms.leave_room(code, player)
    payload = await answer(hall, code)
    hall.bots.wake(code)
    return payload


async def vote(hall: Context, code: str, voter: PlayerView, seat: int) -> dict[str, Any]:
    """Vote to hand an absent player's seat to a bot; a majority of those present hands it."""
    async with hall.locks.get(rooms.normalize_code(code)):
        code = await hall.presence.vote(code, voter, seat)
    payload = await answer(hall, code)
    hall.bots.wake(code)
    return payload


async def reclaim(hall: Context, code: str, player: PlayerView) -> dict[str, Any]:
    """A replaced player takes their seat back from the bot."""
    async with hall.locks.get(rooms.normalize_code(code)):
        code = await hall.presence.reclaim(code, player)
    return await answer(hall, code)


async def play_again(hall: Context, code: str, player: PlayerView, where: str) -> dict[str, Any]:
    """A new room for the same game and options; the old room points everyone to it."""
    hall.quotas.spend("rooms", where, player.id)
    async with hall.locks.get(rooms.normalize_code(code)):
        old, payload, made = await hall.rooms.rematch(code, player)
    if made:
        await hall.after_room_change(old)
    return payload


async def move_log(hall: Context, code: str, viewer: PlayerView | None,
                   after: int) -> list[dict[str, Any]]:
    """The log as this caller may see it: redacted while playing, whole once finished; only
    the versions after `after`."""
    read = await hall.moves.move_log(code, viewer.id if viewer is not None else None, after)
    full = read.room.status == "finished"
    return [log_entry(REGISTRY[read.room.game], row, read.seat, full) for row in read.rows]
