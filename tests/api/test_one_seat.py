"""Issue 11: the database holds a player to one seat per room, and the migration that says so
gives up the extra seats older data may hold."""

from __future__ import annotations

import asyncio

import pytest
from alembic import command
from sqlalchemy import column, insert, select, table
from sqlalchemy.exc import IntegrityError

from app.store.db import make_engine, make_sessionmaker
from app.store.migrate import alembic_config
from app.store.models import Room, Seat, utcnow
from tests.server import database

# The players table as 0008 had it (its token moved to `devices` in 0015).
_PLAYERS_0008 = table("players", column("id"), column("name"), column("token_hash"),
                      column("created_at"))


async def _double_seats(url: str) -> None:
    """Player p holds seats 0 and 1 of a lobby room and of a game in progress. Written as
    Core inserts naming their columns: the schema is 0008's, and the ORM would also write the
    columns later migrations added."""
    engine = make_engine(url)
    async with make_sessionmaker(engine)() as session, session.begin():
        await session.execute(insert(_PLAYERS_0008).values(id="p", name="P", token_hash="h",
                                                           created_at=utcnow()))
        for code, status in (("aaa-aaa-aaa", "lobby"), ("bbb-bbb-bbb", "active")):
            await session.execute(insert(Room.__table__).values(
                code=code, game="gem-pyramid", options={}, status=status, host_id="p",
                private=True, seed="s", version=0))
            await session.execute(insert(Seat.__table__), [
                {"room_code": code, "seat": n, "player_id": "p", "connections": 1}
                for n in (0, 1)])
    await engine.dispose()


async def _seats(url: str) -> dict[tuple[str, int], tuple[str | None, str | None]]:
    engine = make_engine(url)
    async with make_sessionmaker(engine)() as session:
        rows = await session.scalars(select(Seat))
        found = {(s.room_code, s.seat): (s.player_id, s.bot) for s in rows}
    await engine.dispose()
    return found


async def _seat_twice(url: str) -> None:
    engine = make_engine(url)
    try:
        async with make_sessionmaker(engine)() as session, session.begin():
            session.add(Seat(room_code="aaa-aaa-aaa", seat=2, player_id="p", connections=0))
    finally:
        await engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_one_seat_per_player_per_room(kind: str) -> None:
    with database(kind) as url:
        config = alembic_config(url)
        command.upgrade(config, "0008")
        asyncio.run(_double_seats(url))
        command.upgrade(config, "head")
        assert asyncio.run(_seats(url)) == {
            ("aaa-aaa-aaa", 0): ("p", None), ("aaa-aaa-aaa", 1): (None, None),
            ("bbb-bbb-bbb", 0): ("p", None), ("bbb-bbb-bbb", 1): (None, "random")}
        with pytest.raises(IntegrityError):
            asyncio.run(_seat_twice(url))
