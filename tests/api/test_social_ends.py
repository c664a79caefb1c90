"""The move that ends a game rates it, and no other move does anything more (issue 37), on
both databases; and two processes ending two games with a player in common at the same moment
rate them one after the other, as the rebuild replays them."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from app.hall import Hall
from app.play.moves import Mover, submit_move
from app.social.ends import Ends
from app.social.rebuild import replay
from app.store import snapshots
from app.store.base import EndSeat, Placing
from app.store.models import Player, Rating, Result, Room
from app.store.orm import create_room, join, start
from games import REGISTRY
from games.protocol import match_rng
from tests.api.inprocess import started_room

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
