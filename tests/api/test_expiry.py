"""Issue 11: idle waiting rooms and abandoned games close, old closed rooms are deleted.

The server sweeps several times a second here; the tests age rooms by moving their timestamps
back in the database rather than by waiting.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select, update

from app.store.db import make_engine
from app.store.models import MoveRow, Room, utcnow
from tests.api.client import Api, Conn
from tests.server import Server, database, running_server


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def served(request: pytest.FixtureRequest) -> Iterator[tuple[Server, str]]:
    with database(request.param) as url, \
            running_server(url, ROOM_SWEEP_SECONDS="0.2") as srv:
        yield srv, url


@pytest.fixture
async def api(served: tuple[Server, str]) -> AsyncIterator[Api]:
    client = Api(served[0].url)
    yield client
    await client.close()


async def _age(url: str, code: str, days: float, **values: Any) -> None:
    """Move the room's clock back `days` (and set `values`), as if nobody had touched it."""
    then = utcnow() - timedelta(days=days)
    engine = make_engine(url)
    async with engine.begin() as conn:
        await conn.execute(update(Room).where(Room.code == code).values(
            created_at=then, updated_at=then, last_move_at=then, **values))
    await engine.dispose()


async def _status(api: Api, code: str, wanted: str | None) -> None:
    """Wait until the room has status `wanted` (None: until it is gone)."""
    for _ in range(200):
        response = await api.http.get(f"/api/rooms/{code}")
        if wanted is None and response.status_code == 404:
            return
        if wanted is not None and response.json()["status"] == wanted:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"room {code} never became {wanted}: {response.text}")


async def _room(api: Api) -> tuple[str, dict[str, Any]]:
    host = await api.player("H")
    room = await api.call("POST", "/api/rooms", host["token"], 201, json={"game": "gem-pyramid"})
    return room["code"], host


async def test_a_waiting_room_nobody_touched_for_a_day_closes(
        api: Api, served: tuple[Server, str]) -> None:
    old, host = await _room(api)
    fresh, _ = await _room(api)
    conn = await api.connect(old, host["token"])
    await _age(served[1], old, 1.1)
    await _status(api, old, "aborted")
    await conn.until(lambda c: c.room is not None and c.room["status"] == "aborted")
    assert (await api.call("GET", f"/api/rooms/{fresh}"))["status"] == "lobby"
    await conn.close()


async def test_a_game_with_no_move_for_two_weeks_closes(
        api: Api, served: tuple[Server, str]) -> None:
    code, _, conns = await api.started_pair()
    quiet, _, quiet_conns = await api.started_pair()
    await _age(served[1], quiet, 15)
    await _status(api, quiet, "aborted")
    assert (await api.call("GET", f"/api/rooms/{code}"))["status"] == "active"
    for conn in conns + quiet_conns:
        await conn.close()


async def test_closed_rooms_are_deleted_after_their_retention(
        api: Api, served: tuple[Server, str]) -> None:
    old, _ = await _room(api)
    recent, _ = await _room(api)
    await _age(served[1], old, 91, status="finished")
    await _age(served[1], recent, 30, status="finished")
    await _status(api, old, None)
    await api.call("GET", f"/api/rooms/{old}/moves", expect=404)
    assert (await api.call("GET", f"/api/rooms/{recent}"))["status"] == "finished"


async def _moves_of(url: str, code: str) -> int:
    engine = make_engine(url)
    async with engine.connect() as conn:
        count = (await conn.execute(select(func.count()).select_from(MoveRow)
                                    .where(MoveRow.room_code == code))).scalar_one()
    await engine.dispose()
    return count


async def _one_move_each(conns: list[Conn]) -> None:
    """The seat to act in this room makes one legal move, acknowledged."""
    for conn in conns:
        state = conn.state
        assert state is not None
        if state["seat"] in state["to_act"]:
            assert (await conn.move(state["legal_moves"][0]))["type"] == "ack"
            return
    raise AssertionError("nobody could move")


async def test_a_deleted_room_takes_its_moves_and_no_others(
        api: Api, served: tuple[Server, str]) -> None:
    """Moves have no foreign key to their room (migration 0022): the sweep deletes them."""
    old, _, old_conns = await api.started_pair()
    kept, _, kept_conns = await api.started_pair()
    await _one_move_each(old_conns)
    await _one_move_each(kept_conns)
    for conn in old_conns + kept_conns:
        await conn.close()
    assert await _moves_of(served[1], old) == 1
    await _age(served[1], old, 91, status="finished")
    await _status(api, old, None)
    assert await _moves_of(served[1], old) == 0
    assert await _moves_of(served[1], kept) == 1
