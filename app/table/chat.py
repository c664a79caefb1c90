"""Room chat: said over the websocket, kept with the room, fanned out to every process.

Also who is watching: spectator connections are rows of `watchers`, announced with
'watch:<code>:<origin>' so that every process can tell its sockets the new count.

Chat stays off the move pipeline: it takes no room lock and never touches the game state. A
line is committed with a NOTIFY naming only the room and the line's id
('chat:<code>:<origin>:<id>'); other processes read the line back from the database.
Text is stored and sent as plain text: the client renders it as text, never as HTML.
"""

from __future__ import annotations

import weakref
from typing import Any

import orjson

from app.context import Context
from app.core.rooms import normalize_code
from app.core.views import PlayerView
from app.errors import ApiError
from app.guard.names import invisible
from app.play.sockets import Client, Greeting
from app.store.base import ChatRead

MAX_CHAT_CHARS = 300
CHAT_PER_SECOND = 0.5  # a line every 2 s sustained, after a burst
CHAT_BURST = 5


def clean_text(raw: Any) -> str:
    """A chat line as it will be stored: control characters dropped, spaces trimmed, checked."""
    if not isinstance(raw, str):
        raise ApiError(400, "bad_message", "A chat message needs a 'text' string.")
    text = "".join(ch for ch in raw if ch in "\n" or not invisible(ch))
    text = text.strip()
    if not text:
        raise ApiError(400, "chat_empty", "Type something before sending.")
    if len(text) > MAX_CHAT_CHARS:
        raise ApiError(400, "chat_too_long", f"Chat lines are limited to {MAX_CHAT_CHARS} "
                       f"characters; this one has {len(text)}.")
    return text


def line_json(row: Any) -> dict[str, Any]:
    """A stored line (an ORM row or a Core row) as the wire has it."""
    return {"id": row.id, "at": row.at.isoformat(), "player": row.player_id, "name": row.name,
            "seat": row.seat, "text": row.text}


def may_say(room: Any, player: Any, seat: int | None) -> None:
    """Players can always talk; spectators not while the host has muted them."""
    if seat is None and room.spectators_muted and player.id != room.host_id:
        raise ApiError(403, "chat_muted", "The host has muted spectators' chat.")


async def say(hall: Context, client: Client, raw_text: Any) -> dict[str, Any]:
    """Store one line from `client` and return it; refuses nameless, muted or bad lines."""
    text = clean_text(raw_text)
    if client.player_id is None:
        raise ApiError(403, "chat_needs_name", "Pick a name to chat.")
    line = line_json(await hall.chat.say(client.room, client.player_id, text, may_say))
    broadcast(hall, client.room, {"type": "chat", "message": line})
    return line


def broadcast(hall: Context, code: str, message: dict[str, Any]) -> None:
    """Send `message` to every socket of room `code` in this process."""
    text = orjson.dumps(message).decode()
    for client in hall.sockets.clients(code):
        client.send(text)


async def history(hall: Context, code: str) -> list[dict[str, Any]]:
    """The room's last lines, oldest first."""
    return [line_json(row) for row in await hall.chat.chat_history(code)]


async def history_of(hall: Context, code: str) -> list[dict[str, Any]]:
    """`history` of a room named as people type its code (a 404 if there is none)."""
    if await hall.rooms.admit(normalize_code(code), None) is None:
        raise ApiError(404, "room_not_found", f"There is no room with the code {code!r}.")
    return await history(hall, normalize_code(code))


async def mute(hall: Context, code: str, host: PlayerView, muted: bool) -> dict[str, Any]:
    """The host mutes (or unmutes) spectators' chat; players can always talk."""
    code = await hall.rooms.set_spectators_muted(code, host, muted)
    await hall.after_room_change(code)
    message = await hall.rooms.room_message(code)
    if message is None:
        raise ApiError(404, "room_not_found", f"There is no room with the code {code!r}.")
    return message["room"]


async def relay(hall: Context, code: str, line_id: str) -> None:
    """Another process stored a line: read it back and send it to this process's sockets."""
    if not line_id.isdigit():
        return
    row = await hall.chat.chat_line(int(line_id))
    if row is not None and row.room_code == code:
        broadcast(hall, code, {"type": "chat", "message": line_json(row)})


_watch_rows: weakref.WeakKeyDictionary[Client, int] = weakref.WeakKeyDictionary()


async def watch(hall: Context, client: Client, delta: int) -> None:
    """A spectator connection opened (+1) or closed (-1): record it for every process, and
    tell everyone in the room who is watching now."""
    if delta > 0:
        _watch_rows[client] = await hall.chat.watch(client.room, client.player_id)
    else:
        row_id = _watch_rows.pop(client, None)
        if row_id is not None:
            hall.register(client.room, -1)  # before the row goes: see Hall.register
        await hall.chat.unwatch(client.room, row_id)
    if delta > 0:
        hall.register(client.room, +1)
    await tell_watchers(hall, client.room)


async def tell_watchers(hall: Context, code: str) -> None:
    """Send this process's sockets of room `code` the `watchers` message: how many spectators
    are connected (to any process), and the names they chose (a visitor with no name is only
    counted)."""
    broadcast(hall, code, watchers_message(await _watcher_names(hall, code)))


async def _watcher_names(hall: Context, code: str) -> list[str | None]:
    """The name (None: a visitor) of every spectator connection of the room."""
    return await hall.chat.watcher_names(code)


def watchers_message(names: list[str | None]) -> dict[str, Any]:
    return {"type": "watchers", "count": len(names),
            "names": sorted({name for name in names if name is not None})}


async def seat_greeting(hall: Context, code: str) -> Greeting:
    """A seated socket's `chat_history` and `watchers` messages (a spectator's greeting counts
    itself first, see `watch`): one statement on Postgres, since every player's socket reads
    both when it opens."""
    return greeting_of(await hall.chat.chat_greeting(code))


def greeting_of(read: ChatRead) -> Greeting:
    """The two messages of a greeting, from what the store read."""
    return ({"type": "chat_history", "messages": [line_json(row) for row in read.lines]},
            watchers_message(read.watchers))
