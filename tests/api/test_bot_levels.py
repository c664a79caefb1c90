"""Bots in the server (issue 26): the host picks a level, stand-ins play `normal`, bots think in a
process pool without blocking the event loop, and a failing or slow engine never stalls a room."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from random import Random
from typing import Any

import pytest

import bots
from app.config import Settings
from app.hall import Hall
from app.store.migrate import upgrade_to_head_async
from app.store.models import Player, Room, Seat
from app.store.orm import create_room, start
from games import REGISTRY
from tests.api.client import Api
from tests.server import database

LUCENT = REGISTRY["gem-pyramid"]


async def test_the_host_picks_a_level_and_a_stand_in_plays_normal(api: Api) -> None:
    host = await api.player("Host")
    room = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "seats": 3})
    code = room["code"]
    bad = await api.call("POST", f"/api/rooms/{code}/bots", host["token"], 422,
                         json={"seat": 1, "level": "grandmaster"})
    assert bad["error"]["code"] == "bad_level"
    await api.call("POST", f"/api/rooms/{code}/bots", host["token"],
                   json={"seat": 1, "level": "easy"})
    seated = await api.call("POST", f"/api/rooms/{code}/bots", host["token"], json={"seat": 2})
    assert [s["bot"] for s in seated["seats"]] == [None, "easy", "normal"]
    await api.start(code, host)
    # The host walks out: a stand-in takes the seat at the server's level (BOT_LEVEL: normal),
    # and the three bots, thinking in the pool, finish the game.
    left = await api.call("POST", f"/api/rooms/{code}/leave", host["token"])
    assert [s["bot"] for s in left["seats"]] == ["normal", "easy", "normal"]
    deadline = time.monotonic() + 240  # a bound on a stuck game only; a loaded machine is slow
    while (room := await api.call("GET", f"/api/rooms/{code}"))["status"] == "active":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        await asyncio.sleep(0.5)
    assert room["status"] == "finished"


# -- in process: the pool, its guard and the event loop ---------------------------------------

@asynccontextmanager
async def bot_hall(kind: str, **settings: Any) -> AsyncIterator[Hall]:
    with database(kind) as url:
        await upgrade_to_head_async(url)
        hall = Hall(Settings(database_url=url, bot_delay_ms=0, **settings))
        await hall.start()
        try:
            yield hall
        finally:
            await hall.stop()


async def bot_room(hall: Hall, host_id: str, level: str, seats: int = 2) -> str:
    """A started Lucent room with a bot of `level` in every seat."""
    async with hall.store.sessions() as session, session.begin():
        host = Player(id=host_id, name="Host", token_hash=host_id)
        session.add(host)
        room = await create_room(session, host, LUCENT.id, None, seats, True)
        for seat in range(seats):
            held = await session.get(Seat, (room.code, seat))
            assert held is not None
            held.player_id, held.bot = None, level
        await start(session, room, host)
        code = room.code
    hall.bots.wake(code)
    return code


async def room_row(hall: Hall, code: str) -> Room:
    async with hall.store.sessions() as session:
        room = await session.get(Room, code)
        assert room is not None
        return room


async def until_finished(hall: Hall, code: str, bound: float = 240) -> Room:
    deadline = time.monotonic() + bound  # stops a stuck game only
    while (room := await room_row(hall, code)).status == "active":
        assert time.monotonic() < deadline, f"room {code} stalled at version {room.version}"
        await asyncio.sleep(0.2)
    return room


def failing_think(*args: Any) -> Any:
    """An engine that breaks in the worker (swapped in for `app.table.bot_worker.think`)."""
    raise RuntimeError("the engine broke")


def sleeping_think(*args: Any) -> Any:
    """An engine that never answers in time."""
    time.sleep(60)


def slow_start() -> None:
    """A worker start that takes seconds, as on a loaded machine (swapped in for `warm`)."""
    time.sleep(3)


def last_move_think(game_id: str, state: Any, seat: int, *args: Any) -> Any:
    """An engine that answers at once, with a move the fallback would not pick."""
    return REGISTRY[game_id].legal_moves(state, seat)[-1]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_a_failing_engine_falls_back_to_legal_moves_and_the_game_ends(kind: str) -> None:
    async with bot_hall(kind) as hall:
        hall.bots.thinker.think = failing_think
        code = await bot_room(hall, "fails", "normal")
        room = await until_finished(hall, code)
        assert room.status == "finished" and room.version > 0


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_a_slow_engine_times_out_into_the_fallback_move(kind: str) -> None:
    # The grace covers a fresh worker's start (spawn, imports) on a loaded machine.
    async with bot_hall(kind, bot_timeout_grace_seconds=5) as hall:
        hall.bots.thinker.think = sleeping_think
        state = LUCENT.setup(2, LUCENT.Options(), Random(4))
        seat = sorted(LUCENT.to_act(state))[0]
        started = time.monotonic()
        move = await hall.bots.thinker.decide(LUCENT.id, state, seat, "easy", "s")
        fallback = bots.fallback_move(LUCENT, state, seat, "s")
        assert move == fallback
        assert time.monotonic() - started < 40, "the decision waited for the engine"
        # The pool that timed out was replaced (its stuck worker ended): the next decision gets
        # a fresh worker, not a queue behind the sleeper (which would time out into the
        # fallback again).
        hall.bots.thinker.think = last_move_think
        answered = await hall.bots.thinker.decide(LUCENT.id, state, seat, "easy", "s")
        assert answered == LUCENT.legal_moves(state, seat)[-1] != fallback


async def test_a_slow_worker_start_is_not_counted_in_the_decision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers that take longer to start than a decision's budget (3 s against 0.1 + 0.5 s):
    the decision waits for them, then searches; had the start counted, it would time out into
    the fallback and retire the pool, and the next one would start as slowly."""
    monkeypatch.setattr("app.table.bots.warm", slow_start)
    async with bot_hall("sqlite", bot_timeout_grace_seconds=0.5) as hall:
        hall.bots.thinker.think = last_move_think
        state = LUCENT.setup(2, LUCENT.Options(), Random(4))
        seat = sorted(LUCENT.to_act(state))[0]
        move = await hall.bots.thinker.decide(LUCENT.id, state, seat, "easy", "s")
        assert move == LUCENT.legal_moves(state, seat)[-1]
        assert move != bots.fallback_move(LUCENT, state, seat, "s")


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_the_event_loop_stays_free_while_bot_rooms_think(kind: str) -> None:
    """Four rooms of `normal` bots think at once; a 10 ms ticker on the loop measures how long
    the loop is held. What is asserted is the loop's own CPU time between two ticks (time this
    thread spent running something else instead of the ticker): a search run on the loop would
    hold it ~0.4 s; the wall-clock lag is reported but not asserted, since a loaded machine
    deschedules the whole process at will."""
    async with bot_hall(kind) as hall:
        codes = [await bot_room(hall, f"lag{n}", "normal") for n in range(4)]
        held: list[float] = []
        lags: list[float] = []
        deadline = time.monotonic() + 240

        async def moves_made() -> int:
            return sum([(await room_row(hall, code)).version for code in codes])

        while await moves_made() < 12:  # several decisions per room, made in the pool
            assert time.monotonic() < deadline, "the bots made too few moves"
            for _ in range(20):
                cpu, wall = time.thread_time(), time.perf_counter()
                await asyncio.sleep(0.01)
                held.append(time.thread_time() - cpu)
                lags.append(time.perf_counter() - wall - 0.01)
        print(f"loop held: max {max(held) * 1000:.1f} ms; wall lag: median "
              f"{statistics.median(lags) * 1000:.1f} ms, max {max(lags) * 1000:.1f} ms")
        assert max(held) < 0.020, f"the event loop was held {max(held) * 1000:.0f} ms"
