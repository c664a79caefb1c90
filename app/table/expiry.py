"""Rooms do not live for ever: idle waiting rooms and abandoned games close, and
closed rooms are deleted once their retention runs out, with their log, seats and chat.

The schedule is in the README (LOBBY_EXPIRY_HOURS, ABANDONED_EXPIRY_DAYS, ROOM_RETENTION_DAYS).
Every process sweeps every ROOM_SWEEP_SECONDS; each sweep re-checks its conditions in the
statement that acts, so processes sweeping at once, or a move landing meanwhile, do no harm.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from app.context import Context
from app.tasks import stop_task
from app.utc import utcnow

log = logging.getLogger(__name__)


class RoomSweeper:
    """One task per process: close idle rooms, delete old closed ones."""

    def __init__(self, hall: Context) -> None:
        self._hall = hall
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._hall.settings.room_sweep_seconds > 0:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        await stop_task(self._task)

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:  # a failed sweep is retried next time; the server goes on
                log.exception("room sweep failed")
            await asyncio.sleep(self._hall.settings.room_sweep_seconds)

    async def sweep(self) -> None:
        settings, now = self._hall.settings, utcnow()
        lobby_before = quiet_before = None
        if settings.lobby_expiry_hours > 0:
            lobby_before = now - timedelta(hours=settings.lobby_expiry_hours)
        if settings.abandoned_expiry_days > 0:
            quiet_before = now - timedelta(days=settings.abandoned_expiry_days)
        if lobby_before is not None or quiet_before is not None:
            codes = await self._hall.rooms.close_idle_rooms(lobby_before, quiet_before, now)
            for code in codes:
                log.info("room %s closed: nobody used it within the expiry time", code)
                await self._hall.after_room_change(code)
        if settings.room_retention_days > 0:
            cutoff = now - timedelta(days=settings.room_retention_days)
            await self._hall.rooms.delete_closed_rooms(cutoff)
