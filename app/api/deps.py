"""Dependencies as `Annotated` aliases: the Hall (as services see it), the caller, the admin
check. No session: routes reach storage only through a service."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.openapi.models import HTTPBearer as HTTPBearerModel
from fastapi.security.base import SecurityBase
from starlette.requests import HTTPConnection

from app.context import Context
from app.core.views import PlayerView
from app.errors import ApiError
from app.guard.auth import bearer, check_admin
from app.ops.logs import note_player


def hall_of(connection: HTTPConnection) -> Context:
    """The routes every new room goes through (players, room, join, start) call this and
    `client_host` themselves rather than take `HallDep` and `Address`: FastAPI solves each
    dependency anew on every request, 4% of a room's set-up."""
    return connection.app.state.hall


async def get_hall(request: Request) -> Context:
    """Async, like every dependency here: FastAPI runs a plain `def` dependency in a worker
    thread, and that hand-off cost more than the whole lookup, on every request."""
    return hall_of(request)


HallDep = Annotated[Context, Depends(get_hall)]


class _Bearer(SecurityBase):
    """A dependency that reads `Authorization: Bearer <token>` itself and is documented in
    OpenAPI as an HTTP bearer scheme (Swagger's Authorize button). FastAPI treats an instance
    of `SecurityBase` as a scheme; a `Header` parameter instead cost 2% of a room's set-up in
    FastAPI's per-request parameter handling."""

    def __init__(self, name: str, description: str) -> None:
        self.model = HTTPBearerModel(description=description)
        self.scheme_name = name


class _Caller(_Bearer):
    """The player the token names, read outside any session: routes only read it, and a
    request that needs no session (a join or a start on Postgres) then opens none.
    It takes the Hall from the request rather than from another dependency: FastAPI solves
    every level of dependencies anew on each request."""

    def __init__(self, required: bool, fresh: bool = False) -> None:
        super().__init__("player", "The token `POST /api/players` answered.")
        self.required, self.fresh = required, fresh

    async def __call__(self, request: Request) -> PlayerView | None:
        hall = hall_of(request)
        token, ttl = bearer(request.headers.get("authorization")), hall.settings.token_ttl
        player = await hall.players.player_by_token(token, ttl, self.fresh)
        if player is not None:
            note_player(player.id)
        if player is None and self.required:
            raise ApiError(401, "no_token", "Create a player first and send its token as "
                           "'Authorization: Bearer <token>'.")
        return player


class _Admin(_Bearer):
    """The admin token (the server's `ADMIN_TOKEN`)."""

    def __init__(self) -> None:
        super().__init__("admin", "The server's ADMIN_TOKEN.")

    async def __call__(self, request: Request) -> None:
        check_admin(hall_of(request).settings.admin_token,
                    bearer(request.headers.get("authorization")))


def client_host(request: Request) -> str:
    """The caller's network address, for per-address limits."""
    return request.client.host if request.client else "unknown"


async def address(request: Request) -> str:
    return client_host(request)


Address = Annotated[str, Depends(address)]
MaybePlayer = Annotated[PlayerView | None, Depends(_Caller(required=False))]
CurrentPlayer = Annotated[PlayerView, Depends(_Caller(required=True))]
# For the routes that report the token's expiry: its renewal time as committed now (another
# process may have renewed it since this one last read the player).
FreshPlayer = Annotated[PlayerView, Depends(_Caller(required=True, fresh=True))]
AdminDep = Depends(_Admin())
