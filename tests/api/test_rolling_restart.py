"""A restart nobody notices (app/ops/drain.py): two server processes on Postgres behind HAProxy
(deploy/haproxy.cfg), players moving through it, and a rolling restart — each process in turn
gets SIGTERM, drains and exits, and a new one takes its port. No acknowledged move is lost and
every client is back and live within 5 s of being told to reconnect."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
import websockets

from app.ops.drain import RECONNECT_NOW
from tests.api.client import Api
from tests.server import ROOT, Server, free_port, postgres_database, running_server

BACK_WITHIN_SECONDS = 5.0
ROOMS = 6
_ids = itertools.count()


@contextlib.contextmanager
def haproxy(port: int, servers: dict[str, int]) -> Iterator[str]:
    """HAProxy with the project's own configuration, its servers and port put on loopback."""
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not Path(binary).exists():
        pytest.fail("HAProxy is missing: scripts/check-services installs Debian's haproxy")
    config = (ROOT / "deploy" / "haproxy.cfg").read_text().replace(
        "bind :8000", f"bind 127.0.0.1:{port}")
    for name, at in servers.items():
        config = config.replace(f"{name}:8000", f"127.0.0.1:{at}")
    assert "app1:8000" not in config and "app2:8000" not in config
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as file, \
            tempfile.TemporaryFile() as log:
        file.write(config)
        file.flush()
        proc = subprocess.Popen([binary, "-db", "-f", file.name], stdout=log,
                                stderr=subprocess.STDOUT)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            proc.terminate()
            proc.wait(10)


def served_by(base: str, names: set[str], timeout: float = 60) -> None:
    """Wait until the proxy's round-robin backend reaches every process named (they are up
    and HAProxy's health checks say so)."""
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            response = httpx.get(f"{base}/api/health", timeout=2)
            if response.status_code == 200:
                seen = [*seen[-9:], response.headers.get("x-served-by", "")]
                if names <= set(seen[-4:]):
                    return
        time.sleep(0.05)
    raise AssertionError(f"the proxy did not reach {names}; last answers from {seen}")


@dataclass
class Player:
    """A client that plays random legal moves and reconnects as the browser does on 1012."""

    ws_url: str
    code: str
    token: str
    chooser: random.Random
    acked: list[tuple[str, int, str]] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)  # told to reconnect -> live again, seconds
    other_closes: list[Any] = field(default_factory=list)
    live: bool = False
    stop: bool = False
    told_at: float | None = None  # when the server last said "reconnect now"

    async def run(self) -> None:
        while not self.stop:
            try:
                async with websockets.connect(f"{self.ws_url}/api/rooms/{self.code}/ws"
                                              f"?token={self.token}", max_size=2**22) as ws:
                    await self._play(ws)
            except websockets.ConnectionClosed as closed:
                if closed.rcvd is not None and closed.rcvd.code == RECONNECT_NOW:
                    self.told_at = time.monotonic()
                elif not self.stop:
                    self.other_closes.append(closed.rcvd)
            except OSError as exc:  # the proxy refused: retried at once, as the browser would
                self.other_closes.append(exc)
                await asyncio.sleep(0.05)
            self.live = False

    async def _play(self, ws: Any) -> None:
        pending: set[str] = set()
        state: dict[str, Any] | None = None
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "state":
                state = message
                if not self.live:
                    self.live = True
                    if self.told_at is not None:
                        self.gaps.append(time.monotonic() - self.told_at)
                        self.told_at = None
            elif message["type"] == "ack":
                pending.discard(message["id"])
                self.acked.append((self.code, message["version"], message["id"]))
            elif message["type"] == "error":
                pending.discard(message.get("id"))  # stale, not your turn: the state decides
            if self.stop:
                return
            if state is not None and state["legal_moves"] and not pending \
                    and state["status"] == "active":
                await asyncio.sleep(self.chooser.uniform(0.01, 0.05))  # a human-ish pace
                move_id = f"r{next(_ids)}"
                pending.add(move_id)
                await ws.send(json.dumps({"type": "move", "id": move_id,
                                          "version": state["version"],
                                          "move": self.chooser.choice(state["legal_moves"])}))
                state = None  # the next move waits for the state this one makes


