"""A game's results and ratings, written in the transaction that ends it (both databases).

Only the move that ends a game comes here: `SqliteStore.commit_move` and
`RoomCache.write` (Postgres) take this path when the judged status is "finished", so every
other move does no extra work. What a seat's result is and how ratings move is the caller's
`GameEnd` (`app.social.ends.Ends`, handed to the store by the Hall): this module reads the
seats and the raters' ratings, asks it, and writes `results` and `ratings`.

Two games ending at once with a rater in common are rated one after the other, and
`results.id` orders them as they were rated: the rebuild replays them in that order. SQLite has
one writer. Postgres first rates the game ahead, from ratings read unlocked, and writes it in the
move's one statement only if they are still the ratings (`pg_rated`, two round trips); when
they are not, the locked path (`rate_on_postgres`) locks the raters before it reads them.
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


# A seat's first hand-over's player (None: it never changed hands); `s` is the seat row.
_HANDED_FROM = """(SELECT h.player_id FROM handovers h
     WHERE h.room_code = s.room_code AND h.seat = s.seat ORDER BY h.id LIMIT 1)"""
# The seats as the game ends (`EndSeat`s, as JSON), for the statements of the move that ends it
# (`RoomCache`): `{code}` is the statement's expression for the room code.
PG_END_SEATS = """(SELECT json_agg(json_build_array(s.seat, s.player_id, s.bot, s.replaced_id,
    """ + _HANDED_FROM + """) ORDER BY s.seat)
  FROM seats s WHERE s.room_code = {code})"""
# The raters' ratings, made if new and locked (the upsert locks the row it inserts or finds, in
# the raters' sorted order, and reads its latest committed version): one round trip.
_PG_PRIORS = """
INSERT INTO ratings (rater, game, mu, sigma)
SELECT r, $2, $3, $4 FROM unnest($1::text[]) AS r ORDER BY r
ON CONFLICT (rater, game) DO UPDATE SET mu = ratings.mu
RETURNING rater, mu, sigma"""
_RESULT_COLUMNS = ("seat", "rater", "player_id", "rank", "won", "standin", "mu_before",
                   "sigma_before", "mu_after", "sigma_after")
_RESULT_TYPES = ("int", "text", "text", "int", "bool", "bool", "float8", "float8", "float8",
                 "float8")
# One `results` row per placing, in the placings' order (the ids the rebuild replays by):
# `{code}`, `{game}`, `{at}` are the statement's expressions, `{arrays}` its ten arrays in
# `_RESULT_COLUMNS`' order, `{gate}` a relation written before them ("r, ": only if the move is).
_RESULTS = """INSERT INTO results (room_code, game, seat, rater, player_id, rank, won, standin,
                     mu_before, sigma_before, mu_after, sigma_after, at)
SELECT {code}, {game}, x.seat, x.rater, x.player_id, x.rank, x.won, x.standin, x.mu_before,
       x.sigma_before, x.mu_after, x.sigma_after, {at}
FROM {gate}unnest({arrays}) WITH ORDINALITY
  AS x(seat, rater, player_id, rank, won, standin, mu_before, sigma_before, mu_after, sigma_after,
       n)
ORDER BY x.n"""


def _arrays(first: int) -> str:
    """The ten result arrays as parameters numbered from `first`."""
    return ", ".join(f"${first + n}::{kind}[]" for n, kind in enumerate(_RESULT_TYPES))


# The ratings after the game and its results, one statement.
_PG_RATE = """
WITH rated AS (
  UPDATE ratings SET mu = u.mu, sigma = u.sigma
  FROM unnest($1::text[], $3::float8[], $4::float8[]) AS u(rater, mu, sigma)
  WHERE ratings.game = $2 AND ratings.rater = u.rater
)
""" + _RESULTS.format(code="$5", game="$2", at="$6", gate="", arrays=_arrays(7))


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
    await conn.execute(_PG_RATE, raters, game, [after[r][0] for r in raters],
                       [after[r][1] for r in raters], code, now,
                       *_columns(code, game, placings, priors, after, now))


def _columns(code: str, game: str, placings: Sequence[Placing],
             priors: Mapping[str, tuple[float, float]],
             after: Mapping[str, tuple[float, float]], now: datetime) -> list[list[Any]]:
    """The results rows as the ten arrays of `_RESULTS`."""
    rows = _rows(code, game, placings, priors, after, now)
    return [[row[k] for row in rows] for k in _RESULT_COLUMNS]


# -- Postgres, the path taken first: rated ahead, written in one statement ---------------------
# The move that ends a game, its results and its ratings in two round trips and no transaction
# of its own (the locked path above is four round trips and a commit):
#
# 1. `PG_END_READ`, unlocked: the room's xmin, its seats as the game ends, and the rating (none:
#    no row yet) of each seat's likely rater, the first there is of its player, the player it
#    replaced, its first hand-over's player, its bot's pseudo-player (`bot_prefix` + level). The
#    placings and the ratings after the game are then computed here (`rate_ahead`); a rater the
#    read did not guess sends the move to the locked path.
# 2. The move's own autocommitted statement (`RoomCache`) with `pg_rated`'s CTEs: the ratings
#    after the game, each written only where its row still holds exactly the prior read (an
#    INSERT … ON CONFLICT DO UPDATE … WHERE (mu, sigma) = prior: a row read as absent is
#    inserted, and one that another game inserted since compares with no prior and is not
#    written), with the results, and only if the room row is as read (the move's xmin check,
#    which also covers the seats: a seat that changes hands mid-game writes the room row,
#    `app.core.absence.seat_handed`). If fewer ratings were written than there are raters,
#    the statement calls `stale_write` (migration 0024), whose error (`STALE`) undoes all of
#    it: the move is then written on the locked path, so a race costs one more try, never a
#    wrong rating.
#
# Why the compare-and-set is sound in READ COMMITTED: the upsert locks each rater's row (or
# waits for another's uncommitted insert of it) and evaluates its WHERE against the newest
# committed version of the row, not against its snapshot's. So if another game rated one of
# our raters after our read, committed or not, our statement waits for its rating, sees it,
# and the check fails. Otherwise our ratings are written under their row locks, and a game
# that rates one of our raters next reads it after our commit (the locked path's upsert waits
# for our lock; a read made before it fails its own check). Each rater's games are thus rated
# one after the other, each from the last one's ratings; a statement draws its results' ids
# before it commits and the next game after, so `results.id` orders them as they were rated
# (`app.social.rebuild`). The rows are locked in the raters' order, as the locked path's
# `_PG_PRIORS` locks them, so two games ending at once never deadlock over them. (A rating
# row is deleted only by the rebuild, which writes every rated rater's row again at once.)
STALE = "ZS001"  # the SQLSTATE of `stale_write` (migration 0024)

# $1 room code, $2 `GameEnd.bot_prefix`. The raters are sorted (their ratings in their order;
# a rating NULL: no row).
PG_END_READ = """
SELECT r.xmin::text::bigint AS xmin, """ + PG_END_SEATS.format(code="r.code") + """ AS seats,
       p.raters, p.mus, p.sigmas
