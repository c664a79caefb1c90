"""Bot-vs-bot rooms that keep playing on a running server: the background load for "people's move
latency is unchanged while bots think" (`bench/serve_with_bots.sh` runs it beside the server
that `../shared/bench/compare.sh` measures).

Each table, for as long as this runs: a player makes a private room whose stand-in level is the
bots' level, seats a bot of that level in every other seat, starts the game and leaves it. Leaving
a started game hands the seat to a stand-in at the room's level, so every seat is then a bot of
that level, through the same routes and rules a person uses (no admin token, no back door). When
the game ends (or the room closes for any reason) the table makes a new room.

Run: `python -m bench.bot_rooms --url http://127.0.0.1:8000 [--rooms 20] [--level hard]
[--game gem-pyramid] [--seats 2]`; it waits for the server to answer, and stops on SIGTERM or
Ctrl-C with a summary line.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import time
from dataclasses import dataclass
from typing import Any

import httpx

POLL_SECONDS = 2.0  # how often a table looks whether its game is over (one GET)
UP_WITHIN_SECONDS = 120.0


@dataclass
class Tally:
    started: int = 0
    finished: int = 0
    moves: int = 0  # moves of the rooms that ended (their last version)
    failures: int = 0


async def call(client: httpx.AsyncClient, method: str, path: str, token: str | None = None,
               **body: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = await client.request(method, path, headers=headers, json=body or None)
    response.raise_for_status()
    return response.json()


async def wait_until_up(client: httpx.AsyncClient) -> None:
    deadline = time.monotonic() + UP_WITHIN_SECONDS
    while True:
        try:
            await call(client, "GET", "/api/health")
            return
        except httpx.HTTPError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)


async def bot_room(client: httpx.AsyncClient, token: str, game: str, seats: int,
                   level: str) -> str:
    """A started room whose every seat is a bot of `level`; its code."""
    room = await call(client, "POST", "/api/rooms", token, game=game, seats=seats,
                      private=True, standin_level=level)
    code = room["code"]
    for seat in range(1, seats):
        await call(client, "POST", f"/api/rooms/{code}/bots", token, seat=seat, level=level)
    await call(client, "POST", f"/api/rooms/{code}/start", token)
    # The host walks out: a stand-in at the room's level (`level`) takes seat 0.
    left = await call(client, "POST", f"/api/rooms/{code}/leave", token)
    assert all(s["bot"] == level for s in left["seats"]), left["seats"]
    return code


async def table(client: httpx.AsyncClient, n: int, args: argparse.Namespace,
                tally: Tally) -> None:
    """One table: a bot room after another, for ever."""
    me = await call(client, "POST", "/api/players", name=f"Bot host {n + 1}")
    while True:
        try:
            code = await bot_room(client, me["token"], args.game, args.seats, args.level)
            tally.started += 1
            while (room := await call(client, "GET", f"/api/rooms/{code}"))["status"] == "active":
                await asyncio.sleep(POLL_SECONDS)
            tally.finished += room["status"] == "finished"
            tally.moves += room["version"]
        except httpx.HTTPError as exc:
            tally.failures += 1
            print(f"table {n + 1}: {exc!r}; a new room in a moment", file=sys.stderr)
            await asyncio.sleep(POLL_SECONDS)


async def run(args: argparse.Namespace) -> Tally:
    tally = Tally()
    started = time.monotonic()
    limits = httpx.Limits(max_connections=args.rooms)
    async with httpx.AsyncClient(base_url=args.url, timeout=60, limits=limits) as client:
        await wait_until_up(client)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        tasks = [asyncio.create_task(table(client, n, args, tally)) for n in range(args.rooms)]
        print(f"bot rooms: {args.rooms} tables of {args.level} bots at {args.game}",
              file=sys.stderr)
        await stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(f"bot rooms: {tally.started} started, {tally.finished} finished ({tally.moves} moves) "
          f"in {time.monotonic() - started:.0f} s, {tally.failures} failed requests",
          file=sys.stderr)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--game", default="gem-pyramid")
    parser.add_argument("--seats", type=int, default=2)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
