"""Replays: a finished room stepped through move by move, from any seat's point of view."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.admin.replays import public_replay
from app.api.bounds import MAX_SEAT
from app.api.deps import HallDep

router = APIRouter(prefix="/api")


@router.get("/rooms/{code}/replay")
async def replay(code: str, hall: HallDep,
                 seat: Annotated[int | None, Query(ge=0, le=MAX_SEAT)] = None) -> dict[str, Any]:
    """Anyone may replay a finished game, from any seat; before the end nothing is shown."""
    return await public_replay(hall, code, seat)
