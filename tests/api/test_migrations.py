"""Every migration goes down as cleanly as it comes up, on SQLite and on Postgres."""

from __future__ import annotations

import asyncio

import pytest
from alembic import command
from sqlalchemy import inspect

from app.store.db import make_engine
from app.store.migrate import alembic_config
from tests.server import database


async def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    async with engine.connect() as conn:
        names = await conn.run_sync(lambda sync: set(inspect(sync).get_table_names()))
    await engine.dispose()
    return names - {"alembic_version"}


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_upgrade_downgrade_upgrade(kind: str) -> None:
    with database(kind) as url:
        config = alembic_config(url)
        command.upgrade(config, "head")
        assert "admin_actions" in asyncio.run(_tables(url))
        command.downgrade(config, "base")
        assert asyncio.run(_tables(url)) == set()
        command.upgrade(config, "head")
        tables = {"players", "rooms", "seats", "moves", "admin_actions", "chat_messages",
                  "watchers", "seat_votes", "handovers",
                  "processes", "seat_sockets"}
        assert tables <= asyncio.run(_tables(url))
