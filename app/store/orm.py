"""A room, its seats, votes and hand-overs read and written through the caller's ORM session,
for the store paths written once in SQLAlchemy (`app.store.shared`, `app.store.sqlite`).

Each function runs inside the caller's transaction. The rules they apply (who may join, leave,
vote, take a seat back) are the table's (`app.core.rooms`, `app.core.absence`), written on
plain attributes, so that Postgres's fast path applies the very same rules to its own rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core import absence, rooms
from app.core.seat_clocks import CLOCK_ID_PREFIX
from app.core.tablelog import TOLD
from app.errors import ApiError
from app.store.models import AdminAction, Handover, MoveRow, Player, Room, Seat, SeatVote, utcnow
from games.protocol import State

# -- rooms and seats ---------------------------------------------------------------------------

async def get_room(session: AsyncSession, code: str, for_update: bool = False) -> Room:
    room = await session.get(Room, rooms.normalize_code(code), with_for_update=for_update)
    if room is None:
        raise ApiError(404, "room_not_found", f"There is no room with the code {code!r}.")
    return room


async def seats_of(session: AsyncSession, code: str) -> list[Seat]:
    return list(await session.scalars(select(Seat).where(Seat.room_code == code)
                                      .order_by(Seat.seat)))


async def room_payload(session: AsyncSession, room: Room) -> dict[str, Any]:
    """The wire `room` object, read through a session. Seats are read as plain rows, not ORM
    objects: nothing here changes them. On Postgres the hot callers read all of it
    in one statement instead (`app.store.postgres.roomread`)."""
    seats = Seat.__table__
    rows = (await session.execute(
        select(seats, Player.name.label("player_name"))
        .outerjoin(Player, seats.c.player_id == Player.id)
        .where(seats.c.room_code == room.code).order_by(seats.c.seat))).all()
    away = await away_seats(session, room, [seat.seat for seat in rows])
    fields, handovers = await absence_payload(session, room, list(rows))
    actions = [] if room.status == "lobby" else list(await session.scalars(
        select(AdminAction).where(AdminAction.room_code == room.code,
                                  AdminAction.action.in_(TOLD)).order_by(AdminAction.id)))
    return rooms.payload_from(room, rows, away, fields, handovers, actions)


async def away_seats(session: AsyncSession, room: Room, seats: list[int]) -> set[int]:
    """Seats whose last rooms.AWAY_AFTER moves were all played for them by the turn clock."""
    if not room.turn_clock or room.status != "active":
        return set()
    away = set()
    for seat in seats:
        ids = list(await session.scalars(
            select(MoveRow.client_id).where(MoveRow.room_code == room.code, MoveRow.seat == seat)
            .order_by(MoveRow.version.desc()).limit(rooms.AWAY_AFTER)))
        if len(ids) == rooms.AWAY_AFTER and all(i.startswith(CLOCK_ID_PREFIX) for i in ids):
            away.add(seat)
    return away


async def create_room(session: AsyncSession, host: Player, game_id: str,
                      options: dict[str, Any] | None, seat_count: int | None,
                      private: bool, turn_clock: int | None = None,
                      clock_increment: int | None = None, standin: str | None = None,
                      pace: str = "live") -> Room:
    made, seats = rooms.new_room(host, game_id, options, seat_count, private, turn_clock,
                                 clock_increment, standin, pace)
    room = Room(**vars(made))  # the columns new_room set, and only those (the rest start empty)
    session.add(room)
    session.add_all([Seat(**vars(seat)) for seat in seats])
    await session.flush()
    return room


async def join(session: AsyncSession, room: Room, player: Player, wanted: int | None) -> None:
    rooms.join_seats(room, await seats_of(session, room.code), player, wanted)


async def start(session: AsyncSession, room: Room, player: Player) -> State:
    rooms.start_seats(room, await seats_of(session, room.code), player)
    return room.state


async def leave(session: AsyncSession, room: Room, player: Player) -> None:
    """`rooms.leave_seats`, and the hand-over's line if a bot took the seat."""
    handed = rooms.leave_seats(room, await seats_of(session, room.code), player)
    if handed is not None:
        session.add(Handover(room_code=room.code, version=room.version, seat=handed,
                             kind="bot", cause="left", player_id=player.id))


