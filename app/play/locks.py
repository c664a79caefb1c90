"""One writer per room in this process, and where each room's simultaneous step began."""

from __future__ import annotations

import asyncio
import weakref


class Steps:
    """Where the simultaneous step each room is in began, as far as this process knows.

    A step is simultaneous while several seats act and the seats to act only shrink: a move
    chosen on any version since the step began is judged against the current state (design 3),
    even once one seat is left to act (the others' moves, applied on arrival, took nothing of
    its own). Known only to the process that committed the room's last move; unknown (another
    process wrote, a restart, a rollback), a step begins at the current version, and a move on
    an older view is refused `stale` as in a turn-based step.
    """

    LIMIT = 50_000  # rooms remembered mid-step; the oldest entry goes first

    def __init__(self) -> None:
        self._began: dict[str, tuple[int, int]] = {}  # code -> (version, step began at)

    def began(self, code: str, version: int) -> int:
        known = self._began.get(code)
        return known[1] if known is not None and known[0] == version else version

    def moved(self, code: str, version: int, began: int | None) -> None:
        """The room is at `version` now, in a step that `began` then (None: a new step)."""
        self._began.pop(code, None)
        if began is not None and began < version:
            if len(self._began) >= self.LIMIT:
                del self._began[next(iter(self._began))]
            self._began[code] = (version, began)


class RoomLocks:
    """One writer per room inside this process; with SQLite, one writer in all. Also where,
    under that lock, each room's simultaneous step began (`steps`)."""

    def __init__(self, single_writer: bool) -> None:
        self._single = asyncio.Lock() if single_writer else None
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self.steps = Steps()

    def get(self, code: str) -> asyncio.Lock:
        if self._single is not None:
            return self._single
        lock = self._locks.get(code)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[code] = lock
        return lock
