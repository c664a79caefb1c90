"""New players made together on Postgres are written by one statement (`newplayers`), each
answered only once committed, and one refused player of a batch fails alone."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest
from sqlalchemy import func, select

from app.hall import Hall
from app.store.models import Device, Player
from tests.api.inprocess import hall_on


@pytest.fixture
async def hall() -> AsyncIterator[Hall]:
    async with hall_on("postgres") as started:
        yield started


async def _add(hall: Hall, name: str, token_hash: str | None = None) -> Player:
    return await hall.store.add_player(name, token_hash or f"hash-{name}", None)


def _statements(hall: Hall) -> list[str]:
    """The statements `hall`'s pool executes from now on, recorded."""
    pool = hall.store.cache.pool
    made: list[str] = []
    execute = pool.execute

    async def recording(query: str, *args: Any) -> Any:
        made.append(query)
        return await execute(query, *args)

    pool.execute = recording  # type: ignore[method-assign]
    return made


async def _stored(hall: Hall) -> tuple[int, int]:
    async with hall.store.sessions() as session:
        players = await session.scalar(select(func.count()).select_from(Player))
        devices = await session.scalar(select(func.count()).select_from(Device))
    return int(players or 0), int(devices or 0)


async def test_players_made_together_share_a_statement(hall: Hall) -> None:
    made = _statements(hall)
    players = await asyncio.gather(*(_add(hall, f"p{n}") for n in range(20)))
    # the first is written at once by its own request, the 19 made meanwhile in one batch
    assert len(made) == 2
    assert await _stored(hall) == (20, 20)
    async with hall.store.sessions() as session:  # each with its own first device
        owners = dict((await session.execute(select(Device.token_hash, Device.player_id))).all())
    assert owners == {f"hash-p{n}": player.id for n, player in enumerate(players)}


async def test_a_refused_player_fails_alone(hall: Hall) -> None:
    await _add(hall, "first", token_hash="taken")
    made = _statements(hall)
    results = await asyncio.gather(
        _add(hall, "a"), _add(hall, "b"), _add(hall, "clash", token_hash="taken"),
        _add(hall, "c"), return_exceptions=True)
    assert [type(r) for r in results] == [Player, Player, asyncpg.UniqueViolationError, Player]
    # a, then the batch of b, clash and c refused whole, then each of those three alone
    assert len(made) == 5
    assert await _stored(hall) == (4, 4)  # first, a, b and c; nothing of the clash
