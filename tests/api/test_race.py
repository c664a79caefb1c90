"""Temple Rush's lightning race through the real move pipeline: when two players finish at
once, the first move to commit wins and the other is refused."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from app.errors import ApiError
from app.hall import Hall
from app.play.moves import Mover, submit_move
from app.store import snapshots
from app.store.models import MoveRow, Player, Room
from app.store.orm import create_room, join, start
from games import REGISTRY
from tests.games.test_temple_rush import lightning_table, play

GAME = REGISTRY["temple-rush"]


def moves_to_finish(state: dict, seat: int) -> list[dict]:
    """The race moves `seat` would play (always the first legal one) to complete its build."""
    path = []
    while state["phase"] == "lightning":
        move = GAME.legal_moves(state, seat)[0]
        path.append(move)
        state = play(state, (seat, move))
    return path


def both_one_block_away() -> tuple[dict, dict, dict]:
    """A race where each seat's next move completes its build."""
    state = lightning_table()
    finals = {}
    for seat in (0, 1):
        path = moves_to_finish(state, seat)
        assert len(path) >= 1
        for move in path[:-1]:
            state = play(state, (seat, move))
        finals[seat] = path[-1]
    return state, finals[0], finals[1]


async def _players(hall: Hall) -> list[Player]:
    async with hall.store.sessions() as session, session.begin():
        players = [Player(id=f"racer{n}", name=f"R{n}", token_hash=f"racer{n}") for n in (0, 1)]
        session.add_all(players)
        return players


async def _race_room(hall: Hall, players: list[Player], state: dict) -> str:
    """A started two-player room whose state is the race, set up by hand."""
    async with hall.store.sessions() as session, session.begin():
        host, guest = [await session.get(Player, p.id) for p in players]
        room = await create_room(session, host, GAME.id, None, 2, True)
        await join(session, room, guest, None)
        await start(session, room, host)
        room.state = state
        return room.code


async def _submit(hall: Hall, code: str, player: Player, move: dict) -> int | str:
    try:
        return await submit_move(hall, code, Mover(player_id=player.id), f"fin-{player.id}", 0,
                                 move)
    except ApiError as refused:
        return refused.code


async def test_two_racers_finishing_at_once_are_decided_by_commit_order(hall: Hall) -> None:
    state, final0, final1 = both_one_block_away()
    finals = {0: final0, 1: final1}
    players = await _players(hall)
    for first in (0, 1):
        code = await _race_room(hall, players, state)
        # Both finishing moves are in flight at once; the first to take the room commits first.
        results = await asyncio.gather(*(_submit(hall, code, players[seat], finals[seat])
                                         for seat in (first, 1 - first)))
        assert results[0] == 1 and results[1] in {"not_your_turn", "illegal_move"}, results
        async with hall.store.sessions() as session:
            room = await session.get(Room, code)
            await snapshots.resolve(session, [room])  # the state at the room's version
            committed = await session.scalar(select(MoveRow.seat).where(
                MoveRow.room_code == code, MoveRow.version == 1))
        assert room.state["last_race"]["winner"] == committed == first
