"""Postgres holds a lobby room as its process made or wrote it (`seatwrite.Lobbies`), so that the
join and the start of a set-up need no read first, and admits sockets from the room and players
it holds. A copy another process (or a socket count) made stale must cost a read, never a wrong
write: two processes' halls on one database."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from app.core import rooms
from app.core.views import PlayerView
from app.errors import ApiError
from app.hall import Hall
from app.store.models import Seat
from app.store.postgres import seatwrite


async def _players(hall: Hall, prefix: str, count: int) -> list[PlayerView]:
    return [await hall.store.add_player(f"{prefix.upper()}{n}", f"{prefix}{n}", None)
            for n in range(count)]


async def _room(hall: Hall, host: PlayerView, seats: int = 2) -> str:
    made = await hall.store.add_room(host, "gem-pyramid", None, seats, True, None, None)
    return str(made["code"])


def _reads(hall: Hall) -> list[str]:
    """The seat writes' reads `hall` makes from now on (`seatwrite._READ`), recorded."""
    pool = hall.store.cache.pool
    made: list[str] = []
    fetchrow = pool.fetchrow

    async def recording(query: str, *args: Any) -> Any:
        if query == seatwrite._READ:
            made.append(args[0])
        return await fetchrow(query, *args)

    pool.fetchrow = recording  # type: ignore[method-assign]
    return made


async def _seats(hall: Hall, code: str) -> list[Seat]:
    async with hall.store.sessions() as session:
        return list(await session.scalars(
            select(Seat).where(Seat.room_code == code).order_by(Seat.seat)))


async def test_a_set_up_on_one_process_reads_nothing_before_its_join_and_start(
        halls: tuple[Hall, Hall]) -> None:
    one, _ = halls
    host, guest = await _players(one, "a", 2)
    code = await _room(one, host)
    reads = _reads(one)
    await one.store.change_seats(code, rooms.join_seats, guest, None)
    counted = await one.store.seat_connected(code, 1, guest.id)  # the guest's socket
    assert counted.ledger is not None
    done = await one.store.change_seats(code, rooms.start_seats, host)
    assert reads == []
    assert done is not None and done[0]["room"]["status"] == "active"
    seats = await _seats(one, code)
    # The start saw the guest's socket as the count left it: only the host is absent.
    assert seats[0].absent_since is not None and seats[1].absent_since is None


async def test_a_socket_counted_on_another_process_is_seen_by_the_start(
        halls: tuple[Hall, Hall]) -> None:
    one, two = halls
    host, guest = await _players(one, "b", 2)
    code = await _room(one, host)
    await one.store.change_seats(code, rooms.join_seats, guest, None)
    reads = _reads(one)
    # The guest's socket opens on the other process: `one`'s copy has the seat as it was.
    assert (await two.store.seat_connected(code, 1, guest.id)).ledger is not None
    done = await one.store.change_seats(code, rooms.start_seats, host)
    assert reads == [code]  # the guard refused the stale copy once, then the room was read
    assert done is not None
    seats = await _seats(one, code)
    assert seats[1].connections == 1
    assert seats[0].absent_since is not None and seats[1].absent_since is None
    assert done[0]["room"]["seats"][1]["connected"] is True


async def test_a_seat_taken_on_another_process_is_not_given_twice(
        halls: tuple[Hall, Hall]) -> None:
    one, two = halls
    host, first, second = await _players(one, "c", 3)
    code = await _room(one, host)
    await two.store.change_seats(code, rooms.join_seats, first, None)  # `one` still holds it empty
    with pytest.raises(ApiError) as refused:
        await one.store.change_seats(code, rooms.join_seats, second, None)
    assert refused.value.code == "room_full"
    assert [s.player_id for s in await _seats(one, code)] == [host.id, first.id]


async def test_a_start_on_another_process_turns_a_held_join_away(
        halls: tuple[Hall, Hall]) -> None:
    one, two = halls
    host, guest, late = await _players(one, "d", 3)
    code = await _room(one, host, seats=3)
    await one.store.change_seats(code, rooms.join_seats, guest, None)
    await two.store.change_seats(code, rooms.bot_seats, host, 2)
    await two.store.change_seats(code, rooms.start_seats, host)
    with pytest.raises(ApiError) as refused:  # `one` still holds the room in the lobby
        await one.store.change_seats(code, rooms.join_seats, late, None)
    assert refused.value.code == "room_started"


async def test_a_socket_admitted_from_memory_finds_its_seat_and_refuses_strangers(
        halls: tuple[Hall, Hall]) -> None:
    one, _ = halls
    host, guest = await _players(one, "e", 2)
    code = await _room(one, host)
    await one.store.change_seats(code, rooms.join_seats, guest, None)  # held from here on
    assert one.store.cache.get(code) is not None
    found = await one.store.admit(code, guest.token_hash)
    assert (found.id, found.seat) == (guest.id, 1)
    stranger = await one.store.admit(code, "no-such-token")
    assert stranger is not None and stranger.id is None
    assert await one.store.admit("ZZZZZZ", guest.token_hash) is None
