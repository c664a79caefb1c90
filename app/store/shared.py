"""The store methods both databases run alike: the rarer paths (a token renewed, the open rooms,
leaving, votes and handovers, a rematch, the move log, replays, a chat line), written once in
the SQLAlchemy ORM. `SqliteStore` and `PostgresStore` inherit them; what differs between the two
databases (the hot path) each store writes itself.

Every change here is one transaction that takes the room's row lock and commits with the
notification that tells the other processes (`room:<code>:<origin>`); the caller pushes the
room to this process's sockets afterwards.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, and_, bindparam, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.core.movelog import by_name
from app.errors import ApiError
from app.store import orm, snapshots
from app.store.base import (
    AdminRoom,
    AdminRooms,
    GameEnd,
    LineCheck,
    LogRead,
    Rebuild,
    ReplayRead,
    RoomLog,
)
from app.store.db import transaction
from app.store.hub import Hub
from app.store.models import (
    AdminAction,
    ChatMessage,
    Device,
    MoveRow,
    Player,
    Room,
    Seat,
    Watcher,
)
from app.store.table import TablePaths

PLAYERS, DEVICES = Player.__table__, Device.__table__
# A room in one of these states is over; it is deleted once its retention runs out.
CLOSED = ("finished", "aborted", "errored")
# The moves of the rooms a sweep deleted (no foreign key deletes them: migration 0022), built
# once: an `.in_()` built per call leaves its bind parameters in cycles (app/store/bot_games.py).
_DELETE_MOVES = delete(MoveRow).where(MoveRow.room_code.in_(bindparam("codes", expanding=True)))
# Open rooms listed at most (the newest).
OPEN_ROOMS = 100

T = TypeVar("T")


class SharedPaths(TablePaths):
    """The ORM paths of the `Store` protocol (see the module's docstring; the table's own in
    `TablePaths`)."""

    hub: Hub
    origin: str
    game_end: GameEnd | None = None  # set by the Hall (app/social/ends.py)

    async def _in_room(self, code: str, action: Callable[..., Awaitable[T]],
                       *args: Any) -> tuple[str, T]:
        """`action(session, room, *args)` under the room's row lock, committed with the room's
        notification; the room's code and what the action returned. FOR UPDATE does nothing on
        SQLite: there the caller's writer lock (one for all rooms) serialises the changes."""
        async with self.sessions() as session, transaction(session):
            room = await orm.get_room(session, code, for_update=True)
            result = await action(session, room, *args)
            await self.hub.notify_in(session, f"room:{room.code}:{self.origin}")
        return room.code, result

    # -- players ----------------------------------------------------------------------------

    async def renew_token(self, device_id: str, at: datetime) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(DEVICES).where(DEVICES.c.id == device_id).values(
                renewed_at=at, last_seen=at))

    # -- rooms and seats -----------------------------------------------------------------------

    async def active_rooms(self) -> list[str]:
        async with self.sessions() as session:
            return list(await session.scalars(select(Room.code).where(Room.status == "active")))

    async def mark_errored(self, code: str, error: str) -> bool:
        async with self.sessions() as session, session.begin():
            room = await session.get(Room, code, with_for_update=True)
            if room is None or room.status == "errored":
                return False
            room.status, room.error = "errored", error
            await self.hub.notify_in(session, f"room:{code}:{self.origin}")
        return True

    async def close_idle_rooms(self, lobby_before: datetime | None,
                               quiet_before: datetime | None, now: datetime) -> list[str]:
        idle: list[ColumnElement[bool]] = []
        if lobby_before is not None:
            idle.append(and_(Room.status == "lobby", Room.updated_at < lobby_before))
        if quiet_before is not None:
            idle.append(and_(Room.status == "active", _last_activity() < quiet_before))
        if not idle:
            return []
        async with self.sessions() as session, session.begin():
            codes = list(await session.scalars(
                update(Room).where(or_(*idle)).values(status="aborted", updated_at=now)
                .returning(Room.code)))
            for code in codes:
                await self.hub.notify_in(session, f"room:{code}:{self.origin}")
        return codes

    async def delete_closed_rooms(self, before: datetime) -> None:
        """Rooms closed before `before`, with their moves (no foreign key deletes those)."""
        async with self.sessions() as session, session.begin():
            codes = list(await session.scalars(delete(Room).where(
                Room.status.in_(CLOSED), _last_activity() < before, Room.updated_at < before)
                .returning(Room.code)))
            if codes:
                await session.execute(_DELETE_MOVES, {"codes": codes})

    async def open_rooms(self) -> list[dict[str, Any]]:
        async with self.sessions() as session:
            found = await session.scalars(select(Room).where(Room.status == "lobby",
                                                             Room.private.is_(False))
                                          .order_by(Room.created_at.desc()).limit(OPEN_ROOMS))
            return [await orm.room_payload(session, room) for room in found]

    async def leave_room(self, code: str, player: Player) -> str:
        return (await self._in_room(code, orm.leave, player))[0]

    async def rematch(self, code: str, player: Player) -> tuple[str, dict[str, Any], bool]:
        """The old room's code, the next room's wire object, and whether it was made now (only
        then is the old room changed and every process told)."""
        async with self.sessions() as session, transaction(session):
            old = await orm.get_room(session, code, for_update=True)
            if old.next_room:
                made = await orm.get_room(session, old.next_room)
                return old.code, await orm.room_payload(session, made), False
            seats = await orm.seats_of(session, old.code)
            if player.id not in {s.player_id for s in seats} and player.id != old.host_id:
                raise ApiError(403, "not_seated", "Only the players of this room can start a "
                               "new game from it.")
            new = await orm.create_room(session, player, old.game, old.options, len(seats),
                                          old.private, old.turn_clock, old.clock_increment,
                                          old.standin_level, old.pace or "live")
            old.next_room = new.code
            await self.hub.notify_in(session, f"room:{old.code}:{self.origin}")
            return old.code, await orm.room_payload(session, new), True

    async def set_spectators_muted(self, code: str, host: Player, muted: bool) -> str:
        async def mute(_: AsyncSession, room: Room) -> None:
            if room.host_id != host.id:
                raise ApiError(403, "not_host", "Only the host can mute spectators.")
            room.spectators_muted = muted

        return (await self._in_room(code, mute))[0]

    # -- votes and handovers ----------------------------------------------------------------------

    async def vote(self, code: str, voter: Player, seat: int) -> str:
        return (await self._in_room(code, orm.vote, voter, seat))[0]

    async def reclaim(self, code: str, player: Player) -> str:
        return (await self._in_room(code, orm.reclaim, player))[0]

    # -- the log ------------------------------------------------------------------------------

    async def move_log(self, code: str, viewer_id: str | None, after: int = 0) -> LogRead:
        async with self.sessions() as session:
            room = await orm.get_room(session, code)
            seat = None
            if viewer_id is not None:
                seat = await session.scalar(select(Seat.seat).where(
                    Seat.room_code == room.code, Seat.player_id == viewer_id))
            rows = list(await session.scalars(select(MoveRow).where(
                MoveRow.room_code == room.code, MoveRow.version > after)
                .order_by(MoveRow.version)))
        return LogRead(room, seat, rows)

    async def replay_source(self, code: str) -> ReplayRead:
        async with self.sessions() as session:
            room = await orm.get_room(session, code)
            seats = len(await orm.seats_of(session, room.code))
            rows = list(await session.scalars(select(MoveRow).where(
                MoveRow.room_code == room.code).order_by(MoveRow.version)))
            return ReplayRead(room, seats, rows, await orm.room_payload(session, room))

    # -- chat ------------------------------------------------------------------------------

    async def say(self, code: str, player_id: str, text: str, check: LineCheck) -> Any:
        async with self.sessions() as session, session.begin():
            room = await session.get(Room, code)
            player = await session.get(Player, player_id)
            if room is None or player is None:
                raise ApiError(404, "room_not_found", "This room no longer exists.")
            seat = await session.scalar(select(Seat.seat).where(
                Seat.room_code == room.code, Seat.player_id == player.id))
            check(room, player, seat)
            row = ChatMessage(room_code=room.code, player_id=player.id, name=player.name,
                              seat=seat, text=text)
            session.add(row)
            await session.flush()
            await self.hub.notify_in(session, f"chat:{room.code}:{self.origin}:{row.id}")
        return row

    async def chat_line(self, line_id: int) -> Any | None:
        async with self.sessions() as session:
            return await session.get(ChatMessage, line_id)

    async def watch(self, code: str, player_id: str | None) -> int:
        async with self.sessions() as session, session.begin():
            row = Watcher(room_code=code, player_id=player_id, origin=self.origin)
            session.add(row)
            await session.flush()
            await self.hub.notify_in(session, f"watch:{code}:{self.origin}")
        return row.id

    async def unwatch(self, code: str, row_id: int | None) -> None:
        async with self.sessions() as session, session.begin():
            if row_id is not None:
                await session.execute(delete(Watcher).where(Watcher.id == row_id))
            await self.hub.notify_in(session, f"watch:{code}:{self.origin}")

    # -- the admin's actions and the audit log ---------------------------------------------------

    async def admin_rooms(self, status: str | None, quiet_since: datetime | None,
                          q: str | None) -> AdminRooms:
        query = select(Room)
        if status:
            query = query.where(Room.status == status)
        if quiet_since is not None:
            query = query.where(Room.status == "active", Room.updated_at < quiet_since)
        if q and q.strip():
            needle = q.strip().lower()
            by_player = (select(Seat.room_code).join(Player, Seat.player_id == Player.id)
                         .where(func.lower(Player.name).contains(needle, autoescape=True)))
            query = query.where(or_(Room.code.contains(needle, autoescape=True),
                                    Room.code.in_(by_player)))
        async with self.sessions() as session:
            if status or quiet_since is not None:
                found = list(await session.scalars(query.order_by(Room.updated_at.desc())
                                                   .limit(500)))
            else:
                live = Room.status.in_(("active", "errored"))
                found = [*await session.scalars(query.where(live).order_by(Room.updated_at)
                                                .limit(500)),
                         *await session.scalars(query.where(~live)
                                                .order_by(Room.updated_at.desc()).limit(200))]
            # who is to act (`console._to_act`), from the state at each active room's version
            await snapshots.resolve(session, [r for r in found if r.status == "active"])
            return AdminRooms(found, await _players(session, [r.code for r in found]))

    async def admin_room(self, code: str) -> AdminRoom:
        async with self.sessions() as session:
            room = await orm.get_room(session, code)
            await snapshots.resolve(session, [room])
            seats = await orm.seats_of(session, room.code)
            moves = list(await session.scalars(select(MoveRow).where(
                MoveRow.room_code == room.code).order_by(MoveRow.version)))
            return AdminRoom(room, seats, moves, await orm.room_payload(session, room),
                             (await _players(session, [room.code]))[room.code])

    async def room_log(self, code: str, upto: int | None = None) -> RoomLog:
        async with self.sessions() as session:
            room = await orm.get_room(session, code)
            seats = await orm.seats_of(session, room.code)
            query = select(MoveRow).where(MoveRow.room_code == room.code)
            if upto is not None:
                query = query.where(MoveRow.version <= upto)
            rows = list(await session.scalars(query.order_by(MoveRow.version)))
        return RoomLog(room, len(seats), rows)

    async def room_row(self, code: str) -> Any:
        async with self.sessions() as session:
            room = await orm.get_room(session, code)
            await snapshots.resolve(session, [room])
            return room

    async def audit_log(self, code: str | None, limit: int) -> list[Any]:
        query = select(AdminAction).order_by(AdminAction.id.desc()).limit(limit)
        if code:
            query = query.where(AdminAction.room_code == code)
        async with self.sessions() as session:
            return list(await session.scalars(query))

    async def audit_look(self, code: str, actor: str, statuses: tuple[str, ...],
                         detail: dict[str, Any]) -> None:
        async with self.sessions() as session, transaction(session):
            room = await session.get(Room, code)
            if room is None or room.status not in statuses:
                return
            # The console re-reads an open room every few seconds: a look at a version this
            # admin already looked at the same way shows nothing new, and is written once.
            last = (await session.execute(
                select(AdminAction.version, AdminAction.detail)
                .where(AdminAction.room_code == room.code, AdminAction.actor == actor,
                       AdminAction.action == "read")
                .order_by(AdminAction.id.desc()).limit(1))).first()
            if last is not None and last.version == room.version and last.detail == detail:
                return
            session.add(AdminAction(actor=actor, action="read", room_code=room.code,
                                    version=room.version, detail=detail))

    async def admin_hand_to_bot(self, code: str, seat_no: int, actor: str) -> str:
        async with self.sessions() as session, transaction(session):
            room = await orm.get_room(session, code, for_update=True)
            seat = await session.get(Seat, (room.code, seat_no))
            if seat is None:
                raise ApiError(422, "bad_seat", f"This room has no seat {seat_no}.")
            if room.status in ("finished", "aborted"):  # nothing left to play for the bot
                raise ApiError(409, "not_playing", "This game is over: its seats are not "
                               "handed to bots.")
            holder = await _holder(session, room.code, seat_no)
            _audit(session, actor, "bot", room.code, room.version, seat=seat_no,
                   player=seat.player_id, bot=seat.bot,
                   text=f"The admin handed {holder}'s seat to a bot.")
            await orm.hand_to_bot(session, room, seat, "admin")
            await self.hub.notify_in(session, f"room:{room.code}:{self.origin}")
        return room.code

    async def admin_note_zombie(self, code: str, seat: int, seen: int, move: Any, made: int,
                                actor: str) -> None:
        async with self.sessions() as session, transaction(session):
            holder = await _holder(session, code, seat)
            _audit(session, actor, "zombie", code, seen, seat=seat, move=move, made=made,
                   text=f"The admin played the default move for {holder}.")
            await self.hub.notify_in(session, f"room:{code}:{self.origin}")

    async def admin_roll_back(self, code: str, version: int, actor: str,
                              rebuild: Rebuild) -> tuple[str, str]:
        async with self.sessions() as session, transaction(session):
            room = await orm.get_room(session, code, for_update=True)
            if room.status == "finished":  # its replay is public, every hand in it and, by
                # the fixed seed, every draw to come: resumed play would be played face up
                raise ApiError(409, "game_finished", "This game is over and its replay, every "
                               "hand included, is public: it cannot be rolled back.")
            if room.state is None or version > room.version:
                raise ApiError(422, "bad_version",
                               f"Pick a version between 0 and {room.version}.")
            seats = await orm.seats_of(session, room.code)
            kept = list(await session.scalars(select(MoveRow).where(
                MoveRow.room_code == room.code, MoveRow.version <= version)
                .order_by(MoveRow.version)))
            state, finished = rebuild(room, len(seats), kept)
            await session.execute(delete(MoveRow).where(MoveRow.room_code == room.code,
                                                        MoveRow.version > version))
            _audit(session, actor, "rollback", room.code, room.version, to=version,
                   status=room.status, dropped=room.version - version,
                   text=f"The admin rolled the game back to move {version}.")
            room.state, room.version, room.error = state, version, None
            room.status = "finished" if finished else "active"
            await self.hub.notify_in(session, f"reset:{room.code}:{self.origin}")
        return room.code, room.status

    async def admin_abort(self, code: str, actor: str) -> str:
        async with self.sessions() as session, transaction(session):
            room = await orm.get_room(session, code, for_update=True)
            _audit(session, actor, "abort", room.code, room.version, status=room.status,
                   text="The admin closed this room.")
            room.status = "aborted"
            await self.hub.notify_in(session, f"room:{room.code}:{self.origin}")
        return room.code


