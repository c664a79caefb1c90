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
from app.store.models import Device, Player, utcnow
from tests.api.inprocess import hall_on


@pytest.fixture
async def hall() -> AsyncIterator[Hall]:
    async with hall_on("postgres") as started:
        yield started


def _player(name: str, token_hash: str | None = None) -> Player:
    return Player(id=f"id-{name}", name=name, token_hash=token_hash or f"hash-{name}",
                  created_at=utcnow())


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
    await asyncio.gather(*(hall.store.add_player(_player(f"p{n}")) for n in range(20)))
    # the first is written at once by its own request, the 19 made meanwhile in one batch
    assert len(made) == 2
    assert await _stored(hall) == (20, 20)
    async with hall.store.sessions() as session:  # each with its own first device
        owners = dict((await session.execute(select(Device.token_hash, Device.player_id))).all())
    assert owners == {f"hash-p{n}": f"id-p{n}" for n in range(20)}


async def test_a_refused_player_fails_alone(hall: Hall) -> None:
    await hall.store.add_player(_player("first", token_hash="taken"))
    made = _statements(hall)
    results = await asyncio.gather(
        hall.store.add_player(_player("a")), hall.store.add_player(_player("b")),
        hall.store.add_player(_player("clash", token_hash="taken")),
        hall.store.add_player(_player("c")), return_exceptions=True)
    assert [type(r) for r in results] == [type(None), type(None),
                                          asyncpg.UniqueViolationError, type(None)]
    # a, then the batch of b, clash and c refused whole, then each of those three alone
    assert len(made) == 5
    assert await _stored(hall) == (4, 4)  # first, a, b and c; nothing of the clash
