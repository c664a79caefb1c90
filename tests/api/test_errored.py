"""A rule module that raises pauses its own room for the admin; everything else goes on."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.config import Settings
from app.errors import ApiError
from app.hall import Hall
from app.play.moves import Mover, submit_move
from app.store.migrate import upgrade_to_head_async
from app.store.models import Player, Room
from app.store.orm import create_room, join, leave, seats_of, start
from games import REGISTRY
from games.gem_pyramid.rules import GemPyramid
from tests.server import sqlite_database


class BrokenLucent(GemPyramid):
    """Lucent whose rules crash on every move, as a buggy module would."""

    id = "broken-lucent"

    def apply(self, state, seat, move, rng):  # type: ignore[override]
        raise RuntimeError("boom in the rules")


@pytest.fixture
async def hall(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Hall]:
    monkeypatch.setitem(REGISTRY, BrokenLucent.id, BrokenLucent())
    with sqlite_database() as url:
        await upgrade_to_head_async(url)
        hall = Hall(Settings(database_url=url, bot_delay_ms=0))
        await hall.start()
        yield hall
        await hall.stop()


async def _started_room(hall: Hall, game: str) -> tuple[str, Player]:
    async with hall.store.sessions() as session, session.begin():
        a = Player(id=f"{game}-a", name="A", token_hash=f"{game}-a")
        b = Player(id=f"{game}-b", name="B", token_hash=f"{game}-b")
        session.add_all([a, b])
        await session.flush()
        room = await create_room(session, a, game, None, 2, True)
        await join(session, room, b, None)
        await start(session, room, a)
        return room.code, a


async def _first_move(hall: Hall, code: str) -> dict:
    async with hall.store.sessions() as session:
        room = await session.get(Room, code)
        return REGISTRY[room.game].legal_moves(room.state, 0)[0]


async def test_a_raising_rule_module_errors_only_its_room(hall: Hall) -> None:
    broken, host = await _started_room(hall, BrokenLucent.id)
    healthy, other_host = await _started_room(hall, "gem-pyramid")
    move = await _first_move(hall, broken)
    with pytest.raises(ApiError) as refused:
        await submit_move(hall, broken, Mover(player_id=host.id), "m1", 0, move)
    assert refused.value.code == "room_errored"
    assert "boom" not in refused.value.message, "players never see the traceback"
    async with hall.store.sessions() as session:
        room = await session.get(Room, broken)
        assert room.status == "errored" and "boom in the rules" in room.error
        assert room.version == 0, "nothing of the failed move was written"
    with pytest.raises(ApiError) as again:
        await submit_move(hall, broken, Mover(player_id=host.id), "m2", 0, move)
    assert again.value.code == "room_errored"
    made = await submit_move(hall, healthy, Mover(player_id=other_host.id), "m1", 0,
                             await _first_move(hall, healthy))
    assert made == 1, "other rooms play on"


async def test_leaving_a_paused_game_hands_the_seat_to_a_bot(hall: Hall) -> None:
    """The admin may resume an errored room: a seat left meanwhile must not stand empty."""
    code, host = await _started_room(hall, BrokenLucent.id)
    with pytest.raises(ApiError):
        await submit_move(hall, code, Mover(player_id=host.id), "m1", 0,
                          await _first_move(hall, code))
    async with hall.store.sessions() as session, session.begin():
        room = await session.get(Room, code)
        guest = await session.get(Player, f"{BrokenLucent.id}-b")
        await leave(session, room, guest)
    async with hall.store.sessions() as session:
        seat = next(s for s in await seats_of(session, code) if s.seat == 1)
        assert seat.player_id is None and seat.bot is not None
