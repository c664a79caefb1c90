"""The people package's storage (`app.people.storage.PeopleStore`) in SQLAlchemy: the same
statements on SQLite and Postgres, none of them on the move path. The people package reaches it
only through that protocol; nothing here imports the package."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update

from app.store import orm, snapshots
from app.store.db import make_engine, make_sessionmaker, transaction
from app.store.hub import Hub
from app.store.models import (
    Device,
    LinkCode,
    Passkey,
    PasskeyChallenge,
    Player,
    Room,
    Seat,
    as_utc,
)

DEVICES = Device.__table__
# Finished games listed at most among "Your games" (the newest).
FINISHED_SHOWN = 5


class SqlPeople:
    """`PeopleStore` through SQLAlchemy, on its own engine (connections open only on use)."""

    def __init__(self, url: str, hub: Hub, origin: str) -> None:
        self.engine = make_engine(url)
        self.sessions = make_sessionmaker(self.engine)
        self.hub, self.origin = hub, origin

    async def stop(self) -> None:
        await self.engine.dispose()

    async def player(self, player_id: str) -> Player | None:
        async with self.sessions() as session:
            return await session.get(Player, player_id)

    async def add_device(self, player_id: str, token_hash: str, label: str,
                         at: datetime) -> str:
        device_id = secrets.token_hex(8)
        async with self.engine.begin() as conn:
            await conn.execute(insert(DEVICES).values(
                id=device_id, player_id=player_id, token_hash=token_hash, label=label,
                created_at=at, renewed_at=at, last_seen=at))
        return device_id

    async def devices(self, player_id: str) -> list[Device]:
        async with self.sessions() as session:
            return list(await session.scalars(
                select(Device).where(Device.player_id == player_id,
                                     Device.revoked_at.is_(None))
                .order_by(Device.created_at)))

    async def seen(self, device_id: str, at: datetime) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(DEVICES).where(DEVICES.c.id == device_id)
                               .values(last_seen=at))

    async def sign_out(self, player_id: str, device_ids: Sequence[str] | None,
                       keep: str | None, at: datetime) -> list[str]:
        which = [DEVICES.c.player_id == player_id, DEVICES.c.revoked_at.is_(None)]
        if device_ids is not None:
            which.append(DEVICES.c.id.in_(device_ids))
        if keep is not None:
            which.append(DEVICES.c.id != keep)
        async with self.sessions() as session, transaction(session):
            ids = list(await session.scalars(
                update(DEVICES).where(*which).values(revoked_at=at).returning(DEVICES.c.id)))
            for device_id in ids:
                await self.hub.notify_in(session, f"signout:{device_id}:{self.origin}")
        return ids

    async def add_link(self, player_id: str, code_hash: str, at: datetime,
                       expires_at: datetime) -> None:
        async with self.sessions() as session, transaction(session):
            session.add(LinkCode(code_hash=code_hash, player_id=player_id, created_at=at,
                                 expires_at=expires_at))

    async def take_link(self, code_hash: str, at: datetime) -> tuple[str, str | None]:
        async with self.sessions() as session, transaction(session):
            link = await session.get(LinkCode, code_hash)
            if link is None:
                return "unknown", None
            if link.used_at is not None:
                return "used", None
            if as_utc(link.expires_at) <= at:
                return "expired", None
            # Compare-and-set: of two devices racing with one code, one gets it.
            taken = await session.execute(
                update(LinkCode).where(LinkCode.code_hash == code_hash,
                                       LinkCode.used_at.is_(None)).values(used_at=at))
            return ("ok", link.player_id) if taken.rowcount == 1 else ("used", None)

    async def add_challenge(self, challenge: str, player_id: str | None,
                            expires_at: datetime) -> str:
        challenge_id = secrets.token_hex(12)
        async with self.sessions() as session, transaction(session):
            session.add(PasskeyChallenge(id=challenge_id, challenge=challenge,
                                         player_id=player_id, expires_at=expires_at))
        return challenge_id

    async def take_challenge(self, challenge_id: str) -> PasskeyChallenge | None:
        async with self.sessions() as session, transaction(session):
            found = await session.get(PasskeyChallenge, challenge_id)
            if found is None:
                return None
            gone = await session.execute(delete(PasskeyChallenge).where(
                PasskeyChallenge.id == challenge_id))
            return found if gone.rowcount == 1 else None

    async def add_passkey(self, credential_id: str, player_id: str, public_key: bytes,
                          sign_count: int, label: str, at: datetime) -> None:
        async with self.sessions() as session, transaction(session):
            session.add(Passkey(id=credential_id, player_id=player_id, public_key=public_key,
                                sign_count=sign_count, label=label, created_at=at))

    async def passkey(self, credential_id: str) -> Passkey | None:
        async with self.sessions() as session:
            return await session.get(Passkey, credential_id)

    async def passkey_ids(self, player_id: str) -> list[str]:
        async with self.sessions() as session:
            return list(await session.scalars(select(Passkey.id).where(
                Passkey.player_id == player_id)))

    async def passkey_used(self, credential_id: str, sign_count: int, at: datetime) -> None:
        async with self.sessions() as session, transaction(session):
            await session.execute(update(Passkey).where(Passkey.id == credential_id)
                                  .values(sign_count=sign_count, last_used=at))

    async def player_rooms(self, player_id: str) -> list[tuple[Room, dict[str, Any]]]:
        async with self.sessions() as session:
            mine = select(Room).join(Seat, Seat.room_code == Room.code).where(
                Seat.player_id == player_id)
            found = [*await session.scalars(mine.where(
                Room.status.in_(("lobby", "active", "errored")))),
                *await session.scalars(mine.where(Room.status == "finished")
                                       .order_by(Room.updated_at.desc())
                                       .limit(FINISHED_SHOWN))]
            await snapshots.resolve(session, found)
            return [(room, await orm.room_payload(session, room)) for room in found]

