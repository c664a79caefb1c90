"""`AskStore` (app/takeback/store.py) over the store's own SQLAlchemy sessions: asks and answers
are lines of the audit log (`admin_actions`), the take-back itself the `take_back` line, written
with the room going back in one transaction under the room's row lock."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core import rooms
from app.core.asks import ANSWER, ASK, TAKE_BACK, Ask, AskJudge, Outcome
from app.errors import ApiError
from app.store import orm
from app.store.db import transaction
from app.store.hub import Hub
from app.store.models import AdminAction, MoveRow, Player, Room


class SqlAskStore:
    """`AskStore` over the store's own SQLAlchemy sessions, for SQLite and Postgres alike."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], hub: Hub,
                 origin: str) -> None:
        self._sessions, self._hub, self._origin = sessions, hub, origin

    async def latest(self, code: str) -> tuple[Ask | None, int]:
        async with self._sessions() as session:
            code = rooms.normalize_code(code)
            version = await session.scalar(select(Room.version).where(Room.code == code))
            if version is None:  # not the whole row: a state may be large
                raise ApiError(404, "room_not_found", f"There is no room with the code {code!r}.")
            return await _latest(session, code), version

    async def ask(self, code: str, player_id: str, ask_id: str, seen_version: int,
                  judge: AskJudge) -> Outcome:
        async with self._sessions() as session, transaction(session):
            room = await orm.get_room(session, code, for_update=True)
            latest = await _latest(session, room.code)
            if latest is not None and latest.ask_id == ask_id and latest.player == player_id:
                return Outcome(latest, room.version, False, repeated=True)
            _check_playing(room, seen_version)
            if latest is not None and latest.status(room.version) == "open":
                raise ApiError(409, "takeback_pending", f"{latest.name} already asked to take "
                               f"back move {latest.move}: it is being answered.")
            seats = await orm.seats_of(session, room.code)
            rows = await _rows(session, room.code)
            seat, back_to, what, before = await judge(room, seats, rows, player_id)
            name = await session.scalar(select(Player.name).where(Player.id == player_id))
            waiting = [s.seat for s in seats if s.seat != seat and s.player_id is not None
                       and s.bot is None]
            line = AdminAction(actor=(name or f"Seat {seat + 1}")[:40], action=ASK,
                               room_code=room.code, version=room.version,
                               detail={"ask": ask_id, "player": player_id, "seat": seat,
                                       "name": name or f"Seat {seat + 1}",
                                       "move": back_to + 1, "what": what, "waiting": waiting,
                                       "head": _head(rows)})
            session.add(line)
            await session.flush()
            made = _ask_of(line)
            if not waiting:  # bots only: they accept at once
                await self._go_back(session, room, made, before)
            await self._tell(session, room.code, made.done)
            return Outcome(made, room.version, made.done)

    async def answer(self, code: str, player_id: str, answer_id: str, seen_version: int,
                     accept: bool, judge: AskJudge) -> Outcome:
        async with self._sessions() as session, transaction(session):
            room = await orm.get_room(session, code, for_update=True)
            latest = await _latest(session, room.code)
            if latest is not None and answer_id in _answer_ids(latest, player_id):
                return Outcome(latest, room.version, False, repeated=True)
            _check_playing(room, seen_version)
            if latest is None or latest.status(room.version) != "open":
                raise ApiError(409, "no_takeback", "Nobody is asking to take back a move now.")
            rows = await _rows(session, room.code)
            if _head(rows) != latest.head:  # rolled back and played on to the ask's version
                raise ApiError(409, "no_takeback", "The game changed since that ask: ask again.")
            seats = await orm.seats_of(session, room.code)
            seat = next((s.seat for s in seats if s.player_id == player_id), None)
            if seat is None or seat not in latest.waiting:
                raise ApiError(403, "not_asked", "This take-back is not yours to answer.")
            if seat in latest.accepted:
                raise ApiError(409, "already_answered", "You already accepted this take-back.")
            session.add(AdminAction(
                actor=await _name(session, player_id, seat), action=ANSWER,
                room_code=room.code, version=room.version,
                detail={"of": latest.id, "id": answer_id, "player": player_id, "seat": seat,
                        "accept": accept}))
            if accept:
                latest.accepted.append(seat)
            else:
                latest.declined = seat
            if accept and set(latest.accepted) >= set(latest.waiting):
                # Judged again: the room may have been rolled back and moved on to the ask's
                # version with other moves since (the version alone does not say).
                _, back_to, _, before = await judge(room, seats, rows, latest.player)
                if back_to != latest.move - 1:
                    raise ApiError(409, "no_takeback", "The game changed since that ask: ask "
                                   "again.")
                await self._go_back(session, room, latest, before)
            await self._tell(session, room.code, latest.done)
            return Outcome(latest, room.version, latest.done)

    async def _go_back(self, session: AsyncSession, room: Room, ask: Ask, before: Any) -> None:
        """The moves from the asker's on are dropped and the room goes back, with the line
        the players' log shows, in the caller's transaction."""
        back_to = ask.move - 1
        agreed = await _agreed(session, room.code, ask)
        text = (f"{ask.name} took back move {ask.move}: {ask.what}"
                + (f" ({agreed} agreed)." if agreed else " (the bots agreed)."))
        session.add(AdminAction(actor=ask.name[:40], action=TAKE_BACK, room_code=room.code,
                                version=room.version,
                                detail={"asked": ask.id, "player": ask.player, "seat": ask.seat,
                                        "made": back_to, "dropped": room.version - back_to,
                                        "text": text}))
        await session.execute(delete(MoveRow).where(MoveRow.room_code == room.code,
                                                    MoveRow.version > back_to))
        room.state, room.version, room.error = before, back_to, None
        ask.done = True

    async def _tell(self, session: AsyncSession, code: str, went_back: bool) -> None:
        """Every other process relays the ask; a room that went back resends its state."""
        await self._hub.notify_in(session, f"takeback:{code}:{self._origin}")
        if went_back:
            await self._hub.notify_in(session, f"reset:{code}:{self._origin}")


