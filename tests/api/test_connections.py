"""The hot path's connection lender (connections.py), against real Postgres: never more
connections than its size, each lent to one caller at a time, and a connection that may be
unusable (cancelled mid-statement, closed by the server, left in a transaction) never lent
again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest

from app.store.postgres.connections import Connections
from app.store.postgres.roomcache import _codecs
from tests.server import database

SIZE = 3


@pytest.fixture
def dsn() -> Iterator[str]:
    with database("postgres") as url:
        yield url.replace("postgresql+asyncpg://", "postgresql://", 1)


@pytest.fixture
async def lender(dsn: str) -> AsyncIterator[Connections]:
    connections = Connections(dsn, SIZE, _codecs)
    await connections.start(warm=1)
    try:
        yield connections
    finally:
        await connections.close()


async def _backends(lender: Connections) -> set[int]:
    """The server pids of the connections lent now and then (one per concurrent sleeper)."""
    return set(await asyncio.gather(*(
        lender.fetchval("SELECT pg_backend_pid() FROM pg_sleep(0.05)") for _ in range(3 * SIZE))))


async def test_callers_share_at_most_size_connections(lender: Connections) -> None:
    assert len(await _backends(lender)) == SIZE
    assert len(await _backends(lender)) == SIZE  # the same ones, reused
    assert await lender.fetchval("SELECT $1::jsonb", {"a": [1]}) == {"a": [1]}  # codecs set


async def test_a_failed_statement_keeps_its_connection(lender: Connections) -> None:
    pid = await lender.fetchval("SELECT pg_backend_pid()")
    with pytest.raises(asyncpg.DivisionByZeroError):
        await lender.fetchval("SELECT 1 / 0")
    assert await lender.fetchval("SELECT pg_backend_pid()") == pid


async def test_a_refused_transaction_rolls_back_and_keeps_its_connection(
        lender: Connections) -> None:
    with pytest.raises(RuntimeError):
        async with lender.acquire() as conn, conn.transaction():
            await conn.execute("CREATE TEMP TABLE t (x int)")
            raise RuntimeError("refused")
    async with lender.acquire() as conn:
        assert not conn.is_in_transaction()
        assert await conn.fetchval("SELECT to_regclass('pg_temp.t')") is None


async def test_a_cancelled_statement_drops_its_connection(lender: Connections) -> None:
    pid = await lender.fetchval("SELECT pg_backend_pid()")
    task = asyncio.create_task(lender.fetchval("SELECT pg_sleep(5)"))
    await asyncio.sleep(0.2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await lender.fetchval("SELECT pg_backend_pid()") != pid


async def test_a_connection_the_server_closed_is_replaced(lender: Connections,
                                                         dsn: str) -> None:
    pids = await _backends(lender)
    killer = await asyncpg.connect(dsn)
    try:
        for pid in pids:
            assert await killer.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await killer.close()
    await asyncio.sleep(0.1)
    failures = 0
    for _ in range(2 * SIZE):  # each terminated connection fails its next statement, once
        try:
            await lender.fetchval("SELECT 1")
        except (asyncpg.PostgresError, asyncpg.InterfaceError, ConnectionError):
            failures += 1
    assert 1 <= failures <= SIZE
    fresh = await _backends(lender)
    assert len(fresh) == SIZE and not fresh & pids


async def test_waiters_get_connections_in_turn_when_all_are_lent(lender: Connections) -> None:
    order: list[int] = []

    async def hold(n: int) -> None:
        async with lender.acquire() as conn:
            await conn.execute("SELECT pg_sleep(0.05)")
            order.append(n)

    await asyncio.gather(*(hold(n) for n in range(2 * SIZE)))
    assert sorted(order) == list(range(2 * SIZE))
