"""The one place that decides which database the server stores in, from DATABASE_URL."""

from __future__ import annotations

from app.config import Settings
from app.store.base import Store
from app.store.postgres.store import PostgresStore
from app.store.shared import SharedPaths
from app.store.social import SocialSql
from app.store.sqlite import SqliteStore


def open_store(settings: Settings, origin: str) -> Store:
    """The store for the configured database (not started yet: `await store.start(...)`)."""
    url = settings.async_database_url
    if url.startswith("sqlite"):
        return SqliteStore(url, origin)
    return PostgresStore(url, origin)


def open_social(store: Store) -> SocialSql:
    """The storage of app/social/, on the store's own engine (app/social/store.py)."""
    assert isinstance(store, SharedPaths)
    return SocialSql(store.engine, store.sessions)
