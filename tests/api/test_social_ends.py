"""The move that ends a game rates it, and no other move does anything more (issue 37), on
both databases; and two processes ending two games with a player in common at the same moment
rate them one after the other, as the rebuild replays them. On Postgres that move is written in
two round trips, and a rating that changed between them sends it to the locked path."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import pytest
from sqlalchemy import select

from app.core.pace import LIVE, TURN_BASED
from app.hall import Hall
from app.play.moves import Mover, submit_move
from app.social.ends import Ends
from app.social.rebuild import replay
from app.store import snapshots
from app.store.base import EndSeat, Placing
from app.store.models import (
    Handover,
    NotifySettings,
    Outbox,
    Player,
    Rating,
    Result,
    Room,
    utcnow,
)
from app.store.orm import create_room, join, seats_of, start
from app.store.postgres import roomcache
from app.store.postgres.connections import Connections
from app.store.results import PG_END_READ, rate_ahead
from games import REGISTRY
from games.protocol import match_rng
from tests.api.inprocess import hall_on, started_room

LUCENT = REGISTRY["gem-pyramid"]


class CountingEnds(Ends):
    """`Ends`, counting how often the store asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def placings(self, game: str, state: Any, seats: Sequence[EndSeat]) -> list[Placing]:
        self.asked.append(game)
        return super().placings(game, state, seats)


async def _state(hall: Hall, code: str) -> tuple[int, Any]:
    async with hall.store.sessions() as session:
        room = await session.get(Room, code)
        assert room is not None
        await snapshots.resolve(session, [room])
        return room.version, room.state


async def _play_until_last(hall: Hall, code: str, ids: list[str]) -> tuple[str, int, Any]:
    """First legal moves until the next one would end the game; that move, unplayed:
    (player id, version seen, move)."""
    for n in range(500):
        version, state = await _state(hall, code)
        seat = sorted(LUCENT.to_act(state))[0]
        move = LUCENT.legal_moves(state, seat)[0]
        after, _ = LUCENT.apply(state, seat, move, match_rng("x", 1))
        if LUCENT.outcome(after) is not None:
            return ids[seat], version, move
        await submit_move(hall, code, Mover(player_id=ids[seat]), f"m{n}", version, move)
    raise AssertionError("the game did not end")


async def test_only_the_move_that_ends_the_game_is_rated(hall: Hall) -> None:
    ends = CountingEnds()
    hall.store.game_end = ends
    code, ids = await started_room(hall, "gem-pyramid", "e")
    player, version, move = await _play_until_last(hall, code, ids)
    assert ends.asked == [], "a move that does not end the game asked nothing"
    await submit_move(hall, code, Mover(player_id=player), "last", version, move)
    assert ends.asked == ["gem-pyramid"]
    async with hall.store.sessions() as session:
        rows = (await session.scalars(select(Result))).all()
    assert sorted(r.rater for r in rows) == sorted(ids)
    assert [r.room_code for r in rows] == [code, code]


async def test_two_processes_end_two_games_with_a_player_in_common(
        halls: tuple[Hall, Hall]) -> None:
    first = halls[0]
    async with first.store.sessions() as session, session.begin():
        people = [Player(id=f"c{n}", name=f"C{n}", token_hash=f"c{n}") for n in range(3)]
        session.add_all(people)
        rooms = []
        for guest in people[1:]:  # C0 plays C1 in one room and C2 in the other
            room = await create_room(session, people[0], "gem-pyramid", None, 2, True)
            await join(session, room, guest, None)
            await start(session, room, people[0])
            rooms.append((room.code, [people[0].id, guest.id]))
    lasts = [await _play_until_last(first, code, ids) for code, ids in rooms]
    await asyncio.gather(*(
        submit_move(hall, code, Mover(player_id=player), "last", version, move)
        for hall, (code, _), (player, version, move) in zip(halls, rooms, lasts, strict=True)))
    results = await first.social.every_result()
    assert {r.room_code for r in results} == {code for code, _ in rooms} and len(results) == 4
    # One game was rated after the other: C0's second result starts where the first ended.
    mine = [r for r in results if r.player_id == "c0"]
    assert (mine[1].mu_before, mine[1].sigma_before) == (mine[0].mu_after, mine[0].sigma_after)
    ratings, written = replay(results)
    async with first.store.sessions() as session:
        stored = {(r.rater, r.game): (r.mu, r.sigma)
                  for r in (await session.scalars(select(Rating))).all()}
    assert stored == ratings
    assert written == {r.id: (r.mu_before, r.sigma_before, r.mu_after, r.sigma_after)
                       for r in results}


