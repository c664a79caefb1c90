"""The notification package's storage (`app.notify.storage.NotifyStore`), written once in
SQLAlchemy Core for both databases, on the store's own engine. Claims are `FOR UPDATE SKIP
LOCKED` on Postgres (several processes share the outbox, none waits on another's rows); SQLite
ignores the clause and has one process and one writer anyway."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.models import NotifySettings, Outbox, Player, Room, Seat
from app.store.outbox import channels as reached

SETTINGS, OUTBOX = NotifySettings.__table__, Outbox.__table__
SEATS, ROOMS, PLAYERS = Seat.__table__, Room.__table__, Player.__table__
_DUE = (OUTBOX.c.id, OUTBOX.c.kind, OUTBOX.c.channel, OUTBOX.c.player_id, OUTBOX.c.room_code,
        OUTBOX.c.version, OUTBOX.c.seat, OUTBOX.c.attempts, OUTBOX.c.address, OUTBOX.c.due_at)


@dataclass(frozen=True, slots=True)
class SeatFacts:
    status: str
    version: int
    game: str
    player_id: str | None
    connections: int
    absent_since: datetime | None
    names: dict[int, str]


class NotifyPaths:
    """One per process, beside the store (see the module)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        # Single-statement reads, autocommitted (no BEGIN and ROLLBACK around them).
        self.reader = engine.execution_options(isolation_level="AUTOCOMMIT")

    async def channels(self, player_id: str) -> Any:
        async with self.reader.connect() as conn:
            return (await conn.execute(select(
                SETTINGS.c.email, SETTINGS.c.email_verified, SETTINGS.c.webhook,
                SETTINGS.c.digest, SETTINGS.c.verify_token, SETTINGS.c.unsubscribe_token).where(
                    SETTINGS.c.player_id == player_id))).first()

    async def save_channels(self, player_id: str, email: str | None, verified: bool,
                            webhook: str | None, digest: bool, verify_token: str | None,
                            unsubscribe_token: str | None, verify_key: str | None,
                            now: datetime) -> None:
        values = {"email": email, "email_verified": verified, "webhook": webhook,
                  "digest": digest, "verify_token": verify_token,
                  "unsubscribe_token": unsubscribe_token, "updated_at": now}
        async with self.engine.begin() as conn:
            changed = await conn.execute(update(SETTINGS).where(
                SETTINGS.c.player_id == player_id).values(**values))
            if not changed.rowcount:
                await conn.execute(insert(SETTINGS).values(player_id=player_id, **values))
            if email is None or not verified:  # nothing more to the old address, or none
                await conn.execute(update(OUTBOX).where(
                    OUTBOX.c.player_id == player_id, OUTBOX.c.channel == "email",
                    OUTBOX.c.status.in_(("pending", "held"))).values(
                        status="dropped", error="the address changed"))
            if verify_key is not None:
                await conn.execute(insert(OUTBOX).values(
                    dedupe=verify_key, kind="verify", channel="email", player_id=player_id,
                    status="pending", due_at=now, attempts=0, address=email, created_at=now))

    async def verify(self, token: str) -> bool:
        async with self.engine.begin() as conn:
            done = await conn.execute(update(SETTINGS).where(
                SETTINGS.c.verify_token == token, SETTINGS.c.email.is_not(None)).values(
                    email_verified=True, verify_token=None))
        return bool(done.rowcount)

    async def unsubscribe(self, token: str) -> bool:
        async with self.engine.begin() as conn:
            player = await conn.scalar(select(SETTINGS.c.player_id).where(
                SETTINGS.c.unsubscribe_token == token))
            if player is None:
                return False
            await conn.execute(update(SETTINGS).where(SETTINGS.c.player_id == player).values(
                email=None, email_verified=False, verify_token=None, digest=False))
            await conn.execute(update(OUTBOX).where(
                OUTBOX.c.player_id == player, OUTBOX.c.channel == "email",
                OUTBOX.c.status.in_(("pending", "held"))).values(
                    status="dropped", error="unsubscribed"))
        return True

    async def claim(self, now: datetime, until: datetime, limit: int) -> list[Any]:
        due = or_(and_(OUTBOX.c.status == "pending", OUTBOX.c.due_at <= now),
                  and_(OUTBOX.c.status == "sending", OUTBOX.c.claimed_until <= now))
        # A read first: an idle outbox (the usual case) costs each poll one index look-up and
        # no write transaction (on SQLite a write would queue behind the moves' one writer).
        async with self.reader.connect() as conn:
            if await conn.scalar(select(OUTBOX.c.id).where(due).limit(1)) is None:
                return []
        free = select(OUTBOX.c.id).where(due).order_by(OUTBOX.c.due_at).limit(limit) \
            .with_for_update(skip_locked=True)
        async with self.engine.begin() as conn:
            rows = (await conn.execute(update(OUTBOX).where(
                OUTBOX.c.id.in_(free.scalar_subquery())).values(
                    status="sending", claimed_until=until).returning(*_DUE))).all()
        return sorted(rows, key=lambda row: row.due_at)

    async def settle(self, ids: list[int], status: str, now: datetime,
                     address: str | None = None, error: str | None = None) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(OUTBOX).where(OUTBOX.c.id.in_(ids)).values(
                status=status, claimed_until=None, error=error,
                sent_at=now if status == "sent" else None,
                **({"address": address} if address is not None else {})))

    async def retry(self, row_id: int, due_at: datetime, error: str | None,
                    attempt: bool = True) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(OUTBOX).where(OUTBOX.c.id == row_id).values(
                status="pending", claimed_until=None, due_at=due_at, error=error,
                attempts=OUTBOX.c.attempts + (1 if attempt else 0)))

    async def mails_sent(self, player_id: str, address: str,
                         since: datetime) -> tuple[int, int]:
        sent = and_(OUTBOX.c.channel == "email", OUTBOX.c.status == "sent",
                    OUTBOX.c.sent_at >= since)
        async with self.reader.connect() as conn:
            by_player = await conn.scalar(select(func.count()).select_from(OUTBOX).where(
                sent, OUTBOX.c.player_id == player_id))
            by_address = await conn.scalar(select(func.count()).select_from(OUTBOX).where(
                sent, func.lower(OUTBOX.c.address) == address.lower()))
        return by_player or 0, by_address or 0

    async def hold_for_digest(self, row_id: int, player_id: str, now: datetime,
                              digest_due: datetime) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(OUTBOX).where(OUTBOX.c.id == row_id).values(
                status="held", claimed_until=None, due_at=now))
            waiting = await conn.scalar(select(func.count()).select_from(OUTBOX).where(
                OUTBOX.c.player_id == player_id, OUTBOX.c.kind == "digest",
                OUTBOX.c.status.in_(("pending", "sending"))))
            if not waiting:
                await conn.execute(insert(OUTBOX).values(
                    dedupe=Outbox.key("digest", None, row_id, player_id, "email"),
                    kind="digest", channel="email", player_id=player_id, status="pending",
                    due_at=digest_due, attempts=0, created_at=now))

    async def prune(self, before: datetime) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(OUTBOX).where(
                OUTBOX.c.status.in_(("sent", "dropped", "failed")), OUTBOX.c.created_at < before))

    async def held(self, player_id: str) -> list[Any]:
        async with self.reader.connect() as conn:
            return list((await conn.execute(select(*_DUE).where(
                OUTBOX.c.player_id == player_id, OUTBOX.c.status == "held").order_by(
                    OUTBOX.c.id))).all())

    async def seat_facts(self, code: str, seat: int | None) -> SeatFacts | None:
        async with self.reader.connect() as conn:
            room = (await conn.execute(select(ROOMS.c.status, ROOMS.c.version, ROOMS.c.game)
                                       .where(ROOMS.c.code == code))).first()
            if room is None:
                return None
            seats = (await conn.execute(
                select(SEATS.c.seat, SEATS.c.player_id, SEATS.c.connections,
                       SEATS.c.absent_since, PLAYERS.c.name)
                .outerjoin(PLAYERS, PLAYERS.c.id == SEATS.c.player_id)
                .where(SEATS.c.room_code == code))).all()
        mine = next((s for s in seats if s.seat == seat), None)
        return SeatFacts(room.status, room.version, room.game,
                         mine.player_id if mine else None, mine.connections if mine else 0,
                         mine.absent_since if mine else None,
                         {s.seat: s.name for s in seats if s.name is not None})

    async def add(self, player_id: str, kind: str, room_code: str | None,
                  version: int | None, seat: int | None, due_at: datetime,
                  now: datetime) -> int:
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(
                SETTINGS.c.email, SETTINGS.c.email_verified, SETTINGS.c.webhook).where(
                    SETTINGS.c.player_id == player_id))).first()
            ways = [] if row is None else reached(row.email, row.email_verified, row.webhook)
            taken = set(await conn.scalars(select(OUTBOX.c.dedupe).where(OUTBOX.c.dedupe.in_(
                [Outbox.key(kind, room_code, version, player_id, way) for way in ways]))))
            rows = [{"dedupe": key, "kind": kind, "channel": way, "player_id": player_id,
                     "room_code": room_code, "version": version, "seat": seat,
                     "status": "pending", "due_at": due_at, "attempts": 0, "created_at": now}
                    for way in ways
                    if (key := Outbox.key(kind, room_code, version, player_id, way))
                    not in taken]
            if rows:
                await conn.execute(insert(OUTBOX), rows)
        return len(rows)
