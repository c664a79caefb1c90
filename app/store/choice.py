"""The one place that decides which database the server stores in, from DATABASE_URL."""

from __future__ import annotations

from app.config import Settings
from app.store.base import Store
from app.store.bot_games import SqlBotGames
from app.store.hub import Hub
from app.store.notify import NotifyPaths
from app.store.ops import OpsPaths
from app.store.people import SqlPeople
from app.store.postgres.store import PostgresStore
from app.store.shared import SharedPaths
from app.store.social import SocialSql
from app.store.sqlite import SqliteStore
from app.store.takeback import SqlAskStore


def open_store(settings: Settings, origin: str) -> Store:
    """The store for the configured database (not started yet: `await store.start(...)`)."""
    url = settings.async_database_url
    if url.startswith("sqlite"):
        return SqliteStore(url, origin)
    return PostgresStore(url, origin)


def open_ops(store: Store) -> OpsPaths:
    """app/ops's reads (`app.ops.store.OpsReads`), on the store's own sessions."""
    return OpsPaths(store.sessions)  # type: ignore[attr-defined]  # both stores have them


def open_people(settings: Settings, hub: Hub, origin: str) -> SqlPeople:
    """The people package's storage (`app.people.storage.PeopleStore`), on the same database;
    its notifications go through the store's hub."""
    return SqlPeople(settings.async_database_url, hub, origin)


def open_notify_store(store: Store) -> NotifyPaths:
    """The notification package's storage, on the store's own engine (app/notify/storage.py)."""
    return NotifyPaths(store.engine)  # type: ignore[attr-defined]


def open_social(store: Store) -> SocialSql:
    """The storage of app/social/, on the store's own engine (app/social/store.py)."""
    assert isinstance(store, SharedPaths)
    return SocialSql(store.engine, store.sessions)


def open_takebacks(store: Store, hub: Hub, origin: str) -> SqlAskStore:
    """app/takeback's storage (`app.takeback.store.AskStore`), on the store's own sessions."""
    return SqlAskStore(store.sessions, hub, origin)  # type: ignore[attr-defined]


def open_bot_games(store: Store) -> SqlBotGames:
    """The bot-game count of app/table/bot_caps.py, on the store's own engine."""
    return SqlBotGames(store.engine)  # type: ignore[attr-defined]  # both stores have one
