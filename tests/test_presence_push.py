"""Issue 33, low: connecting and closing a seated socket again and again pushed a `room`
message to every socket of the room twice a cycle. A close's push now waits (coalesced per
room), and a connect, which reads and pushes the room anyway, makes it unneeded: one push a
cycle, and one more after the last close."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from app.play.sockets import RoomSockets
from app.store.base import SeatCounted
from app.table import heartbeat
from app.table.presence_push import LaterPushes


class _Store:
    async def seat_connected(self, code: str, seat: int, player_id: str | None) -> SeatCounted:
        return SeatCounted(ledger=1, votes=False, chat=None)

    async def seat_disconnected(self, code: str, seat: int, player_id: str | None,
                                ledger: int) -> bool:
        return True

    async def has_votes(self, code: str) -> bool:
        return False


def _hall(seconds: float) -> Any:
    pushes: list[str] = []

    async def after_room_change(code: str, **_: Any) -> None:
        pushes.append(code)

    hall = SimpleNamespace(presence=_Store(), sockets=RoomSockets(), register=lambda *_: None,
                           after_room_change=after_room_change, pushes=pushes)
    hall.presence_pushes = LaterPushes(seconds, lambda code: after_room_change(code))
    return hall


async def test_connect_close_cycles_push_once_a_cycle_and_once_after_the_last_close() -> None:
    hall = _hall(seconds=3600)  # the delay never ends within the test: no timing
    for _ in range(30):
        await heartbeat.seat_connected(hall, "ROOM", 0, "p")
        await heartbeat.seat_disconnected(hall, "ROOM", 0, "p", 1)
    assert len(hall.pushes) == 30, "one push a cycle (the connect's), not two"
    assert hall.presence_pushes.pending() == 1, "the last close's push is still due"
    hall.presence_pushes.stop()


async def test_the_last_close_is_pushed_after_the_delay() -> None:
    hall = _hall(seconds=0.01)
    await heartbeat.seat_connected(hall, "ROOM", 0, "p")
    await heartbeat.seat_disconnected(hall, "ROOM", 0, "p", 1)
    await heartbeat.seat_disconnected(hall, "ROOM", 1, "q", 1)  # joins the pending push
    assert hall.pushes == ["ROOM"]
    while hall.presence_pushes.pending():
        await asyncio.sleep(0.01)
    for _ in range(100):
        if len(hall.pushes) == 2:
            break
        await asyncio.sleep(0.01)
    assert hall.pushes == ["ROOM", "ROOM"], "the two closes: one push"


async def test_a_close_scheduled_during_a_connect_is_not_dropped() -> None:
    """Only closes committed before the connect's read are covered by its push."""
    hall = _hall(seconds=3600)
    pushes = hall.presence_pushes
    due = pushes.due("ROOM")
    pushes.later("ROOM")  # a close that came while the connect was counting
    pushes.covered("ROOM", due)
    assert pushes.pending() == 1
    pushes.stop()
