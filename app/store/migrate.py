"""Bring the schema to head with Alembic, as the server does on start."""

from __future__ import annotations

import asyncio

from alembic import command
from alembic.config import Config

from app.config import ROOT


def alembic_config(database_url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.attributes["database_url"] = database_url
    config.attributes["configure_logger"] = False
    return config


def upgrade_to_head(database_url: str) -> None:
    command.upgrade(alembic_config(database_url), "head")


async def upgrade_to_head_async(database_url: str) -> None:
    # env.py runs its own event loop, so it goes to a worker thread.
    await asyncio.to_thread(upgrade_to_head, database_url)
