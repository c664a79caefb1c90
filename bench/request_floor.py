"""The server's CPU for a request that does nothing: the floor under every set-up call (not a test).

A room set up as `../shared/bench` does it is five REST calls and two websockets; whatever each
call does, it first pays for uvicorn's protocol, the middlewares and FastAPI's routing. This
measures that floor on `GET /api/health` (no database, no body), as the server's user and system
CPU from /proc per request, with keep-alive connections as the load generator's `fetch` uses.

Run against a running server: `python -m bench.request_floor --pid PID [--url URL]
[--requests N] [--at-once C]`.
"""

from __future__ import annotations

import argparse
import asyncio

import httpx

from bench.setup_load import cpu_seconds


async def _requests(url: str, count: int, at_once: int) -> None:
    left = count

    async def one_client(http: httpx.AsyncClient) -> None:
        nonlocal left
        while left > 0:
            left -= 1
            (await http.get("/api/health")).raise_for_status()

    async with httpx.AsyncClient(base_url=url) as http:
        await asyncio.gather(*(one_client(http) for _ in range(at_once)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pid", type=int, required=True, help="the server's process id")
    parser.add_argument("--url", default="http://127.0.0.1:18002")
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--at-once", type=int, default=10)
    args = parser.parse_args()
    asyncio.run(_requests(args.url, 500, args.at_once))  # warm: connections, caches
    before = sum(cpu_seconds(args.pid))
    asyncio.run(_requests(args.url, args.requests, args.at_once))
    spent = sum(cpu_seconds(args.pid)) - before
    print(f"{args.requests} requests: server CPU {spent * 1000 / args.requests:.3f} ms a request")


if __name__ == "__main__":
    main()
