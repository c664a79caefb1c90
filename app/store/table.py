"""The store methods of life at the table that both databases run alike, written once in the
SQLAlchemy ORM: turn clocks (the rooms to time out, a clock paused and resumed), this process's
heartbeat and the reaper of dead processes' sockets, votes counted again, and a player's
take-back. `SharedPaths` (and so both stores) inherits them.

Every change commits with the notification that tells the other processes; the caller pushes
the room to this process's sockets afterwards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update

from app.store import orm
from app.store.base import Reaped, U
from app.store.db import OrmPaths, transaction, uncount
from app.store.hub import Hub
from app.store.models import (
    AdminAction,
    MoveRow,
    Player,
    Process,
    Room,
    Seat,
    SeatSocket,
    Watcher,
    utcnow,
)

# The audit action of a player's take-back (`app.play.undo`); its detail keeps the undo id.
TAKE_BACK = "take_back"
_CLOCK_COLUMNS = (Room.code, Room.turn_clock, Room.clock_increment, Room.clock_banks,
                  Room.last_move_at)


class TablePaths(OrmPaths):
    """The ORM paths of clocks, heartbeats, vote recounts and take-backs (see the module)."""

    hub: Hub
    origin: str
    forget: Callable[[str], None]  # each store's own: what it holds of a room is stale

    def _told(self, code: str, kind: str = "room") -> str:
        """The notification that tells every process this one changed the room (`kind`)."""
        return f"{kind}:{code}:{self.origin}"

    # -- turn clocks ----------------------------------------------------------------------------

    async def running_clocks(self) -> list[Any]:
        async with self.reader.connect() as conn:
            return list(await conn.execute(select(*_CLOCK_COLUMNS).where(
                Room.status == "active", Room.turn_clock.is_not(None))))

    async def clocked_rooms(self, codes: list[str]) -> list[tuple[Any, list[Any]]]:
        async with self.sessions() as session:
            found = list(await session.scalars(select(Room).where(
                Room.code.in_(codes), Room.status == "active")))
            seats = list(await session.scalars(select(Seat).where(
                Seat.room_code.in_([room.code for room in found]))))
        return [(room, [s for s in seats if s.room_code == room.code]) for room in found]

    async def pause_clock(self, code: str, version: int, last_move_at: datetime | None,
                          now: datetime) -> bool:
        async with self.sessions() as session, session.begin():
            paused = await session.execute(update(Room).where(
                Room.code == code, Room.version == version,
                Room.last_move_at == last_move_at).values(last_move_at=None, updated_at=now))
            if paused.rowcount:
                await self.hub.notify_in(session, self._told(code))
        return bool(paused.rowcount)

    async def resume_clocks(self, codes: list[str], now: datetime) -> list[str]:
        async with self.sessions() as session, session.begin():
            back = list(await session.scalars(select(Seat.room_code).where(
                Seat.room_code.in_(codes), Seat.player_id.is_not(None),
                Seat.connections > 0).distinct()))
            if back:
                await session.execute(update(Room).where(
                    Room.code.in_(back), Room.last_move_at.is_(None)).values(
                        last_move_at=now, updated_at=now))
                for code in back:
                    await self.hub.notify_in(session, self._told(code))
        return back

    async def tell_room(self, code: str) -> None:
        async with self.sessions() as session, session.begin():
            await self.hub.notify_in(session, self._told(code))

    # -- heartbeats and the reaper --------------------------------------------------------------

    async def beat(self) -> None:
        async with self.sessions() as session, session.begin():
            beat = await session.execute(update(Process).where(
                Process.origin == self.origin).values(seen_at=utcnow()))
            if not beat.rowcount:
                session.add(Process(origin=self.origin, seen_at=utcnow()))

    async def stop_beating(self) -> None:
        async with self.sessions() as session, session.begin():
            await session.execute(delete(Process).where(Process.origin == self.origin))

    async def reap(self, before: datetime) -> Reaped:
        async with self.sessions() as session, session.begin():
            dead = list(await session.scalars(delete(Process).where(
                Process.seen_at < before).returning(Process.origin)))
            orphans = list(await session.scalars(select(Room.code).where(
                Room.status == "active", Room.code.in_(select(Seat.room_code).where(
                    Seat.bot.is_not(None)))))) if dead else []
            # Also the rows of a process that stopped with sockets still open (no row left).
            rows = (await session.execute(delete(SeatSocket).where(
                SeatSocket.origin.not_in(select(Process.origin))).returning(
                    SeatSocket.room_code, SeatSocket.seat, SeatSocket.player_id))).all()
            watched = set(await session.scalars(delete(Watcher).where(
                Watcher.origin.not_in(select(Process.origin))).returning(Watcher.room_code)))
            for (code, seat, player_id), sockets in Counter(map(tuple, rows)).items():
                await uncount(session, code, seat, player_id, sockets)
            counted = {row.room_code for row in rows}
            for code in counted:
                await self.hub.notify_in(session, self._told(code))
            for code in watched:
                await self.hub.notify_in(session, self._told(code, "watch"))
        return Reaped(dead, orphans, len(rows), counted, watched)

    # -- votes ----------------------------------------------------------------------------------

    async def recount_votes(self, code: str) -> bool:
        async with self.sessions() as session, session.begin():
            room = await session.get(Room, code, with_for_update=True)
            handed = room is not None and await orm.recount(session, room)
            if handed:
                await self.hub.notify_in(session, self._told(code))
        return handed

    # -- take-backs -----------------------------------------------------------------------------

    async def take_back(self, code: str, player_id: str, undo_id: str,
                        judge: Callable[[Any, list[Any], list[Any], str | None], Awaitable[U]]
                        ) -> tuple[int, U | None]:
        async with self.sessions() as session, transaction(session):
            room = await orm.get_room(session, code, for_update=True)
            for detail in await session.scalars(select(AdminAction.detail).where(
                    AdminAction.room_code == room.code, AdminAction.action == TAKE_BACK)):
                if detail.get("id") == undo_id and detail.get("player") == player_id:
                    return int(detail["made"]), None
            seats = await orm.seats_of(session, room.code)
            rows = list(await session.scalars(select(MoveRow).where(
                MoveRow.room_code == room.code).order_by(MoveRow.version)))
            name = await session.scalar(select(Player.name).where(Player.id == player_id))
            undoing = await judge(room, seats, rows, name)
            session.add(AdminAction(actor=undoing.actor, action=TAKE_BACK, room_code=room.code,
                                    version=room.version, detail=undoing.detail))
            await session.delete(rows[-1])
            room.state, room.version = undoing.before, room.version - 1
            room.clock_banks = undoing.banks
            await self.hub.notify_in(session, self._told(room.code, "reset"))
        # Before the caller lets the next move of the room be judged: not on what the store
        # holds of it from before the take-back.
        self.forget(room.code)
        return room.version, undoing