async def test_sigterm_answers_the_move_in_flight_then_says_reconnect() -> None:
    """One process (SQLite): a move sent as SIGTERM arrives is acknowledged before the close,
    and the close is 1012; the move is in the log the next process reads."""
    with tempfile.TemporaryDirectory(prefix="ziggurat-") as folder:
        url = f"sqlite+aiosqlite:///{folder}/test.db"
        server = Server(url).start()
        api = Api(server.url)
        code, _, conns = await api.started_pair()
        mover = next(c for c in conns if c.state["legal_moves"])
        await mover.send({"type": "move", "id": "last-word", "version": mover.state["version"],
                          "move": mover.state["legal_moves"][0]})
        assert server.proc is not None
        server.proc.send_signal(signal.SIGTERM)
        for conn in conns:
            await asyncio.wait_for(conn.reader, 30)  # closed by the server
            assert conn.ws.close_code == RECONNECT_NOW
        reply = mover.replies.get_nowait()
        assert reply == {"type": "ack", "id": "last-word", "version": 1}
        assert server.proc.wait(60) is not None
        await api.close()
        server.stop()
        with running_server(url) as again:
            api = Api(again.url)
            log = await api.call("GET", f"/api/rooms/{code}/moves")
            assert [m["version"] for m in log] == [1]
            await api.close()


async def test_a_rolling_restart_loses_no_acknowledged_move() -> None:
    with postgres_database() as url:
        ports = {"app1": free_port(), "app2": free_port()}
        servers = {name: Server(url, port=port).start() for name, port in ports.items()}
        try:
            with haproxy(free_port(), ports) as base:
                await asyncio.to_thread(served_by, base, {"app1", "app2"})
                await _rolling_restart_under_load(url, base, servers)
        finally:
            for server in servers.values():
                server.stop()


async def _rolling_restart_under_load(url: str, base: str, servers: dict[str, Server]) -> None:
    api = Api(base)
    players: list[Player] = []
    for n in range(ROOMS):
        people = [await api.player(f"R{n}a"), await api.player(f"R{n}b")]
        # Solomon's Temple: ~850 random moves a game, so that no game ends under the test.
        code = await api.room_with("solomons-temple", people)
        await api.start(code, people[0])
        players += [Player(api.ws_base, code, p["token"], random.Random(f"{n}{p['id']}"))
                    for p in people]
    await api.close()
    tasks = [asyncio.create_task(p.run()) for p in players]
    await _until(lambda: all(p.live for p in players) and sum(len(p.acked) for p in players) > 20)
    for name in ("app1", "app2"):
        old = servers[name]
        before = sum(len(p.acked) for p in players)
        assert old.proc is not None
        old.proc.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(old.proc.wait, 60) is not None
        assert "draining for a restart" in old.log()
        servers[name] = await asyncio.to_thread(Server(url, port=old.port).start)
        await asyncio.to_thread(served_by, base, {"app1", "app2"})
        # play goes on, and everyone told to reconnect is back
        await _until(lambda b=before: sum(len(p.acked) for p in players) > b + 20
                     and all(p.live for p in players))
    for player in players:
        player.stop = True
    await asyncio.wait(tasks, timeout=30)
    for task in tasks:
        task.cancel()

    told = [gap for p in players for gap in p.gaps]
    assert len(told) >= len(players), "every client sat on one of the restarted processes"
    assert max(told) <= BACK_WITHIN_SECONDS, sorted(told)[-5:]
    acked = [a for p in players for a in p.acked]
    conn = await asyncpg.connect(re.sub(r"\+asyncpg", "", url))
    try:
        rows = {(r["room_code"], r["version"], r["client_id"]) for r in await conn.fetch(
            "SELECT room_code, version, client_id FROM moves")}
    finally:
        await conn.close()
    lost = [a for a in acked if a not in rows]
    assert lost == [], f"{len(lost)} acknowledged moves are not in the log"
    assert len(acked) > 60


async def _until(check: Any, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out waiting"
        await asyncio.sleep(0.05)
