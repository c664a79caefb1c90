"""Group commit (groupcommit.py): moves of several rooms arriving together are written by one
statement, and each still gets exactly its own answer: committed, a stale room read again, a
client id used twice answered with its first version."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import func, select

from app.hall import Hall
from app.play.moves import Mover, submit_move
from app.store import snapshots
from app.store.models import MoveRow, Player, Room
from app.store.orm import create_room, join, start
from app.store.postgres.groupcommit import GroupCommit
from games import REGISTRY
from tests.api.inprocess import first_legal_move, hall_on

GAME = REGISTRY["gem-pyramid"]
ROOMS = 6


@pytest.fixture
async def hall() -> AsyncIterator[Hall]:
    async with hall_on("postgres") as started:
        yield started


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of every batch written."""
    sizes: list[int] = []
    original = GroupCommit._write_batch

    async def counted(self: GroupCommit, batch: list) -> dict[str, int]:
        sizes.append(len(batch))
        return await original(self, batch)

    monkeypatch.setattr(GroupCommit, "_write_batch", counted)
    return sizes


async def _rooms(hall: Hall) -> list[tuple[str, list[str]]]:
    made = []
    async with hall.store.sessions() as session, session.begin():
        for n in range(ROOMS):
            players = [Player(id=f"g{n}p{s}", name=f"P{s}", token_hash=f"g{n}h{s}")
                       for s in (0, 1)]
            session.add_all(players)
            room = await create_room(session, players[0], GAME.id, None, 2, True)
            await join(session, room, players[1], None)
            await start(session, room, players[0])
            made.append((room.code, [p.id for p in players]))
    return made


async def _logged(hall: Hall, code: str) -> int:
    async with hall.store.sessions() as session:
        return await session.scalar(select(func.count()).where(MoveRow.room_code == code))


async def test_moves_of_many_rooms_share_a_statement(hall: Hall, batches: list[int]) -> None:
    rooms = await _rooms(hall)
    for code, _ in rooms:
        await hall.load_snapshot(code)  # held in memory, as a playing room is
    versions = await asyncio.gather(*(first_legal_move(hall, code, ids, f"m{n}")
                                      for n, (code, ids) in enumerate(rooms)))
    assert versions == [1] * ROOMS
    assert max(batches) > 1  # at least two rooms went together
    for code, _ in rooms:
        assert await _logged(hall, code) == 1
        assert hall.store.cache is not None and hall.store.cache.get(code).version == 1


async def test_a_reused_client_id_in_a_batch_gets_its_first_answer(
        hall: Hall, batches: list[int]) -> None:
    rooms = await _rooms(hall)
    code, ids = rooms[0]
    for move_id in ("a", "b", "c"):  # seat 0, seat 1, seat 0
        await first_legal_move(hall, code, ids, move_id)
    for other, _ in rooms:
        await hall.load_snapshot(other)
    async with hall.store.sessions() as session:
        room = await session.get(Room, code)
        await snapshots.resolve(session, [room])  # the state at the room's version
        state = room.state
    # Seat 1 sends a legal move under the id it already used for version 2: it passes judging,
    # the batch it shares with the other rooms fails on the id, every move is written alone,
    # and each gets its own answer.
    answers = await asyncio.gather(
        submit_move(hall, code, Mover(player_id=ids[1]), "b", 3, GAME.legal_moves(state, 1)[0]),
        *(first_legal_move(hall, other, other_ids, f"o{n}")
          for n, (other, other_ids) in enumerate(rooms[1:])))
    assert answers == [2] + [1] * (ROOMS - 1)
    assert max(batches) > 1
    assert await _logged(hall, code) == 3
    for other, _ in rooms[1:]:
        assert await _logged(hall, other) == 1


async def test_a_room_written_elsewhere_is_judged_again_not_overwritten(
        hall: Hall, batches: list[int]) -> None:
    rooms = await _rooms(hall)
    for code, _ in rooms:
        await hall.load_snapshot(code)
    code = rooms[0][0]
    async with hall.store.engine.begin() as conn:  # another writer touches the room row
        await conn.execute(Room.__table__.update().where(Room.code == code)
                           .values(spectators_muted=True))
    versions = await asyncio.gather(*(first_legal_move(hall, c, i, f"s{n}")
                                      for n, (c, i) in enumerate(rooms)))
    assert versions == [1] * ROOMS
    assert await _logged(hall, code) == 1
