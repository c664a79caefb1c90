"""app/ops's reads (`app.ops.store.OpsReads`), in the ORM: the same statement on both databases.
Nothing here is on the move path: it runs once per metrics scrape."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select

from app.store.models import Room


class OpsPaths:
    def __init__(self, sessions: Callable[[], Any]) -> None:
        self._sessions = sessions

    async def room_counts(self) -> list[tuple[str, str, int]]:
        query = select(Room.status, Room.game, func.count()).group_by(Room.status, Room.game)
        async with self._sessions() as session:
            return [(status, game, count) for status, game, count in await session.execute(query)]
