"""The websocket: `state` pushes out, `move` messages in, each answered with `ack` or `error`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
import weakref
from collections import OrderedDict
from typing import Any

import orjson
from fastapi import WebSocket, WebSocketDisconnect
from starlette.datastructures import QueryParams

from app.api.deps import hall_of
from app.context import Context
from app.core.rooms import normalize_code
from app.errors import ApiError
from app.guard.auth import check_found, hash_token
from app.guard.idle import QuietWatch
from app.guard.quotas import client_address
from app.ops.logs import socket_event
from app.play.moves import on_move_frame
from app.play.sockets import Client, error_frame
from app.play.undo import on_undo_frame
from app.recent import keep
from app.table import chat, presence
from app.takeback import service as takeback

log = logging.getLogger(__name__)
# The game socket's path (`app.main.Ziggurat` dispatches it ahead of FastAPI's stack).
SOCKET_PATH = re.compile(r"/api/rooms/(?P<code>[^/]+)/ws")


class RateLimit:
    """A token bucket per connection: bursts are fine, floods are refused."""

    __slots__ = ("_at", "_burst", "_rate", "_tokens")  # one per open socket

    def __init__(self, per_second: float, burst: int) -> None:
        self._rate, self._burst = per_second, burst
        self._tokens, self._at = float(burst), time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._at) * self._rate)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


SUBPROTOCOL = "ziggurat"
TOKEN_PREFIX = "bearer."


def offered_token(offered: list[str]) -> str | None:
    """The token a client may offer as a subprotocol, `bearer.<token>`, beside `ziggurat`:
    browsers can set no header on a websocket, and a URL ends up in logs and histories."""
    return next((p.removeprefix(TOKEN_PREFIX) for p in offered if p.startswith(TOKEN_PREFIX)),
                None)


async def socket_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The game socket as a bare ASGI app, for `app.main.Ziggurat`: FastAPI's routing,
    exception middlewares and per-request exit stacks stay suspended for a socket's whole life,
    ~11 KB of frames and objects per socket (a third of an idle socket's memory)."""
    await play(WebSocket(scope, receive, send), scope["path_params"]["code"])


async def play(ws: WebSocket, code: str) -> None:
    hall = hall_of(ws)
    offered = ws.scope.get("subprotocols") or []
    # The token read here, not as a query parameter: FastAPI's per-request parameter handling
    # cost 2% of a room's set-up. Parsed apart, not by `ws.query_params`, which the socket
    # would keep for its life (~0.55 KB).
    token = QueryParams(ws.scope["query_string"]).get("token") or offered_token(offered)
    await ws.accept(subprotocol=SUBPROTOCOL if SUBPROTOCOL in offered else None)
    try:
        client = await _admit(hall, ws, code, token)
    except ApiError as exc:
        socket_event("socket_refused", code, None, error=exc.code,
                     address=client_address(ws.scope))
        hall.quotas.failed(exc.code, client_address(ws.scope))
        await ws.send_text(orjson.dumps(error_frame(exc.code, exc.message)).decode())
        await ws.close(code=4000 + exc.status)
        return
    client.go_live()
    socket_event("socket_open", client.room, client.player_id, seat=client.seat,
                 address=client_address(ws.scope))
    # Messages are read while the greeting is still being put together: under load its
    # bookkeeping (counts, room, chat) takes many round trips, and a player who already holds
    # the state from a push must not wait for it to move (the first moves' tail).
    # Held by the client only while it runs: a finished task and its coroutine are ~0.8 KB
    # that a socket would otherwise keep for its whole life (issue 27's memory goal).
    client.greeter = asyncio.create_task(_greet(hall, client))
    client.greeter.add_done_callback(lambda task: _greeted(task, client))
    peer_code = None
    try:
        await _serve(hall, client)
    except WebSocketDisconnect as gone:
        peer_code = gone.code
    finally:
        socket_event("socket_close", client.room, client.player_id, seat=client.seat,
                     code=client.close_with[0] if client.closed else peer_code)
        hall.sockets.remove(client)
        client.discard()
        if client.greeter is not None:
            with contextlib.suppress(Exception):
                await client.greeter
        await presence.release(hall, client)


def _greeted(task: asyncio.Task[None], client: Client) -> None:
    """A greeting that failed closes the socket (the client reconnects), as it did inline."""
    client.greeter = None
    if not task.cancelled() and task.exception() is not None:
        log.error("greeting failed in room %s", client.room, exc_info=task.exception())
        client.close(1011, "server error; reconnect")


async def _admit(hall: Context, ws: WebSocket, code: str, token: str | None) -> Client:
    """The room, the token's player and their seat in one Core query: every socket opens here,
    and three ORM reads were three round trips and an ORM session each time."""
    raw, code = code, normalize_code(code)
    found = await hall.rooms.admit(code, hash_token(token) if token else None,
                                   hall.settings.token_ttl)
    if found is None:
        raise ApiError(404, "room_not_found", f"There is no room with the code {raw!r}.")
    player_id = seat = device = None
    if token:
        player_id = check_found(found if found.id is not None else None,
                                hall.settings.token_ttl).id
        seat, device = found.seat, found.device_id
    identity = player_id or f"@{client_address(ws.scope)}"
    _check_caps(hall, code, identity, anonymous=player_id is None)
    client = Client(ws, code, seat, player_id, identity, device)
    hall.sockets.add(client)
    return client


