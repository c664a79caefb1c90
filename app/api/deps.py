"""Dependencies as `Annotated` aliases: the Hall, a session, the caller, the admin check."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Header, Request
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app.auth import bearer, check_admin, player_for_token, player_from_pool
from app.errors import ApiError
from app.hall import Hall
from app.models import Player


def hall_of(connection: HTTPConnection) -> Hall:
    return connection.app.state.hall


async def get_hall(request: Request) -> Hall:
    """Async, like every dependency here: FastAPI runs a plain `def` dependency in a worker
    thread, and that hand-off cost more than the whole lookup, on every request (issue 10)."""
    return hall_of(request)


HallDep = Annotated[Hall, Depends(get_hall)]


async def get_session(hall: HallDep) -> AsyncIterator[AsyncSession]:
    async with hall.sessions() as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session)]
AuthHeader = Annotated[str | None, Header(alias="Authorization")]


async def maybe_player(request: Request, authorization: AuthHeader = None) -> Player | None:
    """The caller, read outside any session: routes only read it, and a request that needs no
    session (a join or a start on Postgres) then opens none (issue 10)."""
    return await _caller(hall_of(request), authorization)


async def current_player(request: Request, authorization: AuthHeader = None) -> Player:
    """`maybe_player`, required. Neither depends on another dependency (the Hall comes from the
    request): FastAPI solves every level of dependencies anew on each request (issue 10)."""
    player = await _caller(hall_of(request), authorization)
    if player is None:
        raise ApiError(401, "no_token", "Create a player first and send its token as "
                       "'Authorization: Bearer <token>'.")
    return player


async def _caller(hall: Hall, authorization: str | None) -> Player | None:
    token, ttl = bearer(authorization), hall.settings.token_ttl
    if hall.cache is not None:  # Postgres: one prepared statement
        return await player_from_pool(hall.cache.pool, token, ttl)
    return await player_for_token(hall.reader, token, ttl)


async def require_admin(hall: HallDep, authorization: AuthHeader = None) -> None:
    check_admin(hall.settings.admin_token, bearer(authorization))


async def address(request: Request) -> str:
    """The caller's network address, for per-address limits."""
    return request.client.host if request.client else "unknown"


Address = Annotated[str, Depends(address)]
MaybePlayer = Annotated[Player | None, Depends(maybe_player)]
CurrentPlayer = Annotated[Player, Depends(current_player)]
AdminDep = Depends(require_admin)