FROM rooms r, LATERAL (
  SELECT array_agg(c.rater ORDER BY c.rater) AS raters, array_agg(g.mu ORDER BY c.rater) AS mus,
         array_agg(g.sigma ORDER BY c.rater) AS sigmas
  FROM (SELECT DISTINCT coalesce(s.player_id, s.replaced_id, """ + _HANDED_FROM + """,
                                 $2 || s.bot) AS rater
        FROM seats s WHERE s.room_code = r.code) c
    LEFT JOIN ratings g ON g.game = r.game AND g.rater = c.rater
  WHERE c.rater IS NOT NULL) p
WHERE r.code = $1"""

# `pg_rated`'s parameters, in order (then the ten result arrays).
_RATED_ARGS = ("game", "raters", "prior_mu", "prior_sigma", "mu", "sigma")
_PG_RATED = """rated AS (
  INSERT INTO ratings (rater, game, mu, sigma)
  SELECT u.rater, {game}::text, u.mu, u.sigma
  FROM r, unnest({raters}::text[], {mu}::float8[], {sigma}::float8[]) AS u(rater, mu, sigma)
  ORDER BY u.rater
  ON CONFLICT (rater, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma
  WHERE (ratings.mu, ratings.sigma) = (
    SELECT p.mu, p.sigma
    FROM unnest({raters}::text[], {prior_mu}::float8[], {prior_sigma}::float8[])
      AS p(rater, mu, sigma)
    WHERE p.rater = excluded.rater)
  RETURNING 1
), results_made AS (
{results}
), """
_PG_STALE = """(SELECT stale_write('a rating changed since it was read')
        WHERE (SELECT count(*) FROM rated) <> cardinality({raters}::text[]))"""


def pg_rated(code: str, at: str, first: int) -> tuple[str, str]:
    """For a move's statement whose room CTE is `r`: the CTEs that write the ratings and results
    (each followed by its comma) and the column that fails the statement if they are stale.
    `code`, `at`: the statement's expressions for the room code and the time; `first`: the
    number of the first of `rate_ahead`'s parameters."""
    names = {name: f"${first + n}" for n, name in enumerate(_RATED_ARGS)}
    results = _RESULTS.format(code=code, game=f"{names['game']}::text", at=at, gate="r, ",
                              arrays=_arrays(first + len(_RATED_ARGS)))
    return _PG_RATED.format(results=results, **names), _PG_STALE.format(**names)


def rate_ahead(ends: GameEnd, code: str, game: str, state: Any, read: asyncpg.Record,
               now: datetime) -> tuple[Any, ...] | None:
    """`pg_rated`'s parameters, from `PG_END_READ`'s row; None if a rater's rating was not read
    (`GameEnd.placings` named someone the read did not guess: the locked path rates it)."""
    seats = [EndSeat(*seat) for seat in read["seats"] or ()]
    placings = ends.placings(game, state, seats)
    raters = sorted({p.rater for p in placings})
    held = dict(zip(read["raters"] or (), zip(read["mus"] or (), read["sigmas"] or (),
                                              strict=True), strict=True))
    if not held.keys() >= set(raters):
        return None
    priors = {r: ends.start if held[r][0] is None else held[r] for r in raters}
    after = ends.rate([(p.rater, p.rank) for p in placings], priors) if placings else {}
    return (game, raters, [held[r][0] for r in raters],
            [held[r][1] for r in raters], [after[r][0] for r in raters],
            [after[r][1] for r in raters], *_columns(code, game, placings, priors, after, now))
