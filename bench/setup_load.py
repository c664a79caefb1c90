"""Rooms set up (and, with --play, played to the end) against a running server, one script.

The load `bench/instructions.sh` counts instructions under: per room two players, a Lucent
room, a join, both sockets, a start, then (--play) random legal moves one at a time until the
game ends, then both sockets closed. Prints the server's CPU per room from /proc (user and
system). Not a test: it only measures.

Run: `python -m bench.setup_load --pid PID [--url URL] [--rooms N] [--at-once C] [--play]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import time
import uuid
from typing import Any

import httpx
import websockets

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> tuple[float, float]:
    """The process's user and system CPU so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICK, int(fields[12]) / TICK


async def _state(ws: Any, wanted: Any) -> dict[str, Any]:
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "state" and wanted(message):
            return message


async def one_room(http: httpx.AsyncClient, ws_url: str, play: bool) -> int:
    """Set up one room (and play it out); the number of moves made."""
    tokens = [(await http.post("/api/players", json={"name": f"b{p}"})).json()["token"]
              for p in (0, 1)]
    auth = [{"authorization": f"Bearer {t}"} for t in tokens]
    code = (await http.post("/api/rooms", headers=auth[0], json={
        "game": "gem-pyramid", "seats": 2, "private": True})).json()["code"]
    await http.post(f"/api/rooms/{code}/join", headers=auth[1], json={})
    sockets = [await websockets.connect(f"{ws_url}/api/rooms/{code}/ws?token={t}",
                                        compression=None) for t in tokens]
    await http.post(f"/api/rooms/{code}/start", headers=auth[0], json={})
    states = [await _state(ws, lambda m: m["status"] == "active") for ws in sockets]
    moves = 0
    while play and states[0]["status"] == "active":
        mover = 0 if states[0]["seat"] in states[0]["to_act"] else 1
        seen = states[mover]["version"]
        await sockets[mover].send(json.dumps({
            "type": "move", "id": str(uuid.uuid4()), "version": seen,
            "move": random.choice(states[mover]["legal_moves"])}))
        states = [await _state(ws, lambda m, v=seen: m["version"] > v) for ws in sockets]
        moves += 1
    for ws in sockets:
        await ws.close()
    return moves


async def run(pid: int, url: str, rooms: int, at_once: int, play: bool) -> None:
    ws_url = url.replace("http", "ws", 1)
    slots = asyncio.Semaphore(at_once)

    async def slot(http: httpx.AsyncClient) -> int:
        async with slots:
            return await one_room(http, ws_url, play)

    # A long timeout: under callgrind on a busy machine a request can take seconds.
    async with httpx.AsyncClient(base_url=url, limits=httpx.Limits(max_connections=at_once),
                                 timeout=120) \
            as http:
        (user0, sys0), started = cpu_seconds(pid), time.perf_counter()
        moves = sum(await asyncio.gather(*(slot(http) for _ in range(rooms))))
        await asyncio.sleep(0.5)  # the closes' own work
        (user1, sys1), took = cpu_seconds(pid), time.perf_counter() - started
    print(f"{rooms} rooms, {moves} moves in {took:.1f} s; server CPU per room: "
          f"user {1000 * (user1 - user0) / rooms:.2f} ms, "
          f"system {1000 * (sys1 - sys0) / rooms:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pid", type=int, required=True, help="the server process")
    parser.add_argument("--url", default="http://127.0.0.1:18002")
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--at-once", type=int, default=10)
    parser.add_argument("--play", action="store_true", help="play each game to the end")
    args = parser.parse_args()
    asyncio.run(run(args.pid, args.url, args.rooms, args.at_once, args.play))


if __name__ == "__main__":
    main()