def _check_caps(hall: Context, code: str, identity: str, anonymous: bool) -> None:
    """Refuse a socket past the per-room or per-identity cap (4429 `too_many_connections`)."""
    settings = hall.settings
    per_identity = settings.sockets_per_anonymous_address if anonymous \
        else settings.sockets_per_player
    if 0 < settings.sockets_per_room <= hall.sockets.open_in(code):
        raise ApiError(429, "too_many_connections", "This room has as many connections open as "
                       "it can take; try again later.")
    if 0 < per_identity <= hall.sockets.open_for(identity):
        raise ApiError(429, "too_many_connections", "You have too many connections open; close "
                       "some tabs and try again.")


async def _greet(hall: Context, client: Client) -> None:
    """A (re)connecting client gets the room and the current state at once.

    A seat's connection count change already pushes both to every local socket, this one
    included; only what it has not been sent yet is read here."""
    if client.seat is not None:
        await presence.follow(hall, client)
    read, snap = None, None
    if not client.room_seen:
        read = await hall.read_room(client.room, state=client.sent is None)
    elif client.sent is None:
        snap = await hall.load_snapshot(client.room)
    if read is not None:
        hall.sockets.push_room(client.room, read.message, read.ticket, only=client)
        snap = read.snap
    if snap is not None:
        hall.push(snap, only=client)
    if client.seat is None:
        client.send({"type": "chat_history", "messages": await chat.history(hall, client.room)})
        await presence.follow(hall, client)  # counts it, and tells the room who is watching
    else:  # read with the seat's count, unless that count was taken earlier (or on SQLite)
        greeting, client.greeting = client.greeting, None
        for message in greeting or await chat.seat_greeting(hall, client.room):
            client.send(message)
        await takeback.greet(hall, client)  # an asked take-back still being answered


async def _serve(hall: Context, client: Client) -> None:
    limit = RateLimit(hall.settings.rate_per_second, hall.settings.rate_burst)
    quiet = QuietWatch(hall.settings.ws_idle_seconds or None)
    try:
        while True:
            raw = await quiet.receive(client.ws.receive())
            if raw is None:  # slowloris: a silent socket holds memory and a connection slot
                if client.closed:
                    return  # closed a window ago and the peer never answered the close
                client.close(4408, "idle; send a ping at least every "
                             f"{hall.settings.ws_idle_seconds:g} s")
                continue
            if raw["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(raw.get("code", 1000))
            if client.closed:
                continue  # closed by us (a restart, a slow reader): no answer could reach it
            if not limit.allow():  # every frame counts, whatever it holds
                client.send(error_frame("rate_limited", "Too many messages; slow down a little."))
                continue
            text = raw.get("text")
            if text is None:
                client.send(error_frame("bad_message", "Send JSON text frames, not binary."))
                continue
            if len(text.encode()) > hall.settings.max_message_bytes:
                client.send(error_frame("message_too_large", f"Messages are limited to "
                                   f"{hall.settings.max_message_bytes} bytes."))
                continue
            client.busy = True
            try:
                await _handle(hall, client, text)
            finally:
                client.busy = False
            if hall.sockets.closing is not None:  # a restart: answered, now reconnect
                client.finish(*hall.sockets.closing)
    finally:
        quiet.close()


async def _handle(hall: Context, client: Client, text: str) -> None:
    try:
        message = orjson.loads(text)
    except orjson.JSONDecodeError:
        client.send(error_frame("bad_message", "That message is not valid JSON."))
        return
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        client.send(error_frame("bad_message", "A message is a JSON object with a string 'type'."))
        return
    if message["type"] == "ping":
        client.send({"type": "pong"})
    elif message["type"] == "move":
        await on_move_frame(hall, client, message)
    elif message["type"] == "undo":
        await on_undo_frame(hall, client, message)
    elif message["type"] == "chat":
        await _chat(hall, client, message)
    elif message["type"] == "takeback_ask":
        await takeback.on_ask_frame(hall, client, message)
    elif message["type"] == "takeback_answer":
        await takeback.on_answer_frame(hall, client, message)
    else:
        client.send(error_frame("unknown_type", f"There is no message type {message['type']!r}; "
                           "send 'move', 'undo', 'takeback_ask', 'takeback_answer', "
                           "'chat' or 'ping'."))


_socket_chat_limits: weakref.WeakKeyDictionary[Client, RateLimit] = weakref.WeakKeyDictionary()
_player_chat_limits: OrderedDict[str, RateLimit] = OrderedDict()
CHAT_LIMITS_HELD = 50_000  # players' buckets kept per process, least recently used let go


def _chat_limit(client: Client) -> RateLimit:
    """One bucket per player over all their sockets in this process (issue 24: a player said
    80 lines in 2 s through 16 sockets); a socket without a player keeps its own."""
    if client.player_id is None:
        return _socket_chat_limits.setdefault(
            client, RateLimit(chat.CHAT_PER_SECOND, chat.CHAT_BURST))
    limit = _player_chat_limits.get(client.player_id) or RateLimit(
        chat.CHAT_PER_SECOND, chat.CHAT_BURST)
    keep(_player_chat_limits, client.player_id, limit, CHAT_LIMITS_HELD)
    return limit


async def _chat(hall: Context, client: Client, message: dict[str, Any]) -> None:
    """A chat line: its own, slower rate limit (per player); refusals come back as `error`
    messages."""
    if not _chat_limit(client).allow():
        client.send(error_frame("chat_rate_limited", "You are chatting too fast; wait a moment."))
        return
    try:
        await chat.say(hall, client, message.get("text"))
    except ApiError as exc:
        client.send(error_frame(exc.code, exc.message))
