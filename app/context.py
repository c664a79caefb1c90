"""What a service may ask of the Hall: the store, this process's sockets and locks, the
settings, and the few steps every change of a room ends with (read it, push it, tell the
others).

The Hall (app/hall.py) builds everything and is the only `Context`; services are typed against
this protocol, so none of them imports the Hall and the import graph has no circle through it.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from app.config import Settings
from app.core.snapshot import Snapshot
from app.guard.quotas import Quotas
from app.notify.service import Notifications
from app.ops.store import OpsReads
from app.play.locks import RoomLocks
from app.play.sockets import Client, RoomSockets
from app.social.store import SocialStore
from app.store.base import (
    AdminStore,
    ChatStore,
    MoveStore,
    PlayerStore,
    PresenceStore,
    RoomStore,
    Store,
)
from app.table.bot_caps import BotCaps
from app.table.presence_push import LaterPushes
from app.takeback.store import AskStore


class RoomRead(NamedTuple):
    """A `room` message and the state (None: not read), numbered when the read was issued
    (`RoomSockets.ticket`), so that pushes follow the order of reads, not of answers."""

    ticket: int
    message: dict[str, Any]
    snap: Snapshot | None


class Waker(Protocol):
    def wake(self, code: str) -> None:
        """Bots may be to act in the room: let them look."""


class Context(Protocol):
    settings: Settings
    store: Store  # the whole store: the Hall's (start, stop, the hub); a service uses a door below
    # The store's narrow doors (app/store/base.py), each the same store object: a service reaches
    # for the one it uses, at the cost of one attribute lookup.
    players: PlayerStore
    rooms: RoomStore
    moves: MoveStore
    chat: ChatStore
    presence: PresenceStore
    audit: AdminStore
    origin: str
    sockets: RoomSockets
    locks: RoomLocks
    quotas: Quotas
    bots: Waker
    ops: OpsReads
    bot_caps: BotCaps
    notify: Notifications  # channels, the links in mails, the invitation hook (app/notify/)
    social: SocialStore  # app/social/'s storage
    takebacks: AskStore  # asked take-backs (app.takeback)
    presence_pushes: LaterPushes

    def push(self, snap: Snapshot, force: bool = False, only: Client | None = None) -> None:
        """Send the state to this process's sockets of the room (each its own view)."""

    def register(self, code: str, delta: int) -> None: ...

    async def load_snapshot(self, code: str) -> Snapshot | None: ...

    async def read_room(self, code: str, state: bool = True) -> RoomRead | None: ...

    async def after_room_change(self, code: str, force_state: bool = False,
                                state: bool = True, forget: bool = True,
                                read: RoomRead | None = None) -> None: ...

    async def mark_errored(self, code: str, exc: BaseException) -> None: ...

    def signed_out(self, device_id: str) -> None:
        """A device was signed out: forget its token, close its sockets here."""
