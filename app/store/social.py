"""The storage of app/social/ (ratings' results, profiles, friends, invitations, series):
`SocialSql`, one SQLAlchemy implementation for both databases (none of it is on the move path;
the results of a game are written by `app.store.results` in the move that ends it).

It satisfies `app.social.store.SocialStore` by its shape: app/store imports nothing from
app/social.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, exists, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from app.store.db import transaction
from app.store.models import (
    ChatMessage,
    Friend,
    Handover,
    Invite,
    MoveRow,
    Player,
    Rating,
    Result,
    Room,
    Seat,
    utcnow,
)

LIVE = ("lobby", "active")  # a player seated in such a room with a socket open is online
SERIES_LONGEST = 200  # rooms walked back along a chain of rematches


class SocialSql:
    def __init__(self, engine: AsyncEngine, sessions: async_sessionmaker) -> None:
        self.engine, self.sessions = engine, sessions

    async def _all(self, query: Any) -> list[Any]:
        async with self.engine.connect() as conn:
            return list((await conn.execute(query)).all())

    # -- players and results ----------------------------------------------------------------

    async def names(self, ids: Sequence[str]) -> dict[str, str]:
        rows = await self._all(select(Player.id, Player.name).where(Player.id.in_(ids)))
        return {r.id: r.name for r in rows}

    async def results_of(self, player_id: str) -> list[Any]:
        """Every result of the player, oldest first."""
        return await self._all(select(Result).where(Result.player_id == player_id)
                               .order_by(Result.id))

    async def room_results(self, code: str) -> list[Any]:
        """A rated game's results, by seat."""
        return await self._all(select(Result).where(Result.room_code == code)
                               .order_by(Result.seat))

    async def ratings(self, game: str, raters: Sequence[str]) -> dict[str, tuple[float, float]]:
        rows = await self._all(select(Rating).where(Rating.game == game,
                                                    Rating.rater.in_(raters)))
        return {r.rater: (r.mu, r.sigma) for r in rows}

    async def head_to_head(self, a: str, b: str) -> list[tuple[str, str, int, int]]:
        """(room, game, a's rank, b's rank) for every rated game both played, oldest first."""
        other = Result.__table__.alias("other")
        mine = Result.__table__
        return [tuple(r) for r in await self._all(
            select(mine.c.room_code, mine.c.game, mine.c.rank, other.c.rank)
            .join(other, other.c.room_code == mine.c.room_code)
            .where(mine.c.player_id == a, other.c.player_id == b).order_by(mine.c.id))]

    async def shared_room(self, a: str, b: str) -> bool:
        """Whether the two ever sat in one room (a room still kept, or a rated game)."""
        other_seat, other_result = Seat.__table__.alias("o"), Result.__table__.alias("r")
        seat, result = Seat.__table__, Result.__table__
        query = select(or_(
            exists().where(seat.c.player_id == a, other_seat.c.player_id == b,
                           other_seat.c.room_code == seat.c.room_code),
            exists().where(result.c.player_id == a, other_result.c.player_id == b,
                           other_result.c.room_code == result.c.room_code)))
        async with self.engine.connect() as conn:
            return bool(await conn.scalar(query))

    async def played_with(self, player_id: str) -> list[tuple[str, str]]:
        """(id, name) of everyone who sat in a room with the player, by name."""
        seat, other = Seat.__table__, Seat.__table__.alias("o")
        result, other_result = Result.__table__, Result.__table__.alias("r")
        ids = select(other.c.player_id.label("id")).join(
            seat, seat.c.room_code == other.c.room_code).where(
            seat.c.player_id == player_id, other.c.player_id.is_not(None),
            other.c.player_id != player_id).union(
            select(other_result.c.player_id).join(
                result, result.c.room_code == other_result.c.room_code).where(
                result.c.player_id == player_id, other_result.c.player_id.is_not(None),
                other_result.c.player_id != player_id)).subquery()
        return [tuple(r) for r in await self._all(
            select(Player.id, Player.name).where(Player.id.in_(select(ids.c.id)))
            .order_by(Player.name, Player.id))]

    # -- friends and invitations ---------------------------------------------------------------

    async def friends(self, player_id: str) -> list[tuple[str, str, bool]]:
        """(id, name, online) of the player's friends, by name."""
        online = exists().where(Seat.player_id == Friend.friend_id, Seat.connections > 0,
                                Room.code == Seat.room_code, Room.status.in_(LIVE))
        return [tuple(r) for r in await self._all(
            select(Player.id, Player.name, online).join(Friend, Friend.friend_id == Player.id)
            .where(Friend.player_id == player_id).order_by(Player.name, Player.id))]

    async def is_friend(self, player_id: str, friend_id: str) -> bool:
        async with self.engine.connect() as conn:
            return await conn.scalar(select(Friend.at).where(
                Friend.player_id == player_id, Friend.friend_id == friend_id)) is not None

    async def add_friend(self, player_id: str, friend_id: str) -> bool:
        """False: no such player. Adding a friend twice is no error."""
        async with self.sessions() as session, transaction(session):
            if await session.get(Player, friend_id) is None:
                return False
            if await session.get(Friend, (player_id, friend_id)) is None:
                session.add(Friend(player_id=player_id, friend_id=friend_id, at=utcnow()))
        return True

    async def remove_friend(self, player_id: str, friend_id: str) -> bool:
        async with self.sessions() as session, transaction(session):
            gone = await session.execute(delete(Friend).where(
                Friend.player_id == player_id, Friend.friend_id == friend_id))
        return bool(gone.rowcount)

    async def invite(self, to_id: str, from_id: str, code: str) -> bool:
        """False: no such player."""
        try:
            async with self.sessions() as session, transaction(session):
                session.add(Invite(to_id=to_id, from_id=from_id, room_code=code, at=utcnow()))
        except IntegrityError:
            return False
        return True

    async def invites(self, player_id: str) -> list[Any]:
        """The player's invitations to rooms still open, newest first."""
        return await self._all(
            select(Invite.id, Invite.room_code, Invite.at, Player.id.label("from_id"),
                   Player.name.label("from_name"), Room.game)
            .join(Player, Player.id == Invite.from_id).join(Room, Room.code == Invite.room_code)
            .where(Invite.to_id == player_id, Room.status.in_(LIVE))
            .order_by(Invite.id.desc()).limit(20))

    # -- series ------------------------------------------------------------------------------

    async def series(self, code: str) -> list[Any]:
        """The results of every rated room in the chain of rematches that leads to `code`
        (`rooms.next_room`), and the room itself."""
        chain, at = [code], code
        async with self.engine.connect() as conn:
            while len(chain) < SERIES_LONGEST:
                at = await conn.scalar(select(Room.code).where(Room.next_room == at))
                if at is None or at in chain:
                    break
                chain.append(at)
            return list((await conn.execute(select(Result.room_code, Result.seat,
                                                   Result.player_id, Result.rater, Result.won)
                                            .where(Result.room_code.in_(chain))
                                            .order_by(Result.id))).all())

    # -- the rebuild and the admin -------------------------------------------------------------

    async def every_result(self) -> list[Any]:
        """Every result, in the order they were rated."""
        return await self._all(select(Result).order_by(Result.id))

    async def rewrite(self, ratings: dict[tuple[str, str], tuple[float, float]],
                      results: dict[int, tuple[float, float, float, float]]) -> None:
        """Replace every rating, and the before/after of each result (by id), at once."""
        async with self.sessions() as session, transaction(session):
            await session.execute(delete(Rating))
            session.add_all(Rating(rater=rater, game=game, mu=mu, sigma=sigma)
                            for (rater, game), (mu, sigma) in ratings.items())
            for rid, (mu0, s0, mu1, s1) in results.items():
                await session.execute(update(Result).where(Result.id == rid).values(
                    mu_before=mu0, sigma_before=s0, mu_after=mu1, sigma_after=s1))

    async def anonymise(self, player_id: str, name: str) -> bool:
        """The player's name replaced wherever it is kept: the player, their chat lines and
        the `by` of the moves of their rooms (a replay names who moved); results stay."""
        async with self.sessions() as session, transaction(session):
            old = await session.scalar(select(Player.name).where(Player.id == player_id)
                                       .with_for_update())
            if old is None:
                return False
            await session.execute(update(Player).where(Player.id == player_id)
                                  .values(name=name))
            await session.execute(update(ChatMessage).where(ChatMessage.player_id == player_id)
                                  .values(name=name))
            rooms = select(Seat.room_code).where(or_(Seat.player_id == player_id,
                                                     Seat.replaced_id == player_id)).union(
                select(Handover.room_code).where(Handover.player_id == player_id),
                select(Result.room_code).where(Result.player_id == player_id))
            renamed = {old: name, f"Bot for {old}": f"Bot for {name}"}
            for move in await session.scalars(select(MoveRow).where(
                    MoveRow.room_code.in_(rooms), MoveRow.by.is_not(None))):
                if move.by.get("name") in renamed:
                    move.by = {**move.by, "name": renamed[move.by["name"]]}
        return True

    async def close(self) -> None:
        """For a command run on its own (the rebuild): the engine's connections closed."""
        await self.engine.dispose()
