"""The async engine and sessions, for Postgres (production) or SQLite (the embedded default)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import case, event, update
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.store.models import Seat, utcnow


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def make_engine(url: str) -> AsyncEngine:
    """An engine with fast JSON and, on SQLite, WAL and a busy timeout for one writer at a time."""
    if url.startswith("sqlite"):
        path = url.split(":///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, json_serializer=_dumps, json_deserializer=orjson.loads)

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(conn: Any, _: Any) -> None:
            cursor = conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA busy_timeout=10000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # No overflow: under a burst, requests wait for a pooled connection rather than open and
    # close fresh ones (a connection costs milliseconds of CPU to set up). On Postgres the hot
    # paths use the raw pool of store/postgres/; this one serves the rarer ORM paths.
    return create_async_engine(url, json_serializer=_dumps, json_deserializer=orjson.loads,
                               pool_size=20, max_overflow=0)


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    return async_sessionmaker(engine, expire_on_commit=False)


class OrmPaths:
    """The SQLAlchemy engine and sessions both stores hand out, for the paths written once in
    the ORM that run the same on both databases."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        # Single-statement reads, autocommitted: no BEGIN and ROLLBACK round trips around them.
        self.reader = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self.sessions = make_sessionmaker(self.engine)


@asynccontextmanager
async def transaction(session: AsyncSession) -> AsyncIterator[None]:
    """Commit on success, roll back on error, whether or not a transaction already began
    (any read through the session autobegins one)."""
    try:
        yield
        await session.commit()
    except BaseException:
        await session.rollback()
        raise


async def uncount(session: AsyncSession, code: str, seat: int, player_id: str | None,
                  sockets: int) -> None:
    """Take `sockets` back from the seat's count (a socket closed, or a dead process's); the
    last one gone starts the absence grace period (app.core.absence)."""
    left = Seat.connections - sockets
    await session.execute(update(Seat).where(
        Seat.room_code == code, Seat.seat == seat, Seat.player_id == player_id).values(
            connections=case((left <= 0, 0), else_=left),
            absent_since=case((left <= 0, utcnow()), else_=None)))
