"""This process's websocket connections, grouped by room, each with its own send queue.

A queue per connection keeps one slow browser from holding up a broadcast; a connection whose
queue overflows is closed, and its client reconnects to the current state. The queue is a plain
list and its writer a task that runs only while something is queued: at human pace a socket is
sent a message every few seconds, and an `asyncio.Queue` with a task waiting on it for ever
held ~3 KB per socket (four deques, the task and its frames), most of an idle room's memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from starlette.websockets import WebSocket

from app.core.snapshot import Snapshot, state_messages

# A seated socket's greeting: its `chat_history` and `watchers` messages (app.table.chat).
Greeting = tuple[dict[str, Any], dict[str, Any]]

log = logging.getLogger(__name__)
OUTBOX_LIMIT = 256


_STAGE = {"lobby": 0, "active": 1}  # any other status (finished, aborted, errored) ends a game


@dataclass(eq=False, slots=True, weakref_slot=True)
class Client:
    """One open websocket: who it is, which seat it holds (None: spectator), what it was sent.
    Slots: thousands are held at once, and a dict per instance was ~0.6 KB of each."""

    ws: WebSocket
    room: str
    seat: int | None
    player_id: str | None
    identity: str = ""  # whom the per-identity socket cap counts: a player, or an address
    device: str | None = None  # the signed-in device whose token opened it (None: no token)
    # Texts to send, oldest first; None: close the socket (`close_with`).
    outbox: list[str | None] = field(default_factory=list)
    # Sends start once the handler is reading the socket (`go_live`); the writer while it runs.
    live: bool = False
    writer: asyncio.Task[None] | None = None
    sent: tuple[int, str] | None = None  # (version, status) of the last state sent
    # The number of the newest room read sent to it (RoomSockets.ticket; 0: none yet).
    room_seen: int = 0
    closed: bool = False
    # What app.table.presence has counted for this socket: a seat, or (None) a watcher.
    counted: bool = False
    counted_seat: int | None = None
    recount: asyncio.Task[None] | None = None
    ledger: int | None = None  # its seat_sockets row while it counts on a seat (heartbeat)
    # Its chat history and watchers messages, when read with its seat count (Postgres).
    greeting: Greeting | None = None
    greeter: asyncio.Task[None] | None = None  # the task that greets it, while it runs
    close_with: tuple[int, str] = (1013, "fell behind; reconnect")
    busy: bool = False  # a frame of it is being handled (a restart closes it once answered)

    def wants(self, snap: Snapshot) -> bool:
        """Whether `snap` is news to this connection: never an older or repeated state.

        The greeting and the pushes race (each loads from the database, then sends); this keeps
        a connection from going back in time when a late greeting arrives after a push. At one
        version the status only moves forward (lobby, then active, then an end): a `lobby` state
        read before the start must not follow the `active` one (a client would think the game
        over). The admin's rollback, the one way back, is sent with `force`.
        """
        return self.sent is None or (
            snap.version > self.sent[0] or (snap.version == self.sent[0]
                                            and _STAGE.get(snap.status, 2)
                                            > _STAGE.get(self.sent[1], 2)))

    def rebind(self, seats: list[dict[str, Any]]) -> bool:
        """Hold the seat the seats table gives this player now; a change resends the state.
        Returns whether the seat changed."""
        seat = next((s["seat"] for s in seats
                     if self.player_id is not None and s["player"] is not None
                     and s["player"]["id"] == self.player_id), None)
        if seat == self.seat:
            return False
        self.seat, self.sent = seat, None
        return True

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if len(self.outbox) >= OUTBOX_LIMIT:
            log.warning("closing a slow connection in room %s", self.room)
            self.close()
            return
        self.outbox.append(message if isinstance(message, str)
                           else orjson.dumps(message).decode())
        self._write()

    def close(self, code: int = 1013, reason: str = "fell behind; reconnect") -> None:
        """Stop sending, once: the writer then closes the socket and the client reconnects."""
        if self.closed:
            return
        self.closed, self.close_with = True, (code, reason)
        self.outbox[:] = [None]  # nothing queued matters any more
        self._write()

    def finish(self, code: int, reason: str) -> None:
        """Close once what is already queued is sent (a restart: a move's ack goes first)."""
        if self.closed:
            return
        self.closed, self.close_with = True, (code, reason)
        self.outbox.append(None)
        self._write()

    def go_live(self) -> None:
        """The socket is accepted and read: send what was queued, and from now on."""
        self.live = True
        self._write()

    def discard(self) -> None:
        """The socket is gone: send nothing more (its peer left, a close frame cannot go)."""
        self.closed = True
        self.outbox.clear()
        if self.writer is not None:
            self.writer.cancel()

    def _write(self) -> None:
        if self.live and self.writer is None and self.outbox:
            self.writer = asyncio.get_running_loop().create_task(self.pump())

    async def pump(self) -> None:
        """Write queued messages in order until none is left (or the socket is closed)."""
        try:
            while self.outbox:
                text = self.outbox.pop(0)
                if text is None:
                    with contextlib.suppress(Exception):  # already closed by the peer: fine
                        await self.ws.close(code=self.close_with[0], reason=self.close_with[1])
                    return
                try:
                    await self.ws.send_text(text)
                except Exception:  # the peer left: the reader sees it and cleans up
                    self.closed = True
                    self.outbox.clear()
                    return
        finally:
            self.writer = None


class RoomSockets:
    """Connections by room."""

    def __init__(self, on_seat_change: Callable[[Client], object] | None = None) -> None:
        self._rooms: dict[str, set[Client]] = defaultdict(set)
        self._on_seat_change = on_seat_change
        self._identities: Counter[str] = Counter()
        self._tickets = itertools.count(1)  # one sequence for every room: numbers never repeat
        self._read: dict[str, int] = {}  # the last number of a read of a room with sockets here
        # (code, reason) once the process drains for a restart (app/ops/drain.py): every socket
        # is closed with it once its message in hand is answered, and a new one at once.
        self.closing: tuple[int, str] | None = None

    def add(self, client: Client) -> None:
        self._rooms[client.room].add(client)
        self._identities[client.identity] += 1
        if self.closing is not None:
            client.finish(*self.closing)

    def open_in(self, code: str) -> int:
        return len(self._rooms.get(code, ()))

    def all_clients(self) -> list[Client]:
        return [client for clients in self._rooms.values() for client in clients]

    def open_total(self) -> int:
        """Every websocket open in this process (read per metrics scrape)."""
        return sum(len(clients) for clients in self._rooms.values())

    def open_for(self, identity: str) -> int:
        return self._identities[identity]

    def remove(self, client: Client) -> None:
        clients = self._rooms.get(client.room)
        if clients is not None and client in clients:
            clients.discard(client)
            self._identities[client.identity] -= 1
            if not self._identities[client.identity]:
                del self._identities[client.identity]
            if not clients:
                del self._rooms[client.room]
                self._read.pop(client.room, None)

    def has_room(self, code: str) -> bool:
        return code in self._rooms

    def clients(self, code: str) -> list[Client]:
        return list(self._rooms.get(code, ()))

    def close_device(self, device_id: str) -> int:
        """Close every socket the device opened here (it was signed out: 4401, the code of a
        refused token); how many. Rare, so a walk over every socket is fine."""
        closing = [c for clients in self._rooms.values() for c in clients
                   if c.device == device_id]
        for client in closing:
            client.close(4401, "signed out")
        return len(closing)

    def push_state(self, snap: Snapshot, on_rule_error: Callable[[BaseException], None],
                   force: bool = False, only: Client | None = None) -> None:
        """Send each local connection (or `only` one) its own view of `snap`, unless it has
        already seen that state or a newer one. `force` (an admin rollback) sends regardless."""
        targets = [only] if only is not None else self._rooms.get(snap.code, ())
        fresh = [c for c in targets if force or c.wants(snap)]
        if not fresh:
            return
        try:
            by_seat = {seat: orjson.dumps(message).decode() for seat, message in
                       state_messages(snap, (client.seat for client in fresh)).items()}
        except Exception as exc:  # a rule module failed: the room errors, the server goes on
            on_rule_error(exc)
            return
        for client in fresh:
            client.sent = (snap.version, snap.status)
            client.send(by_seat[client.seat])

    def ticket(self, code: str | None = None) -> int:
        """Number a read of the room `code` about to be issued, or (None) a message built from
        a write as it committed, or a mark (`read_since`). A read issued later sees at least
        what an earlier one saw, but reads run on several connections and may come back in any
        order: `push_room` compares these numbers, so a slower, older read never overwrites a
        newer `room` message (which could show a connected player as gone until the next
        change).

        A message built from a write (a seat action, a socket count, on Postgres) says the room
        as that write committed; it is numbered when the write's answer is back, and pushed
        only if no read of the room was numbered since a mark taken before the write was sent
        (else the caller reads). Those messages are built only from a copy the write proved
        current (`seatwrite.Lobbies`), and that copy takes each write as its answer comes
        back, in the same step as the number: so they are numbered in the order their writes
        committed, and only the reads' place among them is unknown."""
        ticket = next(self._tickets)
        if code is not None and code in self._rooms:
            self._read[code] = ticket
        return ticket

    def read_since(self, code: str, mark: int) -> bool:
        """Whether a read of the room was numbered after `mark` while it had sockets here."""
        return self._read.get(code, 0) > mark

    def push_room(self, code: str, message: dict[str, Any], ticket: int,
                  only: Client | None = None) -> None:
        """Send a `room` message read under `ticket` to each local connection of the room (or
        `only` one, a greeting) that has not been sent a newer read.

        Every seat change reaches every process as a `room` message, so this is where each
        connection's seat is re-bound to the seats table: a player who left, or whose seat the
        admin handed to a bot, gets the spectator view from the next state on.
        """
        text = None
        for client in [only] if only is not None else self.clients(code):
            if ticket <= client.room_seen:
                continue
            client.room_seen = ticket
            if client.rebind(message["room"]["seats"]) and self._on_seat_change is not None:
                self._on_seat_change(client)
            text = text or orjson.dumps(message).decode()
            client.send(text)


def error_frame(code: str, message: str, move_id: Any = None) -> dict[str, Any]:
    """The `error` message of the wire contract (`move_id`: the refused move's id)."""
    return {"type": "error", "id": move_id, "code": code, "message": message}
