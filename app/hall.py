"""The Hall: one per process, wiring the database, the fan-out hub, sockets, locks and bots."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any, NamedTuple

from sqlalchemy import select

from app.config import Settings
from app.guard.quotas import Quotas
from app.play.moves import RoomLocks, error_text
from app.play.snapshot import Snapshot
from app.play.sockets import Client, RoomSockets
from app.store.db import make_engine, make_sessionmaker
from app.store.hub import make_hub
from app.store.models import MoveRow, Room
from app.store.postgres import roomread
from app.store.postgres.roomcache import CachedRoom, RoomCache
from app.table import chat, presence
from app.table.bots import BotDriver
from app.table.clocks import TurnClocks
from app.table.expiry import RoomSweeper
from app.table.heartbeat import Heartbeat
from app.table.rooms import room_deadlines, room_payload
from app.table.seat_clocks import CLOCK_ID_PREFIX

log = logging.getLogger(__name__)


class RoomRead(NamedTuple):
    """A `room` message and the state (None: not read), numbered when the read was issued
    (`RoomSockets.ticket`), so that pushes follow the order of reads, not of answers."""

    ticket: int
    message: dict[str, Any]
    snap: Snapshot | None


class Hall:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        url = settings.async_database_url
        # Names this process in its own notifications, so that it does not relay them twice.
        self.origin = secrets.token_hex(4)
        self.engine = make_engine(url)
        # Single-statement reads, autocommitted: no BEGIN and ROLLBACK round trips around them
        # (every socket's greeting reads several things; issue 10). Same pool as `engine`.
        self.reader = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self.sessions = make_sessionmaker(self.engine)
        self.hub = make_hub(url)
        # Postgres: rooms held in memory, written by conditional statements (app/store/postgres/roomcache.py).
        self.cache = (None if settings.is_sqlite else
                      RoomCache(url.replace("postgresql+asyncpg://", "postgresql://", 1),
                                self.origin))
        self.sockets = RoomSockets(on_seat_change=lambda client: presence.follow(self, client))
        self.locks = RoomLocks(single_writer=settings.is_sqlite)
        self.bots = BotDriver(self, settings.bot_delay_ms / 1000)
        self.clocks = TurnClocks(self)
        self.heartbeat = Heartbeat(self)
        self.quotas = Quotas(settings)
        self.sweeper = RoomSweeper(self)
        self._background: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        if self.cache is not None:
            await self.cache.start()
        await self.hub.start(self.on_notify)
        await self._wake_waiting_bots()
        self.clocks.start()
        self.sweeper.start()
        await self.heartbeat.start()

    async def stop(self) -> None:
        await self.sweeper.stop()
        await self.clocks.stop()
        await self.heartbeat.stop()
        await self.bots.stop()
        await self.hub.stop()
        if self.cache is not None:
            await self.cache.stop()
        await self.engine.dispose()

    async def _wake_waiting_bots(self) -> None:
        """After a restart, rooms whose bots were mid-game carry on."""
        async with self.sessions() as session:
            codes = await session.scalars(select(Room.code).where(Room.status == "active"))
            for code in codes:
                self.bots.wake(code)

    # -- pushing -----------------------------------------------------------------------------

    def push(self, snap: Snapshot, force: bool = False, only: Client | None = None) -> None:
        self.sockets.push_state(snap, lambda exc: self._errored_later(snap.code, exc), force,
                                only)

    def _errored_later(self, code: str, exc: BaseException) -> None:
        """A view failed while pushing (sync code): error the room as soon as we can."""
        task = asyncio.get_running_loop().create_task(self.mark_errored(code, exc))
        self._background.add(task)  # keep a reference until it finishes
        task.add_done_callback(self._background.discard)

    def register(self, code: str, delta: int) -> None:
        """This process counted (+1) or uncounted (-1) one of its sockets in `seats.connections`
        or `watchers`; moves NOTIFY only when those count more sockets than this process's."""
        if self.cache is not None:
            self.cache.registered.add(code, delta)

    async def load_snapshot(self, code: str) -> Snapshot | None:
        """The room's state as committed now (on Postgres, also refreshing the room held)."""
        if self.cache is not None:
            held = await self.cache.load(code)
            return None if held is None else _snapshot_of(held)
        async with self.sessions() as session:
            room = await session.get(Room, code)
            if room is None:
                return None
            last = (await session.execute(select(MoveRow.events, MoveRow.seat, MoveRow.client_id)
                                          .where(MoveRow.room_code == code,
                                                 MoveRow.version == room.version))).first()
            timed_out = last.seat if last and last.client_id.startswith(CLOCK_ID_PREFIX) else None
            return Snapshot(code, room.game, room.status, room.version, room.state,
                            last.events if last else [], room_deadlines(room), timed_out,
                            room.clock_banks)

    async def room_message(self, code: str) -> dict[str, Any] | None:
        if self.cache is not None:  # Postgres: one statement (app/store/postgres/roomread.py)
            payload = await roomread.room_payload(self.cache.pool, code)
            return None if payload is None else {"type": "room", "room": payload}
        async with self.sessions() as session:
            room = await session.get(Room, code)
            if room is None:
                return None
            return {"type": "room", "room": await room_payload(session, room)}

    async def room_and_snapshot(self, code: str) -> tuple[dict[str, Any], Snapshot] | None:
        """The `room` message and the state, as committed now (None: no such room). On Postgres
        one statement, which also refreshes the room held: a start, a socket count and a
        greeting each need both."""
        if self.cache is not None:
            read = await roomread.room_and_held(self.cache.pool, code)
            if read is None:
                return None
            payload, held = read
            self.cache.hold(held)
            return {"type": "room", "room": payload}, _snapshot_of(held)
        message, snap = await self.room_message(code), await self.load_snapshot(code)
        return None if message is None or snap is None else (message, snap)

    async def on_notify(self, payload: str) -> None:
        """Another process (or this one, on Postgres) committed a change to a room."""
        kind, code, origin = [*payload.split(":", 2), ""][:3]
        origin, _, line_id = origin.partition(":")  # chat: 'chat:<code>:<origin>:<line id>'
        if self.cache is not None and kind in ("state", "room", "reset") and (
                origin != self.origin):
            self.cache.forget(code)
        if not self.sockets.has_room(code) or origin == self.origin:
            return  # this process already pushed its own change
        try:
            if kind in ("chat", "watch"):
                await (chat.relay(self, code, line_id) if kind == "chat"
                       else chat.tell_watchers(self, code))
                return
            if kind in ("room", "reset"):  # the room and the state, one read on Postgres
                await self.after_room_change(code, force_state=kind == "reset", forget=False)
                return
            snap = await self.load_snapshot(code)
            if snap is not None:
                self.push(snap)
        except Exception:
            log.exception("could not relay %s", payload)

    async def room_changed(self, code: str, session: Any, reset: bool = False) -> None:
        """Inside the writer's transaction: tell every process the room's seats or status moved.

        `reset` (an admin rollback) makes every process push the state even at an old version.
        """
        await self.hub.notify_in(session, self.room_notice(code, reset))

    def room_notice(self, code: str, reset: bool = False) -> str:
        """The hub payload saying this process changed the room's seats or status."""
        return f"{'reset' if reset else 'room'}:{code}:{self.origin}"

    async def read_room(self, code: str, state: bool = True) -> RoomRead | None:
        """The `room` message and (`state`) the state as committed now, numbered for
        `push_room`; None: no such room."""
        ticket = self.sockets.ticket()
        if state:
            read = await self.room_and_snapshot(code)
            return None if read is None else RoomRead(ticket, *read)
        message = await self.room_message(code)
        return None if message is None else RoomRead(ticket, message, None)

    async def after_room_change(self, code: str, force_state: bool = False,
                                state: bool = True, forget: bool = True,
                                read: RoomRead | None = None) -> None:
        """After commit, in this process: push the room and its state (`state`: unless the
        change cannot have touched it) to local sockets. `forget`: the change may touch what a
        held room keeps (not so a seat's socket count). `read`: the caller's own `read_room`
        after the commit."""
        if forget and self.cache is not None:
            self.cache.forget(code)
        if not self.sockets.has_room(code):
            return  # nobody here to tell (a join before any socket, the last socket closing)
        read = read or await self.read_room(code, state)
        if read is None:
            return
        self.sockets.push_room(code, read.message, read.ticket)
        if read.snap is not None:
            self.push(read.snap, force=force_state)

    async def mark_errored(self, code: str, exc: BaseException) -> None:
        """A rule module raised: keep the traceback for the admin, pause only this room."""
        log.error("room %s errored", code, exc_info=exc)
        async with self.sessions() as session, session.begin():
            room = await session.get(Room, code, with_for_update=True)
            if room is None or room.status == "errored":
                return
            room.status = "errored"
            room.error = error_text(exc)
            await self.room_changed(code, session)
        await self.after_room_change(code)


def _snapshot_of(held: CachedRoom) -> Snapshot:
    return Snapshot(held.code, held.game, held.status, held.version, held.state, held.events,
                    room_deadlines(held), held.timed_out, held.clock_banks)
