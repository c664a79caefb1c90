"""On Postgres the `room` message is read in one statement (roomread.py), alone or with the
state, and seat changes are written on the raw pool (`change_seats`: seatwrite.py): all must say
exactly what the session path (and the hot path's own load) says."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from sqlalchemy import update

from app.core import rooms
from app.core.seat_clocks import CLOCK_ID_PREFIX
from app.hall import Hall
from app.play.moves import Mover, submit_move
from app.store import orm
from app.store.models import Player, Room, SeatVote, utcnow
from app.store.postgres import roomread
from games import REGISTRY
from tests.api.inprocess import hall_on

GAME = REGISTRY["gem-pyramid"]


@pytest.fixture
async def hall() -> AsyncIterator[Hall]:
    async with hall_on("postgres") as started:
        yield started


async def _both(hall: Hall, code: str) -> tuple[dict, dict]:
    async with hall.store.sessions() as session:
        room = await session.get(Room, code)
        assert room is not None
        by_session = await orm.room_payload(session, room)
    by_statement = await roomread.room_payload(hall.store.cache.pool, code)
    # The room and its state in one statement: the same payload, snapshot and held room as the
    # room read and the hot path's own load.
    read = await hall.store.room_and_snapshot(code)
    assert read is not None and read[0]["room"] == by_statement
    held = hall.store.cache.get(code)
    assert read[1] == await hall.load_snapshot(code)
    assert held == hall.store.cache.get(code)
    return by_session, by_statement


async def test_the_one_statement_read_says_what_the_session_says(hall: Hall) -> None:
    assert hall.store.cache is not None
    async with hall.store.sessions() as session, session.begin():
        players = [Player(id=f"p{n}", name=f"P{n}", token_hash=f"h{n}") for n in range(3)]
        session.add_all(players)
        room = await orm.create_room(session, players[0], GAME.id, None, 3, True,
                                       turn_clock=60)
        code = room.code
    by_session, by_statement = await _both(hall, code)
    assert by_statement == by_session  # the lobby
    await hall.store.change_seats(code, rooms.join_seats, players[1], 2)
    await hall.store.change_seats(code, rooms.join_seats, players[2], None)
    await hall.store.change_seats(code, rooms.start_seats, players[0])
    by_session, by_statement = await _both(hall, code)
    assert by_statement == by_session
    assert [s["player"]["id"] for s in by_statement["seats"]] == ["p0", "p2", "p1"]
    assert by_statement["status"] == "active" and by_statement["turn_deadline"] is not None
    # Three moves played by the turn clock, then an absent seat, a vote and a handover.
    for n in range(3):
        async with hall.store.sessions() as session, session.begin():
            # The clock plays only once the seat's deadline has passed.
            await session.execute(update(Room).where(Room.code == code).values(
                last_move_at=utcnow() - timedelta(seconds=61)))
        hall.store.forget(code)
        async with hall.store.sessions() as session:
            held = await session.get(Room, code)
            state, version = held.state, held.version
        seat = sorted(GAME.to_act(state))[0]
        await submit_move(hall, code, Mover(seat=seat), f"{CLOCK_ID_PREFIX}{n}", version,
                          GAME.legal_moves(state, seat)[0])
    async with hall.store.sessions() as session, session.begin():
        room = await session.get(Room, code, with_for_update=True)
        seats = await orm.seats_of(session, code)
        seats[1].connections, seats[2].connections = 0, 1
        seats[1].absent_since = utcnow() - timedelta(hours=1)
        session.add(SeatVote(room_code=code, seat=1, voter_id="p1", at=utcnow()))
        await orm.hand_to_bot(session, room, seats[0], "vote")
    by_session, by_statement = await _both(hall, code)
    assert by_statement == by_session
    assert by_statement["handovers"] and by_statement["seats"][1]["votes"] == [2]
    assert by_statement["seats"][0]["replaced"] == {"id": "p0", "name": "P0", "cause": "vote",
                                                    "reclaim_after": None}


async def test_a_refused_seat_change_writes_nothing(hall: Hall) -> None:
    assert hall.store.cache is not None
    async with hall.store.sessions() as session, session.begin():
        players = [Player(id=f"q{n}", name=f"Q{n}", token_hash=f"k{n}") for n in range(2)]
        session.add_all(players)
        code = (await orm.create_room(session, players[0], GAME.id, None, 2, True)).code
    before, _ = await _both(hall, code)
    with pytest.raises(rooms.ApiError) as refused:  # not the host
        await hall.store.change_seats(code, rooms.start_seats, players[1])
    assert refused.value.code == "not_host"
    with pytest.raises(rooms.ApiError) as refused:  # a seat empty
        await hall.store.change_seats(code, rooms.start_seats, players[0])
    assert refused.value.code == "seats_empty"
    after, _ = await _both(hall, code)
    assert after == before
