"""The move's share of the outbox, in process on both databases: a live room's move writes no
outbox row even when its players have channels, a turn-based move writes none for players
without one, and writes "your turn" and the reminder (due when a quarter of the clock is left)
for a seat to act whose player has a channel, once per channel."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

from sqlalchemy import select

from app.hall import Hall
from app.store.models import NotifySettings, Outbox, Player, as_utc, utcnow
from app.store.orm import create_room, join, start
from tests.api.inprocess import first_legal_move

HOUR = 3600


async def _room(hall: Hall, pace: str, prefix: str, channels: bool) -> tuple[str, list[str]]:
    async with hall.store.sessions() as session, session.begin():
        players = [Player(id=f"{prefix}{n}", name=f"{prefix.upper()}{n}",
                          token_hash=f"{prefix}{n}") for n in (0, 1)]
        session.add_all(players)
        await session.flush()
        if channels:
            session.add_all(NotifySettings(player_id=p.id, email=f"{p.id}@example.org",
                                           email_verified=True, webhook="https://example.org/h",
                                           digest=False, updated_at=utcnow()) for p in players)
        room = await create_room(session, players[0], "gem-pyramid", None, 2, True,
                                 HOUR if pace == "turn-based" else None, None, None, pace)
        await join(session, room, players[1], None)
        await start(session, room, players[0])
        return room.code, [p.id for p in players]


async def _rows(hall: Hall, code: str) -> list[Outbox]:
    async with hall.store.sessions() as session:
        return list(await session.scalars(select(Outbox).where(Outbox.room_code == code)
                                          .order_by(Outbox.kind, Outbox.channel)))


async def test_only_a_turn_based_move_with_someone_to_tell_writes(hall: Hall) -> None:
    live, ids = await _room(hall, "live", "lv", channels=True)
    await first_legal_move(hall, live, ids, "m1")
    assert await _rows(hall, live) == []
    quiet, ids = await _room(hall, "turn-based", "qt", channels=False)
    await first_legal_move(hall, quiet, ids, "m1")
    assert await _rows(hall, quiet) == []
    told, ids = await _room(hall, "turn-based", "tb", channels=True)
    before = utcnow()
    version = await first_legal_move(hall, told, ids, "m1")
    rows = await _rows(hall, told)
    assert [(r.kind, r.channel, r.player_id, r.version, r.status) for r in rows] == [
        ("reminder", "email", ids[1], version, "pending"),
        ("reminder", "webhook", ids[1], version, "pending"),
        ("your_turn", "email", ids[1], version, "pending"),
        ("your_turn", "webhook", ids[1], version, "pending")]
    reminder = as_utc(rows[0].due_at) - before
    assert timedelta(seconds=HOUR * 0.75 - 5) < reminder < timedelta(seconds=HOUR * 0.75 + 60)
    assert rows[2].dedupe == f"your_turn:{told}:{version}:{ids[1]}:email"


async def test_the_invitation_hook(hall: Hall) -> None:
    """The friends feature's hook queues one invitation per channel, once per room; a webhook
    whose host turned private since it was saved is refused at the send, with no request."""
    code, _ = await _room(hall, "turn-based", "iv", channels=False)
    async with hall.store.sessions() as session, session.begin():
        session.add(Player(id="friend", name="Friend", token_hash="friend"))
        await session.flush()
        session.add(NotifySettings(player_id="friend", email="friend@example.org",
                                   email_verified=True, webhook="https://127.0.0.1:9/hook",
                                   digest=False, updated_at=utcnow()))
    assert await hall.notify.invite("friend", code) == 2
    assert await hall.notify.invite("friend", code) == 0
    deadline = time.monotonic() + 60
    while True:
        rows = {r.channel: r for r in await _rows(hall, code) if r.kind == "invite"}
        if all(r.status not in ("pending", "sending") for r in rows.values()):
            break
        assert time.monotonic() < deadline, rows
        await asyncio.sleep(0.05)
    assert rows["webhook"].status == "failed" and "public" in rows["webhook"].error
    assert rows["email"].status == "dropped"  # this hall has no SMTP server