def _check_playing(room: Room, seen_version: int) -> None:
    if room.status != "active" or room.state is None:
        raise ApiError(409, "cannot_take_back", "The game is not being played: there is "
                       "nothing to take back.")
    if seen_version != room.version:
        raise ApiError(409, "stale", "The game moved on since you asked; here is the current "
                       "state.")


async def _rows(session: AsyncSession, code: str) -> list[MoveRow]:
    return list(await session.scalars(select(MoveRow).where(MoveRow.room_code == code)
                                      .order_by(MoveRow.version)))


async def _name(session: AsyncSession, player_id: str, seat: int) -> str:
    name = await session.scalar(select(Player.name).where(Player.id == player_id))
    return (name or f"Seat {seat + 1}")[:40]


async def _latest(session: AsyncSession, code: str) -> Ask | None:
    """The room's newest ask, with its answers and whether it was carried out."""
    line = await session.scalar(select(AdminAction).where(
        AdminAction.room_code == code, AdminAction.action == ASK)
        .order_by(AdminAction.id.desc()).limit(1))
    if line is None:
        return None
    ask = _ask_of(line)
    later = await session.scalars(select(AdminAction).where(
        AdminAction.room_code == code, AdminAction.action.in_((ANSWER, TAKE_BACK)),
        AdminAction.id > line.id).order_by(AdminAction.id))
    for action in later:
        detail = action.detail or {}
        if action.action == TAKE_BACK:
            ask.done = ask.done or detail.get("asked") == ask.id
        elif detail.get("of") == ask.id:
            ask.answers.append((detail.get("id"), detail.get("player")))
            if detail.get("accept"):
                ask.accepted.append(detail["seat"])
            else:
                ask.declined = detail["seat"]
    return ask


def _ask_of(line: AdminAction) -> Ask:
    d = line.detail
    return Ask(line.id, line.version or 0, d["seat"], d["player"], d["name"], d["move"],
               d["what"], list(d["waiting"]), ask_id=d["ask"], head=d.get("head", ""))


def _head(rows: list[MoveRow]) -> str:
    """The newest move row, as no other row will be again (SQLite may reuse a deleted row's
    id; a move made again after a rollback has another time)."""
    if not rows:
        return ""
    row = rows[-1]
    return f"{row.version}:{row.seat}:{row.client_id}:{row.created_at.isoformat()}"


def _answer_ids(ask: Ask, player_id: str) -> set[str]:
    return {answer for answer, player in ask.answers if player == player_id}


async def _agreed(session: AsyncSession, code: str, ask: Ask) -> str:
    """Who accepted, by name ("Bob and Carol"); empty when only bots were asked."""
    if not ask.accepted:
        return ""
    names = []
    for action in await session.scalars(select(AdminAction).where(
            AdminAction.room_code == code, AdminAction.action == ANSWER,
            AdminAction.id > ask.id).order_by(AdminAction.id)):
        if (action.detail or {}).get("of") == ask.id and action.detail.get("accept"):
            names.append(action.actor)
    return " and ".join(names) if names else ""
