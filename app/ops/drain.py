"""A restart nobody notices: on SIGTERM, drain this process's websockets instead of cutting them.

uvicorn, told to stop, closes its listening sockets (new connections go to the other processes
behind the proxy) and asks each open connection to shut down; our websocket protocol
(`app.guard.lean_ws.LeanWebSocket.shutdown`) hands that to `Drain.begin` instead of closing at
once. Each socket then gets the close code `RECONNECT_NOW` (1012, "service restart") as soon as
the message it is handling is answered: a move in flight commits, is pushed and acknowledged
first, and the close follows its ack in the socket's own queue. The browser reconnects at once
on that code (static/room.js), through the proxy, to a process that is up. Frames that arrive
after the close are not acted on (no answer could reach them). When the last socket is gone,
uvicorn runs the lifespan's end (the Hall stops: clocks, bots, the store) and the process exits.
"""

from __future__ import annotations

import logging

from app.guard.lean_ws import DRAIN_KEY
from app.ops.metrics import SHUTTING_DOWN
from app.play.sockets import RoomSockets

log = logging.getLogger(__name__)
RECONNECT_NOW = 1012  # RFC 6455's "service restart": reconnect now, elsewhere if need be
REASON = "server restarting; reconnect now"


class Drain:
    """This process's drain: begun once, it closes every socket (and every later one) with
    `RECONNECT_NOW` once the message it is handling is answered (`app/api/play.py` closes a
    busy one when its message is done)."""

    def __init__(self, sockets: RoomSockets) -> None:
        self._sockets = sockets

    def state(self) -> dict[str, Drain]:
        """The lifespan state that hands this drain to uvicorn's websocket protocol."""
        return {DRAIN_KEY: self}

    def begin(self) -> None:
        if self._sockets.closing is not None:
            return
        self._sockets.closing = (RECONNECT_NOW, REASON)
        SHUTTING_DOWN.set(1)
        clients = self._sockets.all_clients()
        log.info("draining for a restart: %d socket(s) told to reconnect", len(clients))
        for client in clients:
            if not client.busy:
                client.finish(RECONNECT_NOW, REASON)