async def _rooms_with_a_player_in_common(hall: Hall, guests: int) -> list[tuple[str, list[str]]]:
    """Rooms of Lucent where player C0 plays each of C1..C<guests>, started (made through the
    ORM, as a test may: a player sits in one room at a time through the API)."""
    async with hall.store.sessions() as session, session.begin():
        people = [Player(id=f"c{n}", name=f"C{n}", token_hash=f"c{n}") for n in range(guests + 1)]
        session.add_all(people)
        rooms = []
        for guest in people[1:]:
            room = await create_room(session, people[0], "gem-pyramid", None, 2, True)
            await join(session, room, guest, None)
            await start(session, room, people[0])
            rooms.append((room.code, [people[0].id, guest.id]))
    return rooms


async def _stored_ratings(hall: Hall) -> dict[tuple[str, str], tuple[float, float]]:
    async with hall.store.sessions() as session:
        return {(r.rater, r.game): (r.mu, r.sigma)
                for r in (await session.scalars(select(Rating))).all()}


def _introspection(query: str) -> bool:
    """asyncpg's own look-up of a type it has no codec for (once per connection and type)."""
    return "typeinfo_tree" in query or "'jit'" in query


@asynccontextmanager
async def _sent(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[list[str]]:
    """Every statement the hot path's connections send while inside (BEGIN and COMMIT too)."""
    sent: list[str] = []

    def log(record: Any) -> None:
        sent.append(record.query)

    lend = Connections.acquire

    @asynccontextmanager
    async def logged(self: Connections) -> AsyncIterator[asyncpg.Connection]:
        async with lend(self) as conn:
            with conn.query_logger(log):
                yield conn

    monkeypatch.setattr(Connections, "acquire", logged)
    yield sent
    await asyncio.sleep(0.05)  # asyncpg calls its loggers soon after, not at once
    monkeypatch.setattr(Connections, "acquire", lend)


async def _turn_based_room(hall: Hall) -> tuple[str, list[str]]:
    """A started turn-based room of Lucent whose two players have a webhook: its last move
    makes "end" notices due, so it is written with its outbox rows (`_WRITE_TOLD_RATED`)."""
    async with hall.store.sessions() as session, session.begin():
        players = [Player(id=f"t{n}", name=f"T{n}", token_hash=f"t{n}") for n in (0, 1)]
        session.add_all(players)
        await session.flush()
        session.add_all([NotifySettings(player_id=p.id, webhook="http://127.0.0.1:9/hook")
                         for p in players])
        room = await create_room(session, players[0], "gem-pyramid", None, 2, True,
                                 turn_clock=3600, pace=TURN_BASED)
        await join(session, room, players[1], None)
        await start(session, room, players[0])
        return room.code, [p.id for p in players]


def _spy_on_the_locked_path(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The codes of the rooms whose last move takes the locked path, as they take it."""
    locked: list[str] = []
    write_last = roomcache.RoomCache._write_last

    async def spy(self: roomcache.RoomCache, args: tuple[Any, ...], *rest: Any) -> int | None:
        locked.append(args[0])
        return await write_last(self, args, *rest)

    monkeypatch.setattr(roomcache.RoomCache, "_write_last", spy)
    return locked


@pytest.mark.parametrize("pace", [LIVE, TURN_BASED])
async def test_the_last_move_and_its_ratings_are_two_round_trips_on_postgres(
        monkeypatch: pytest.MonkeyPatch, pace: str) -> None:
    """The read, then the move with its results and ratings (and, turn-based, its notices) in
    one statement: no transaction, and the locked path is not taken."""
    locked = _spy_on_the_locked_path(monkeypatch)
    async with hall_on("postgres") as hall:
        code, ids = await (started_room(hall, "gem-pyramid", "t") if pace == LIVE
                           else _turn_based_room(hall))
        player, version, move = await _play_until_last(hall, code, ids)
        async with _sent(monkeypatch) as sent:
            await submit_move(hall, code, Mover(player_id=player), "last", version, move)
        results = await hall.social.every_result()
        stored = await _stored_ratings(hall)
        async with hall.store.sessions() as session:
            told = (await session.scalars(select(Outbox.kind).where(
                Outbox.room_code == code, Outbox.version == version + 1))).all()
    written = roomcache._WRITE_RATED if pace == LIVE else roomcache._WRITE_TOLD_RATED
    assert [q for q in sent if not _introspection(q)] == [PG_END_READ, written]
    assert locked == []
    assert told == ([] if pace == LIVE else ["end", "end"])
    assert sorted(r.rater for r in results) == sorted(ids)
    ratings, befores_afters = replay(results)
    assert stored == ratings
    assert befores_afters == {r.id: (r.mu_before, r.sigma_before, r.mu_after, r.sigma_after)
                              for r in results}


@pytest.mark.parametrize("rated_before", [False, True], ids=["new-rating", "rating-updated"])
async def test_a_rating_changed_after_it_was_read_is_rated_again_on_the_locked_path(
        monkeypatch: pytest.MonkeyPatch, rated_before: bool) -> None:
    """Game A reads C0's rating; game B, with C0 too, ends and commits C0's new rating; then A
    is written: its compare-and-set fails, nothing of it is written, and the locked path rates
    it from B's rating. `rated_before`: C0 had a rating before both (the UPDATE's check), or
    had none (the INSERT's)."""
    async with hall_on("postgres") as hall:
        rooms = await _rooms_with_a_player_in_common(hall, 3 if rated_before else 2)
        if rated_before:  # C0 plays C3 first, so that C0 has a rating row
            code, ids = rooms.pop()
            player, version, move = await _play_until_last(hall, code, ids)
            await submit_move(hall, code, Mover(player_id=player), "last", version, move)
        (a, a_ids), (b, b_ids) = rooms
        a_last, b_last = (await _play_until_last(hall, a, a_ids),
                          await _play_until_last(hall, b, b_ids))
        fetchrow, locked = Connections.fetchrow, []
        write_last = roomcache.RoomCache._write_last

        async def between(self: Connections, query: str, *args: Any) -> Any:
            """A's read is done: B ends now, all of it."""
            row = await fetchrow(self, query, *args)
            if query == PG_END_READ and args[0] == a:
                player, version, move = b_last
                await submit_move(hall, b, Mover(player_id=player), "last", version, move)
            return row

        async def spy(self: roomcache.RoomCache, args: tuple[Any, ...], *rest: Any) -> int | None:
            locked.append(args[0])
            return await write_last(self, args, *rest)

        monkeypatch.setattr(Connections, "fetchrow", between)
        monkeypatch.setattr(roomcache.RoomCache, "_write_last", spy)
        player, version, move = a_last
        await submit_move(hall, a, Mover(player_id=player), "last", version, move)
        results = await hall.social.every_result()
        stored = await _stored_ratings(hall)
    by_room = {code: [r.id for r in results if r.room_code == code] for code in (a, b)}
    assert max(by_room[b]) < min(by_room[a]), "B was rated first, and its ids are first"
    mine = {r.room_code: r for r in results if r.player_id == "c0"}
    assert (mine[a].mu_before, mine[a].sigma_before) == (mine[b].mu_after, mine[b].sigma_after)
    assert len(results) == 2 * (len(rooms) + rated_before)
    ratings, written = replay(results)
    assert stored == ratings
    assert written == {r.id: (r.mu_before, r.sigma_before, r.mu_after, r.sigma_after)
                       for r in results}
    assert locked == [a], "B took the fast path, A the locked one"


def _finished(seats: int) -> Any:
    """A finished Lucent game of `seats` seats (first legal moves)."""
    state, version = LUCENT.setup(seats, LUCENT.Options(), match_rng("f", 0)), 0
    while LUCENT.outcome(state) is None:
        seat = sorted(LUCENT.to_act(state))[0]
        version += 1
        state, _ = LUCENT.apply(state, seat, LUCENT.legal_moves(state, seat)[0],
                                match_rng("f", version))
    return state


async def test_the_read_ahead_guesses_the_rater_of_every_kind_of_seat() -> None:
    """`PG_END_READ` reads the ratings of the raters `Ends.placings` names, whoever holds each
    seat at the end: a player throughout, a bot from the start, a bot for a player who left,
    a player back from a bot."""
    async with hall_on("postgres") as hall:
        async with hall.store.sessions() as session, session.begin():
            people = [Player(id=f"k{n}", name=f"K{n}", token_hash=f"k{n}") for n in range(4)]
            session.add_all(people)
            room = await create_room(session, people[0], "gem-pyramid", None, 4, True)
            code = room.code
            room.status = "active"
            seats = await seats_of(session, code)
            held = [("k0", None, None), (None, "hard", None), (None, "normal", "k2"),
                    ("k3", None, None)]
            for seat, (player, bot, replaced) in zip(seats, held, strict=True):
                seat.player_id, seat.bot, seat.replaced_id = player, bot, replaced
            session.add_all([Handover(room_code=code, version=3, seat=n, kind="bot",
                                      cause="left", player_id=f"k{n}") for n in (2, 3)])
            session.add_all([Rating(rater="k0", game="gem-pyramid", mu=30.0, sigma=5.0),
                             Rating(rater="bot:hard", game="gem-pyramid", mu=28.0, sigma=4.0),
                             Rating(rater="k1", game="gem-pyramid", mu=1.0, sigma=1.0)])
        row = await hall.store.cache.pool.fetchrow(PG_END_READ, code, Ends.bot_prefix)
    assert row is not None
    ends, state = Ends(), _finished(4)
    placed = ends.placings("gem-pyramid", state, [EndSeat(*s) for s in row["seats"]])
    assert sorted({p.rater for p in placed}) == row["raters"] == ["bot:hard", "k0", "k2", "k3"]
    assert (row["mus"], row["sigmas"]) == ([28.0, 30.0, None, None], [4.0, 5.0, None, None])
    assert rate_ahead(ends, code, "gem-pyramid", state, row, utcnow()) is not None


class RenamingEnds(Ends):
    """`Ends`, rating every seat under a name the read cannot guess."""

    def placings(self, game: str, state: Any, seats: Sequence[EndSeat]) -> list[Placing]:
        return [p._replace(rater=f"renamed:{p.rater}") for p in super().placings(game, state,
                                                                                   seats)]


async def test_a_rater_the_read_did_not_guess_is_rated_on_the_locked_path(
        monkeypatch: pytest.MonkeyPatch) -> None:
    locked = _spy_on_the_locked_path(monkeypatch)
    async with hall_on("postgres") as hall:
        hall.store.game_end = RenamingEnds()
        code, ids = await started_room(hall, "gem-pyramid", "u")
        player, version, move = await _play_until_last(hall, code, ids)
        await submit_move(hall, code, Mover(player_id=player), "last", version, move)
        results = await hall.social.every_result()
        stored = await _stored_ratings(hall)
    assert locked == [code]
    assert sorted(r.rater for r in results) == sorted(f"renamed:{i}" for i in ids)
    assert stored == replay(results)[0]
