"""Backups that restore (app/ops/backup.py): a server under play is backed up, the backup is
restored into a fresh database, and every room, seat, move, chat line and audit row is there,
every game replaying from its seed to the state stored; on SQLite and on Postgres."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from app.store import snapshots
from app.store.models import AdminAction, ChatMessage, MoveRow, Room, Seat
from games import REGISTRY
from games.protocol import replay
from tests.api.client import Api, Conn
from tests.server import ROOT, database, running_server


def _backup(verb: str, url: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "app.ops.backup", verb, *args], cwd=ROOT,
                          env={**os.environ, "DATABASE_URL": url}, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


async def _rows(url: str) -> dict[str, Any]:
    """Everything the backup must carry, as comparable tuples, and the rooms themselves."""
    engine = create_async_engine(url)
    sessions = async_sessionmaker(engine, expire_on_commit=False)
    async with sessions() as session:
        rooms = list(await session.scalars(select(Room).order_by(Room.code)))
        await snapshots.resolve(session, [r for r in rooms if r.state is not None])
        found = {
            "rooms": {r.code: r for r in rooms},
            "seats": {(s.room_code, s.seat, s.player_id, s.bot)
                      for s in await session.scalars(select(Seat))},
            "moves": {(m.room_code, m.version, m.seat, m.client_id,
                       json.dumps(m.move, sort_keys=True))
                      for m in await session.scalars(select(MoveRow))},
            "chat": {(c.id, c.room_code, c.player_id, c.text)
                     for c in await session.scalars(select(ChatMessage))},
            "audit": {(a.id, a.action, a.room_code, a.version)
                      for a in await session.scalars(select(AdminAction))},
        }
    await engine.dispose()
    return found


async def _keep_playing(conns: list[Conn], stop: asyncio.Event, chooser: random.Random) -> int:
    """Random legal moves in one room until told to stop (or the game ends); acked moves."""
    acked = 0
    while not stop.is_set():
        ready = [c for c in conns if c.state and c.state["legal_moves"]
                 and c.state["status"] == "active"]
        if not ready:
            if all(c.state and c.state["status"] != "active" for c in conns):
                return acked
            await asyncio.sleep(0.01)
            continue
        conn = chooser.choice(ready)
        reply = await conn.move(chooser.choice(conn.state["legal_moves"]))
        if reply["type"] == "ack":
            acked += 1
            await asyncio.gather(*(c.until(lambda c, v=reply["version"]: c.state["version"] >= v)
                                   for c in conns))
    return acked


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_a_backup_under_play_restores_every_row_and_replays(kind: str) -> None:
    with database(kind) as url, running_server(url) as server, \
            tempfile.TemporaryDirectory(prefix="ziggurat-backups-") as folder:
        api = Api(server.url)
        rooms = [await api.started_pair(game) for game in ("gem-pyramid", "five-realms")]
        chooser = random.Random(44)
        for code, _, conns in rooms:
            for n in range(3):
                await conns[n % 2].send({"type": "chat", "text": f"line {n} in {code}"})
            await _keep_playing_a_while(conns, chooser, 6)
        await api.admin("POST", f"/rooms/{rooms[0][0]}/zombie",
                        json={"seat": sorted(rooms[0][2][0].state["to_act"])[0]})
        for code, _, conns in rooms:
            await conns[0].until(lambda c, code=code: len(c.chat) == 3)
        busy_code, _, busy = await api.started_pair("temple-of-five")
        before = await _rows(url)
        stop = asyncio.Event()
        playing = asyncio.create_task(_keep_playing(busy, stop, random.Random(45)))
        await busy[0].until(lambda c: c.state["version"] >= 2)  # moves land during the backup
        made = await asyncio.to_thread(_backup, "create", url, "--dir", folder)
        stop.set()
        assert await playing > 0
        for _, _, conns in [*rooms, (busy_code, None, busy)]:
            for conn in conns:
                await conn.close()
        await api.close()
        backup = Path(made)
        assert backup.is_file() and backup.parent == Path(folder)

        with database(kind) as fresh:
            await asyncio.to_thread(_backup, "restore", fresh, str(backup))
            after = await _rows(fresh)
            # Everything committed before the backup began is there, exactly.
            for table in ("seats", "moves", "chat", "audit"):
                assert before[table] <= after[table], table
            assert set(before["rooms"]) == set(after["rooms"])
            assert len(after["chat"]) == 6 and len(after["audit"]) >= 1
            for code, room in after["rooms"].items():
                old = before["rooms"][code]
                assert (room.game, room.seed, room.options, room.host_id) == \
                    (old.game, old.seed, old.options, old.host_id)
                assert room.version >= old.version
                assert room.version == old.version or code == busy_code
                _replays_to_its_state(room, after["moves"], after["seats"])
            assert after["rooms"][busy_code].version > 0
            # The restored database serves: the rooms are there, as the API shows them.
            with running_server(fresh) as again:
                api = Api(again.url)
                for code, room in after["rooms"].items():
                    shown = await api.call("GET", f"/api/rooms/{code}")
                    assert shown["version"] == room.version
                    assert len(await api.call("GET", f"/api/rooms/{code}/chat")) == \
                        sum(1 for line in after["chat"] if line[1] == code)
                await api.close()


async def _keep_playing_a_while(conns: list[Conn], chooser: random.Random, moves: int) -> None:
    stop = asyncio.Event()
    task = asyncio.create_task(_keep_playing(conns, stop, chooser))
    with contextlib.suppress(TimeoutError):
        await conns[0].until(lambda c: c.state["version"] >= moves)
    stop.set()
    await task


def _replays_to_its_state(room: Room, moves: set[tuple[Any, ...]],
                          seats: set[tuple[Any, ...]]) -> None:
    """The room's move log, replayed from its seed, makes the state it holds; no gap in it."""
    log = sorted((m for m in moves if m[0] == room.code), key=lambda m: m[1])
    assert [m[1] for m in log] == list(range(1, room.version + 1)), room.code
    if room.state is None:
        return
    game = REGISTRY[room.game]
    players = sum(1 for s in seats if s[0] == room.code)
    rebuilt = replay(game, players, game.Options.model_validate(room.options), room.seed,
                     ((m[2], json.loads(m[4])) for m in log))
    assert rebuilt == room.state, room.code
