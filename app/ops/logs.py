"""LOG_FORMAT=json: one JSON line per HTTP request and per socket event (opened, closed), with
the room code and the player id where known, and never a token.

Requests are logged by `RequestLog` (outermost middleware: the line includes the gate's wait)
from the path without its query string (a websocket URL may carry `?token=`), the status and the
time taken; the player is the one the route's `_Caller` dependency read (`note_player`). Socket
events come from the game socket's handler (`socket_event`). uvicorn's own access lines (and its
two lines per websocket) give way to these; its other lines (start, stop, errors) and the app's
go out as JSON through the same handler, with `?token=` masked as before
(`app.guard.security.RedactTokens`). In the default text format nothing changes and the hooks
cost a flag test.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from contextvars import ContextVar
from typing import Any

from pythonjsonlogger.json import JsonFormatter

EVENTS = logging.getLogger("ziggurat.events")
_ROOM = re.compile(r"^/api/(?:admin/)?rooms/([^/]+)")
# The current request's fields the route learns (the player), for its log line.
_fields: ContextVar[dict[str, Any] | None] = ContextVar("ziggurat_log_fields", default=None)


def configure(log_format: str) -> None:
    """Send every log line as JSON to stderr (`json`), or leave the text format as it is."""
    if log_format != "json":
        EVENTS.setLevel(logging.WARNING)  # socket events are a JSON-format feature
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(
        "{asctime}{levelname}{name}{message}", style="{",
        rename_fields={"asctime": "time", "levelname": "level", "name": "logger"}))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    EVENTS.setLevel(logging.INFO)
    for name in ("uvicorn", "uvicorn.error"):  # through the JSON handler, filters kept
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    access = logging.getLogger("uvicorn.access")  # replaced by RequestLog's lines
    access.handlers.clear()
    access.propagate = False


def room_of(path: str) -> str | None:
    found = _ROOM.match(path)
    return found.group(1) if found else None


def note_player(player_id: str) -> None:
    """The route knows who is calling: its request's log line says so."""
    fields = _fields.get()
    if fields is not None:
        fields["player"] = player_id


def socket_event(event: str, room: str, player: str | None, **more: Any) -> None:
    if EVENTS.isEnabledFor(logging.INFO):
        EVENTS.info(event, extra={"event": event, "room": room, "player": player, **more})


class RequestLog:
    """ASGI middleware: one line per HTTP request, after its answer."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began, answer = time.perf_counter(), {"status": 500}
        fields: dict[str, Any] = {}
        token = _fields.set(fields)

        async def sending(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
            await send(message)
        try:
            await self.app(scope, receive, sending)
        finally:
            _fields.reset(token)
            client = scope.get("client")
            EVENTS.info("request", extra={
                "event": "request", "method": scope["method"], "path": scope["path"],
                "status": answer["status"], "room": room_of(scope["path"]),
                "player": fields.get("player"), "address": client[0] if client else None,
                "ms": round((time.perf_counter() - began) * 1000, 2)})
