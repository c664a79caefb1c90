"""Every migration goes down as cleanly as it comes up, on SQLite and on Postgres; the server
migrates in a child process and keeps none of Alembic."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys

import pytest
from alembic import command
from sqlalchemy import inspect, text
from sqlalchemy.exc import DBAPIError

from app.store.db import make_engine
from app.store.migrate import MigrationFailed, alembic_config, upgrade_to_head_async
from app.store.results import STALE
from tests.server import database


async def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    async with engine.connect() as conn:
        names = await conn.run_sync(lambda sync: set(inspect(sync).get_table_names()))
    await engine.dispose()
    return names - {"alembic_version"}


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_upgrade_downgrade_upgrade(kind: str) -> None:
    with database(kind) as url:
        config = alembic_config(url)
        command.upgrade(config, "head")
        assert "admin_actions" in asyncio.run(_tables(url))
        command.downgrade(config, "base")
        assert asyncio.run(_tables(url)) == set()
        command.upgrade(config, "head")
        tables = {"players", "rooms", "seats", "moves", "admin_actions", "chat_messages",
                  "watchers", "seat_votes", "handovers",
                  "processes", "seat_sockets"}
        assert tables <= asyncio.run(_tables(url))


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_the_server_migrates_in_a_child_that_reaches_head(kind: str) -> None:
    with database(kind) as url:
        await upgrade_to_head_async(url)
        assert "admin_actions" in await _tables(url)
        await upgrade_to_head_async(url)  # at head already: nothing to do, no error


async def _room_blocks_after_moves(url: str) -> list[tuple[int, int]]:
    """Eight rooms of a real room's size (a ~1.2 KB state: more than a page holds), then the
    first written again three times, as moves write it: the heap block of its row each time."""
    engine = make_engine(url)
    async with engine.begin() as conn:
        await conn.execute(text("INSERT INTO players (id, name, created_at) "
                                "VALUES ('p', 'host', now())"))
        for n in range(8):
            await conn.execute(text(
                "INSERT INTO rooms (code, game, options, status, host_id, private, seed, "
                "version, state, created_at, updated_at, spectators_muted) VALUES (:code, "
                "'gem-pyramid', '{}', 'active', 'p', true, 's', 0, :state, now(), now(), false)"),
                {"code": f"R{n}", "state": '{"board": "%s"}' % ("x" * 1200)})
    blocks = []
    for version in range(1, 4):
        async with engine.begin() as conn:
            await conn.execute(text("UPDATE rooms SET version = :v, last_move_at = now() "
                                    "WHERE code = 'R0'"), {"v": version})
        async with engine.connect() as conn:
            ctid = (await conn.execute(text("SELECT ctid::text FROM rooms WHERE code = 'R0'")))
            block, line = map(int, re.findall(r"\d+", ctid.scalar_one()))
            blocks.append((block, line))
    await engine.dispose()
    return blocks


async def test_a_move_writes_its_room_on_the_same_page_on_postgres() -> None:
    """Migration 0018 leaves room on the rooms' pages: a move's new version of the room row
    goes beside the old one (a HOT update: no index touched), not to another page."""
    with database("postgres") as url:
        await upgrade_to_head_async(url)
        blocks = await _room_blocks_after_moves(url)
    assert {block for block, _ in blocks} == {0}, blocks


_INDEX_SQL = {
    "sqlite": "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = :t "
              "AND sql IS NOT NULL",
    "postgres": "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = :t "
                "AND indexname NOT LIKE 'pk_%'",
}


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_no_index_takes_entries_nobody_reads(kind: str) -> None:
    """Migration 0023: the socket ledger, a row written and deleted per socket, is indexed by
    its key alone; a seat with no player (empty, or a bot's) is in no player index."""
    with database(kind) as url:
        await upgrade_to_head_async(url)
        engine = make_engine(url)
        async with engine.connect() as conn:
            ledger = (await conn.execute(text(_INDEX_SQL[kind]), {"t": "seat_sockets"})).all()
            seats = dict((await conn.execute(text(_INDEX_SQL[kind]), {"t": "seats"})).all())
        await engine.dispose()
    assert ledger == []
    assert sorted(seats) == ["ix_seats_player_id", "uq_seats_room_player"]
    for name, sql in seats.items():
        assert re.search(r"WHERE \(?player_id IS NOT NULL\)?$", sql), (name, sql)


async def _stale_write_fails_with(url: str) -> str | None:
    """The SQLSTATE `stale_write` raises with (None: there is no such function)."""
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            if not (await conn.execute(text(
                    "SELECT count(*) FROM pg_proc WHERE proname = 'stale_write'"))).scalar_one():
                return None
            try:
                await conn.execute(text("SELECT stale_write('a test')"))
            except DBAPIError as exc:
                return exc.orig.sqlstate
            raise AssertionError("stale_write returned")
    finally:
        await engine.dispose()


def test_the_stale_write_function_goes_down_and_up_on_postgres() -> None:
    """Migration 0024's function, which the move that ends a game calls to fail on stale
    ratings (`app.store.results.STALE`): gone after its downgrade, back after the upgrade."""
    with database("postgres") as url:
        config = alembic_config(url)
        command.upgrade(config, "head")
        assert asyncio.run(_stale_write_fails_with(url)) == STALE
        command.downgrade(config, "0023")
        assert asyncio.run(_stale_write_fails_with(url)) is None
        command.upgrade(config, "head")
        assert asyncio.run(_stale_write_fails_with(url)) == STALE


async def test_a_failed_migration_stops_the_start_with_the_childs_reason() -> None:
    with pytest.raises(MigrationFailed, match=r"Connect call failed|Connection refused"):
        await upgrade_to_head_async("postgresql+asyncpg://postgres@127.0.0.1:1/nothing")


def test_the_running_server_holds_no_alembic() -> None:
    """Alembic, Mako and Pygments (~7.5 MiB resident) are the child's alone (issue 27)."""
    probe = ("import sys, app.main; print(sorted({m.split('.')[0] for m in sys.modules}"
             " & {'alembic', 'mako', 'pygments'}))")
    env = {k: v for k, v in os.environ.items() if k != "ADMIN_TOKEN"}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, env=env)
    assert out.stdout.strip() == "[]"
