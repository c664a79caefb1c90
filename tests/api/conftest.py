"""Real servers on real databases: every API test runs on SQLite and on Postgres."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

import pytest

from app.config import Settings
from app.hall import Hall
from app.migrate import upgrade_to_head_async
from tests.api.client import Api
from tests.server import Server, database, running_server


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    with database(request.param) as url, running_server(url) as srv:
        yield srv


@pytest.fixture
async def api(server: Server) -> AsyncIterator[Api]:
    client = Api(server.url)
    yield client
    await client.close()


@asynccontextmanager
async def hall_on(kind: str) -> AsyncIterator[Hall]:
    """A started Hall on a fresh database of `kind` ("sqlite" or "postgres")."""
    with database(kind) as url:
        await upgrade_to_head_async(url)
        hall = Hall(Settings(database_url=url, bot_delay_ms=0))
        await hall.start()
        try:
            yield hall
        finally:
            await hall.stop()


@pytest.fixture(params=["sqlite", "postgres"])
async def hall(request: pytest.FixtureRequest) -> AsyncIterator[Hall]:
    """The pipeline in process, without HTTP: for tests that drive `submit_move` directly."""
    async with hall_on(request.param) as started:
        yield started
