"""The people package's own tables (schema in migrations/versions/0015_devices.py); the
`devices` table is the store's (`app.store.models.Device`), since every token is read there."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from app.store.models import Base, utcnow


class LinkCode(Base):
    """A short code that signs one more device in as the player; single use, short lived.
    Only its hash is kept, as for tokens."""

    __tablename__ = "link_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Passkey(Base):
    """A WebAuthn credential of a player: its id (base64url), public key and signature count."""

    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(1400), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                           index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(Integer)
    label: Mapped[str | None] = mapped_column(String(80), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PasskeyChallenge(Base):
    """A WebAuthn challenge handed out and not yet answered: taken (deleted) by its answer, so
    it works once, and refused past `expires_at`. `player_id`: the player adding a passkey
    (None: a sign-in, whose player the passkey names)."""

    __tablename__ = "passkey_challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    challenge: Mapped[str] = mapped_column(String(128))
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                                  nullable=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
