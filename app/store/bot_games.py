"""`app.table.bot_caps.BotGames` in one statement, the same on SQLite and Postgres."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import bindparam, exists, func, or_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.models import Room, Seat

# Built once, the hosts bound at each call: an `.in_()` built per call leaves SQLAlchemy's bind
# parameters in cycles (each memoises its `_cloned_set`, which holds itself), which the collector
# freezes for good if a young collection comes while the statement awaits (app/ops/collector.py).
_HAS_BOT = exists().where(Seat.room_code == Room.code, Seat.bot.is_not(None))
_COUNT = select(func.count()).select_from(Room).where(
    Room.host_id.in_(bindparam("hosts", expanding=True)), Room.status.in_(("lobby", "active")),
    or_(_HAS_BOT, Room.turn_clock.is_not(None)))
_COUNT_BESIDES = _COUNT.where(Room.code != bindparam("besides"))


class SqlBotGames:
    """`BotGames` in one statement, the same on SQLite and Postgres."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def count(self, hosts: Collection[str], besides: str | None) -> int:
        query, params = _COUNT, {"hosts": list(hosts)}
        if besides is not None:
            query, params["besides"] = _COUNT_BESIDES, besides
        async with self._engine.connect() as conn:
            return int((await conn.execute(query, params)).scalar_one())
