"""Postgres's cost per move, the move path alone: CPU of every Postgres process and WAL bytes.

    .venv/bin/python -m bench.move_cost --url postgresql+asyncpg://postgres@127.0.0.1:PORT/db \\
        --postmaster PID [--game G] [--rooms 100] [--games 3] [--snapshot-every N] [--sql S]

Plays `--rooms` games at once (Lucent unless `--game`), `--games` each, through the pipeline
in process (`submit_move`, group commit as in the server; no HTTP, no sockets), on an emptied
database, the rooms set up before the clock starts. Counts the CPU of the postmaster and all
its children (so give it a Postgres cluster of its own: nothing else may use it) and the WAL
written, and divides by the moves. `--snapshot-every 1` writes the state with every move, as
before `app/store/snapshots.py`; compare the two in one sitting.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time
from pathlib import Path

import asyncpg

from app.config import Settings
from app.hall import Hall
from app.play.moves import Mover, submit_move
from app.store import snapshots
from app.store.migrate import upgrade_to_head_async
from app.store.models import Player
from app.store.orm import create_room, join, start

TICKS = os.sysconf("SC_CLK_TCK")


def cluster_cpu(postmaster: int) -> float:
    """Seconds of CPU (user + system) of the postmaster and its children so far."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(stat.parent.name), int(fields[1])
        if pid == postmaster or ppid == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / TICKS


async def _rooms(hall: Hall, game: str, count: int, tag: str) -> list[tuple[str, list[str]]]:
    made = []
    async with hall.store.sessions() as session, session.begin():
        for n in range(count):
            players = [Player(id=f"{tag}{n}p{s}", name=f"P{s}", token_hash=f"{tag}{n}h{s}")
                       for s in (0, 1)]
            session.add_all(players)
            room = await create_room(session, players[0], game, None, 2, True)
            await join(session, room, players[1], None)
            await start(session, room, players[0])
            made.append((room.code, [p.id for p in players]))
    return made


async def _play(hall: Hall, code: str, ids: list[str], chooser: random.Random) -> int:
    snap = await hall.load_snapshot(code)
    assert snap is not None
    game = snap.game
    state, version, moves = snap.state, snap.version, 0
    while game.outcome(state) is None:
        seat = sorted(game.to_act(state))[0]
        move = chooser.choice(game.legal_moves(state, seat))
        version = await submit_move(hall, code, Mover(player_id=ids[seat]), f"m{version}",
                                    version, move)
        moves += 1
        held = hall.store.cache.get(code)
        assert held is not None and held.version == version
        state = held.state
    return moves


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--postmaster", type=int, required=True)
    parser.add_argument("--game", default="gem-pyramid")
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--snapshot-every", type=int, default=snapshots.SNAPSHOT_EVERY)
    parser.add_argument("--sql", default="", help="run after the migrations (a variant)")
    args = parser.parse_args()
    snapshots.SNAPSHOT_EVERY = args.snapshot_every
    raw = args.url.replace("postgresql+asyncpg://", "postgresql://", 1)
    conn = await asyncpg.connect(raw)
    await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    await upgrade_to_head_async(args.url)
    if args.sql:
        await conn.execute(args.sql)
    hall = Hall(Settings(database_url=args.url, bot_delay_ms=0))
    await hall.start()
    try:
        games = [await _rooms(hall, args.game, args.rooms, f"g{g}x")
                 for g in range(args.games)]
        chooser = random.Random(1)
        await conn.execute("CHECKPOINT")
        wal0 = await conn.fetchval("SELECT pg_current_wal_lsn()")
        cpu0, own0, wall0 = cluster_cpu(args.postmaster), time.process_time(), time.monotonic()

        async def room_games(n: int) -> int:
            return sum([await _play(hall, *games[g][n], chooser) for g in range(args.games)])

        moves = sum(await asyncio.gather(*(room_games(n) for n in range(args.rooms))))
        cpu, own = cluster_cpu(args.postmaster) - cpu0, time.process_time() - own0
        wall = time.monotonic() - wall0
        wal = await conn.fetchval("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)", wal0)
        print("WAL from", wal0, "to", await conn.fetchval("SELECT pg_current_wal_lsn()"))
    finally:
        await hall.stop()
        await conn.close()
    print(f"{args.game}, snapshot every {args.snapshot_every}: {moves} moves in {wall:.1f} s; "
          f"Postgres {cpu / moves * 1e3:.3f} ms CPU and {wal / moves:.0f} B of WAL per move; "
          f"this process {own / moves * 1e3:.3f} ms CPU per move")


if __name__ == "__main__":
    asyncio.run(main())
