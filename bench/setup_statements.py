"""Statements Postgres runs per room set-up, counted from its own log (not a test).

A room is set up as `../shared/bench` does it: two players, a Lucent room, a join, then both
sockets and the start at once, until both sockets hold an active state; then both sockets close
and the next room begins (one room at a time, so the counts are the set-up's alone). The
database gets `log_statement = all` for its new sessions, a server is started on it, and the
lines its sessions wrote to Postgres's log during the measured rooms are counted, by statement
(the heartbeat's are left out: they come by the clock, not by the rooms).

Run (as a user who may read the log):
`python -m bench.setup_statements --db NAME [--rooms N] [--port P] [--log PATH]`
The database NAME is emptied first.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import re
import time

import asyncpg
import httpx

from bench import served

LINE = re.compile(r"\[(\d+)\] (?:\S+ )?LOG:  (?:statement|execute [^:]*): (.*)")
# The heartbeat's and the turn clock watcher's statements come by the clock, not by the rooms.
SKIP = ("processes", "SELECT rooms.code, rooms.turn_clock")
STAMP = re.compile(r"\d{4}-\d\d-\d\d ")


async def one_room(http: httpx.AsyncClient, ws_url: str, log: str,
                   marks: list[tuple[int, int, int]]) -> None:
    """One room set up and closed; `marks` gets the log's offsets at its start, once both
    sockets are active, and after the closes."""
    start = os.path.getsize(log)
    sockets = await served.set_up_room(http, ws_url)
    await asyncio.sleep(0.1)  # the greetings' last statements
    active = os.path.getsize(log)
    for ws in sockets:
        await ws.close()
    await asyncio.sleep(0.2)  # the closes' statements belong to this room too
    marks.append((start, active, os.path.getsize(log)))


async def _pids(dsn: str, db: str) -> set[int]:
    conn = await asyncpg.connect(dsn)
    try:
        return {r["pid"] for r in await conn.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
            db)}
    finally:
        await conn.close()


async def run(args: argparse.Namespace) -> None:
    admin = f"postgresql://postgres@{args.host}/postgres"
    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{args.db}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{args.db}"')
        await conn.execute(f"ALTER DATABASE \"{args.db}\" SET log_statement = 'all'")
    finally:
        await conn.close()
    server = served.start(f"postgresql+asyncpg://postgres@{args.host}/{args.db}", args.port)
    url = f"http://127.0.0.1:{args.port}"
    try:
        async with httpx.AsyncClient(base_url=url) as http:
            await served.until_up(http)
            ws_url = url.replace("http", "ws", 1)
            marks: list[tuple[int, int, int]] = []
            for _ in range(args.warm):
                await one_room(http, ws_url, args.log, marks)
            marks.clear()
            pids = await _pids(admin, args.db)
            began = time.perf_counter()
            for _ in range(args.rooms):
                await one_room(http, ws_url, args.log, marks)
            took = time.perf_counter() - began
            pids |= await _pids(admin, args.db)
    finally:
        server.terminate()
        server.wait()
    with open(args.log, "rb") as log:
        for part, (a, b) in (("set-up", (0, 1)), ("close", (1, 2))):
            counts: collections.Counter[str] = collections.Counter()
            for mark in marks:
                log.seek(mark[a])
                for text in _statements(log.read(mark[b] - mark[a]).decode(errors="replace"),
                                        pids):
                    counts[text[:args.width]] += 1
            print(f"-- {part}, statements per room:")
            for text, n in counts.most_common():
                print(f"{n / args.rooms:6.2f}  {text}")
            print(f"{part}: {sum(counts.values()) / args.rooms:.2f} statements per room")
    print(f"{args.rooms} rooms, one at a time, {1000 * took / args.rooms:.1f} ms a room")


def _statements(text: str, pids: set[int]) -> list[str]:
    """The statements the sessions `pids` logged in `text` (continuation lines joined)."""
    found: list[str] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if STAMP.match(line):
            if current is not None:
                found.append(" ".join(" ".join(current).split()))
            current = None
            m = LINE.search(line)
            if m is not None and int(m.group(1)) in pids:
                current = [m.group(2)]
        elif current is not None:
            current.append(line)
    if current is not None:
        found.append(" ".join(" ".join(current).split()))
    return [s for s in found if not any(word in s for word in SKIP)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a database of yours: it is emptied")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=18350)
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--warm", type=int, default=5)
    parser.add_argument("--width", type=int, default=90, help="characters of each statement")
    parser.add_argument("--log", default="/var/log/postgresql/postgresql-15-main.log")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