async def log_rows(session: AsyncSession, code: str, upto: int | None = None) -> list[MoveRow]:
    """The room's move log in version order (up to and including `upto`)."""
    query = select(MoveRow).where(MoveRow.room_code == code).order_by(MoveRow.version)
    if upto is not None:
        query = query.where(MoveRow.version <= upto)
    return list(await session.scalars(query))


# -- votes and hand-overs (the caller holds the room's row lock) --------------------------------

async def locked_seats(session: AsyncSession, code: str) -> list[Seat]:
    """The room's seats, locked too: a player reconnecting at the moment of the last vote
    either keeps the seat or finds it handed over, never half."""
    return list(await session.scalars(select(Seat).where(Seat.room_code == code)
                                      .order_by(Seat.seat).with_for_update()))


async def valid_votes(session: AsyncSession, room: Room, seats: list[Seat]
                      ) -> dict[int, list[int]]:
    """`absence.count_votes` on the room's votes as stored."""
    return absence.count_votes(room, seats, await session.scalars(
        select(SeatVote).where(SeatVote.room_code == room.code)))


async def vote(session: AsyncSession, room: Room, voter: Player, target: int) -> bool:
    """Record `voter`'s vote to hand seat `target` to a bot; hand it over on a majority."""
    seats = await locked_seats(session, room.code)
    mine, seat = absence.vote_seats(room, seats, voter, target)
    await session.execute(delete(SeatVote).where(
        SeatVote.room_code == room.code, SeatVote.seat == target, SeatVote.voter_id == voter.id))
    session.add(SeatVote(room_code=room.code, seat=target, voter_id=voter.id, at=utcnow()))
    await session.flush()
    counted = (await valid_votes(session, room, seats)).get(target, [])
    counted = sorted({*counted, mine.seat})
    if len(counted) < absence.votes_needed(seats, target, mine.seat):
        return False
    await hand_to_bot(session, room, seat, "vote")
    return True


async def recount(session: AsyncSession, room: Room) -> bool:
    """Connection counts changed: hand over every absent seat whose votes are a majority now
    (a voter leaving shrinks the majority needed, one coming back counts again). True if any."""
    if room.status != "active":
        return False
    seats = await locked_seats(session, room.code)
    handed = False
    for target, voters in (await valid_votes(session, room, seats)).items():
        if len(voters) >= absence.votes_needed(seats, target):
            await hand_to_bot(session, room, next(s for s in seats if s.seat == target), "vote")
            handed = True
    return handed


async def hand_to_bot(session: AsyncSession, room: Room, seat: Seat, cause: str) -> None:
    """A bot takes the seat (`absence.bot_takes`): its votes go, and the log says who left."""
    player = absence.bot_takes(room, seat)
    await session.execute(delete(SeatVote).where(SeatVote.room_code == room.code,
                                                 SeatVote.seat == seat.seat))
    if player is not None:
        session.add(Handover(room_code=room.code, version=room.version, seat=seat.seat,
                             kind="bot", cause=cause, player_id=player))


async def reclaim(session: AsyncSession, room: Room, player: Player) -> int:
    """The replaced player takes their seat back from the bot; returns the seat."""
    seat = absence.reclaimed_seat(room, await locked_seats(session, room.code), player)
    absence.not_held_by_admin(await session.scalar(select(Handover).where(
        Handover.room_code == room.code, Handover.seat == seat.seat)
        .order_by(Handover.id.desc()).limit(1)))
    absence.seat_back(room, seat, player)
    session.add(Handover(room_code=room.code, version=room.version, seat=seat.seat,
                         kind="back", cause="reclaim", player_id=player.id))
    return seat.seat


async def absence_payload(session: AsyncSession, room: Room, seats: Sequence[Any]
                          ) -> tuple[dict[int, dict[str, Any]], list[dict[str, Any]]]:
    """`absence.absence_fields` on what the session reads (nothing in the lobby)."""
    if room.status == "lobby":
        return {}, []
    handovers = list(await session.scalars(select(Handover).where(
        Handover.room_code == room.code).order_by(Handover.id)))
    ids = {s.replaced_id for s in seats if s.replaced_id} | {h.player_id for h in handovers}
    names = dict((await session.execute(select(Player.id, Player.name)
                                        .where(Player.id.in_(ids)))).all()) if ids else {}
    votes = (await session.scalars(select(SeatVote).where(SeatVote.room_code == room.code))
             if room.status == "active" else [])
    return absence.absence_fields(room, seats, votes, handovers, names)
