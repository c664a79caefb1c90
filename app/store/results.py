"""A game's results and ratings, written in the transaction that ends it (both databases).

Only the move that ends a game comes here: `SqliteStore.commit_move` and
`RoomCache.write` (Postgres) take this path when the judged status is "finished", so every
other move does no extra work. What a seat's result is and how ratings move is the caller's
`GameEnd` (`app.social.ends.Ends`, handed to the store by the Hall): this module reads the
seats and the raters' ratings, asks it, and writes `results` and `ratings`.

Raters are locked (Postgres: `FOR UPDATE`, in a sorted order) before they are read, so two
games ending at once with a rater in common are rated one after the other, and `results.id`
then orders them as they were rated: the rebuild replays them in that order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import asyncpg
from sqlalchemy import insert, select
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from app.store.base import EndSeat, GameEnd, Placing
from app.store.models import Handover, Rating, Result, Seat

SEATS, HANDOVERS = Seat.__table__, Handover.__table__
RATINGS, RESULTS = Rating.__table__, Result.__table__


def _rows(code: str, game: str, placings: Sequence[Placing],
          priors: Mapping[str, tuple[float, float]],
          after: Mapping[str, tuple[float, float]], now: datetime) -> list[dict[str, Any]]:
    return [dict(room_code=code, game=game, seat=p.seat, rater=p.rater, player_id=p.player_id,
                 rank=p.rank, won=p.won, standin=p.standin, mu_before=priors[p.rater][0],
                 sigma_before=priors[p.rater][1], mu_after=after[p.rater][0],
                 sigma_after=after[p.rater][1], at=now) for p in placings]


async def rate_on_sqlite(conn: AsyncConnection, ends: GameEnd, code: str, game: str,
                         state: Any, now: datetime) -> None:
    """In the SQLite move's own transaction (one writer: nothing to lock)."""
    handed: dict[int, str] = {}
    for seat, player in await conn.execute(
            select(HANDOVERS.c.seat, HANDOVERS.c.player_id)
            .where(HANDOVERS.c.room_code == code).order_by(HANDOVERS.c.id)):
        handed.setdefault(seat, player)
    seats = [EndSeat(r.seat, r.player_id, r.bot, r.replaced_id, handed.get(r.seat))
             for r in await conn.execute(select(SEATS.c.seat, SEATS.c.player_id, SEATS.c.bot,
                                                SEATS.c.replaced_id)
                                         .where(SEATS.c.room_code == code)
                                         .order_by(SEATS.c.seat))]
    placings = ends.placings(game, state, seats)
    if not placings:
        return
    raters = sorted({p.rater for p in placings})
    priors = dict.fromkeys(raters, ends.start) | {
        r.rater: (r.mu, r.sigma) for r in await conn.execute(select(RATINGS).where(
            RATINGS.c.game == game, RATINGS.c.rater.in_(raters)))}
    after = ends.rate([(p.rater, p.rank) for p in placings], priors)
    upsert = sqlite_insert(RATINGS)
    await conn.execute(upsert.on_conflict_do_update(
        index_elements=[RATINGS.c.rater, RATINGS.c.game],
        set_={"mu": upsert.excluded.mu, "sigma": upsert.excluded.sigma}),
        [dict(rater=r, game=game, mu=after[r][0], sigma=after[r][1]) for r in raters])
    await conn.execute(insert(RESULTS), _rows(code, game, placings, priors, after, now))


# The seats as the game ends, for the move's own statement (`RoomCache`'s `_WRITE_LAST`):
# `{code}` is the statement's expression for the room code.
PG_END_SEATS = """(SELECT json_agg(json_build_array(s.seat, s.player_id, s.bot, s.replaced_id,
    (SELECT h.player_id FROM handovers h WHERE h.room_code = s.room_code AND h.seat = s.seat
     ORDER BY h.id LIMIT 1)) ORDER BY s.seat)
  FROM seats s WHERE s.room_code = {code})"""
# The raters' ratings, made if new and locked (the upsert locks the row it inserts or finds, in
# the raters' sorted order, and reads its latest committed version): one round trip.
_PG_PRIORS = """
INSERT INTO ratings (rater, game, mu, sigma)
SELECT r, $2, $3, $4 FROM unnest($1::text[]) AS r ORDER BY r
ON CONFLICT (rater, game) DO UPDATE SET mu = ratings.mu
RETURNING rater, mu, sigma"""
# The ratings after the game and its results, one statement.
_PG_RATE = """
WITH rated AS (
  UPDATE ratings SET mu = u.mu, sigma = u.sigma
  FROM unnest($1::text[], $3::float8[], $4::float8[]) AS u(rater, mu, sigma)
  WHERE ratings.game = $2 AND ratings.rater = u.rater
)
INSERT INTO results (room_code, game, seat, rater, player_id, rank, won, standin, mu_before,
                     sigma_before, mu_after, sigma_after, at)
SELECT $5, $2, r.seat, r.rater, r.player_id, r.rank, r.won, r.standin, r.mu_before,
       r.sigma_before, r.mu_after, r.sigma_after, $6
FROM unnest($7::int[], $8::text[], $9::text[], $10::int[], $11::bool[], $12::bool[],
            $13::float8[], $14::float8[], $15::float8[], $16::float8[]) WITH ORDINALITY
  AS r(seat, rater, player_id, rank, won, standin, mu_before, sigma_before, mu_after, sigma_after,
       n)
ORDER BY r.n"""
_RESULT_COLUMNS = ("seat", "rater", "player_id", "rank", "won", "standin", "mu_before",
                   "sigma_before", "mu_after", "sigma_after")


async def rate_on_postgres(conn: asyncpg.Connection, ends: GameEnd, code: str, game: str,
                           state: Any, seats: Sequence[EndSeat], now: datetime) -> None:
    """In the transaction of the Postgres move that ended the game (the room row locked), with
    the seats that move's statement read (`PG_END_SEATS`): two more statements."""
    placings = ends.placings(game, state, seats)
    if not placings:
        return
    raters = sorted({p.rater for p in placings})
    priors = {r["rater"]: (r["mu"], r["sigma"])
              for r in await conn.fetch(_PG_PRIORS, raters, game, *ends.start)}
    after = ends.rate([(p.rater, p.rank) for p in placings], priors)
    rows = _rows(code, game, placings, priors, after, now)
    await conn.execute(_PG_RATE, raters, game, [after[r][0] for r in raters],
                       [after[r][1] for r in raters], code, now,
                       *([row[k] for row in rows] for k in _RESULT_COLUMNS))
