"""The admin console's services: find stuck rooms, look inside them, unstick them, and keep
the audit log. Every action writes its audit line in the action's own transaction, so the log
says exactly what was done (`app/api/admin.py` only parses requests and calls these)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.concurrency import run_in_threadpool

from app.admin.replays import log_rows, replay_payload, state_at
from app.context import Context
from app.errors import ApiError
from app.play.client_ids import platform_id
from app.play.movelog import by_name
from app.play.moves import Mover, submit_move
from app.store.db import transaction
from app.store.models import AdminAction, MoveRow, Player, Room, Seat, utcnow
from app.table import absence, rooms
from games import REGISTRY
from games.protocol import replay


async def _audit(session: AsyncSession, actor: str, action: str, code: str,
                 version: int | None, **detail: Any) -> None:
    """Write one audit line inside the caller's transaction (so it commits with the action).
    `text` in `detail`: the sentence the players' log shows (`app.table.tablelog`)."""
    session.add(AdminAction(actor=actor, action=action, room_code=code, version=version,
                            detail=detail))


def _to_act(room: Room) -> list[int]:
    if room.state is None or room.status != "active":
        return []
    try:
        return sorted(REGISTRY[room.game].to_act(room.state))
    except Exception:  # a broken rule module must not hide the room from the admin
        return []


