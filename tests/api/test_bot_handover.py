"""A bot's move in flight when its seat changes hands must not land for the player who took the
seat back; the clock and the admin still act for whoever holds the seat."""

from __future__ import annotations

import pytest

from app.core.client_ids import platform_id
from app.errors import ApiError
from app.hall import Hall
from app.play.moves import Mover, submit_move
from app.store import orm, snapshots
from app.store.models import Player, Room, Seat
from app.store.orm import create_room, join, start
from games import REGISTRY

GAME = REGISTRY["gem-pyramid"]


async def _state(hall: Hall, code: str) -> tuple[int, dict]:
    async with hall.store.sessions() as session:
        room = await session.get(Room, code)
        assert room is not None
        await snapshots.resolve(session, [room])  # the state at the room's version
        return room.version, room.state


async def test_a_bot_move_in_flight_does_not_land_after_the_player_took_the_seat_back(
        hall: Hall) -> None:
    async with hall.store.sessions() as session, session.begin():
        ann, bo = Player(id="ann", name="Ann", token_hash="a"), Player(id="bo", name="Bo",
                                                                      token_hash="b")
        session.add_all([ann, bo])
        room = await create_room(session, ann, GAME.id, None, 2, True)
        await join(session, room, bo, None)
        await start(session, room, ann)
        code = room.code
    version, state = await _state(hall, code)
    first = sorted(GAME.to_act(state))[0]
    ids = {0: "ann", 1: "bo"}
    await submit_move(hall, code, Mover(player_id=ids[first]), "m1", version,
                      GAME.legal_moves(state, first)[0])
    version, state = await _state(hall, code)
    seat = sorted(GAME.to_act(state))[0]
    player = await _player(hall, ids[seat])
    async with hall.store.sessions() as session, session.begin():  # the table voted the seat away
        room = await session.get(Room, code, with_for_update=True)
        held = await session.get(Seat, (code, seat))
        assert room is not None and held is not None
        await orm.hand_to_bot(session, room, held, "vote")
    await hall.load_snapshot(code)  # this process now holds the room with the bot seated
    # The bot has judged its move on that room; before it commits, the player takes the seat
    # back (on another process: this one hears nothing yet).
    move = GAME.legal_moves(state, seat)[0]
    async with hall.store.sessions() as session, session.begin():
        room = await session.get(Room, code, with_for_update=True)
        assert room is not None
        await orm.reclaim(session, room, player)
    with pytest.raises(ApiError) as refused:
        await submit_move(hall, code, Mover(seat=seat, bot=True),
                          platform_id("bot", version, seat), version, move)
    assert refused.value.code == "not_seated"
    assert (await _state(hall, code))[0] == version, "nothing landed"
    # The clock or the admin still moves for the seat, now its player's.
    assert await submit_move(hall, code, Mover(seat=seat), platform_id("admin", version, seat),
                             version, move) == version + 1


async def _player(hall: Hall, player_id: str) -> Player:
    async with hall.store.sessions() as session:
        player = await session.get(Player, player_id)
        assert player is not None
        return player
