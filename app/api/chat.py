"""Chat over REST: the history (also sent on connect) and the host's mute for spectators.

Lines themselves are said over the websocket (`{"type": "chat", "text": …}`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.deps import CurrentPlayer, HallDep, SessionDep
from app.errors import ApiError
from app.store.db import transaction
from app.table import chat, rooms

router = APIRouter(prefix="/api")


class Mute(BaseModel):
    muted: bool


@router.get("/rooms/{code}/chat")
async def chat_history(code: str, session: SessionDep, hall: HallDep) -> list[dict[str, Any]]:
    room = await rooms.get_room(session, code)
    return await chat.history(hall, room.code)


@router.post("/rooms/{code}/chat/mute")
async def mute_spectators(code: str, body: Mute, player: CurrentPlayer, session: SessionDep,
                          hall: HallDep) -> dict[str, Any]:
    """The host mutes (or unmutes) spectators' chat; players can always talk."""
    async with transaction(session):
        room = await rooms.get_room(session, code, for_update=True)
        if room.host_id != player.id:
            raise ApiError(403, "not_host", "Only the host can mute spectators.")
        room.spectators_muted = body.muted
        await hall.room_changed(room.code, session)
    await hall.after_room_change(room.code)
    async with transaction(session):
        return await rooms.room_payload(session, room)
