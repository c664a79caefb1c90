"""On Postgres a move writes its row and the room's small columns; the state only now and then.

Why: the whole state rode in every move's statement (a few KB parsed into JSONB, a new copy of
the room row in the WAL), most of what Postgres did per move. The move log already holds what
rebuilds it: the state at version v is the state at any earlier version with the moves after
it applied, each with `match_rng(seed, version)` (`games.protocol.replay` from the deal). So
`rooms.state` is written with every `SNAPSHOT_EVERY`th move, with the move that ends a game, and
with every move of a clocked room (every process's clock reads those states through the ORM);
between those, `rooms.state_version` says which version the column holds (NULL: the room's
version, as every other writer leaves it). A reader that does not hold the room (a restart,
another process, the admin) reads the snapshot and the moves after it and replays them.

SQLite writes the state with every move, as before (one process, which holds its rooms): its
`state_version` stays NULL.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from app.store.models import MoveRow, Room
from games import REGISTRY
from games.protocol import State, match_rng

# A reader replays at most this many moves less one. A Lucent game (~30 moves) writes its state
# about four times instead of thirty; a replayed move costs ~10 us there, ~0.2 ms in Temple Rush.
SNAPSHOT_EVERY = 8


def writes_state(version: int, status: str, clocked: bool) -> bool:
    """Whether the move that makes `version` writes the whole state with it."""
    return version % SNAPSHOT_EVERY == 0 or status != "active" or clocked


def catch_up(game_id: str, seed: str, state: State, state_version: int | None, version: int,
             tail: Sequence[Sequence[Any]] | None) -> State:
    """The state at `version`, from the snapshot `state` (at `state_version`; None: already at
    `version`) and the moves after it, `[version, seat, move]` in order. A state not read
    (None) stays None."""
    if state_version is None or state is None:
        return state
    game, expected = REGISTRY[game_id], state_version
    for made, seat, move in tail or ():
        expected += 1
        if made != expected:
            raise RuntimeError(f"the log has no move {expected} after the snapshot at "
                               f"{state_version}")
        state, _ = game.apply(state, seat, move, match_rng(seed, made))
    if expected != version:
        raise RuntimeError(f"the log stops at {expected}, the room is at {version}")
    return state


# The statements' tail: the moves after the snapshot, as JSON (a record holding jsonb arrives in
# the binary format, which the pools' text codec does not read). `{room}`: the rooms alias.
TAIL = """(SELECT json_agg(json_build_array(t.version, t.seat, t.move) ORDER BY t.version)
  FROM moves t WHERE t.room_code = {room}.code AND t.version > {room}.state_version)"""


async def resolve(session: AsyncSession, rooms: Sequence[Room]) -> None:
    """Give each ORM room, as just loaded, its state at its version (one query for all of
    them); once per load. The state is set as if loaded, so a session that flushes the room
    later does not write it, and `state_version` keeps what the row says: a writer that sets
    `state` clears it (`models`), and a flush then writes both."""
    behind = {room.code: room for room in rooms
              if room.state_version is not None and room.state is not None}
    if not behind:
        return
    tails: dict[str, list[tuple[int, int, Any]]] = defaultdict(list)
    for code, version, seat, move in await session.execute(
            select(MoveRow.room_code, MoveRow.version, MoveRow.seat, MoveRow.move)
            .join(Room, Room.code == MoveRow.room_code)
            .where(Room.code.in_(behind), MoveRow.version > Room.state_version)
            .order_by(MoveRow.room_code, MoveRow.version)):
        tails[code].append((version, seat, move))
    for code, room in behind.items():
        state = catch_up(room.game, room.seed, room.state, room.state_version, room.version,
                         tails[code])
        set_committed_value(room, "state", state)
