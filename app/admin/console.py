"""The admin console's services: find stuck rooms, look inside them, unstick them, and keep
the audit log. Every action writes its audit line in the action's own transaction, so the log
says exactly what was done (`app/api/admin.py` only parses requests and calls these)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from starlette.concurrency import run_in_threadpool

from app.admin.replays import replay_payload, state_at
from app.config import get_settings
from app.context import Context
from app.core import rooms
from app.core.client_ids import platform_id
from app.core.views import MoveView, StoredRoom
from app.errors import ApiError
from app.play.moves import Mover, submit_move
from app.utc import utcnow
from games import REGISTRY
from games.protocol import replay


def _to_act(room: StoredRoom) -> list[int]:
    if room.state is None or room.status != "active":
        return []
    try:
        return sorted(REGISTRY[room.game].to_act(room.state))
    except Exception:  # a broken rule module must not hide the room from the admin
        return []


async def list_rooms(hall: Context, status: str | None, stalled_minutes: float | None,
                     q: str | None) -> list[dict[str, Any]]:
    """Rooms, newest change first; `q` finds a room by (part of) its code or a player's name.

    Without a status, rooms that may need help (playing or errored, the longest-quiet first)
    come before the newest of the rest, so that many finished rooms never crowd out a stalled one.
    """
    quiet_since = (utcnow() - timedelta(minutes=stalled_minutes)
                   if stalled_minutes is not None else None)
    read = await hall.audit.admin_rooms(status, quiet_since, q)
    return [{"code": r.code, "game": r.game, "status": r.status, "version": r.version,
             "last_move_at": r.last_move_at, "updated_at": r.updated_at,
             "created_at": r.created_at, "has_error": r.error is not None,
             "error": r.error, "to_act": _to_act(r), "players": read.players[r.code]}
            for r in read.rooms]


async def inspect_room(hall: Context, code: str) -> dict[str, Any]:
    read = await hall.audit.admin_room(code)
    room, game = read.room, REGISTRY[read.room.game]
    return {
        "room": read.payload,
        "state": room.state,
        "seed": room.seed,
        "error": room.error,
        "to_act": _to_act(room) if room.status == "active" else [],
        "connections": {s.seat: s.connections for s in read.seats},
        # how long a seat handed to a bot stays the bot's (the hand-over dialog says it)
        "handover_hold_seconds": get_settings().admin_handover_hold_seconds,
        "players": read.players,
        "created_at": room.created_at,
        "last_move_at": room.last_move_at,
        "log": [{"version": m.version, "seat": m.seat, "client_id": m.client_id,
                 "move": m.move, "text": game.describe(m.move), "events": m.events,
                 "at": m.created_at, "by": m.by} for m in read.rows],
    }


async def state_at_version(hall: Context, code: str, version: int) -> dict[str, Any]:
    """The full state the room had at `version`, rebuilt from the log: a rollback's preview."""
    read = await hall.audit.room_log(code, upto=version)
    room = read.room
    if room.state is None or not 0 <= version <= room.version:
        raise ApiError(422, "bad_version", f"Pick a version between 0 and {room.version}.")
    game = REGISTRY[room.game]
    try:
        state = await run_in_threadpool(state_at, room, read.seats, read.rows, version)
        outcome = game.outcome(state)
        to_act = sorted(game.to_act(state)) if outcome is None else []
    except Exception as exc:
        raise ApiError(409, "room_errored", f"The rules failed while rebuilding version "
                       f"{version}: {type(exc).__name__}: {exc}") from None
    return {"version": version, "state": state, "to_act": to_act,
            "outcome": outcome.to_json() if outcome else None}


async def replay_any(hall: Context, code: str, seat: int | None) -> dict[str, Any]:
    """Any room that has started, at every version, from any seat: the whole log unredacted."""
    return await replay_payload(await hall.moves.replay_source(code), seat, whole_log=True)


async def audit_log(hall: Context, room: str | None, limit: int) -> list[dict[str, Any]]:
    """Admin actions, newest first (of one room when `room` is given)."""
    lines = await hall.audit.audit_log(rooms.normalize_code(room) if room else None, limit)
    return [{"id": a.id, "at": a.at, "actor": a.actor, "action": a.action,
             "room": a.room_code, "version": a.version, "detail": a.detail} for a in lines]


async def replace_with_bot(hall: Context, code: str, seat_no: int, actor: str) -> None:
    code = await hall.audit.admin_hand_to_bot(code, seat_no, actor)
    await hall.after_room_change(code)
    hall.bots.wake(code)


async def force_zombie_move(hall: Context, code: str, seat: int,
                            actor: str) -> dict[str, Any]:
    room = await hall.audit.room_row(code)
    if seat not in _to_act(room):
        raise ApiError(409, "not_your_turn", f"Seat {seat} is not to act.")
    room_code, seen = room.code, room.version
    try:
        move = REGISTRY[room.game].zombie_move(room.state, seat)
    except Exception as exc:  # a broken rule module: pause the room, as a failing move would
        await hall.mark_errored(room_code, exc)
        raise ApiError(409, "room_errored", "The game's zombie move failed; the room is paused "
                       "and its traceback kept.") from None
    # the pipeline writes in its own transaction, the audit line right after it commits
    version = await submit_move(hall, room_code, Mover(seat=seat),
                                platform_id("admin", seen, seat), seen, move)
    await hall.audit.admin_note_zombie(room_code, seat, seen, move, version, actor)
    await hall.after_room_change(room_code, state=False, forget=False)
    return {"version": version, "move": move}


def _rebuild(room: StoredRoom, players: int, kept: list[MoveView]) -> tuple[Any, bool]:
    """The state after the kept moves, replayed from the seed, and whether the game is over."""
    game = REGISTRY[room.game]
    state = replay(game, players, game.Options.model_validate(room.options), room.seed,
                   ((row.seat, row.move) for row in kept))
    return state, game.outcome(state) is not None


async def roll_back(hall: Context, code: str, version: int, actor: str) -> dict[str, Any]:
    """Replay the log from the seed up to `version`, drop what came after, and resume."""
    async with hall.locks.get(rooms.normalize_code(code)):
        code, status = await hall.audit.admin_roll_back(code, version, actor, _rebuild)
    await hall.after_room_change(code, force_state=True)
    hall.bots.wake(code)
    return {"version": version, "status": status}


async def abort(hall: Context, code: str, actor: str) -> None:
    code = await hall.audit.admin_abort(code, actor)
    await hall.after_room_change(code)
