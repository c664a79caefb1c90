"""A seat whose turn clock runs out is moved for by the room's stand-in bot (its
`standin_level`), decided in the bot pool and seeded as a bot seat's would be; the game's
`zombie_move` only when the bot service fails. One room's thinking never holds up another
room's time-out, and a room is not timed out twice while its stand-in thinks.

The hall's own clock watcher does the work; deadlines are set by moving `last_move_at` in the
database, and the tests wait for the move rows (nothing leans on speed)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select, update

import bots
from app.admin.replays import steps
from app.core.seat_clocks import LATE_GRACE_SECONDS
from app.hall import Hall
from app.store.models import MoveRow, Room, Seat
from app.table.bots import seed_of
from games.protocol import match_rng
from tests.api.test_bot_levels import bot_hall
from tests.api.test_hardening_clocks import GAME, _clocked_room, _deadline_in

WAIT_SECONDS = 120  # far beyond what a move takes: the tests wait for rows, not for time


@pytest.fixture(params=["sqlite", "postgres"])
async def hall(request: pytest.FixtureRequest) -> AsyncIterator[Hall]:
    """A hall whose bot pool waits as long as the tests do: on a loaded machine, spawning the
    worker can outlast the usual grace, and the fallback (the zombie move) would then play."""
    async with bot_hall(request.param, bot_timeout_grace_seconds=WAIT_SECONDS) as started:
        yield started


async def _room(hall: Hall, seed: str, standin_level: str | None) -> str:
    """A started clocked two-player room dealt from `seed` (so its moves are known), both
    players connected (a deserted room would pause its clock), its stand-in at `standin_level`."""
    code, _ = await _clocked_room(hall)
    async with hall.store.sessions() as session, session.begin():
        await session.execute(update(Room).where(Room.code == code).values(
            seed=seed, standin_level=standin_level,
            state=GAME.setup(2, GAME.Options(), match_rng(seed, 0))))
        await session.execute(update(Seat).where(Seat.room_code == code).values(
            connections=1, absent_since=None))
    hall.store.forget(code)
    return code


async def _run_out(hall: Hall, code: str) -> Room:
    """The seat to act's time ran out just now (past the late grace); the room as read then."""
    return await _deadline_in(hall, code, -(LATE_GRACE_SECONDS + 1))


async def _move_at(hall: Hall, code: str, version: int) -> MoveRow:
    """The move row that made `version`, once the clock has landed it."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        async with hall.store.sessions() as session:
            row = await session.scalar(select(MoveRow).where(
                MoveRow.room_code == code, MoveRow.version == version))
        if row is not None:
            return row
        assert time.monotonic() < deadline, f"no clock move made version {version}"
        await asyncio.sleep(0.05)


async def test_a_timed_out_seat_plays_the_move_of_the_rooms_stand_in(hall: Hall) -> None:
    code = await _room(hall, "clock-standin", "greedy")
    differed = 0
    for _ in range(6):
        room = await _run_out(hall, code)
        seat = sorted(GAME.to_act(room.state))[0]
        # What the server asks for: the room's level, seeded as a bot seat's decision.
        chosen = bots.choose(GAME.id, room.state, seat, "greedy", seed_of(room, seat))
        row = await _move_at(hall, code, room.version + 1)
        assert (row.seat, row.move) == (seat, chosen)
        assert row.by is not None and row.by["via"] == "clock"
        differed += chosen != GAME.zombie_move(room.state, seat)
    assert differed, "the stand-in's moves differ from the zombie moves somewhere here"
    # The log replays to the room's state, as any other moves do.
    async with hall.store.sessions() as session:
        room = await session.get(Room, code)
        rows = list(await session.scalars(select(MoveRow).where(
            MoveRow.room_code == code).order_by(MoveRow.version)))
    assert room is not None and list(steps(room, 2, rows))[-1].state == room.state


async def test_a_room_without_a_level_of_its_own_stands_in_at_bot_level(
        hall: Hall, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rooms from before `standin_level` (NULL) stand in at the server's BOT_LEVEL (normal)."""
    code = await _room(hall, "clock-default", None)
    asked: list[str] = []
    decide = hall.bots.thinker.decide

    async def spy(game_id: str, state: Any, seat: int, level: str, seed: str,
                  **how: Any) -> Any:
        asked.append(level)
        assert how == {"urgent": True}, "a stand-in goes before queued bot searches"
        return await decide(game_id, state, seat, level, seed, **how)

    monkeypatch.setattr(hall.bots.thinker, "decide", spy)
    room = await _run_out(hall, code)
    seat = sorted(GAME.to_act(room.state))[0]
    row = await _move_at(hall, code, room.version + 1)
    assert asked == [hall.settings.bot_level] == ["normal"]
    assert row.seat == seat and row.move in GAME.legal_moves(room.state, seat)


async def test_the_zombie_move_plays_when_the_bot_service_fails(
        hall: Hall, monkeypatch: pytest.MonkeyPatch) -> None:
    code = await _room(hall, "clock-broken", "greedy")

    async def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("the bot service is down")

    monkeypatch.setattr(hall.bots.thinker, "decide", broken)
    room = await _run_out(hall, code)
    seat = sorted(GAME.to_act(room.state))[0]
    row = await _move_at(hall, code, room.version + 1)
    assert (row.seat, row.move) == (seat, GAME.zombie_move(room.state, seat))
    assert row.by is not None and row.by["via"] == "clock"


async def test_one_rooms_thinking_holds_up_no_other_room_nor_runs_twice(
        hall: Hall, monkeypatch: pytest.MonkeyPatch) -> None:
    slow, quick = await _room(hall, "clock-slow", "greedy"), await _room(hall, "clock-quick",
                                                                           "greedy")
    release = asyncio.Event()
    asked: list[str] = []
    decide = hall.bots.thinker.decide

    async def thinking(game_id: str, state: Any, seat: int, level: str, seed: str,
                       **how: Any) -> Any:
        asked.append(seed)
        if seed.startswith("clock-slow:"):
            await release.wait()  # this room's stand-in thinks until the test lets it
        return await decide(game_id, state, seat, level, seed, **how)

    monkeypatch.setattr(hall.bots.thinker, "decide", thinking)
    rooms = {code: await _run_out(hall, code) for code in (slow, quick)}
    await _move_at(hall, quick, rooms[quick].version + 1)
    deadline = time.monotonic() + WAIT_SECONDS
    while not any(seed.startswith("clock-slow:") for seed in asked):
        assert time.monotonic() < deadline, "the slow room was never timed out"
        await asyncio.sleep(0.05)
    for _ in range(3):  # more sweeps while the slow room still thinks: none starts it again
        await hall.clocks.fire_expired()
    assert sum(seed.startswith("clock-slow:") for seed in asked) == 1
    release.set()
    row = await _move_at(hall, slow, rooms[slow].version + 1)
    assert row.by is not None and row.by["via"] == "clock"
    async with hall.store.sessions() as session:
        room = await session.get(Room, slow)
    assert room is not None and room.version == rooms[slow].version + 1, "one move, not two"
