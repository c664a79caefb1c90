"""Quiet sockets: a socket that sends nothing for a while is told so (slowloris).

Why not `asyncio.timeout` around each receive: it arms and disarms an event-loop timer for
every frame, about 2% of the server's CPU under load. Here one timer runs per quiet
spell: when it fires early (frames came meanwhile) it is armed again for the rest of the spell.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


class QuietWatch:
    """`receive(frame)` awaits `frame`, or answers None once `seconds` passed waiting for it, as
    `asyncio.timeout(seconds)` around it would (None seconds: never). Made and used by the one
    task that reads the socket."""

    __slots__ = (
        "_cancelling",
        "_fired",
        "_loop",
        "_seconds",
        "_since",
        "_task",
        "_timer",
        "_waiting",
    )  # one per open socket

    def __init__(self, seconds: float | None) -> None:
        self._seconds = seconds
        self._loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        self._task, self._cancelling = task, task.cancelling()
        self._since = self._loop.time()
        self._waiting = self._fired = False
        self._timer = (None if seconds is None else
                       self._loop.call_at(self._since + seconds, self._check))

    async def receive(self, frame: Awaitable[T]) -> T | None:
        self._since, self._waiting = self._loop.time(), True
        try:
            return await frame
        except asyncio.CancelledError:
            if not self._fired:
                raise
            self._fired = False
            if self._task.uncancel() > self._cancelling:
                raise  # cancelled from outside too: that one goes on
            return None
        finally:
            self._waiting = False

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def _check(self) -> None:
        assert self._seconds is not None
        now = self._loop.time()
        if self._waiting and now - self._since >= self._seconds:
            self._fired = True
            self._task.cancel()
            due = now + self._seconds
        else:  # frames came: the spell began later (or begins at the next wait)
            due = (self._since if self._waiting else now) + self._seconds
        self._timer = self._loop.call_at(due, self._check)
