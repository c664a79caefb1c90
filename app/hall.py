"""The Hall: one per process, the composition root. It opens the store, builds the services
(sockets, locks, bots, clocks, heartbeat, quotas, the room sweeper) and hands each of them
itself as their `Context`; nothing imports this module but app.main.

It also keeps the steps every change of a room ends with: read the room as committed, push it
to this process's sockets, and relay what other processes committed (`on_notify`)."""

from __future__ import annotations

import asyncio
import logging
import secrets

from app.config import Settings
from app.context import RoomRead
from app.core.snapshot import Snapshot
from app.guard.quotas import Quotas
from app.notify.service import Notifications
from app.ops.metrics import ROOMS_ERRORED
from app.people.service import People
from app.play.locks import RoomLocks
from app.play.moves import error_text
from app.play.sockets import Client, RoomSockets
from app.social.ends import Ends
from app.store.choice import (
    open_bot_games,
    open_notify_store,
    open_ops,
    open_people,
    open_social,
    open_store,
    open_takebacks,
)
from app.table import chat, presence
from app.table.bot_caps import BotCaps
from app.table.bots import BotDriver
from app.table.clocks import TurnClocks
from app.table.expiry import RoomSweeper
from app.table.heartbeat import Heartbeat
from app.table.presence_push import LaterPushes
from app.takeback import service as takeback

log = logging.getLogger(__name__)


class Hall:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        # Names this process in its own notifications, so that it does not relay them twice.
        self.origin = secrets.token_hex(4)
        self.store = open_store(settings, self.origin)
        # The narrow doors services use (app.context.Context): the same store, typed by capability.
        self.players = self.rooms = self.moves = self.store
        self.chat = self.presence = self.audit = self.store
        self.ops = open_ops(self.store)
        self.store.game_end = Ends()  # results and ratings, in the move that ends a game
        self.social = open_social(self.store)
        self.takebacks = open_takebacks(self.store, self.store.hub, self.origin)
        self.sockets = RoomSockets(on_seat_change=lambda client: presence.follow(self, client))
        self.locks = RoomLocks(single_writer=self.store.single_writer)
        self.bots = BotDriver(self, settings)
        self.clocks = TurnClocks(self, self.bots.thinker)
        self.heartbeat = Heartbeat(self)
        self.quotas = Quotas(settings)
        self.bot_caps = BotCaps(open_bot_games(self.store), settings.bot_games_per_player,
                                settings.bot_games_per_address)
        self.sweeper = RoomSweeper(self)
        self.people = People(settings, open_people(settings, self.store.hub, self.origin), self)
        self.notify = Notifications(settings, open_notify_store(self.store), self.load_snapshot)
        self.presence_pushes = LaterPushes(
            settings.presence_push_seconds,
            lambda code: self.after_room_change(code, state=False, forget=False))
        self._background: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        await self.store.start(self.on_notify)
        await self._wake_waiting_bots()
        self.clocks.start()
        self.sweeper.start()
        self.notify.start()
        await self.heartbeat.start()

    async def stop(self) -> None:
        await self.notify.stop()
        await self.sweeper.stop()
        await self.clocks.stop()
        await self.heartbeat.stop()
        await self.bots.stop()
        await self.people.stop()
        self.presence_pushes.stop()
        await self.store.stop()

    async def _wake_waiting_bots(self) -> None:
        """After a restart, rooms whose bots were mid-game carry on."""
        for code in await self.store.active_rooms():
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
        self.store.register(code, delta)

    async def load_snapshot(self, code: str) -> Snapshot | None:
        """The room's state as committed now."""
        return await self.store.load_snapshot(code)

    async def on_notify(self, payload: str) -> None:
        """Another process (or this one, on Postgres) committed a change to a room."""
        kind, code, origin = [*payload.split(":", 2), ""][:3]
        if kind == "signout":  # 'signout:<device id>:<origin>' (app.people.devices)
            self.signed_out(code)
            return
        origin, _, line_id = origin.partition(":")  # chat: 'chat:<code>:<origin>:<line id>'
        if kind in ("state", "room", "reset") and origin != self.origin:
            self.store.forget(code)
        if not self.sockets.has_room(code) or origin == self.origin:
            return  # this process already pushed its own change
        try:
            if kind in ("chat", "watch"):
                await (chat.relay(self, code, line_id) if kind == "chat"
                       else chat.tell_watchers(self, code))
                return
            if kind == "takeback":
                await takeback.relay(self, code)
                return
            if kind in ("room", "reset"):  # the room and the state, one read on Postgres
                await self.after_room_change(code, force_state=kind == "reset", forget=False)
                return
            snap = await self.load_snapshot(code)
            if snap is not None:
                self.push(snap)
        except Exception:
            log.exception("could not relay %s", payload)

    def signed_out(self, device_id: str) -> None:
        """A device was signed out (by this process or another): its token is refused from now
        on, and its sockets here close."""
        self.store.forget_device(device_id)
        self.sockets.close_device(device_id)

    async def read_room(self, code: str, state: bool = True) -> RoomRead | None:
        """The `room` message and (`state`) the state as committed now, numbered for
        `push_room`; None: no such room."""
        ticket = self.sockets.ticket(code)
        if state:
            read = await self.store.room_and_snapshot(code)
            return None if read is None else RoomRead(ticket, *read)
        message = await self.store.room_message(code)
        return None if message is None else RoomRead(ticket, message, None)

    async def after_room_change(self, code: str, force_state: bool = False,
                                state: bool = True, forget: bool = True,
                                read: RoomRead | None = None) -> None:
        """After commit, in this process: push the room and its state (`state`: unless the
        change cannot have touched it) to local sockets. `forget`: the change may touch what a
        held room keeps (not so a seat's socket count). `read`: the caller's own `read_room`
        after the commit."""
        if forget:
            self.store.forget(code)
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
        if await self.store.mark_errored(code, error_text(exc)):
            ROOMS_ERRORED.inc()
            await self.after_room_change(code)

