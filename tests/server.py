"""Real servers for tests: uvicorn subprocesses on free ports, and throwaway databases.

Tests talk to the app exactly as browsers do, over TCP. A missing Postgres is an error, never
a skip: a test that silently skips is a test that lies.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg
import httpx

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN_DSN = os.environ.get("TEST_POSTGRES_DSN", "postgresql://postgres@127.0.0.1:5432/postgres")
ADMIN_TOKEN = "test-admin-token"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _pg(sql: str) -> None:
    async def run() -> None:
        try:
            conn = await asyncpg.connect(PG_ADMIN_DSN, timeout=5)
        except (OSError, asyncpg.PostgresError) as exc:
            raise RuntimeError(
                f"Postgres is not reachable at {PG_ADMIN_DSN} ({exc}). The tests need it: start "
                "it (see README) or point TEST_POSTGRES_DSN at one.") from exc
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    # A thread of its own, so that async tests (which already run a loop) may call it too.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh, empty Postgres database for one test module; its async URL."""
    name = f"ziggurat_test_{secrets.token_hex(4)}"
    _pg(f'CREATE DATABASE "{name}"')
    base = PG_ADMIN_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://", 1)
    try:
        yield f"{base}/{name}"
    finally:
        _pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def sqlite_database() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="ziggurat-") as folder:
        yield f"sqlite+aiosqlite:///{folder}/test.db"


@contextlib.contextmanager
def database(kind: str) -> Iterator[str]:
    with (postgres_database() if kind == "postgres" else sqlite_database()) as url:
        yield url


WS_MAX_SIZE = 65_536  # the frame cap the Makefile, Dockerfile and compose file pass too


class Server:
    """One uvicorn process serving the app against `database_url`."""

    def __init__(self, database_url: str, port: int | None = None, **env: str) -> None:
        self.port = port or free_port()  # a port of its own, or one a stopped server had
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        # Test clients move far faster than people: the flood limit is raised unless a test
        # asks for its own (the flood test does).
        self._env = {**os.environ, "DATABASE_URL": database_url, "ADMIN_TOKEN": ADMIN_TOKEN,
                     "BOT_DELAY_MS": "0", "RATE_PER_SECOND": "10000", "RATE_BURST": "10000",
                     "ADMIN_HANDOVER_HOLD_SECONDS": "0",
                     # Bots search a tenth of their level's iterations: tests play whole games.
                     "BOT_BUDGET_SCALE": "0.1",
                     **env}
        self._log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - lives as long as the server
            prefix="ziggurat-server-", suffix=".log", delete=False)
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
             "--port", str(self.port), "--log-level", "warning", "--ws-max-size", str(WS_MAX_SIZE),
             "--http", "app.guard.deadlines:HeaderDeadline",
             "--ws", "app.guard.lean_ws:LeanWebSocket"],
            cwd=ROOT, env=self._env, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 180  # a loaded machine can take a minute to import
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        raise RuntimeError(f"server did not come up:\n{self.log()}")

    def log(self) -> str:
        return Path(self._log.name).read_text(errors="replace")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self._log.close()


@contextlib.contextmanager
def running_server(database_url: str, **env: str) -> Iterator[Server]:
    server = Server(database_url, **env).start()
    try:
        yield server
    finally:
        server.stop()
