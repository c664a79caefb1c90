"""Admin: find stuck rooms, look inside them, and unstick them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field
from sqlalchemy import delete, select

from app import rooms
from app.api.deps import AdminDep, HallDep, SessionDep
from app.db import transaction
from app.errors import ApiError
from app.models import MoveRow, Room, Seat, utcnow
from app.moves import Mover, submit_move
from games import REGISTRY
from games.protocol import replay

router = APIRouter(prefix="/api/admin", dependencies=[AdminDep])


class SeatBody(BaseModel):
    seat: int = Field(ge=0)


class VersionBody(BaseModel):
    version: int = Field(ge=0)


def _to_act(room: Room) -> list[int]:
    if room.state is None or room.status != "active":
        return []
    return sorted(REGISTRY[room.game].to_act(room.state))


@router.get("/rooms")
async def list_rooms(session: SessionDep, status: str | None = None,
                     stalled_minutes: float | None = None) -> list[dict[str, Any]]:
    query = select(Room).order_by(Room.updated_at.desc()).limit(500)
    if status:
        query = query.where(Room.status == status)
    if stalled_minutes is not None:
        query = query.where(Room.status == "active",
                            Room.updated_at < utcnow() - timedelta(minutes=stalled_minutes))
    return [{"code": r.code, "game": r.game, "status": r.status, "version": r.version,
             "last_move_at": r.last_move_at, "updated_at": r.updated_at,
             "has_error": r.error is not None} for r in await session.scalars(query)]


@router.get("/rooms/{code}")
async def inspect_room(code: str, session: SessionDep) -> dict[str, Any]:
    room = await rooms.get_room(session, code)
    seats = await rooms.seats_of(session, room.code)
    moves = await session.scalars(select(MoveRow).where(MoveRow.room_code == room.code)
                                  .order_by(MoveRow.version))
    game = REGISTRY[room.game]
    return {
        "room": await rooms.room_payload(session, room),
        "state": room.state,
        "seed": room.seed,
        "error": room.error,
        "to_act": _to_act(room) if room.status == "active" else [],
        "connections": {s.seat: s.connections for s in seats},
        "log": [{"version": m.version, "seat": m.seat, "client_id": m.client_id,
                 "move": m.move, "text": game.describe(m.move), "events": m.events,
                 "at": m.created_at} for m in moves],
    }


@router.post("/rooms/{code}/bot")
async def replace_with_bot(code: str, body: SeatBody, session: SessionDep,
                           hall: HallDep) -> dict[str, Any]:
    async with transaction(session):
        room = await rooms.get_room(session, code, for_update=True)
        seat = await session.get(Seat, (room.code, body.seat))
        if seat is None:
            raise ApiError(422, "bad_seat", f"This room has no seat {body.seat}.")
        seat.player_id, seat.bot, seat.connections = None, rooms.BOT_KIND, 0
        await hall.room_changed(room.code, session)
    await hall.after_room_change(room.code)
    hall.bots.wake(room.code)
    return {"ok": True}


@router.post("/rooms/{code}/zombie")
async def force_zombie_move(code: str, body: SeatBody, session: SessionDep,
                            hall: HallDep) -> dict[str, Any]:
    room = await rooms.get_room(session, code)
    if body.seat not in _to_act(room):
        raise ApiError(409, "not_your_turn", f"Seat {body.seat} is not to act.")
    move = REGISTRY[room.game].zombie_move(room.state, body.seat)
    version = await submit_move(hall, room.code, Mover(seat=body.seat),
                                f"admin:{room.version}:{body.seat}", room.version, move)
    return {"version": version, "move": move}


@router.post("/rooms/{code}/rollback")
async def roll_back(code: str, body: VersionBody, session: SessionDep,
                    hall: HallDep) -> dict[str, Any]:
    """Replay the log from the seed up to `version`, drop what came after, and resume."""
    async with hall.locks.get(rooms.normalize_code(code)), transaction(session):
        room = await rooms.get_room(session, code, for_update=True)
        if room.state is None or body.version > room.version:
            raise ApiError(422, "bad_version", f"Pick a version between 0 and {room.version}.")
        game = REGISTRY[room.game]
        seats = await rooms.seats_of(session, room.code)
        kept = await session.scalars(select(MoveRow).where(
            MoveRow.room_code == room.code, MoveRow.version <= body.version)
            .order_by(MoveRow.version))
        state = replay(game, len(seats), game.Options.model_validate(room.options), room.seed,
                       ((row.seat, row.move) for row in kept))
        await session.execute(delete(MoveRow).where(MoveRow.room_code == room.code,
                                                    MoveRow.version > body.version))
        room.state, room.version, room.error = state, body.version, None
        room.status = "finished" if game.outcome(state) is not None else "active"
        await hall.room_changed(room.code, session, reset=True)
    await hall.after_room_change(room.code, force_state=True)
    hall.bots.wake(room.code)
    return {"version": body.version, "status": room.status}


@router.post("/rooms/{code}/abort")
async def abort(code: str, session: SessionDep, hall: HallDep) -> dict[str, Any]:
    async with transaction(session):
        room = await rooms.get_room(session, code, for_update=True)
        room.status = "aborted"
        await hall.room_changed(room.code, session)
    await hall.after_room_change(room.code)
    return {"status": "aborted"}
