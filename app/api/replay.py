"""Replays: a finished room stepped through move by move, from any seat's point of view."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.admin.replays import replay_payload
from app.api.bounds import MAX_SEAT
from app.api.deps import SessionDep
from app.errors import ApiError
from app.table import rooms

router = APIRouter(prefix="/api")


@router.get("/rooms/{code}/replay")
async def replay(code: str, session: SessionDep,
                 seat: Annotated[int | None, Query(ge=0, le=MAX_SEAT)] = None) -> dict[str, Any]:
    """Anyone may replay a finished game, from any seat; before the end nothing is shown."""
    room = await rooms.get_room(session, code)
    if room.status != "finished":
        raise ApiError(409, "not_finished", "A replay opens once the game is over.")
    return await replay_payload(session, room, seat, whole_log=False)
