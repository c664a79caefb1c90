"""What Postgres spends per room set up, by statement, from its own counters (not a test).

Why: Postgres's CPU per room set up (`setup_cpu`) says how much, not where; timings on a shared
machine move with its load, these counters do not. Rooms are set up as `../shared/bench` does it
(two players, a Lucent room, a join, then both sockets and the start at once), `--at-once` at a
time, and both sockets close once active. Printed per room: each statement's calls, execution
and planning time, buffers hit and dirtied, and WAL (`pg_stat_statements`); the WAL written
(`pg_current_wal_lsn`); each table's inserts, updates (HOT or not) and deletes, and each index's
scans (`pg_stat_user_tables`, `pg_stat_user_indexes`); and the cluster's CPU by process kind
(the server's backends, its LISTEN backend, the WAL writer, autovacuum…), from /proc.

The cluster needs `shared_preload_libraries = 'pg_stat_statements'` (and, for the planning
column, `pg_stat_statements.track_planning = on`). Run:
`python -m bench.setup_pgcost --db NAME [--host H:P] [--rooms N] [--at-once C]`.
The database NAME is emptied first; a server is started on it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from typing import Any

import asyncpg
import httpx

from bench import served

_STATEMENTS = """
SELECT calls, total_exec_time, total_plan_time, rows, shared_blks_hit, shared_blks_read,
       shared_blks_dirtied, wal_records, wal_fpi, wal_bytes, query
FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)
ORDER BY total_exec_time DESC"""
_TABLES = ("SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del "
           "FROM pg_stat_user_tables")
_INDEXES = "SELECT indexrelname, idx_scan FROM pg_stat_user_indexes"
# The heartbeat's and the turn clock watcher's statements come by the clock, not by the rooms.
_CLOCKED = ("processes", "SELECT rooms.code, rooms.turn_clock", "pg_stat_", "pg_current_wal")


async def one_room(http: httpx.AsyncClient, ws_url: str) -> None:
    """One room set up (in the load generator's order), then both its sockets closed."""
    for ws in await served.set_up_room(http, ws_url):
        await ws.close()


async def _rooms(url: str, n: int, at_once: int) -> None:
    slots = asyncio.Semaphore(at_once)

    async def slot(http: httpx.AsyncClient) -> None:
        async with slots:
            await one_room(http, url.replace("http", "ws", 1))

    async with httpx.AsyncClient(base_url=url, timeout=60,
                                 limits=httpx.Limits(max_connections=at_once)) as http:
        await asyncio.gather(*(slot(http) for _ in range(n)))


_KINDS = """
SELECT pid, CASE WHEN query LIKE 'LISTEN%' THEN 'listener (NOTIFY)'
                 WHEN backend_type = 'client backend' THEN 'client backends'
                 ELSE backend_type END AS kind
FROM pg_stat_activity"""


def _ticks(pid: int | str, children: bool = False) -> int:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15 if children else 13])


async def _postgres_cpu(conn: asyncpg.Connection) -> dict[str, float]:
    """CPU seconds so far of the cluster's processes, by kind; the children that exited
    (autovacuum workers, mostly) are the postmaster's waited-for children."""
    with open(f"/proc/{conn.get_server_pid()}/stat") as stat:
        postmaster = stat.read().rsplit(")", 1)[1].split()[1]
    cpu = {"exited, and the postmaster": _ticks(postmaster, children=True)}
    for row in await conn.fetch(_KINDS):
        try:
            cpu[row["kind"]] = cpu.get(row["kind"], 0) + _ticks(row["pid"])
        except OSError:  # gone meanwhile: counted with the exited ones next time
            continue
    return {kind: ticks / os.sysconf("SC_CLK_TCK") for kind, ticks in cpu.items()}


async def _counters(conn: asyncpg.Connection) -> tuple[dict[str, Any], dict[str, int]]:
    tables = {r["relname"]: r for r in await conn.fetch(_TABLES)}
    return tables, {r["indexrelname"]: r["idx_scan"] for r in await conn.fetch(_INDEXES)}


