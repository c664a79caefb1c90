"""Durable moves per second and move-to-broadcast latency, many concurrent Lucent rooms.

Starts real servers on a throwaway Postgres database, then plays random two-player Lucent in
N rooms at once over websockets. Latency: from sending a move on one player's socket to the
OTHER player's socket receiving the state it made (so it includes the commit and the fan-out).
Run: `python -m bench.rooms [seconds-per-level] [workers]`. Not a test: it only measures.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from tests.server import postgres_database, running_server

LEVELS = (1, 10, 100)


@dataclass
class Stats:
    moves: int = 0
    games: int = 0
    latencies: list[float] = field(default_factory=list)


class Seat:
    """One player's socket and the latest state it was sent."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] = {}

    async def until(self, check: Any) -> dict[str, Any]:
        while True:
            message = json.loads(await self.ws.recv())
            if message["type"] == "state":
                self.state = message
            if check(message):
                return message


async def _player(http: httpx.AsyncClient, name: str) -> str:
    return (await http.post("/api/players", json={"name": name})).json()["token"]


async def _new_game(http: httpx.AsyncClient, ws_base: str, tokens: list[str]) -> list[Seat]:
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    code = (await http.post("/api/rooms", headers=auth[0],
                            json={"game": "gem-pyramid", "seats": 2})).json()["code"]
    await http.post(f"/api/rooms/{code}/join", headers=auth[1])
    seats = [Seat(await websockets.connect(f"{ws_base}/api/rooms/{code}/ws?token={t}"))
             for t in tokens]
    for seat in seats:
        await seat.until(lambda m: m["type"] == "state")
    await http.post(f"/api/rooms/{code}/start", headers=auth[0])
    for seat in seats:
        await seat.until(lambda m: m["type"] == "state" and m["status"] == "active")
    return seats


async def _room(http: httpx.AsyncClient, ws_base: str, deadline: float, stats: Stats,
                chooser: random.Random) -> None:
    tokens = [await _player(http, "a"), await _player(http, "b")]
    while time.perf_counter() < deadline:
        seats = await _new_game(http, ws_base, tokens)
        while time.perf_counter() < deadline and seats[0].state["status"] == "active":
            mover = next(s for s in seats if s.state["legal_moves"])
            other = seats[1 - seats.index(mover)]
            version = mover.state["version"] + 1
            sent = time.perf_counter()
            await mover.ws.send(json.dumps({
                "type": "move", "id": f"m{version}", "version": version - 1,
                "move": chooser.choice(mover.state["legal_moves"])}))
            await other.until(lambda m, v=version: m["type"] == "state" and m["version"] == v)
            stats.latencies.append(time.perf_counter() - sent)
            await mover.until(lambda m: m["type"] == "ack")
            stats.moves += 1
        stats.games += seats[0].state["status"] == "finished"
        for seat in seats:
            await seat.ws.close()


async def level(base_url: str, rooms: int, seconds: float) -> Stats:
    stats = Stats()
    limits = httpx.Limits(max_connections=200)
    async with httpx.AsyncClient(base_url=base_url, timeout=60, limits=limits) as http:
        deadline = time.perf_counter() + seconds
        ws_base = base_url.replace("http://", "ws://")
        await asyncio.gather(*(_room(http, ws_base, deadline, stats, random.Random(n))
                               for n in range(rooms)))
    return stats


def _percentile(values: list[float], pct: float) -> float:
    return statistics.quantiles(values, n=100)[int(pct) - 1] if len(values) > 1 else values[0]


# Two players here play game after game, a room every ~27 moves: far past what the per-player
# limits allow a person (app/guard/quotas.py), so they are off for the bench.
NO_PLAYER_LIMITS = {"ROOMS_PER_MINUTE_PER_PLAYER": "0", "JOINS_PER_MINUTE_PER_PLAYER": "0"}


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 15.0
    workers = sys.argv[2] if len(sys.argv) > 2 else "1"
    print(f"| rooms | moves | moves/s | p50 ms | p99 ms | (Postgres, {workers} worker(s)) |")
    print("|---|---|---|---|---|---|")
    with postgres_database() as url, running_server(url, BOT_DELAY_MS="0",
                                                    WEB_CONCURRENCY=workers,
                                                    **NO_PLAYER_LIMITS) as server:
        for rooms in LEVELS:
            stats = asyncio.run(level(server.url, rooms, seconds))
            ms = [x * 1000 for x in stats.latencies]
            print(f"| {rooms} | {stats.moves} | {stats.moves / seconds:,.0f} | "
                  f"{_percentile(ms, 50):.1f} | {_percentile(ms, 99):.1f} | |", flush=True)


if __name__ == "__main__":
    main()
