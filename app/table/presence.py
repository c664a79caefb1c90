"""Who is connected: each socket counts once, on the seat it holds now or as a watcher.

A socket's seat follows the seats table (`Client.rebind`), so its count must follow too: a
player who leaves and joins again on the same socket, or takes a seat while watching, would
otherwise show as disconnected while connected (`connected` drift). Every change to
one socket's count runs in order on its own task chain, and closing waits for the chain.
"""

from __future__ import annotations

import asyncio
import contextlib

from app.context import Context
from app.play.sockets import Client
from app.table import chat
from app.table.heartbeat import seat_connected, seat_disconnected


async def _count(hall: Context, client: Client, seat: int | None, delta: int) -> None:
    if seat is None:
        await chat.watch(hall, client, delta)
    elif delta > 0:
        client.ledger, client.greeting = await seat_connected(hall, client.room, seat,
                                                             client.player_id)
    else:
        ledger, client.ledger = client.ledger, None
        await seat_disconnected(hall, client.room, seat, client.player_id, ledger)


async def _sync(hall: Context, client: Client) -> None:
    """Move this socket's count to the seat it holds now (None: the watchers)."""
    target = client.seat
    if client.closed or (client.counted and client.counted_seat == target):
        return
    if client.counted:
        await _count(hall, client, client.counted_seat, -1)
    client.counted, client.counted_seat = True, target
    await _count(hall, client, target, +1)


def follow(hall: Context, client: Client) -> asyncio.Task[None]:
    """Queue a sync after any still running for this socket; returns the queued task."""
    previous = client.recount

    async def run() -> None:
        if previous is not None:
            with contextlib.suppress(Exception):
                await previous
        await _sync(hall, client)

    task = client.recount = asyncio.get_running_loop().create_task(run())
    task.add_done_callback(lambda done: _let_go(client, done))
    return task


def _let_go(client: Client, done: asyncio.Task[None]) -> None:
    """A finished sync is not kept for the socket's life (memory per socket) unless it
    failed: `release` still awaits it then, as it did."""
    if client.recount is done and not done.cancelled() and done.exception() is None:
        client.recount = None


async def release(hall: Context, client: Client) -> None:
    """The socket closed: wait for its queued syncs, then take back what it counts."""
    if client.recount is not None:
        with contextlib.suppress(Exception):
            await client.recount
    if client.counted:
        await _count(hall, client, client.counted_seat, -1)
