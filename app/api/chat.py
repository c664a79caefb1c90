"""Chat over REST: the history (also sent on connect) and the host's mute for spectators.

Lines themselves are said over the websocket (`{"type": "chat", "text": …}`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.deps import CurrentPlayer, HallDep
from app.table import chat

router = APIRouter(prefix="/api")


class Mute(BaseModel):
    muted: bool


@router.get("/rooms/{code}/chat")
async def chat_history(code: str, hall: HallDep) -> list[dict[str, Any]]:
    return await chat.history_of(hall, code)


@router.post("/rooms/{code}/chat/mute")
async def mute_spectators(code: str, body: Mute, player: CurrentPlayer,
                          hall: HallDep) -> dict[str, Any]:
    """The host mutes (or unmutes) spectators' chat; players can always talk."""
    return await chat.mute(hall, code, player, body.muted)
