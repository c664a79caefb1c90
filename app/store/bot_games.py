"""`app.table.bot_caps.BotGames` in one statement, the same on SQLite and Postgres."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import exists, func, or_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.models import Room, Seat


class SqlBotGames:
    """`BotGames` in one statement, the same on SQLite and Postgres."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def count(self, hosts: Collection[str], besides: str | None) -> int:
        has_bot = exists().where(Seat.room_code == Room.code, Seat.bot.is_not(None))
        query = select(func.count()).select_from(Room).where(
            Room.host_id.in_(list(hosts)), Room.status.in_(("lobby", "active")),
            or_(has_bot, Room.turn_clock.is_not(None)))
        if besides is not None:
            query = query.where(Room.code != besides)
        async with self._engine.connect() as conn:
            return int((await conn.execute(query)).scalar_one())
