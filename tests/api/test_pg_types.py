"""A hot-path connection learns every type its statements use when it opens (one catalog
query), not one statement at a time: asyncpg asks Postgres about each type it has no codec for
(arrays other than text[], arrays of rows) with a query that costs ~3 round trips and a plan of
several milliseconds, and before this every new connection asked two or three times over."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator

import asyncpg

import app.store.postgres
from app.store.migrate import upgrade_to_head_async
from app.store.postgres.roomcache import _codecs
from tests.server import database

# Modules whose statements run on the hot path's connections (app/store/postgres/* and the
# SQL they borrow); template strings and fragments are not statements and are left out.
_MODULES = [f"app.store.postgres.{m.name}" for m in pkgutil.iter_modules(
    app.store.postgres.__path__)] + ["app.store.results", "app.store.outbox"]


def _statements() -> Iterator[tuple[str, str]]:
    for module in map(importlib.import_module, _MODULES):
        for name, value in vars(module).items():
            if (isinstance(value, str) and "$1" in value and "{" not in value
                    and value.lstrip().upper().startswith(("WITH", "SELECT", "INSERT",
                                                           "UPDATE", "DELETE"))):
                yield f"{module.__name__}.{name}", value


def test_the_hot_path_has_statements_to_check() -> None:
    names = {name for name, _ in _statements()}
    assert {"app.store.postgres.seatcount._CONNECT", "app.store.results._PG_RATE",
            "app.store.postgres.newplayers._MANY"} <= names


async def test_no_statement_of_the_hot_path_asks_postgres_about_a_type() -> None:
    with database("postgres") as url:
        await upgrade_to_head_async(url)
        conn = await asyncpg.connect(url.replace("+asyncpg", ""))
        try:
            await _codecs(conn)
            asked: list[str] = []
            conn.add_query_logger(lambda record: asked.append(record.query))
            for name, sql in _statements():
                await conn.prepare(sql)
                assert not [q for q in asked if "typeinfo" in q], f"{name} asked about a type"
        finally:
            await conn.close()


async def test_a_connection_without_the_warm_up_asks() -> None:
    """The check above can fail: a connection that skipped the warm-up asks, type by type."""
    with database("postgres") as url:
        conn = await asyncpg.connect(url.replace("+asyncpg", ""))
        try:
            for kind in ("int[]", "timestamptz[]", "float8[]", "bool[]", "varchar[]"):
                asked: list[str] = []
                conn.add_query_logger(lambda record, asked=asked: asked.append(record.query))
                await conn.fetchval(f"SELECT NULL::{kind}")
                assert [q for q in asked if "typeinfo" in q], kind
        finally:
            await conn.close()
