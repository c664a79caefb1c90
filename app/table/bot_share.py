"""The bot pool's workers, shared fairly between the players whose rooms have bots.

Why (issue 33): decisions waited for a worker first come, first served, so one player's six
all-`hard` rooms made every other room's bot wait behind their searches (10.65 s for a `normal`
move that takes 0.78 s), and a timed-out seat's stand-in waited in the same line. Here each
owner (a room's host) has a line of its own and the owners are served in turn, so another
player's decision waits for at most one of the abuser's searches per worker, whatever number of
rooms the abuser has; and a turn clock's stand-in goes before every queued search.

A room queues at most one decision: its `BotDriver` task asks for one move at a time, and a
clock's stand-in is one task per room (`TurnClocks._timing_out`).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class FairSlots:
    """`slots` workers; a free one goes to the oldest urgent waiter, else to the next owner in
    turn (round-robin), whose oldest waiter takes it; an owner just served goes to the back."""

    def __init__(self, slots: int) -> None:
        self._free = slots
        self._urgent: deque[asyncio.Future[None]] = deque()
        # Owners with waiters, in turn order (a dict keeps insertion order), and their lines.
        self._lines: dict[str, deque[asyncio.Future[None]]] = {}

    @asynccontextmanager
    async def slot(self, owner: str, urgent: bool = False) -> AsyncIterator[None]:
        """Hold a worker while the block runs; wait for one, fairly, if none is free."""
        await self._acquire(owner, urgent)
        try:
            yield
        finally:
            self._release()

    def waiting(self) -> int:
        return len(self._urgent) + sum(len(line) for line in self._lines.values())

    async def _acquire(self, owner: str, urgent: bool) -> None:
        if self._free > 0 and not self.waiting():
            self._free -= 1
            return
        waiter = asyncio.get_running_loop().create_future()
        if urgent:
            self._urgent.append(waiter)
        else:
            self._lines.setdefault(owner, deque()).append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release()  # granted as it was cancelled: hand the worker on
            raise

    def _release(self) -> None:
        self._free += 1
        while self._free > 0:
            waiter = self._next()
            if waiter is None:
                return
            if not waiter.done():  # a cancelled waiter is passed over
                self._free -= 1
                waiter.set_result(None)

    def _next(self) -> asyncio.Future[None] | None:
        if self._urgent:
            return self._urgent.popleft()
        if not self._lines:
            return None
        owner = next(iter(self._lines))
        line = self._lines.pop(owner)
        waiter = line.popleft()
        if line:
            self._lines[owner] = line  # to the back of the turn
        return waiter
