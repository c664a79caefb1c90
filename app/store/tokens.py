"""A player found by their bearer token, on either database. What a token proves (hashing,
expiry) is the guard's (`app.guard.auth`); this reads the row."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.guard.auth import check_found, hash_token
from app.store.models import Player

_PLAYERS = Player.__table__
_BY_TOKEN = ("SELECT id, name, token_hash, created_at, token_renewed_at FROM players "
             "WHERE token_hash = $1")


async def player_for_token(reader: AsyncEngine, token: str | None,
                           ttl: timedelta | None) -> Player | None:
    """The token's player, read on its own autocommitted connection (`reader`), outside the
    request's session if it has one; `ttl` (None: tokens never expire) refuses tokens not
    renewed since. The Player is detached, as `player_from_pool`'s: callers read it."""
    if not token:
        return None
    async with reader.connect() as conn:
        row = (await conn.execute(select(_PLAYERS).where(
            _PLAYERS.c.token_hash == hash_token(token)))).first()
    return check_found(None if row is None else Player(**row._mapping), ttl)


async def player_from_pool(pool: Any, token: str | None, ttl: timedelta | None) -> Player | None:
    """`player_for_token` as one prepared statement on Postgres (every REST call of a player
    starts here; through a session it cost a millisecond of CPU more). The Player is
    detached: callers read it, and write players only by statements of their own."""
    if not token:
        return None
    row = await pool.fetchrow(_BY_TOKEN, hash_token(token))
    return check_found(None if row is None else Player(**dict(row.items())), ttl)
