"""Postgres writes a room's whole state only with some moves (app/store/snapshots.py): whoever
reads the room without holding it (a restart, another process, the admin) must still get the
state at the room's version, the one a replay of the whole log gives."""

from __future__ import annotations

import gc
import random
import weakref
from typing import Any

import orjson
from sqlalchemy import inspect, select

from app.hall import Hall
from app.play.moves import Mover, submit_move
from app.store import snapshots
from app.store.models import MoveRow, Room
from app.store.snapshots import SNAPSHOT_EVERY
from games import REGISTRY
from games.protocol import replay
from tests.api.inprocess import started_room

GAME = REGISTRY["gem-pyramid"]


def _plain(state: Any) -> Any:
    """As JSON has it (a state read back has lists where the rules may have made tuples)."""
    return orjson.loads(orjson.dumps(state))


async def _room(hall: Hall) -> tuple[str, list[str]]:
    return await started_room(hall, GAME.id, "s")


async def _replayed(hall: Hall, code: str) -> tuple[int, Any, int | None]:
    """The version, the state a replay of the whole log gives, and the row's `state_version`."""
    async with hall.store.sessions() as session:
        room = await session.get(Room, code)
        assert room is not None
        rows = list(await session.scalars(select(MoveRow).where(MoveRow.room_code == code)
                                          .order_by(MoveRow.version)))
    state = replay(GAME, 2, GAME.Options.model_validate(room.options), room.seed,
                   ((row.seat, row.move) for row in rows))
    return room.version, _plain(state), room.state_version


async def test_a_room_read_afresh_is_at_its_version_after_every_move(hall: Hall) -> None:
    code, ids = await _room(hall)
    chooser = random.Random(7)
    version = 0
    while True:
        snap = await hall.load_snapshot(code)
        assert snap is not None and snap.version == version
        if snap.status != "active":
            break
        seat = sorted(GAME.to_act(snap.state))[0]
        move = chooser.choice(GAME.legal_moves(snap.state, seat))
        version = await submit_move(hall, code, Mover(player_id=ids[seat]), f"m{version}",
                                    version, move)
        made, replayed, state_version = await _replayed(hall, code)
        assert made == version
        over = GAME.outcome(replayed) is not None
        if hall.store.single_writer:  # SQLite writes the state with every move
            assert state_version is None
        else:  # Postgres: with every SNAPSHOT_EVERYth move and the last
            assert state_version == (None if version % SNAPSHOT_EVERY == 0 or over
                                     else version - version % SNAPSHOT_EVERY)
        # Read afresh, as a restart or another process reads it: the room held here is let go.
        hall.store.forget(code)
        fresh = await hall.load_snapshot(code)
        assert fresh is not None and fresh.version == version
        assert _plain(fresh.state) == replayed
        hall.store.forget(code)
        read = await hall.store.room_and_snapshot(code)
        assert read is not None and _plain(read[1].state) == replayed
        assert _plain((await hall.store.room_row(code)).state) == replayed  # the admin's read
        assert _plain((await hall.store.admin_room(code)).room.state) == replayed
    assert version > SNAPSHOT_EVERY  # the game went past a snapshot


async def test_a_state_set_through_the_orm_is_written_with_its_version(hall: Hall) -> None:
    """A take-back or a rollback sets the state at the room's version through the ORM: the
    column must then hold it, even when it equals what the session read (a caught-up state)."""
    code, ids = await _room(hall)
    chooser = random.Random(3)
    for version in range(3):
        snap = await hall.load_snapshot(code)
        assert snap is not None
        seat = sorted(GAME.to_act(snap.state))[0]
        await submit_move(hall, code, Mover(player_id=ids[seat]), f"m{version}", version,
                          chooser.choice(GAME.legal_moves(snap.state, seat)))
    made, replayed, _ = await _replayed(hall, code)
    assert made == 3
    async with hall.store.sessions() as session, session.begin():
        room = await session.get(Room, code)
        assert room is not None
        await snapshots.resolve(session, [room])
        room.state = room.state  # the state at version 3, as a rebuild would set it
    async with hall.store.sessions() as session:
        room = await session.get(Room, code)
        assert room is not None
        assert room.state_version is None and _plain(room.state) == replayed


async def test_a_room_written_through_the_orm_leaves_no_cycle(hall: Hall) -> None:
    """The listener that writes the state with its version reads the history without leaving
    the room's ORM state in a cycle (app/store/models.py): once the session is gone,
    reference counting alone frees it, and the collector has nothing to freeze for good."""
    code, _ = await _room(hall)
    gc.collect()
    gc.disable()
    try:
        async with hall.store.sessions() as session, session.begin():
            room = await session.get(Room, code)
            assert room is not None
            room.state = room.state  # the listener runs at the flush
            state = weakref.ref(inspect(room))
        del room, session
        assert state() is None
    finally:
        gc.enable()
