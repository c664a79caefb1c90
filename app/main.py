"""The ASGI app: `uvicorn app.main:app` serves the API, the websocket and the browser client."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from app.api import admin, chat, lobby, notify, ops, play, replay, social
from app.config import Settings, get_settings
from app.errors import install_handlers
from app.guard.gate import RestGate
from app.guard.quotas import GuessThrottle
from app.guard.security import Edge, install_log_filter
from app.hall import Hall
from app.learn import routes as learn
from app.ops import logs
from app.ops.collector import Collector
from app.ops.drain import Drain
from app.ops.loop_lag import LoopLag
from app.people import routes as people_routes
from app.store.migrate import upgrade_to_head_async


class Ziggurat(FastAPI):
    """FastAPI, with the game socket dispatched ahead of its stack (`play.socket_app`):
    through the same-origin check and the guessing throttle (`Edge`, `GuessThrottle`, which
    hold no frame of their own for a socket), then the handler. Every other request, and any
    other websocket path (a 403 from FastAPI), goes through the whole stack."""

    socket_guards: Any = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "websocket" and self.socket_guards is not None \
                and (params := _socket_params(scope["path"])) is not None:
            scope["app"], scope["path_params"] = self, params
            await self.socket_guards(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def _socket_params(path: str) -> dict[str, str] | None:
    """The game socket's path parameters (None: another path); the match object is not kept
    in the frame that waits for the socket's whole life."""
    match = play.SOCKET_PATH.fullmatch(path)
    return None if match is None else match.groupdict()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Drain]]:
        await upgrade_to_head_async(settings.async_database_url)
        hall = Hall(settings)
        await hall.start()
        app.state.hall = hall
        # The collector kept off the latency tail (app/ops/collector.py); SQLite's server holds
        # no room in memory (a small heap) and its ORM sessions leave cycles: none frozen there.
        collector = Collector(freeze_survivors=not hall.store.single_writer)
        collector.start()
        probe = LoopLag()  # how long the loop is held, and by which collections (app/ops)
        probe.start()
        yield Drain(hall.sockets).state()  # SIGTERM drains the sockets (app/ops/drain.py)
        await probe.stop()
        await hall.stop()
        await collector.stop()

    # No OpenTelemetry here: FastAPI would otherwise ask on every request whether a provider
    # was configured since.
    app = Ziggurat(title="Ziggurat", lifespan=lifespan,
                  telemetry={"tracing": False, "metrics": False, "logs": False})
    install_handlers(app)
    logs.configure(settings.log_format)
    # The game socket is dispatched before any route (`Ziggurat`); the others are matched in
    # order. They go straight into the app's own list: FastAPI 0.165 keeps an included router as one
    # nested route and matches a request through it twice, 7% of a room's set-up.
    # Each router's prefix and dependencies are already part of its routes; the app's
    # `dependency_overrides` do not reach them (nothing here uses overrides).
    for module in (lobby, admin, replay, chat, ops, people_routes, notify, social, learn):
        app.router.routes.extend(module.router.routes)
    _serve_client(app, settings)
    app.add_middleware(GuessThrottle)
    app.add_middleware(RestGate, limit=settings.rest_concurrency)
    app.add_middleware(Edge, max_body_bytes=settings.max_body_bytes)
    if settings.log_format == "json":
        app.add_middleware(logs.RequestLog)  # outermost: a request's whole time, gate included
    app.socket_guards = Edge(GuessThrottle(play.socket_app), max_body_bytes=settings.max_body_bytes)
    return app


def _serve_client(app: FastAPI, settings: Settings) -> None:
    """The browser client: static files, and index.html for `/` and every invite link."""
    static = settings.static_dir
    index = static / "index.html"
    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")

    @app.get("/", include_in_schema=False)
    @app.get("/r/{code}", include_in_schema=False)
    @app.get("/link", include_in_schema=False)
    @app.get("/p/{player_id}", include_in_schema=False)
    @app.get("/friends", include_in_schema=False)
    @app.get("/learn/{game}", include_in_schema=False)
    async def client_page(code: str | None = None, player_id: str | None = None,
                          game: str | None = None) -> FileResponse:
        return FileResponse(index)

    @app.get("/admin", include_in_schema=False)
    async def admin_console() -> FileResponse:
        return FileResponse(static / "admin.html")

    @app.get("/r/{code}/replay", include_in_schema=False)
    async def replay_page(code: str) -> FileResponse:
        return FileResponse(static / "replay.html")


logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
install_log_filter()
app = create_app()
