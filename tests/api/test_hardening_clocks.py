"""Issue 24 item 3: moves are judged against the deadline as it stands when they commit.

A player's move after their deadline (plus `LATE_GRACE_SECONDS`) is refused `out_of_time`; a
clock move lands only on the version it was chosen on, for a seat still to act whose deadline
has passed (before, the pipeline never looked at deadlines: zombie moves landed after the
seat's own move, or after a newer move had reset the clock). Deadlines are set by moving
`last_move_at` in the database, so nothing here leans on speed."""

from __future__ import annotations

from datetime import timedelta
from random import Random
from types import SimpleNamespace

import pytest
from sqlalchemy import func, select, update

from app.core.client_ids import platform_id
from app.core.seat_clocks import LATE_GRACE_SECONDS
from app.errors import ApiError
from app.hall import Hall
from app.play.moves import Mover, _check_time, _clock, submit_move
from app.store.models import MoveRow, Player, Room, utcnow
from app.store.orm import create_room, join, start
from games import REGISTRY

GAME = REGISTRY["gem-pyramid"]
CLOCK = 60


async def _clocked_room(hall: Hall, increment: int | None = None) -> tuple[str, list[str]]:
    """A started two-player gem-pyramid room with a 60 s clock; the players' ids by seat."""
    async with hall.store.sessions() as session, session.begin():
        suffix = utcnow().strftime("%H%M%S%f")
        players = [Player(id=f"clk{n}-{suffix}", name=f"C{n}", token_hash=f"clk{n}-{suffix}")
                   for n in (0, 1)]
        session.add_all(players)
        await session.flush()
        room = await create_room(session, players[0], GAME.id, None, 2, True, CLOCK, increment)
        await join(session, room, players[1], None)
        await start(session, room, players[0])
        return room.code, [p.id for p in players]


async def _deadline_in(hall: Hall, code: str, seconds: float) -> Room:
    """Put the seat to act's deadline `seconds` from now (negative: already past)."""
    async with hall.store.sessions() as session, session.begin():
        await session.execute(update(Room).where(Room.code == code).values(
            last_move_at=utcnow() - timedelta(seconds=CLOCK - seconds)))
    hall.store.forget(code)
    async with hall.store.sessions() as session:
        room = await session.get(Room, code)
        assert room is not None
        return room


async def _moves(hall: Hall, code: str) -> int:
    async with hall.store.sessions() as session:
        return await session.scalar(select(func.count()).select_from(MoveRow).where(
            MoveRow.room_code == code)) or 0


async def test_a_move_after_the_deadline_is_refused_out_of_time(hall: Hall) -> None:
    code, ids = await _clocked_room(hall)
    room = await _deadline_in(hall, code, -1)  # ran out a second ago
    seat = sorted(GAME.to_act(room.state))[0]
    with pytest.raises(ApiError) as refused:
        await submit_move(hall, code, Mover(player_id=ids[seat]), "late-1", room.version,
                          GAME.legal_moves(room.state, seat)[0])
    assert refused.value.code == "out_of_time"
    assert "ran out" in refused.value.message and f"{LATE_GRACE_SECONDS:g} s" \
        in refused.value.message
    assert await _moves(hall, code) == 0
    # The clock moves for the seat instead.
    made = await submit_move(hall, code, Mover(seat=seat),
                             platform_id("clock", room.version, seat), room.version,
                             GAME.zombie_move(room.state, seat))
    assert made == room.version + 1


async def test_a_move_in_time_is_taken(hall: Hall) -> None:
    code, ids = await _clocked_room(hall)
    room = await _deadline_in(hall, code, 30)
    seat = sorted(GAME.to_act(room.state))[0]
    assert await submit_move(hall, code, Mover(player_id=ids[seat]), "timely", room.version,
                             GAME.legal_moves(room.state, seat)[0]) == room.version + 1


async def test_a_clock_move_before_the_deadline_does_not_land(hall: Hall) -> None:
    """As when a newer move reset the clock after the watcher read the room."""
    code, _ = await _clocked_room(hall)
    room = await _deadline_in(hall, code, 30)
    seat = sorted(GAME.to_act(room.state))[0]
    with pytest.raises(ApiError) as refused:
        await submit_move(hall, code, Mover(seat=seat), platform_id("clock", room.version, seat),
                          room.version, GAME.zombie_move(room.state, seat))
    assert refused.value.code == "clock_not_due"
    assert await _moves(hall, code) == 0


async def test_a_clock_move_chosen_on_an_older_version_does_not_land(hall: Hall) -> None:
    """The seat moved (in time) after the watcher read the room: its zombie move owes nothing,
    even once the next deadline has passed too."""
    code, ids = await _clocked_room(hall)
    old = await _deadline_in(hall, code, 30)
    seat = sorted(GAME.to_act(old.state))[0]
    await submit_move(hall, code, Mover(player_id=ids[seat]), "own", old.version,
                      GAME.legal_moves(old.state, seat)[0])
    await _deadline_in(hall, code, -1)
    with pytest.raises(ApiError) as refused:
        await submit_move(hall, code, Mover(seat=seat), platform_id("clock", old.version, seat),
                          old.version, GAME.zombie_move(old.state, seat))
    assert refused.value.code == "clock_not_due"
    assert await _moves(hall, code) == 1


def _fischer_room(bank: float, since_seconds: float) -> SimpleNamespace:
    state = GAME.setup(2, GAME.Options(), Random(0))
    return SimpleNamespace(code="X", game=GAME.id, status="active", seed="s", version=3,
                           state=state, turn_clock=CLOCK, clock_increment=10,
                           clock_banks={"0": bank, "1": bank},
                           last_move_at=utcnow() - timedelta(seconds=since_seconds))


def test_a_late_move_within_the_grace_earns_no_fischer_increment() -> None:
    seat = sorted(GAME.to_act(_fischer_room(5, 0).state))[0]
    room = _fischer_room(5, 5)  # the bank ran out just now
    now = room.last_move_at + timedelta(seconds=5 + LATE_GRACE_SECONDS / 2)
    late = _check_time(room, seat, "m1", room.version, True, now)
    assert late
    banks, _ = _clock(room, seat, [1 - seat], now, late)
    assert banks[str(seat)] == 0
    # In time: the increment as before.
    early = room.last_move_at + timedelta(seconds=4)
    assert not _check_time(room, seat, "m2", room.version, True, early)
    banks, _ = _clock(room, seat, [1 - seat], early, False)
    assert banks[str(seat)] == pytest.approx(11)
    # Past the grace: refused.
    with pytest.raises(ApiError) as refused:
        _check_time(room, seat, "m3", room.version, True,
                    room.last_move_at + timedelta(seconds=5 + 2 * LATE_GRACE_SECONDS))
    assert refused.value.code == "out_of_time"