async def run(args: argparse.Namespace) -> None:
    admin = f"postgresql://postgres@{args.host}/postgres"
    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{args.db}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{args.db}"')
    finally:
        await conn.close()
    dsn = f"postgresql://postgres@{args.host}/{args.db}"
    server = served.start(dsn.replace("postgresql", "postgresql+asyncpg", 1), args.port)
    url = f"http://127.0.0.1:{args.port}"
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        async with httpx.AsyncClient(base_url=url) as http:
            await served.until_up(http)
        await _rooms(url, args.warm, args.at_once)
        await asyncio.sleep(11)  # backends report their table counts within 10 s of idling
        await conn.execute("CHECKPOINT")  # each run starts with the same full-page writes to do
        tables0, indexes0 = await _counters(conn)
        await conn.execute("SELECT pg_stat_statements_reset()")
        lsn0, cpu0 = await conn.fetchval("SELECT pg_current_wal_lsn()"), \
            await _postgres_cpu(conn)
        await _rooms(url, args.rooms, args.at_once)
        await asyncio.sleep(0.5)  # the closes' statements
        lsn1, cpu1 = await conn.fetchval("SELECT pg_current_wal_lsn()"), \
            await _postgres_cpu(conn)
        wal = await conn.fetchval("SELECT $1::pg_lsn - $2::pg_lsn", lsn1, lsn0)
        statements = await conn.fetch(_STATEMENTS, args.db)
        await asyncio.sleep(11)
        tables1, indexes1 = await _counters(conn)
    finally:
        await conn.close()
        server.terminate()
        server.wait()
    cpu = {kind: seconds - cpu0.get(kind, 0) for kind, seconds in cpu1.items()}
    _report(args, statements, float(wal), cpu, (tables0, indexes0), (tables1, indexes1))


def _report(args: argparse.Namespace, statements: list[Any], wal: float, cpu: dict[str, float],
            before: tuple[dict[str, Any], dict[str, int]],
            after: tuple[dict[str, Any], dict[str, int]]) -> None:
    n = args.rooms
    print(f"per room ({n} rooms, {args.at_once} at a time):")
    print(f"{'calls':>6} {'exec ms':>8} {'plan ms':>8} {'ms/call':>8} {'rows':>5} {'hit':>6} "
          f"{'dirt':>5} {'walrec':>6} {'fpi':>5} {'walB':>7}  statement")
    sums = [0.0] * 8
    for s in statements:
        if any(word in s["query"] for word in _CLOCKED):
            continue
        row = [s["calls"] / n, s["total_exec_time"] / n, s["total_plan_time"] / n,
               s["rows"] / n, s["shared_blks_hit"] / n, s["shared_blks_dirtied"] / n,
               s["wal_records"] / n, s["wal_fpi"] / n, float(s["wal_bytes"]) / n]
        sums = [a + b for a, b in zip(sums, row[:3] + row[4:], strict=True)]
        if row[0] < 0.005:
            continue
        text = " ".join(s["query"].split())[:args.width]
        print(f"{row[0]:6.2f} {row[1]:8.4f} {row[2]:8.4f} {s['total_exec_time'] / s['calls']:8.4f} "
              f"{row[3]:5.2f} {row[4]:6.1f} {row[5]:5.2f} {row[6]:6.2f} {row[7]:5.2f} "
              f"{row[8]:7.0f}  {text}")
    print(f"{sums[0]:6.2f} {sums[1]:8.4f} {sums[2]:8.4f} {'':8} {'':5} {sums[3]:6.1f} "
          f"{sums[4]:5.2f} {sums[5]:6.2f} {sums[6]:5.2f} {sums[7]:7.0f}  all statements")
    print(f"WAL {wal / n:.0f} bytes a room (all the cluster's); Postgres CPU "
          f"{1000 * sum(cpu.values()) / n:.2f} ms a room (shared machine: indicative), of which:")
    for kind, seconds in sorted(cpu.items(), key=lambda kv: -kv[1]):
        print(f"  {kind:28} {1000 * seconds / n:6.2f} ms")
    print("table: inserts, updates (HOT), deletes per room")
    for name, t in sorted(after[0].items()):
        t0 = before[0].get(name)
        d = [t[k] - (t0[k] if t0 else 0)
             for k in ("n_tup_ins", "n_tup_upd", "n_tup_hot_upd", "n_tup_del")]
        if any(d):
            print(f"  {name:16} {d[0] / n:5.2f} {d[1] / n:5.2f} ({d[2] / n:5.2f}) {d[3] / n:5.2f}")
    print("index scans per room (all indexes; 0 = none in the measured rooms)")
    for name, scans in sorted(after[1].items()):
        print(f"  {name:40} {(scans - before[1].get(name, 0)) / n:6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a database of yours: it is emptied")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=18351)
    parser.add_argument("--rooms", type=int, default=2000)
    parser.add_argument("--at-once", type=int, default=10)
    parser.add_argument("--warm", type=int, default=200)
    parser.add_argument("--width", type=int, default=70, help="characters of each statement")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
