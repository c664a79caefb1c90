"""What the services and the rules read of a stored row, as views (`typing.Protocol`): the
store's rows (the ORM's objects, Postgres's held rooms, Core rows) have these attributes under
these names, so a row is handed up as it is, never copied into another object. Nothing outside
`app/store` names the ORM's classes (`tests/test_layout.py`); what a service makes or changes,
a store method makes or changes. Each view lists the columns its readers use, not the table.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol


class RoomView(Protocol):
    """The columns of a room a move is judged on (attribute names as in `rooms`)."""

    code: str
    game: str
    status: str
    host_id: str | None
    seed: str
    version: int
    state: Any
    turn_clock: int | None
    clock_increment: int | None
    clock_banks: dict[str, float] | None
    last_move_at: datetime | None
    pace: str | None  # app.core.pace (None: a room older than the choice, live)


class StoredRoom(RoomView, Protocol):
    """A room as the store reads it whole: for the admin, replays, take-backs, the turn clock
    and "Your games"."""

    options: dict[str, Any]
    error: str | None  # the traceback of the rules' failure that paused it
    created_at: datetime
    updated_at: datetime
    standin_level: str | None  # None: a room older than the choice (the server's BOT_LEVEL)


class SeatView(Protocol):
    """A seat of a room: who holds it, and whether they are here."""

    seat: int
    player_id: str | None
    bot: str | None  # the level of the bot that plays it
    connections: int
    absent_since: datetime | None


class MoveView(Protocol):
    """A row of a room's move log."""

    version: int
    seat: int
    client_id: str
    move: Any
    events: list[dict[str, Any]]
    created_at: datetime
    by: dict[str, Any] | None  # who made it (`app.core.movelog`); None on old moves


class PlayerView(Protocol):
    """A player as their token found them: the player and the device the token belongs to."""

    id: str
    name: str
    created_at: datetime
    device_id: str | None
    token_hash: str | None
    token_renewed_at: datetime | None  # None: count the token's life from created_at
    revoked_at: datetime | None  # the device was signed out
