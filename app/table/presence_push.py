"""The `room` push after a seated socket closes, coalesced per room.

Why (issue 33): every connect and close of a seated socket pushed a `room` message to every
socket of the room, so 30 connect/close cycles of one socket sent 60 of them to each of 21
sockets. Now a close schedules one push of the room `PRESENCE_PUSH_SECONDS` later (a fresh
read then, so it says whatever changed meanwhile); more closes in that time join it, and a
connect, whose own push reads the room anyway, makes it unneeded. A reconnect within the delay
therefore costs one push, not two; the price is that a player who really left shows as gone
that much later.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable


class LaterPushes:
    """One pending push per room at most; `push` is the hall's read-and-push of a room."""

    def __init__(self, seconds: float, push: Callable[[str], Awaitable[None]]) -> None:
        self._seconds = seconds
        self._push = push
        self._pending: dict[str, asyncio.TimerHandle] = {}
        self._running: set[asyncio.Task[None]] = set()

    def later(self, code: str) -> None:
        """Push room `code` after the delay, unless one is already due (or a connect comes)."""
        if self._seconds <= 0:
            self._start(code)
            return
        if code not in self._pending:
            self._pending[code] = asyncio.get_running_loop().call_later(
                self._seconds, self._due, code)

    def due(self, code: str) -> asyncio.TimerHandle | None:
        """The push pending for the room now (taken before a connect's count and read)."""
        return self._pending.get(code)

    def covered(self, code: str, due: asyncio.TimerHandle | None) -> None:
        """A connect read the room after the closes behind `due` committed, and pushes it:
        `due` is not needed any more (a push scheduled since stays)."""
        if due is not None and self._pending.get(code) is due:
            del self._pending[code]
            due.cancel()

    def pending(self) -> int:
        return len(self._pending)

    def stop(self) -> None:
        for handle in self._pending.values():
            handle.cancel()
        self._pending.clear()
        for task in self._running:
            task.cancel()

    def _due(self, code: str) -> None:
        self._pending.pop(code, None)
        self._start(code)

    def _start(self, code: str) -> None:
        task = asyncio.get_running_loop().create_task(self._push(code))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
