"""A small test client speaking the wire contract: REST through httpx, play through websockets."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from tests.server import ADMIN_TOKEN

_ids = itertools.count()


class Api:
    def __init__(self, base_url: str) -> None:
        self.http = httpx.AsyncClient(base_url=base_url, timeout=20)
        self.ws_base = base_url.replace("http://", "ws://")

    async def close(self) -> None:
        await self.http.aclose()

    async def player(self, name: str) -> dict[str, Any]:
        response = await self.http.post("/api/players", json={"name": name})
        assert response.status_code == 201, response.text
        return response.json()

    async def call(self, method: str, path: str, token: str | None = None,
                   expect: int = 200, **kwargs: Any) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        headers.update(kwargs.pop("headers", {}))
        response = await self.http.request(method, path, headers=headers, **kwargs)
        assert response.status_code == expect, f"{method} {path}: {response.text}"
        return response.json()

    async def admin(self, method: str, path: str, expect: int = 200, **kwargs: Any) -> Any:
        return await self.call(method, f"/api/admin{path}", ADMIN_TOKEN, expect, **kwargs)

    async def room_with(self, game: str, players: list[dict[str, Any]], **body: Any) -> str:
        """A started room with these players seated in order."""
        host = players[0]
        room = await self.call("POST", "/api/rooms", host["token"], 201,
                               json={"game": game, "seats": len(players), **body})
        for guest in players[1:]:
            await self.call("POST", f"/api/rooms/{room['code']}/join", guest["token"])
        return room["code"]

    async def start(self, code: str, host: dict[str, Any]) -> dict[str, Any]:
        return await self.call("POST", f"/api/rooms/{code}/start", host["token"])

    async def started_pair(self, game: str = "gem-pyramid"
                           ) -> tuple[str, list[dict[str, Any]], list[Conn]]:
        """A started two-player room with both players connected and in play."""
        people = [await self.player("A"), await self.player("B")]
        code = await self.room_with(game, people)
        conns = [await self.connect(code, p["token"]) for p in people]
        await self.start(code, people[0])
        for conn in conns:
            await conn.until(lambda c: c.state is not None and c.state["status"] == "active")
        return code, people, conns

    async def seated_table(self, game: str, names: list[str]
                           ) -> tuple[str, list[dict[str, Any]], list[Conn], Conn]:
        """A started room with a player of each name seated in order, each connected, and a
        spectator connected before the start: every socket has seen the game begin."""
        people = [await self.player(name) for name in names]
        code = await self.room_with(game, people)
        conns = [await self.connect(code, p["token"]) for p in people]
        watcher = await self.connect(code)
        await self.start(code, people[0])
        for conn in [*conns, watcher]:
            await conn.until(lambda c: c.state is not None and c.state["status"] == "active")
        return code, people, conns, watcher

    async def connect(self, code: str, token: str | None = None) -> Conn:
        url = f"{self.ws_base}/api/rooms/{code}/ws" + (f"?token={token}" if token else "")
        conn = Conn(await websockets.connect(url, max_size=2**22))
        conn.reader = asyncio.create_task(conn.read())
        return conn


@dataclass
class Conn:
    """One websocket: the latest state and room, plus a queue of everything else."""

    ws: Any
    state: dict[str, Any] | None = None
    room: dict[str, Any] | None = None
    states: int = 0
    replies: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None
    chat: list[dict[str, Any]] = field(default_factory=list)
    watchers: dict[str, Any] | None = None
    takeback: dict[str, Any] | None = None  # the last `takeback` message's ask

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                if message["type"] == "state":
                    # Pushes are ordered per connection; an admin rollback goes back in time.
                    self.state = message
                    self.states += 1
                    self.changed.set()
                elif message["type"] == "room":
                    self.room = message["room"]
                    self.changed.set()
                elif message["type"] == "chat_history":
                    self.chat = message["messages"]
                    self.changed.set()
                elif message["type"] == "chat":
                    self.chat.append(message["message"])
                    self.changed.set()
                elif message["type"] == "watchers":
                    self.watchers = message
                    self.changed.set()
                elif message["type"] == "takeback":
                    self.takeback = message["ask"]
                    self.changed.set()
                else:
                    await self.replies.put(message)
        except websockets.ConnectionClosed:
            pass

    async def send(self, payload: Any) -> None:
        await self.ws.send(payload if isinstance(payload, str) else json.dumps(payload))

    async def reply(self, timeout: float = 10) -> dict[str, Any]:
        return await asyncio.wait_for(self.replies.get(), timeout)

    async def move(self, move: dict[str, Any], version: int | None = None,
                   move_id: str | None = None) -> dict[str, Any]:
        """Send a move and wait for its ack or error."""
        assert self.state is not None
        await self.send({"type": "move", "id": move_id or f"m{next(_ids)}",
                         "version": self.state["version"] if version is None else version,
                         "move": move})
        return await self.reply()

    async def until(self, check: Any, timeout: float = 20) -> None:
        async def wait() -> None:
            while not check(self):
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(wait(), timeout)

    async def close(self) -> None:
        await self.ws.close()
        if self.reader:
            await self.reader


async def play_to_end(conns: list[Conn], chooser: random.Random,
                      max_moves: int = 5000) -> int:
    """Everyone plays random legal moves on their own sockets until the game is over."""
    moves = 0
    while moves < max_moves:
        await asyncio.gather(*(c.until(lambda c: c.state is not None) for c in conns))
        if all(c.state["status"] == "finished" for c in conns):
            return moves
        ready = [c for c in conns if c.state["legal_moves"]]
        if not ready:
            await asyncio.sleep(0.01)
            continue
        conn = chooser.choice(ready)
        version = conn.state["version"]
        reply = await conn.move(chooser.choice(conn.state["legal_moves"]))
        assert reply["type"] == "ack", reply
        assert reply["version"] == version + 1
        moves += 1
        await asyncio.gather(*(c.until(lambda c, v=reply["version"]: c.state["version"] >= v)
                               for c in conns))
    raise AssertionError("the game did not end")
