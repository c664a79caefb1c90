"""A player found by their bearer token, on either database. What a token proves (hashing,
expiry, a signed-out device) is the guard's (`app.guard.auth`); this reads the rows.

A token belongs to one of the player's devices (`devices`): the Player read carries that
device's id, token hash and renewal time, and whether it was signed out (`revoked_at`)."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.guard.auth import check_found, hash_token
from app.store.models import Device, Player, utcnow

_PLAYERS, _DEVICES = Player.__table__, Device.__table__
_BY_TOKEN = ("SELECT p.id, p.name, p.created_at, d.id AS device_id, d.token_hash, "
             "d.renewed_at AS token_renewed_at, d.revoked_at "
             "FROM devices d JOIN players p ON p.id = d.player_id WHERE d.token_hash = $1")
_BY_TOKEN_CORE = select(
    _PLAYERS.c.id, _PLAYERS.c.name, _PLAYERS.c.created_at, _DEVICES.c.id.label("device_id"),
    _DEVICES.c.token_hash, _DEVICES.c.renewed_at.label("token_renewed_at"),
    _DEVICES.c.revoked_at).select_from(
        _DEVICES.join(_PLAYERS, _PLAYERS.c.id == _DEVICES.c.player_id))


def caller(row: Any) -> Player:
    """A detached Player from a token's row (`_BY_TOKEN`), with its device's fields."""
    return Player(**dict(row))


async def player_for_token(reader: AsyncEngine, token: str | None,
                           ttl: timedelta | None) -> Player | None:
    """The token's player, read on its own autocommitted connection (`reader`), outside the
    request's session if it has one; `ttl` (None: tokens never expire) refuses tokens not
    renewed since. The Player is detached, as `player_from_pool`'s: callers read it."""
    if not token:
        return None
    async with reader.connect() as conn:
        row = (await conn.execute(_BY_TOKEN_CORE.where(
            _DEVICES.c.token_hash == hash_token(token)))).first()
    return check_found(None if row is None else caller(row._mapping), ttl)


async def player_from_pool(pool: Any, token: str | None, ttl: timedelta | None) -> Player | None:
    """`player_for_token` as one prepared statement on Postgres (every REST call of a player
    starts here; through a session it cost a millisecond of CPU more). The Player is
    detached: callers read it, and write players only by statements of their own."""
    if not token:
        return None
    row = await pool.fetchrow(_BY_TOKEN, hash_token(token))
    return check_found(None if row is None else caller(row.items()), ttl)


def new_player(name: str, token_hash: str, device_label: str | None) -> Player:
    """A player made now and their first device (its id; renewed as made), not yet stored."""
    now = utcnow()
    return Player(id=secrets.token_hex(8), name=name, token_hash=token_hash, created_at=now,
                  token_renewed_at=now, device_id=secrets.token_hex(8),
                  device_label=device_label)


async def insert_player(conn: AsyncConnection, player: Player) -> None:
    """The player's row and their first device's, on one connection (SQLite's store)."""
    await conn.execute(insert(_PLAYERS).values(id=player.id, name=player.name,
                                               created_at=player.created_at))
    await conn.execute(insert(_DEVICES).values(
        id=player.device_id, player_id=player.id, token_hash=player.token_hash,
        label=player.device_label, created_at=player.created_at,
        renewed_at=player.token_renewed_at, last_seen=player.created_at))