async def _players(session: AsyncSession, codes: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Each room's seats: who holds them, the player a bot stands in for (`replaced`, so the
    console names the bot as the table does: "Bot for Ada"), and whether they are connected."""
    stood_for = aliased(Player)
    rows = (await session.execute(
        select(Seat, Player.name, stood_for.name).outerjoin(Player, Seat.player_id == Player.id)
        .outerjoin(stood_for, Seat.replaced_id == stood_for.id)
        .where(Seat.room_code.in_(codes)).order_by(Seat.room_code, Seat.seat))).all()
    found: dict[str, list[dict[str, Any]]] = {code: [] for code in codes}
    for seat, name, replaced in rows:
        found[seat.room_code].append({"seat": seat.seat, "name": name, "bot": seat.bot,
                                      "replaced": replaced if seat.bot is not None else None,
                                      "connections": seat.connections,
                                      "connected": seat.bot is not None or seat.connections > 0})
    return found


def _last_activity() -> ColumnElement[Any]:
    return func.coalesce(Room.last_move_at, Room.updated_at)


def _audit(session: AsyncSession, actor: str, action: str, code: str, version: int | None,
           **detail: Any) -> None:
    """One audit line in the action's own transaction, so that it commits with the action.
    `text` in `detail`: the sentence the players' log shows (`app.core.tablelog`)."""
    session.add(AdminAction(actor=actor, action=action, room_code=code, version=version,
                            detail=detail))


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
