"""The SQLite store: one process, one writer, every path a short SQLAlchemy transaction.

SQLite serialises writers anyway, so the pipeline takes one lock for all rooms
(`single_writer`) and nothing is held in memory: each move reads the room and its seats, judges
and writes them in one transaction. Core statements, not the ORM, on the paths every move and
socket takes: the ORM's identity map and flush bookkeeping cost more CPU per move than the
rules themselves.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

from sqlalchemy import Select, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.movelog import recorded_by
from app.core.rooms import room_deadlines
from app.core.seat_clocks import CLOCK_ID_PREFIX
from app.core.snapshot import Snapshot
from app.errors import ApiError
from app.store import orm
from app.store.base import (
    CHAT_HISTORY,
    AlreadyApplied,
    ChatRead,
    DuplicateMove,
    RoomView,
    SeatAction,
    SeatCounted,
    Seats,
    W,
)
from app.store.db import transaction, uncount
from app.store.hub import MemoryHub
from app.store.models import (
    ChatMessage,
    Device,
    MoveRow,
    Player,
    Room,
    Seat,
    SeatSocket,
    SeatVote,
    Watcher,
)
from app.store.outbox import write_notices
from app.store.results import rate_on_sqlite
from app.store.shared import SharedPaths
from app.store.tokens import insert_player, new_player, player_for_token

ROOMS, SEATS, MOVES = Room.__table__, Seat.__table__, MoveRow.__table__
PLAYERS, LINES, DEVICES = Player.__table__, ChatMessage.__table__, Device.__table__
_PERSON, _REPLACED = PLAYERS.alias("person"), PLAYERS.alias("replaced")
_ROOM_COLUMNS = (ROOMS.c.code, ROOMS.c.game, ROOMS.c.status, ROOMS.c.seed, ROOMS.c.version,
                 ROOMS.c.state, ROOMS.c.turn_clock, ROOMS.c.clock_increment,
                 ROOMS.c.clock_banks, ROOMS.c.last_move_at, ROOMS.c.pace)


class SqliteStore(SharedPaths):
    """The store for SQLite (see the module's docstring); one per process."""

    single_writer = True

    def __init__(self, url: str, origin: str) -> None:
        super().__init__(url)
        self.origin = origin
        self.hub = MemoryHub()

    async def start(self, on_notify: Callable[[str], Awaitable[None]]) -> None:
        await self.hub.start(on_notify)

    async def stop(self) -> None:
        await self.hub.stop()
        await self.engine.dispose()

    # -- players ----------------------------------------------------------------------------

    async def add_player(self, name: str, token_hash: str,
                         device_label: str | None) -> Player:
        player = new_player(name, token_hash, device_label)
        async with self.engine.begin() as conn:
            await insert_player(conn, player)
        return player

    async def player_by_token(self, token: str | None, ttl: timedelta | None,
                              fresh: bool = False) -> Player | None:
        return await player_for_token(self.reader, token, ttl)

    def forget_device(self, device_id: str) -> None:
        """Nothing held: every token is read afresh."""

    # -- rooms and seats -----------------------------------------------------------------------

    async def add_room(self, host: Player, game: str, options: dict[str, Any] | None,
                       seats: int | None, private: bool, turn_clock: int | None,
                       clock_increment: int | None,
                       standin: str | None = None, pace: str = "live") -> dict[str, Any]:
        async with self.sessions() as session, transaction(session):
            room = await orm.create_room(session, host, game, options, seats, private,
                                           turn_clock, clock_increment, standin, pace)
            return await orm.room_payload(session, room)

    async def change_seats(self, code: str, action: SeatAction,
                           *args: Any) -> tuple[dict[str, Any], Snapshot] | None:
        async with self.sessions() as session, transaction(session):
            room = await orm.get_room(session, code, for_update=True)
            action(room, await orm.seats_of(session, room.code), *args)
            await self.hub.notify_in(session, f"room:{room.code}:{self.origin}")
        return None

    async def admit(self, code: str, token_hash: str | None,
                    ttl: timedelta | None = None) -> Any | None:
        async with self.reader.connect() as conn:
            return (await conn.execute(_admit_query(code, token_hash))).first()

    @asynccontextmanager
    async def _one_read(self) -> AsyncIterator[AsyncSession]:
        """A session whose reads all see one committed moment. The driver begins no
        transaction before a SELECT, so without this BEGIN each read saw the database as it
        was then: a start committed between reading the room and reading its state sent a
        lobby `room` message with an active state."""
        async with self.reader.connect() as conn:
            await conn.exec_driver_sql("BEGIN")
            try:
                yield AsyncSession(bind=conn, expire_on_commit=False)
            finally:
                await conn.exec_driver_sql("COMMIT")

    async def room_message(self, code: str) -> dict[str, Any] | None:
        async with self._one_read() as session:
            return await _room_message(session, code)

    async def load_snapshot(self, code: str) -> Snapshot | None:
        async with self._one_read() as session:
            return await _snapshot(session, code)

    async def room_and_snapshot(self, code: str) -> tuple[dict[str, Any], Snapshot] | None:
        async with self._one_read() as session:
            message, snap = await _room_message(session, code), await _snapshot(session, code)
        return None if message is None or snap is None else (message, snap)

    def forget(self, code: str) -> None:
        """Nothing is held."""

    # -- moves ----------------------------------------------------------------------------

    async def commit_move(self, code: str, seat: int | None, player_id: str | None,
                          client_id: str, move: Any,
                          judge: Callable[[RoomView, Seats], W]) -> tuple[int, W]:
        """One transaction on a bare connection."""
        try:
            async with self.engine.begin() as conn:
                # One round trip: the room (locked) and its seats, one row per seat, with
                # the names a move's `by` records.
                rows = (await conn.execute(
                    select(*_ROOM_COLUMNS, SEATS.c.seat.label("seat_no"), SEATS.c.player_id,
                           SEATS.c.bot, _PERSON.c.name.label("person"),
                           _REPLACED.c.name.label("replaced"))
                    .select_from(ROOMS.outerjoin(SEATS, SEATS.c.room_code == ROOMS.c.code)
                                 .outerjoin(_PERSON, _PERSON.c.id == SEATS.c.player_id)
                                 .outerjoin(_REPLACED, _REPLACED.c.id == SEATS.c.replaced_id))
                    .where(ROOMS.c.code == code).with_for_update(of=ROOMS))).all()
                if not rows:
                    raise ApiError(404, "room_not_found", "That room does not exist.")
                room = rows[0]
                seats = {r.seat_no: (r.player_id, r.bot) for r in rows if r.seat_no is not None}
                try:
                    j = judge(room, seats)
                except ApiError:
                    earlier = await self._earlier(conn, code, client_id, seat, player_id)
                    if earlier is not None:
                        raise AlreadyApplied(earlier) from None
                    raise
                version = room.version + 1
                held = next(r for r in rows if r.seat_no == j.seat)
                await conn.execute(update(ROOMS).where(ROOMS.c.code == code).values(
                    state=j.state, version=version, status=j.status, last_move_at=j.now,
                    updated_at=j.now, clock_banks=j.banks))
                await conn.execute(insert(MOVES).values(
                    room_code=code, version=version, seat=j.seat, client_id=client_id,
                    move=move, events=j.events, created_at=j.now,
                    by=recorded_by(j.seat, held.person, held.bot, held.replaced, client_id)))
                if j.notices:  # a turn-based room's: into the outbox, in this transaction
                    await write_notices(conn, code, version, j.notices, j.now)
                if j.status == "finished" and self.game_end is not None:
                    await rate_on_sqlite(conn, self.game_end, code, room.game, j.state, j.now)
                await self.hub.notify_in(conn, f"state:{code}:{self.origin}")
                return version, j
        except IntegrityError:
            raise DuplicateMove() from None

    async def earlier_move(self, code: str, client_id: str, seat: int | None,
                           player_id: str | None) -> int | None:
        async with self.engine.connect() as conn:
            return await self._earlier(conn, code, client_id, seat, player_id)

    @staticmethod
    async def _earlier(conn: Any, code: str, client_id: str, seat: int | None,
                       player_id: str | None) -> int | None:
        query = select(MoveRow.version).where(MoveRow.room_code == code,
                                              MoveRow.client_id == client_id)
        if seat is not None:
            query = query.where(MoveRow.seat == seat)
        else:
            query = query.join(Seat, (Seat.room_code == MoveRow.room_code)
                               & (Seat.seat == MoveRow.seat)).where(Seat.player_id == player_id)
        return await conn.scalar(query)

    async def bot_view(self, code: str) -> tuple[RoomView, dict[int, str]] | None:
        async with self.sessions() as session:
            room = await session.get(Room, code)
            if room is None:
                return None
            bots = {seat: bot for seat, bot in await session.execute(select(
                Seat.seat, Seat.bot).where(Seat.room_code == code, Seat.bot.is_not(None)))}
        return room, bots

    # -- sockets, presence and votes ------------------------------------------------------------

    def register(self, code: str, delta: int) -> None:
        """One process: there are no other processes' sockets to tell apart."""

    async def seat_connected(self, code: str, seat: int, player_id: str | None) -> SeatCounted:
        async with self.sessions() as session, session.begin():
            counted = await session.execute(update(Seat).where(
                Seat.room_code == code, Seat.seat == seat, Seat.player_id == player_id).values(
                    connections=Seat.connections + 1, absent_since=None))
            row = None
            if counted.rowcount:
                row = await session.scalar(insert(SeatSocket).values(
                    origin=self.origin, room_code=code, seat=seat, player_id=player_id)
                    .returning(SeatSocket.id))
            await self.hub.notify_in(session, f"room:{code}:{self.origin}")
        return SeatCounted(row, None, None)

    async def seat_disconnected(self, code: str, seat: int, player_id: str | None,
                                ledger: int) -> bool:
        async with self.sessions() as session, session.begin():
            gone = await session.execute(delete(SeatSocket).where(SeatSocket.id == ledger))
            if not gone.rowcount:
                return False
            await uncount(session, code, seat, player_id, 1)
            await self.hub.notify_in(session, f"room:{code}:{self.origin}")
        return True

    async def has_votes(self, code: str) -> bool:
        async with self.reader.connect() as conn:
            return await conn.scalar(select(SeatVote.seat).where(SeatVote.room_code == code)
                                     .limit(1)) is not None

    # -- chat ------------------------------------------------------------------------------

    async def chat_history(self, code: str) -> list[Any]:
        async with self.reader.connect() as conn:
            rows = (await conn.execute(select(LINES).where(LINES.c.room_code == code)
                                       .order_by(LINES.c.id.desc()).limit(CHAT_HISTORY))).all()
        return list(reversed(rows))

    async def watcher_names(self, code: str) -> list[str | None]:
        async with self.reader.connect() as conn:
            return list((await conn.execute(
                select(Player.name).select_from(Watcher).outerjoin(
                    Player, Watcher.player_id == Player.id)
                .where(Watcher.room_code == code))).scalars())

    async def chat_greeting(self, code: str) -> ChatRead:
        return ChatRead(await self.chat_history(code), await self.watcher_names(code))


def _admit_query(code: str, token_hash: str | None) -> Select[Any]:
    """The room, with the token's player (through its device) and their seat if any."""
    query = select(ROOMS.c.code).where(ROOMS.c.code == code)
    if token_hash:
        query = query.add_columns(
            DEVICES.c.player_id.label("id"), PLAYERS.c.created_at,
            DEVICES.c.renewed_at.label("token_renewed_at"), DEVICES.c.id.label("device_id"),
            DEVICES.c.revoked_at, SEATS.c.seat).select_from(
            ROOMS.outerjoin(DEVICES, DEVICES.c.token_hash == token_hash).outerjoin(
                PLAYERS, PLAYERS.c.id == DEVICES.c.player_id).outerjoin(
                SEATS, (SEATS.c.room_code == ROOMS.c.code) & (SEATS.c.player_id == PLAYERS.c.id)))
    return query


async def _room_message(session: AsyncSession, code: str) -> dict[str, Any] | None:
    room = await session.get(Room, code)
    if room is None:
        return None
    return {"type": "room", "room": await orm.room_payload(session, room)}


async def _snapshot(session: AsyncSession, code: str) -> Snapshot | None:
    room = await session.get(Room, code)
    if room is None:
        return None
    last = (await session.execute(select(MoveRow.events, MoveRow.seat, MoveRow.client_id)
                                  .where(MoveRow.room_code == code,
                                         MoveRow.version == room.version))).first()
    timed_out = last.seat if last and last.client_id.startswith(CLOCK_ID_PREFIX) else None
    return Snapshot(code, room.game, room.status, room.version, room.state,
                    last.events if last else [], room_deadlines(room), timed_out,
                    room.clock_banks)
