"""Replays: a finished room stepped through move by move, from any seat's point of view."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.concurrency import run_in_threadpool

from app.admin.replays import frames
from app.api.bounds import MAX_SEAT
from app.api.deps import SessionDep
from app.errors import ApiError
from app.store.models import MoveRow, Room
from app.table import rooms

router = APIRouter(prefix="/api")


async def log_rows(session: AsyncSession, code: str, upto: int | None = None) -> list[MoveRow]:
    """The room's move log in version order (up to and including `upto`)."""
    query = select(MoveRow).where(MoveRow.room_code == code).order_by(MoveRow.version)
    if upto is not None:
        query = query.where(MoveRow.version <= upto)
    return list(await session.scalars(query))


async def replay_payload(session: AsyncSession, room: Room, seat: int | None,
                         whole_log: bool) -> dict[str, Any]:
    """Every frame of `room` as `seat` saw it, with the room (names, seats) for the renderer."""
    if room.state is None:
        raise ApiError(409, "not_started", "This game has not started: there is nothing to replay.")
    seats = await rooms.seats_of(session, room.code)
    if seat is not None and not 0 <= seat < len(seats):
        raise ApiError(422, "bad_seat", f"This room has no seat {seat}.")
    rows = await log_rows(session, room.code)
    payload = await run_in_threadpool(frames, room, len(seats), rows, seat, whole_log)
    return {"room": await rooms.room_payload(session, room), **payload}


@router.get("/rooms/{code}/replay")
async def replay(code: str, session: SessionDep,
                 seat: Annotated[int | None, Query(ge=0, le=MAX_SEAT)] = None) -> dict[str, Any]:
    """Anyone may replay a finished game, from any seat; before the end nothing is shown."""
    room = await rooms.get_room(session, code)
    if room.status != "finished":
        raise ApiError(409, "not_finished", "A replay opens once the game is over.")
    return await replay_payload(session, room, seat, whole_log=False)
