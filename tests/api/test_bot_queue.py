"""The bot pool under load and at its end. More rooms thinking than bot workers (20 `hard` rooms
on one worker): a decision waits for a free worker before its timeout starts, so a queued
decision is not dropped for the queue's time, and its timeout does not end the worker searching
for another room. A server that stops, or is killed, leaves no worker behind."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from random import Random
from typing import Any

import bots
from app.config import Settings
from app.table.bot_share import FairSlots
from app.table.bot_worker import WORKER_NICENESS
from app.table.bots import BotThinker
from games import REGISTRY
from tests.api.client import Api
from tests.server import database, running_server

LUCENT = REGISTRY["gem-pyramid"]
SEARCH_SECONDS = 4.0  # each search alone fits its budget (easy: 0.1 s + a grace of 6 s) ...
GRACE_SECONDS = 6.0  # ... but two in a row do not: timed from the queue, the second times out


def last_move_think(game_id: str, state: Any, seat: int, *args: Any) -> Any:
    """An engine that answers at once, with a move the fallback would not pick."""
    return REGISTRY[game_id].legal_moves(state, seat)[-1]


def slow_think(game_id: str, state: Any, seat: int, *args: Any) -> Any:
    time.sleep(SEARCH_SECONDS)
    return last_move_think(game_id, state, seat)


async def test_decisions_queued_for_the_one_worker_each_get_their_whole_budget() -> None:
    thinker = BotThinker(Settings(bot_workers=1, bot_timeout_grace_seconds=GRACE_SECONDS))
    state = LUCENT.setup(2, LUCENT.Options(), Random(4))
    seat = sorted(LUCENT.to_act(state))[0]
    searched = LUCENT.legal_moves(state, seat)[-1]
    assert searched != bots.fallback_move(LUCENT, state, seat, "s")
    try:
        thinker.think = last_move_think  # the worker is spawned, its imports done
        assert await thinker.decide(LUCENT.id, state, seat, "easy", "s") == searched
        thinker.think = slow_think
        moves = await asyncio.gather(*(thinker.decide(LUCENT.id, state, seat, "easy", f"s{n}")
                                       for n in range(3)))
        assert moves == [searched] * 3, "a queued decision fell back"
    finally:
        thinker.stop()


def worker_niceness() -> int:
    """Run in a worker: its scheduling priority."""
    return os.nice(0)


async def test_bots_think_at_a_lower_priority_than_the_server() -> None:
    thinker = BotThinker(Settings(bot_workers=1))
    try:
        niceness = await asyncio.wrap_future(thinker._ensure_pool()[0].submit(worker_niceness))
        assert niceness == min(19, os.nice(0) + WORKER_NICENESS), \
            "people's moves are served before bots think"
    finally:
        thinker.stop()


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (the pool's worker and its resource tracker)."""
    found = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                           text=True, check=False).stdout
    return [int(line) for line in found.split()]


def _running(pid: int) -> bool:
    """Alive and not a zombie (a container's init may be slow to reap the orphans it adopts)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def test_a_killed_server_leaves_no_bot_worker_behind() -> None:
    with database("sqlite") as url, running_server(url) as server:
        api = Api(server.url)
        host = await api.player("Host")
        room = await api.call("POST", "/api/rooms", host["token"], 201,
                              json={"game": "gem-pyramid", "seats": 2})
        await api.call("POST", f"/api/rooms/{room['code']}/bots", host["token"],
                       json={"seat": 1, "level": "normal"})
        await api.start(room["code"], host)
        await api.call("POST", f"/api/rooms/{room['code']}/leave", host["token"])
        deadline = time.monotonic() + 120  # a bound on a stuck room only
        while (await api.call("GET", f"/api/rooms/{room['code']}"))["version"] < 2:
            assert time.monotonic() < deadline, "the bots did not move"
            await asyncio.sleep(0.2)
        await api.close()
        assert server.proc is not None
        workers = _children(server.proc.pid)
        assert workers, "the bots thought in a pool of their own processes"
        server.proc.kill()  # no shutdown: only the workers' own watch can end them
        server.proc.wait()
        deadline = time.monotonic() + 60
        while alive := [pid for pid in workers if _running(pid)]:
            assert time.monotonic() < deadline, f"bot workers {alive} outlived their server"
            await asyncio.sleep(0.2)


async def _granted_order(slots: FairSlots, asks: list[tuple[str, bool]]
                         ) -> tuple[list[int], list[asyncio.Task[None]], asyncio.Event]:
    """Queue `asks` (owner, urgent) in this order on fully busy `slots`, then free one worker
    at a time: the order in which the asks get it."""
    order: list[int] = []
    release = asyncio.Event()

    async def ask(n: int, owner: str, urgent: bool) -> None:
        async with slots.slot(owner, urgent):
            order.append(n)
            await release.wait()

    tasks = [asyncio.create_task(ask(n, owner, urgent)) for n, (owner, urgent) in enumerate(asks)]
    while slots.waiting() < len(asks):
        await asyncio.sleep(0)
    return order, tasks, release


async def test_one_owners_many_rooms_do_not_push_another_rooms_decision_back() -> None:
    """Issue 33: first come, first served let one player's six hard rooms go before another
    player's one decision; in turn, the other waits for one of theirs at most (per worker)."""
    slots = FairSlots(1)
    busy = slots.slot("abuser")
    await busy.__aenter__()  # the one worker searches for one of the abuser's rooms
    asks = [("abuser", False)] * 6 + [("other", False)] + [("abuser", False)] * 2 \
        + [("clock", True)]
    order, tasks, release = await _granted_order(slots, asks)
    await busy.__aexit__(None, None, None)
    release.set()
    await asyncio.gather(*tasks)
    assert order[0] == 9, "a turn clock's stand-in goes before every queued search"
    assert order[1:3] == [0, 6], "the other owner's room is next after one of the abuser's"
    assert order[3:] == [1, 2, 3, 4, 5, 7, 8], "each owner's own rooms in the order they asked"


async def test_a_cancelled_waiter_hands_its_turn_on() -> None:
    slots = FairSlots(1)
    busy = slots.slot("a")
    await busy.__aenter__()
    order, tasks, release = await _granted_order(slots, [("a", False), ("b", False)])
    tasks[0].cancel()
    await busy.__aexit__(None, None, None)
    release.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert order == [1] and slots.waiting() == 0
    async with slots.slot("c"):  # the worker is free again
        pass
