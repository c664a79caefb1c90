"""The server's one notion of now, and datetimes read back as UTC: plain helpers every layer
uses (the store's rows default to `utcnow`; the rules, services and guard compare with it)."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """SQLite hands datetimes back naive; they were written in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
