"""What the host's view reads from storage: a narrow protocol of its own, so that app/ops never
reaches into the big `Store` (its one implementation, for both databases: app/store/ops.py)."""

from __future__ import annotations

from typing import Protocol


class OpsReads(Protocol):
    async def room_counts(self) -> list[tuple[str, str, int]]:
        """(status, game, rooms) for every status and game that has rooms: one grouped query,
        run once per metrics scrape."""
