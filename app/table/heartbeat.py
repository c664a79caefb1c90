"""Connections held by a process that died are given back: heartbeats and a ledger of sockets.

`seats.connections` (kept by app/table/presence.py) counts a seat's open sockets in every process. A
process that dies hard (killed, power lost) never closes its sockets, and its counts would hold
those seats "connected" for ever: nobody could vote a bot in. So every seat socket is also a row
of `seat_sockets` naming its process (spectators' `watchers` rows name it too), and every
process beats in `processes`. Any process that finds another's heartbeat older than
PRESENCE_TIMEOUT_SECONDS takes its rows back from the counts, once (the dead process's row is
deleted by exactly one reaper), and tells the rooms. A socket closing uncounts itself only if
its ledger row is still there, so nothing is uncounted twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from datetime import timedelta
from typing import TYPE_CHECKING

from sqlalchemy import case, delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import Process, Room, Seat, SeatSocket, SeatVote, Watcher, utcnow
from app.store.postgres import seatcount
from app.table import absence, chat

if TYPE_CHECKING:
    from app.hall import Hall

log = logging.getLogger(__name__)


async def seat_connected(hall: Hall, code: str, seat: int,
                         player_id: str | None) -> tuple[int | None, chat.Greeting | None]:
    """Count one more socket for the seat; returns its ledger row (None: not the seat's player)
    and, on Postgres, the socket's chat greeting read with the count (`seatcount.connect`)."""
    if hall.cache is not None:  # Postgres: one statement, NOTIFY only if others listen
        counted = await seatcount.connect(hall.cache.pool, code, seat, player_id,
                                          hall.origin, hall.cache.registered[code])
        if counted.ledger is not None:
            hall.register(code, 1)
        await hall.after_room_change(code, forget=False)
        if counted.ledger is not None and counted.votes:
            await settle_votes(hall, code, votes_known=True)
        return counted.ledger, counted.greeting
    async with hall.sessions() as session, session.begin():
        counted = await session.execute(update(Seat).where(
            Seat.room_code == code, Seat.seat == seat, Seat.player_id == player_id).values(
                connections=Seat.connections + 1, absent_since=None))
        row = None
        if counted.rowcount:
            row = await session.scalar(insert(SeatSocket).values(
                origin=hall.origin, room_code=code, seat=seat, player_id=player_id)
                .returning(SeatSocket.id))
        await hall.room_changed(code, session)
    if row is not None:  # this process's own tally grows only once the count committed
        hall.register(code, 1)
    await hall.after_room_change(code)
    if row is not None:
        await settle_votes(hall, code)
    return row, None


async def seat_disconnected(hall: Hall, code: str, seat: int, player_id: str | None,
                            row: int | None) -> None:
    """Count one socket less, unless a reaper already did (its ledger row is gone)."""
    if row is None:
        return
    hall.register(code, -1)  # ... and shrinks before the count is taken back
    if hall.cache is not None:
        if await seatcount.disconnect(hall.cache.pool, code, seat, player_id, hall.origin,
                                      hall.cache.registered[code], row, utcnow()):
            await hall.after_room_change(code, state=False, forget=False)
            await settle_votes(hall, code)
        return
    async with hall.sessions() as session, session.begin():
        gone = await session.execute(delete(SeatSocket).where(SeatSocket.id == row))
        if not gone.rowcount:
            return
        await _uncount(session, code, seat, player_id, 1)
        await hall.room_changed(code, session)
    await hall.after_room_change(code, state=False)  # a socket gone leaves the state as is
    await settle_votes(hall, code)


_HAS_VOTES = "SELECT EXISTS (SELECT 1 FROM seat_votes WHERE room_code = $1)"


async def _has_votes(hall: Hall, code: str) -> bool:
    if hall.cache is not None:  # Postgres: a prepared statement, no SQLAlchemy round trip
        held = hall.cache.get(code)
        if held is not None and held.status != "active":
            # Votes count only mid-game (`absence.recount`); a room held here that ended, or
            # has not started, is forgotten by any change that could make it active again.
            return False
        return bool(await hall.cache.pool.fetchval(_HAS_VOTES, code))
    async with hall.reader.connect() as conn:
        return await conn.scalar(select(SeatVote.seat).where(SeatVote.room_code == code)
                                 .limit(1)) is not None


async def settle_votes(hall: Hall, code: str, votes_known: bool = False) -> None:
    """A seat's connection count changed: votes already cast may be a majority now, with nobody
    voting again (`absence.recount`). Run by the process whose count changed, under the room's
    row lock, so the seat is handed over once whichever processes count at the same moment.
    `votes_known`: the caller already saw votes on record."""
    try:
        if not votes_known and not await _has_votes(hall, code):
            return  # the usual case: one cheap read
        async with hall.locks.get(code), hall.sessions() as session, session.begin():
            room = await session.get(Room, code, with_for_update=True)
            handed = room is not None and await absence.recount(session, room)
            if handed:
                await hall.room_changed(code, session)
    except Exception:
        log.exception("could not count the votes in room %s", code)
        return
    if handed:
        await hall.after_room_change(code)
        hall.bots.wake(code)


async def _uncount(session: AsyncSession, code: str, seat: int, player_id: str | None,
                   sockets: int) -> None:
    left = Seat.connections - sockets
    await session.execute(update(Seat).where(
        Seat.room_code == code, Seat.seat == seat, Seat.player_id == player_id).values(
            connections=case((left <= 0, 0), else_=left),
            # the last connection closing starts the absence grace period (app.table.absence)
            absent_since=case((left <= 0, utcnow()), else_=None)))


class Heartbeat:
    """This process's heartbeat, and the reaper of processes that stopped beating."""

    def __init__(self, hall: Hall) -> None:
        self._hall = hall
        self._timeout = hall.settings.presence_timeout_seconds
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self._beat()
        self._task = asyncio.get_running_loop().create_task(self._watch())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        async with self._hall.sessions() as session, session.begin():
            await session.execute(delete(Process).where(Process.origin == self._hall.origin))

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self._timeout / 4)
            try:
                await self._beat()
                await self.reap()
            except Exception:
                log.exception("presence heartbeat failed")

    async def _beat(self) -> None:
        async with self._hall.sessions() as session, session.begin():
            beat = await session.execute(update(Process).where(
                Process.origin == self._hall.origin).values(seen_at=utcnow()))
            if not beat.rowcount:
                session.add(Process(origin=self._hall.origin, seen_at=utcnow()))

    async def reap(self) -> None:
        """Give back the seats of processes whose heartbeat stopped."""
        cutoff = utcnow() - timedelta(seconds=self._timeout)
        async with self._hall.sessions() as session, session.begin():
            dead = list(await session.scalars(delete(Process).where(
                Process.seen_at < cutoff).returning(Process.origin)))
            # Also the rows of a process that stopped with sockets still open (no row left).
            rows = (await session.execute(delete(SeatSocket).where(
                SeatSocket.origin.not_in(select(Process.origin))).returning(
                    SeatSocket.room_code, SeatSocket.seat, SeatSocket.player_id))).all()
            watched = set(await session.scalars(delete(Watcher).where(
                Watcher.origin.not_in(select(Process.origin))).returning(Watcher.room_code)))
            if not rows and not watched:
                return
            for (code, seat, player_id), sockets in Counter(map(tuple, rows)).items():
                await _uncount(session, code, seat, player_id, sockets)
            rooms = {row.room_code for row in rows}
            for code in rooms:
                await self._hall.room_changed(code, session)
            for code in watched:
                await self._hall.hub.notify_in(session, f"watch:{code}:{self._hall.origin}")
        log.warning("processes %s stopped beating; %d seat sockets and %d spectators given "
                    "back", dead, len(rows), len(watched))
        for code in rooms:
            await self._hall.after_room_change(code)
            await settle_votes(self._hall, code)
        for code in watched:
            await chat.tell_watchers(self._hall, code)