async def _players(session: AsyncSession, codes: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Each room's seats: who holds them and whether they are connected."""
    rows = (await session.execute(
        select(Seat, Player.name).outerjoin(Player, Seat.player_id == Player.id)
        .where(Seat.room_code.in_(codes)).order_by(Seat.room_code, Seat.seat))).all()
    found: dict[str, list[dict[str, Any]]] = {code: [] for code in codes}
    for seat, name in rows:
        found[seat.room_code].append({"seat": seat.seat, "name": name, "bot": seat.bot,
                                      "connections": seat.connections,
                                      "connected": seat.bot is not None or seat.connections > 0})
    return found


async def list_rooms(hall: Context, status: str | None, stalled_minutes: float | None,
                     q: str | None) -> list[dict[str, Any]]:
    """Rooms, newest change first; `q` finds a room by (part of) its code or a player's name.

    Without a status, rooms that may need help (playing or errored, the longest-quiet first)
    come before the newest of the rest, so that many finished rooms never crowd out a stalled one.
    """
    query = select(Room)
    if status:
        query = query.where(Room.status == status)
    if stalled_minutes is not None:
        query = query.where(Room.status == "active",
                            Room.updated_at < utcnow() - timedelta(minutes=stalled_minutes))
    if q and q.strip():
        needle = q.strip().lower()
        by_player = (select(Seat.room_code).join(Player, Seat.player_id == Player.id)
                     .where(func.lower(Player.name).contains(needle, autoescape=True)))
        query = query.where(or_(Room.code.contains(needle, autoescape=True),
                                Room.code.in_(by_player)))
    async with hall.sessions() as session:
        if status or stalled_minutes is not None:
            found = list(await session.scalars(query.order_by(Room.updated_at.desc())
                                               .limit(500)))
        else:
            live = Room.status.in_(("active", "errored"))
            found = [*await session.scalars(query.where(live).order_by(Room.updated_at)
                                            .limit(500)),
                     *await session.scalars(query.where(~live).order_by(Room.updated_at.desc())
                                            .limit(200))]
        players = await _players(session, [r.code for r in found])
    return [{"code": r.code, "game": r.game, "status": r.status, "version": r.version,
             "last_move_at": r.last_move_at, "updated_at": r.updated_at,
             "created_at": r.created_at, "has_error": r.error is not None,
             "error": r.error, "to_act": _to_act(r), "players": players[r.code]}
            for r in found]


async def inspect_room(hall: Context, code: str) -> dict[str, Any]:
    async with hall.sessions() as session:
        room = await rooms.get_room(session, code)
        seats = await rooms.seats_of(session, room.code)
        moves = await log_rows(session, room.code)
        game = REGISTRY[room.game]
        return {
            "room": await rooms.room_payload(session, room),
            "state": room.state,
            "seed": room.seed,
            "error": room.error,
            "to_act": _to_act(room) if room.status == "active" else [],
            "connections": {s.seat: s.connections for s in seats},
            "players": (await _players(session, [room.code]))[room.code],
            "created_at": room.created_at,
            "last_move_at": room.last_move_at,
            "log": [{"version": m.version, "seat": m.seat, "client_id": m.client_id,
                     "move": m.move, "text": game.describe(m.move), "events": m.events,
                     "at": m.created_at, "by": m.by} for m in moves],
        }


async def state_at_version(hall: Context, code: str, version: int) -> dict[str, Any]:
    """The full state the room had at `version`, rebuilt from the log: a rollback's preview."""
    async with hall.sessions() as session:
        room = await rooms.get_room(session, code)
        if room.state is None or not 0 <= version <= room.version:
            raise ApiError(422, "bad_version", f"Pick a version between 0 and {room.version}.")
        seats = await rooms.seats_of(session, room.code)
        rows = await log_rows(session, room.code, upto=version)
    game = REGISTRY[room.game]
    try:
        state = await run_in_threadpool(state_at, room, len(seats), rows, version)
        outcome = game.outcome(state)
        to_act = sorted(game.to_act(state)) if outcome is None else []
    except Exception as exc:
        raise ApiError(409, "room_errored", f"The rules failed while rebuilding version "
                       f"{version}: {type(exc).__name__}: {exc}") from None
    return {"version": version, "state": state, "to_act": to_act,
            "outcome": outcome.to_json() if outcome else None}


async def replay_any(hall: Context, code: str, seat: int | None) -> dict[str, Any]:
    """Any room that has started, at every version, from any seat: the whole log unredacted."""
    return await replay_payload(await hall.store.replay_source(code), seat, whole_log=True)


async def audit_log(hall: Context, room: str | None, limit: int) -> list[dict[str, Any]]:
    """Admin actions, newest first (of one room when `room` is given)."""
    query = select(AdminAction).order_by(AdminAction.id.desc()).limit(limit)
    if room:
        query = query.where(AdminAction.room_code == rooms.normalize_code(room))
    async with hall.sessions() as session:
        return [{"id": a.id, "at": a.at, "actor": a.actor, "action": a.action,
                 "room": a.room_code, "version": a.version, "detail": a.detail}
                for a in await session.scalars(query)]


async def _holder(session: AsyncSession, code: str, seat: int) -> str:
    """The seat's holder as the table names them now (the words of a move's `by`)."""
    row = (await session.execute(
        select(Seat.bot, Player.name).outerjoin(Player, Player.id == Seat.player_id)
        .where(Seat.room_code == code, Seat.seat == seat))).first()
    if row is None:
        return f"Seat {seat + 1}"
    replaced = None
    if row.bot is not None:
        replaced = await session.scalar(select(Player.name).join(
            Seat, Seat.replaced_id == Player.id).where(Seat.room_code == code, Seat.seat == seat))
    return by_name(seat, row.name, row.bot, replaced)


async def replace_with_bot(hall: Context, code: str, seat_no: int, actor: str) -> None:
    async with hall.sessions() as session, transaction(session):
        room = await rooms.get_room(session, code, for_update=True)
        seat = await session.get(Seat, (room.code, seat_no))
        if seat is None:
            raise ApiError(422, "bad_seat", f"This room has no seat {seat_no}.")
        holder = await _holder(session, room.code, seat_no)
        await _audit(session, actor, "bot", room.code, room.version, seat=seat_no,
                     player=seat.player_id, bot=seat.bot,
                     text=f"The admin handed {holder}'s seat to a bot.")
        await absence.hand_to_bot(session, room, seat, "admin")
        await hall.room_changed(room.code, session)
    await hall.after_room_change(room.code)
    hall.bots.wake(room.code)


async def force_zombie_move(hall: Context, code: str, seat: int,
                            actor: str) -> dict[str, Any]:
    async with hall.sessions() as session:
        room = await rooms.get_room(session, code)
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
    async with hall.sessions() as session, transaction(session):
        holder = await _holder(session, room_code, seat)
        await _audit(session, actor, "zombie", room_code, seen, seat=seat, move=move,
                     made=version, text=f"The admin played the default move for {holder}.")
        await hall.room_changed(room_code, session)
    await hall.after_room_change(room_code, state=False, forget=False)
    return {"version": version, "move": move}


async def roll_back(hall: Context, code: str, version: int, actor: str) -> dict[str, Any]:
    """Replay the log from the seed up to `version`, drop what came after, and resume."""
    async with hall.locks.get(rooms.normalize_code(code)), hall.sessions() as session, \
            transaction(session):
        room = await rooms.get_room(session, code, for_update=True)
        if room.status == "finished":  # issue 24: its replay is public, every hand in it and,
            # by the fixed seed, every draw to come: resumed play would be played face up
            raise ApiError(409, "game_finished", "This game is over and its replay, every hand "
                           "included, is public: it cannot be rolled back.")
        if room.state is None or version > room.version:
            raise ApiError(422, "bad_version", f"Pick a version between 0 and {room.version}.")
        game = REGISTRY[room.game]
        seats = await rooms.seats_of(session, room.code)
        kept = await log_rows(session, room.code, upto=version)
        state = replay(game, len(seats), game.Options.model_validate(room.options), room.seed,
                       ((row.seat, row.move) for row in kept))
        await session.execute(delete(MoveRow).where(MoveRow.room_code == room.code,
                                                    MoveRow.version > version))
        await _audit(session, actor, "rollback", room.code, room.version, to=version,
                     status=room.status, dropped=room.version - version,
                     text=f"The admin rolled the game back to move {version}.")
        room.state, room.version, room.error = state, version, None
        room.status = "finished" if game.outcome(state) is not None else "active"
        await hall.room_changed(room.code, session, reset=True)
    await hall.after_room_change(room.code, force_state=True)
    hall.bots.wake(room.code)
    return {"version": version, "status": room.status}


async def abort(hall: Context, code: str, actor: str) -> None:
    async with hall.sessions() as session, transaction(session):
        room = await rooms.get_room(session, code, for_update=True)
        await _audit(session, actor, "abort", room.code, room.version, status=room.status,
                     text="The admin closed this room.")
        room.status = "aborted"
        await hall.room_changed(room.code, session)
    await hall.after_room_change(room.code)
