"""Room pace (issue 36): `live` rooms as before, `turn-based` rooms for games over days.

In a turn-based room nobody is away (no absence fields, no vote), and the clock runs whether or
not anyone is connected: a deserted live room pauses its clock, a deserted turn-based room has
the stand-in play the late seat's move, and the seat stays its player's. Deadlines are set by
moving `last_move_at` in the database; the tests wait for rows, never for time."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from app.core.seat_clocks import LATE_GRACE_SECONDS
from app.hall import Hall
from app.store.models import MoveRow, Player, Room, Seat, utcnow
from app.store.orm import create_room, join, start
from tests.api.client import Api
from tests.server import Server

DAY = 86_400
HOUR = 3_600


async def test_a_turn_based_room_carries_its_pace(api: Api) -> None:
    host, guest = await api.player("Host"), await api.player("Guest")
    made = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "seats": 2, "pace": "turn-based",
                                "turn_clock": DAY, "private": False})
    assert made["pace"] == "turn-based" and made["turn_clock"] == DAY
    code = made["code"]
    assert (await api.call("GET", f"/api/rooms/{code}"))["pace"] == "turn-based"
    listed = {r["code"]: r for r in await api.call("GET", "/api/rooms")}
    assert listed[code]["pace"] == "turn-based"  # the lobby shows it
    joined = await api.call("POST", f"/api/rooms/{code}/join", guest["token"])
    assert joined["pace"] == "turn-based"
    started = await api.start(code, host)
    assert started["pace"] == "turn-based" and started["turn_deadline"] is not None
    # The guest never connected: in a live room they would be absent; here nobody is away.
    room = await api.call("GET", f"/api/rooms/{code}")
    assert all(seat["absent_since"] is None for seat in room["seats"])
    refused = await api.http.post(f"/api/rooms/{code}/vote", json={"seat": 1},
                                  headers={"Authorization": f"Bearer {host['token']}"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "turn_based"
    live = await api.call("POST", "/api/rooms", host["token"], 201,
                          json={"game": "gem-pyramid", "seats": 2})
    assert live["pace"] == "live"


@pytest.mark.parametrize(("body", "code"), [
    ({"pace": "slow", "turn_clock": DAY}, "bad_pace"),
    ({"pace": "turn-based"}, "bad_pace"),  # no clock
    ({"pace": "turn-based", "turn_clock": 600}, "bad_pace"),  # under an hour
    ({"pace": "turn-based", "turn_clock": 8 * DAY}, "bad_request"),  # past any clock's week
    ({"pace": "turn-based", "turn_clock": DAY, "clock_increment": 60}, "bad_pace"),  # Fischer
])
async def test_a_bad_pace_is_refused(api: Api, body: dict[str, object], code: str) -> None:
    host = await api.player("Host")
    response = await api.http.post("/api/rooms", json={"game": "gem-pyramid", **body},
                                   headers={"Authorization": f"Bearer {host['token']}"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == code, response.text


async def test_play_again_keeps_the_pace(server: Server) -> None:
    api = Api(server.url)
    people = [await api.player("A"), await api.player("B")]
    code = await api.room_with("gem-pyramid", people, pace="turn-based", turn_clock=HOUR)
    await api.start(code, people[0])
    again = await api.call("POST", f"/api/rooms/{code}/again", people[0]["token"], 201)
    assert again["pace"] == "turn-based" and again["turn_clock"] == HOUR
    await api.close()


async def _deserted_room(hall: Hall, pace: str, clock: int) -> str:
    """A started two-player room of `pace`, both players gone for a day, the seat to act's
    time run out (past the late grace)."""
    async with hall.store.sessions() as session, session.begin():
        suffix = utcnow().strftime("%H%M%S%f")
        players = [Player(id=f"pc{n}-{suffix}", name=f"P{n}", token_hash=f"pc{n}-{suffix}")
                   for n in (0, 1)]
        session.add_all(players)
        await session.flush()
        room = await create_room(session, players[0], "gem-pyramid", None, 2, True, clock,
                                 None, None, pace)
        await join(session, room, players[1], None)
        await start(session, room, players[0])
        code = room.code
    long_ago = utcnow() - timedelta(days=1)
    async with hall.store.sessions() as session, session.begin():
        await session.execute(update(Seat).where(Seat.room_code == code).values(
            connections=0, absent_since=long_ago))
        await session.execute(update(Room).where(Room.code == code).values(
            last_move_at=utcnow() - timedelta(seconds=clock + LATE_GRACE_SECONDS + 1)))
    hall.store.forget(code)
    return code


async def test_the_clock_runs_in_a_deserted_turn_based_room(hall: Hall) -> None:
    live = await _deserted_room(hall, "live", 60)
    slow = await _deserted_room(hall, "turn-based", HOUR)
    await hall.clocks.fire_expired()
    deadline = time.monotonic() + 120
    while True:
        async with hall.store.sessions() as session:
            moved = await session.scalar(select(MoveRow).where(MoveRow.room_code == slow))
            paused = await session.get(Room, live)
        if moved is not None:
            break
        assert time.monotonic() < deadline, "the turn-based room's clock never played"
        await asyncio.sleep(0.05)
        await hall.clocks.fire_expired()
    assert moved.by is not None and moved.by["via"] == "clock"
    assert paused is not None and paused.last_move_at is None, "a deserted live room waits"
    async with hall.store.sessions() as session:
        seats = list(await session.scalars(select(Seat).where(Seat.room_code == slow)))
    assert all(s.player_id is not None and s.bot is None for s in seats), "seats stay theirs"
    # Timed out three turns in a row, a seat is still nobody's "away" in a turn-based room.
    while len(await _clock_moves(hall, slow)) < 6:
        async with hall.store.sessions() as session, session.begin():
            await session.execute(update(Room).where(Room.code == slow).values(
                last_move_at=utcnow() - timedelta(seconds=HOUR + LATE_GRACE_SECONDS + 1)))
        hall.store.forget(slow)
        await hall.clocks.fire_expired()
        assert time.monotonic() < deadline + 240, "the clock stopped playing"
        await asyncio.sleep(0.05)
    message = await hall.store.room_message(slow)
    assert message is not None
    assert [s["away"] for s in message["room"]["seats"]] == [False, False]


async def _clock_moves(hall: Hall, code: str) -> list[MoveRow]:
    async with hall.store.sessions() as session:
        return list(await session.scalars(select(MoveRow).where(MoveRow.room_code == code)))
