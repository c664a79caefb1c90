"""Connections held by a process that died are given back: heartbeats and a ledger of sockets.

`seats.connections` (kept by app/table/presence.py) counts a seat's open sockets in every process. A
process that dies hard (killed, power lost) never closes its sockets, and its counts would hold
those seats "connected" for ever: nobody could vote a bot in. So every seat socket is also a row
of `seat_sockets` naming its process (spectators' `watchers` rows name it too), and every
process beats in `processes`. Any process that finds another's heartbeat older than
PRESENCE_TIMEOUT_SECONDS takes its rows back from the counts, once (the dead process's row is
deleted by exactly one reaper), and tells the rooms. A socket closing uncounts itself only if
its ledger row is still there, so nothing is uncounted twice.

A dead process also drove bots: a room's bots are moved by the process whose move (or join,
start, vote) last woke them, so an all-bot room whose driver died would freeze (issue 24). The
reaper that deleted a dead process's row wakes the bots of every active room with a bot seat; a
room whose bots are not to act costs one read. Turn clocks need no hand-over: every process
watches every room's clock (`app.table.clocks`).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from app.context import Context, RoomRead
from app.play.sockets import Greeting
from app.table import chat
from app.utc import utcnow

log = logging.getLogger(__name__)


async def seat_connected(hall: Context, code: str, seat: int,
                         player_id: str | None) -> tuple[int | None, Greeting | None]:
    """Count one more socket for the seat; returns its ledger row (None: not the seat's player)
    and the socket's chat greeting when the store read it with the count."""
    mark = hall.sockets.ticket()
    due = hall.presence_pushes.due(code)  # closes committed before this count and its read
    counted = await hall.presence.seat_connected(code, seat, player_id)
    if counted.ledger is not None:  # this process's own tally grows once the count committed
        hall.register(code, 1)
    read = None
    if counted.room is not None and not hall.sockets.read_since(code, mark):
        read = RoomRead(hall.sockets.ticket(), *counted.room)
    hall.presence_pushes.covered(code, due)  # the push below reads the room after them
    await hall.after_room_change(code, forget=False, read=read)
    if counted.ledger is not None and counted.votes is not False:
        await settle_votes(hall, code, votes_known=bool(counted.votes))
    return counted.ledger, None if counted.chat is None else chat.greeting_of(counted.chat)


async def seat_disconnected(hall: Context, code: str, seat: int, player_id: str | None,
                            row: int | None) -> None:
    """Count one socket less, unless a reaper already did (its ledger row is gone)."""
    if row is None:
        return
    hall.register(code, -1)  # ... and shrinks before the count is taken back
    if await hall.presence.seat_disconnected(code, seat, player_id, row):
        # a socket gone leaves the state as is, and nothing a held room keeps; its `room`
        # push is coalesced with the room's other connects and closes (`presence_push`)
        hall.presence_pushes.later(code)
        await settle_votes(hall, code)


async def settle_votes(hall: Context, code: str, votes_known: bool = False) -> None:
    """A seat's connection count changed: votes already cast may be a majority now, with nobody
    voting again (`Store.recount_votes`). Run by the process whose count changed, under the room's
    row lock, so the seat is handed over once whichever processes count at the same moment.
    `votes_known`: the caller already saw votes on record."""
    try:
        if not votes_known and not await hall.presence.has_votes(code):
            return  # the usual case: one cheap read
        async with hall.locks.get(code):
            handed = await hall.presence.recount_votes(code)
    except Exception:
        log.exception("could not count the votes in room %s", code)
        return
    if handed:
        await hall.after_room_change(code)
        hall.bots.wake(code)


class Heartbeat:
    """This process's heartbeat, and the reaper of processes that stopped beating."""

    def __init__(self, hall: Context) -> None:
        self._hall = hall
        self._timeout = hall.settings.presence_timeout_seconds
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self._hall.presence.beat()
        self._task = asyncio.get_running_loop().create_task(self._watch())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        await self._hall.presence.stop_beating()

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self._timeout / 4)
            try:
                await self._hall.presence.beat()
                await self.reap()
            except Exception:
                log.exception("presence heartbeat failed")

    async def reap(self) -> None:
        """Give back the seats of processes whose heartbeat stopped, and drive their bots."""
        reaped = await self._hall.presence.reap(utcnow() - timedelta(seconds=self._timeout))
        if reaped.dead:
            log.warning("processes %s stopped beating; their bots in %d rooms driven here",
                        reaped.dead, len(reaped.orphans))
            for code in reaped.orphans:
                self._hall.bots.wake(code)
        if reaped.sockets or reaped.watched:
            log.warning("%d seat sockets and %d spectators of stopped processes given back",
                        reaped.sockets, len(reaped.watched))
        for code in reaped.rooms:
            await self._hall.after_room_change(code)
            await settle_votes(self._hall, code)
        for code in reaped.watched:
            await chat.tell_watchers(self._hall, code)
