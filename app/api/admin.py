"""Admin routes: find stuck rooms, look inside them, and unstick them (app/admin/console.py)."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any
from urllib.parse import unquote

from fastapi import APIRouter, Depends, Header, Path, Query
from pydantic import BaseModel, Field

from app.admin import console
from app.admin.reads import audit_read
from app.api.bounds import MAX_INT32, MAX_SEAT
from app.api.deps import AdminDep, HallDep
from app.errors import ApiError
from app.guard.names import invisible

router = APIRouter(prefix="/api/admin", dependencies=[AdminDep])


class SeatBody(BaseModel):
    seat: int = Field(ge=0, le=MAX_SEAT)


class VersionBody(BaseModel):
    version: int = Field(ge=0, le=MAX_INT32)


async def admin_name(raw: Annotated[str | None, Header(alias="X-Admin-Name")] = None) -> str:
    """Who signs the audit log: the name the console asked for (URL-encoded), else "admin"."""
    name = "".join(ch for ch in " ".join(unquote(raw or "").split())
                   if not invisible(ch))[:40]  # no NUL: Postgres text
    return name or "admin"


def _searchable(value: str | None, field: str) -> str | None:
    """A search term as Postgres can take it: a NUL in a text parameter is a database error
    (a 500), so control characters are refused as a 422 first."""
    if value is not None and any(unicodedata.category(ch) == "Cc" for ch in value):
        raise ApiError(422, "bad_request", f"{field}: control characters are not allowed.")
    return value


ActorDep = Annotated[str, Depends(admin_name)]


@router.get("/rooms")
async def list_rooms(hall: HallDep, status: str | None = None,
                     stalled_minutes: Annotated[float | None, Query(
                         ge=0, le=10_000_000, allow_inf_nan=False)] = None,
                     q: Annotated[str | None, Query(max_length=40)] = None
                     ) -> list[dict[str, Any]]:
    """Rooms, newest change first; `q` finds a room by (part of) its code or a player's name.

    Without a status, rooms that may need help (playing or errored, the longest-quiet first)
    come before the newest of the rest, so that many finished rooms never crowd out a stalled one.
    """
    status, q = _searchable(status, "status"), _searchable(q, "q")
    return await console.list_rooms(hall, status, stalled_minutes, q)


@router.get("/rooms/{code}")
async def inspect_room(code: str, hall: HallDep, actor: ActorDep) -> dict[str, Any]:
    found = await console.inspect_room(hall, code)
    await audit_read(hall, code, actor, "room")
    return found


@router.get("/rooms/{code}/versions/{version}")
async def state_at_version(code: str, version: Annotated[int, Path(ge=0, le=MAX_INT32)],
                           hall: HallDep, actor: ActorDep) -> dict[str, Any]:
    """The full state the room had at `version`, rebuilt from the log: a rollback's preview."""
    found = await console.state_at_version(hall, code, version)
    await audit_read(hall, code, actor, "version", version=version)
    return found


@router.get("/rooms/{code}/replay")
async def admin_replay(code: str, hall: HallDep, actor: ActorDep,
                       seat: Annotated[int | None, Query(ge=0, le=MAX_SEAT)] = None
                       ) -> dict[str, Any]:
    """Any room that has started, at every version, from any seat: the whole log unredacted."""
    found = await console.replay_any(hall, code, seat)
    await audit_read(hall, code, actor, "replay", seat=seat)
    return found


@router.get("/audit")
async def audit_log(hall: HallDep, room: Annotated[str | None, Query(max_length=20)] = None,
                    limit: Annotated[int, Query(ge=1, le=500)] = 100) -> list[dict[str, Any]]:
    """Admin actions, newest first (of one room when `room` is given)."""
    return await console.audit_log(hall, room, limit)


@router.post("/rooms/{code}/bot")
async def replace_with_bot(code: str, body: SeatBody, hall: HallDep,
                           actor: ActorDep) -> dict[str, Any]:
    await console.replace_with_bot(hall, code, body.seat, actor)
    return {"ok": True}


@router.post("/rooms/{code}/zombie")
async def force_zombie_move(code: str, body: SeatBody,
                            hall: HallDep, actor: ActorDep) -> dict[str, Any]:
    return await console.force_zombie_move(hall, code, body.seat, actor)


@router.post("/rooms/{code}/rollback")
async def roll_back(code: str, body: VersionBody,
                    hall: HallDep, actor: ActorDep) -> dict[str, Any]:
    """Replay the log from the seed up to `version`, drop what came after, and resume."""
    return await console.roll_back(hall, code, body.version, actor)


@router.post("/rooms/{code}/abort")
async def abort(code: str, hall: HallDep,
                actor: ActorDep) -> dict[str, Any]:
    await console.abort(hall, code, actor)
    return {"status": "aborted"}
