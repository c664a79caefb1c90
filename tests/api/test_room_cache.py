"""Postgres keeps rooms in the serving process's memory (roomcache.py): another process's
write must never be overwritten or judged against an old state, and a room nobody else serves
sends no NOTIFY."""

from __future__ import annotations

import asyncio

from sqlalchemy import select, update

from app.hall import Hall
from app.play.moves import Mover, submit_move
from app.store.models import MoveRow, Seat
from games import REGISTRY
from tests.api.inprocess import first_legal_move, started_room

GAME = REGISTRY["gem-pyramid"]


async def _room(hall: Hall) -> tuple[str, list[str]]:
    return await started_room(hall, GAME.id, "p")


def _held(hall: Hall, code: str) -> int | None:
    assert hall.store.cache is not None
    room = hall.store.cache.get(code)
    return None if room is None else room.version


async def test_a_stale_cached_room_is_read_again_not_overwritten(halls: tuple[Hall, Hall]) -> None:
    one, two = halls
    code, ids = await _room(one)
    assert await first_legal_move(one, code, ids, "a") == 1
    assert await first_legal_move(two, code, ids, "b") == 2
    assert _held(one, code) == 1  # nobody told `one`: it holds an old room
    # Its write failed over, then it judged again.
    assert await first_legal_move(one, code, ids, "c") == 3
    assert await first_legal_move(two, code, ids, "d") == 4
    assert _held(two, code) == 4
    async with one.store.sessions() as session:
        seats = [m.seat for m in (await session.scalars(
            select(MoveRow).where(MoveRow.room_code == code).order_by(MoveRow.version)))]
    assert seats == [0, 1, 0, 1]
    # A retried id answers its first version, whichever process holds the room.
    assert await submit_move(two, code, Mover(player_id=ids[0]), "c", 2, {}) == 3


async def test_a_stale_cache_never_refuses_a_good_move(halls: tuple[Hall, Hall]) -> None:
    one, two = halls
    code, ids = await _room(one)
    await one.load_snapshot(code)
    await first_legal_move(two, code, ids, "x")
    assert _held(one, code) == 0
    # Seat 1 moves on version 1, which `one` has not seen: judged on version 0, that would be
    # `not_your_turn`.
    assert await first_legal_move(one, code, ids, "y") == 2


async def test_a_room_served_by_one_process_sends_no_notification(
        halls: tuple[Hall, Hall]) -> None:
    one, two = halls
    code, ids = await _room(one)
    heard: list[str] = []

    async def listen(payload: str) -> None:
        heard.append(payload)

    two.store.hub._handler = listen  # type: ignore[union-attr]
    await first_legal_move(one, code, ids, "quiet")  # no socket anywhere: nobody to tell
    async with one.store.engine.begin() as conn:  # as if another process counted a socket
        await conn.execute(update(Seat).where(Seat.room_code == code, Seat.seat == 0)
                           .values(connections=1))
    await first_legal_move(one, code, ids, "loud")
    for _ in range(200):
        if heard:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.2)  # had the first move sent one too, the second would be here now
    assert heard == [f"state:{code}:{one.origin}"]
