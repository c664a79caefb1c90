"""The move pipeline in process, without HTTP: a started Hall on a fresh database, and a move
made the way a player would make it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from app.config import Settings
from app.hall import Hall
from app.play.moves import Mover, submit_move
from app.store import snapshots
from app.store.migrate import upgrade_to_head_async
from app.store.models import Player, Room
from app.store.orm import create_room, join, start
from games import REGISTRY
from tests.server import database


@asynccontextmanager
async def hall_on(kind: str) -> AsyncIterator[Hall]:
    """A started Hall on a fresh database of `kind` ("sqlite" or "postgres")."""
    with database(kind) as url:
        await upgrade_to_head_async(url)
        hall = Hall(Settings(database_url=url, bot_delay_ms=0))
        await hall.start()
        try:
            yield hall
        finally:
            await hall.stop()


async def first_legal_move(hall: Hall, code: str, ids: list[str], move_id: str) -> int:
    """The seat to act plays its first legal move, on the version the database holds (read
    without touching what `hall` holds in memory); returns the version it made."""
    async with hall.store.sessions() as session:
        room = await session.get(Room, code)
        assert room is not None
        await snapshots.resolve(session, [room])  # the state at the room's version
        version, state, game = room.version, room.state, REGISTRY[room.game]
    seat = sorted(game.to_act(state))[0]
    return await submit_move(hall, code, Mover(player_id=ids[seat]), move_id, version,
                             game.legal_moves(state, seat)[0])


async def started_room(hall: Hall, game_id: str, prefix: str) -> tuple[str, list[str]]:
    """A two-seat room of `game_id` made, joined and started through the ORM by players
    `<prefix>0` (the host) and `<prefix>1`; gives its code and the players' ids."""
    async with hall.store.sessions() as session, session.begin():
        players = [Player(id=f"{prefix}{n}", name=f"{prefix.upper()}{n}",
                          token_hash=f"{prefix}{n}") for n in (0, 1)]
        session.add_all(players)
        room = await create_room(session, players[0], game_id, None, 2, True)
        await join(session, room, players[1], None)
        await start(session, room, players[0])
        return room.code, [p.id for p in players]
