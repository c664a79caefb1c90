"""A server started for a bench script as people run it, and one room set up as the load
generator sets it up (`../shared/bench/loadgen/adapters/ziggurat.js`): shared by the scripts
that count what a set-up costs (`setup_statements`, `setup_pgcost`)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from typing import Any

import httpx
import websockets


def start(database_url: str, port: int) -> subprocess.Popen[bytes]:
    """uvicorn with production's protocols (the Makefile's), no limits a bench would meet."""
    env = dict(os.environ, DATABASE_URL=database_url, RATE_PER_SECOND="100000",
               RATE_BURST="100000", BOT_DELAY_MS="0")
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port",
         str(port), "--no-access-log", "--http", "app.guard.deadlines:HeaderDeadline",
         "--ws", "app.guard.lean_ws:LeanWebSocket"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def until_up(http: httpx.AsyncClient) -> None:
    """Wait (up to 20 s) for the server to answer its health check."""
    for _ in range(200):
        try:
            if (await http.get("/api/health")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.1)


async def _active(ws: Any) -> None:
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "state" and message["status"] == "active":
            return


async def set_up_room(http: httpx.AsyncClient, ws_url: str) -> list[Any]:
    """Two players, a Lucent room, a join, then both sockets and the start at once, until both
    sockets hold an active state; gives the sockets, open."""
    tokens = [(await http.post("/api/players", json={"name": f"b{p}"})).json()["token"]
              for p in (0, 1)]
    auth = [{"authorization": f"Bearer {t}"} for t in tokens]
    code = (await http.post("/api/rooms", headers=auth[0], json={
        "game": "gem-pyramid", "seats": 2, "private": True})).json()["code"]
    (await http.post(f"/api/rooms/{code}/join", headers=auth[1], json={})).raise_for_status()
    *sockets, started = await asyncio.gather(
        *(websockets.connect(f"{ws_url}/api/rooms/{code}/ws?token={t}", compression=None,
                             open_timeout=60) for t in tokens),
        http.post(f"/api/rooms/{code}/start", headers=auth[0], json={}))
    started.raise_for_status()
    await asyncio.gather(*(_active(ws) for ws in sockets))
    return sockets
