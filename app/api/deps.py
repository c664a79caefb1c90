"""Dependencies as `Annotated` aliases: the Hall, a session, the caller, the admin check."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Header, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth import bearer, check_admin, player_for_token
from app.errors import ApiError
from app.hall import Hall
from app.models import Player


def get_hall(request: Request) -> Hall:
    return request.app.state.hall


HallDep = Annotated[Hall, Depends(get_hall)]


async def get_session(hall: HallDep) -> AsyncIterator[AsyncSession]:
    async with hall.sessions() as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session)]
AuthHeader = Annotated[str | None, Header(alias="Authorization")]


async def maybe_player(session: SessionDep, hall: HallDep,
                       authorization: AuthHeader = None) -> Player | None:
    return await player_for_token(session, bearer(authorization), hall.settings.token_ttl)


async def current_player(player: Annotated[Player | None, Depends(maybe_player)]) -> Player:
    if player is None:
        raise ApiError(401, "no_token", "Create a player first and send its token as "
                       "'Authorization: Bearer <token>'.")
    return player


def require_admin(hall: HallDep, authorization: AuthHeader = None) -> None:
    check_admin(hall.settings.admin_token, bearer(authorization))


def address(request: Request) -> str:
    """The caller's network address, for per-address limits."""
    return request.client.host if request.client else "unknown"


Address = Annotated[str, Depends(address)]
MaybePlayer = Annotated[Player | None, Depends(maybe_player)]
CurrentPlayer = Annotated[Player, Depends(current_player)]
AdminDep = Depends(require_admin)
