"""Real parts for the notification tests: an SMTP server (aiosmtpd) and an HTTP receiver in
the test process, servers wired to them, and the outbox read straight from the database."""

from __future__ import annotations

import asyncio
import contextlib
import email
import email.policy
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller
from sqlalchemy import select, update

from app.store.db import make_engine
from app.store.models import Outbox, utcnow
from tests.api.client import Api, Conn
from tests.server import Server, free_port

WAIT = 60.0  # far beyond any send: the tests wait for mail, never for time

# Fast enough for tests: "your turn" after 1 s away, the worker looking five times a second,
# retries after half a second, a digest one second after its first line.
FAST = {"NOTIFY_AFTER_SECONDS": "1", "NOTIFY_POLL_SECONDS": "0.2",
        "NOTIFY_RETRY_SECONDS": "0.5", "DIGEST_SECONDS": "1"}


class Mailbox:
    """A real SMTP server on a loopback port; every mail it takes, parsed. `stop` and `start`
    again on the same port make a server that is down, then up."""

    def __init__(self) -> None:
        self.port = free_port()
        self.mails: list[EmailMessage] = []
        self._lock = threading.Lock()
        # Mail to an address in here waits until its event is set, then is refused (a server
        # that hangs mid-send, so that the sender can be killed there).
        self.hang: dict[str, threading.Event] = {}
        self.hung: set[str] = set()
        self._controller: Controller | None = None

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        mail = email.message_from_bytes(envelope.content, policy=email.policy.default)
        held = next((e for a, e in self.hang.items() if a in envelope.rcpt_tos), None)
        if held is not None:
            self.hung.update(envelope.rcpt_tos)
            while not held.is_set():  # the SMTP server's own thread and loop: poll
                await asyncio.sleep(0.05)
            return "451 Try again later"
        with self._lock:
            self.mails.append(mail)  # type: ignore[arg-type]
        return "250 Message accepted for delivery"

    def start(self) -> Mailbox:
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self._controller.start()
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for m in self.mails if m["To"] == address]

    async def wait_for(self, address: str, subject: str, count: int = 1) -> list[EmailMessage]:
        """The mails to `address` whose subject holds `subject`, once there are `count`."""
        deadline = time.monotonic() + WAIT
        while True:
            found = [m for m in self.to(address) if subject in m["Subject"]]
            if len(found) >= count:
                return found
            assert time.monotonic() < deadline, \
                f"no mail {subject!r} to {address}: {[m['Subject'] for m in self.to(address)]}"
            await asyncio.sleep(0.05)


def text_of(mail: EmailMessage) -> str:
    part = mail.get_body(("plain",))
    assert part is not None
    return part.get_content()


def links(mail: EmailMessage) -> list[str]:
    return re.findall(r"https?://\S+", text_of(mail))


