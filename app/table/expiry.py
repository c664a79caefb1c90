"""Rooms do not live for ever: idle waiting rooms and abandoned games close, and
closed rooms are deleted once their retention runs out, with their log, seats and chat.

The schedule is in the README (LOBBY_EXPIRY_HOURS, ABANDONED_EXPIRY_DAYS, ROOM_RETENTION_DAYS).
Every process sweeps every ROOM_SWEEP_SECONDS; each sweep re-checks its conditions in the
statement that acts, so processes sweeping at once, or a move landing meanwhile, do no harm.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, delete, func, or_, update

from app.context import Context
from app.store.models import Room, utcnow

log = logging.getLogger(__name__)
CLOSED = ("finished", "aborted", "errored")


class RoomSweeper:
    """One task per process: close idle rooms, delete old closed ones."""

    def __init__(self, hall: Context) -> None:
        self._hall = hall
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._hall.settings.room_sweep_seconds > 0:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:  # a failed sweep is retried next time; the server goes on
                log.exception("room sweep failed")
            await asyncio.sleep(self._hall.settings.room_sweep_seconds)

    async def sweep(self) -> None:
        settings, now = self._hall.settings, utcnow()
        idle = []
        if settings.lobby_expiry_hours > 0:
            idle.append(and_(Room.status == "lobby",
                             Room.updated_at < now - timedelta(hours=settings.lobby_expiry_hours)))
        if settings.abandoned_expiry_days > 0:
            idle.append(and_(Room.status == "active", _last_activity() <
                             now - timedelta(days=settings.abandoned_expiry_days)))
        if idle:
            await self._close(or_(*idle), now)
        if settings.room_retention_days > 0:
            cutoff = now - timedelta(days=settings.room_retention_days)
            async with self._hall.sessions() as session, session.begin():
                await session.execute(delete(Room).where(
                    Room.status.in_(CLOSED), _last_activity() < cutoff, Room.updated_at < cutoff))

    async def _close(self, condition: ColumnElement[bool], now: datetime) -> None:
        """Abort the rooms `condition` picks and tell everyone connected to them."""
        async with self._hall.sessions() as session, session.begin():
            codes = list(await session.scalars(
                update(Room).where(condition).values(status="aborted", updated_at=now)
                .returning(Room.code)))
            for code in codes:
                await self._hall.room_changed(code, session)
        for code in codes:
            log.info("room %s closed: nobody used it within the expiry time", code)
            await self._hall.after_room_change(code)


def _last_activity() -> ColumnElement[Any]:
    return func.coalesce(Room.last_move_at, Room.updated_at)
