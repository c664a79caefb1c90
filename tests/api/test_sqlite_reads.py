"""On SQLite the `room` message and the state are read in several statements: they must all see
one committed moment, or a start committed between them sends a lobby room with an active
state (a client then draws the table with no absence fields, seats without clocks)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.core import rooms
from app.hall import Hall
from app.store import orm
from app.store.models import Player
from tests.api.inprocess import hall_on


@pytest.fixture
async def hall() -> AsyncIterator[Hall]:
    async with hall_on("sqlite") as started:
        yield started


async def test_a_start_committed_mid_read_is_seen_by_neither_half(
        hall: Hall, monkeypatch: pytest.MonkeyPatch) -> None:
    async with hall.store.sessions() as session, session.begin():
        players = [Player(id=f"p{n}", name=f"P{n}", token_hash=f"h{n}") for n in range(2)]
        session.add_all(players)
        room = await orm.create_room(session, players[0], "gem-pyramid", None, 2, True)
        await orm.join(session, room, players[1], None)
        code = room.code
    read_payload = orm.room_payload

    async def start_after_the_room_is_read(session: Any, room: Any) -> dict[str, Any]:
        payload = await read_payload(session, room)
        monkeypatch.setattr(orm, "room_payload", read_payload)  # only the first read races
        await hall.store.change_seats(code, rooms.start_seats, players[0])
        return payload

    monkeypatch.setattr(orm, "room_payload", start_after_the_room_is_read)
    read = await hall.store.room_and_snapshot(code)
    assert read is not None
    message, snap = read
    assert (message["room"]["status"], snap.status) == ("lobby", "lobby")
    message, snap = await hall.store.room_and_snapshot(code)
    assert (message["room"]["status"], snap.status) == ("active", "active")