class Receiver:
    """A real HTTP server on loopback that records every POST (path, headers, JSON body);
    `/moved` answers with a redirect to `/hook`, `/fail` with 500."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict[str, str], Any]] = []
        received = self.posts

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(size) or b"null")
                received.append((self.path, dict(self.headers), body))
                if self.path.startswith("/moved"):
                    self.send_response(302)
                    self.send_header("Location", "/hook")
                else:
                    self.send_response(500 if self.path.startswith("/fail") else 204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    async def wait_for(self, check: Callable[[tuple[str, dict[str, str], Any]], bool]
                       ) -> tuple[str, dict[str, str], Any]:
        deadline = time.monotonic() + WAIT
        while True:
            found = [post for post in list(self.posts) if check(post)]
            if found:
                return found[0]
            assert time.monotonic() < deadline, f"no such webhook call: {self.posts}"
            await asyncio.sleep(0.05)


def server_for(database_url: str, mailbox: Mailbox | None = None, **env: str) -> Server:
    """A server (not started) sending mail to `mailbox`, with its own address as PUBLIC_URL."""
    server = Server(database_url, **(FAST | env))
    server._env["PUBLIC_URL"] = server.url
    if mailbox is not None:
        server._env["SMTP_URL"] = mailbox.url
    return server


@contextlib.contextmanager
def started(server: Server) -> Iterator[Server]:
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def outbox(database_url: str, **where: Any) -> list[Any]:
    """The outbox rows matching `where` (column = value), oldest first."""
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            query = select(Outbox.__table__).order_by(Outbox.id)
            for column, value in where.items():
                query = query.where(getattr(Outbox.__table__.c, column) == value)
            return list((await conn.execute(query)).all())
    finally:
        await engine.dispose()


async def settled(database_url: str, row_id: int) -> Any:
    """The row once a worker has dealt with it (sent, dropped, held or failed)."""
    deadline = time.monotonic() + WAIT
    while True:
        [row] = await outbox(database_url, id=row_id)
        if row.status not in ("pending", "sending"):
            return row
        assert time.monotonic() < deadline, f"row {row_id} never settled: {row}"
        await asyncio.sleep(0.05)


async def attempted(database_url: str, player_id: str, kind: str, tries: int) -> list[Any]:
    """The player's rows of `kind` once the first has been tried `tries` times."""
    deadline = time.monotonic() + WAIT
    while True:
        rows = await outbox(database_url, player_id=player_id, kind=kind)
        if rows and rows[0].attempts >= tries:
            return rows
        assert time.monotonic() < deadline, f"never tried {tries} times: {rows}"
        await asyncio.sleep(0.05)


async def due_now(database_url: str, kind: str) -> None:
    """Bring the pending rows of `kind` due now (a reminder is due hours after the move)."""
    engine = make_engine(database_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(update(Outbox.__table__).where(
                Outbox.__table__.c.kind == kind, Outbox.__table__.c.status == "pending")
                .values(due_at=utcnow()))
    finally:
        await engine.dispose()


async def verified(api: Api, player: dict[str, Any], address: str, mailbox: Mailbox,
                   **more: Any) -> dict[str, Any]:
    """Set `address` for `player`, open the link of the verification mail; the settings."""
    before = len(mailbox.to(address))
    stored = await api.call("PUT", "/api/players/me/notifications", player["token"],
                            json={"email": address, "webhook": None, "digest": False, **more})
    assert stored["email"] == address and stored["email_verified"] is False
    mail = (await mailbox.wait_for(address, "Confirm your address", before + 1))[-1]
    [link] = links(mail)
    opened = await api.http.get(link)
    assert opened.status_code == 200, opened.text
    return await api.call("GET", "/api/players/me/notifications", player["token"])


async def turn_based_pair(api: Api, host: dict[str, Any], guest: dict[str, Any],
                          game: str = "gem-pyramid") -> tuple[str, Conn]:
    """A started turn-based room, the host connected (and in play), the guest not."""
    code = await api.room_with(game, [host, guest], pace="turn-based", turn_clock=3600)
    conn = await api.connect(code, host["token"])
    await api.start(code, host)
    await conn.until(lambda c: c.state is not None and c.state["status"] == "active")
    return code, conn


async def guest_moves(api: Api, code: str, guest: dict[str, Any]) -> int:
    """The guest opens the room, makes their first legal move, and closes it again."""
    conn = await api.connect(code, guest["token"])
    await conn.until(lambda c: c.state is not None and bool(c.state["legal_moves"]))
    reply = await conn.move(conn.state["legal_moves"][0])
    assert reply["type"] == "ack", reply
    seat = conn.state["seat"]
    await conn.close()
    await gone(api, code, seat)
    return reply["version"]


async def gone(api: Api, code: str, seat: int) -> None:
    """Once the server counts the seat's socket closed (a notification judged before then
    would find the player still looking)."""
    deadline = time.monotonic() + WAIT
    while (await api.call("GET", f"/api/rooms/{code}"))["seats"][seat]["connected"]:
        assert time.monotonic() < deadline, "the server never saw the socket close"
        await asyncio.sleep(0.05)


async def host_moves(conn: Conn) -> int:
    await conn.until(lambda c: c.state is not None and bool(c.state["legal_moves"]))
    reply = await conn.move(conn.state["legal_moves"][0])
    assert reply["type"] == "ack", reply
    return reply["version"]
