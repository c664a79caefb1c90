"""The tables: players, rooms, seats and the append-only move log (schema owned by Alembic)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    event,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.orm.attributes import flag_modified, get_history
from sqlalchemy.orm.base import PASSIVE_NO_INITIALIZE

from app.core.outbox import outbox_key

# The rows' default time. Both helpers stay importable from here: the store's modules and the
# tests take them with the rows.
from app.utc import as_utc as as_utc
from app.utc import utcnow

JsonType = JSON().with_variant(JSONB(), "postgresql")
SEATED = "player_id IS NOT NULL"  # the seats the player indexes hold

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Player(Base):
    __tablename__ = "players"
    # The token fields below are not columns: a player has a token per device (`Device`).
    __allow_unmapped__ = True

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The device whose token named this player (app/store/tokens.py), or, for a new player, the
    # first device's token (`add_player` makes it): its hash, id and renewal time (the token
    # expires TOKEN_TTL_DAYS after it; None: count from created_at).
    token_hash: str | None = None
    device_id: str | None = None
    device_label: str | None = None
    token_renewed_at: datetime | None = None
    revoked_at: datetime | None = None  # the device was signed out: its token is refused


class Device(Base):
    """One signed-in device of a player: its own token (hashed), renewed on its own, and
    signed out (`revoked_at`) without touching the player's other devices."""

    __tablename__ = "devices"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                           index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str | None] = mapped_column(String(80), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    renewed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_seen: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Signed out: the token is refused (401 `signed_out`); the row stays so that it can say so.
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Room(Base):
    __tablename__ = "rooms"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JsonType)
    status: Mapped[str] = mapped_column(String(16), index=True)
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    private: Mapped[bool] = mapped_column(Boolean, default=True)
    seed: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True)
    # The version `state` is at when older than `version` (None: at `version`). Postgres writes
    # the state only with some moves; the moves after this one rebuild it (`snapshots`).
    state_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    next_room: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow,
                                                 onupdate=utcnow)
    last_move_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    spectators_muted: Mapped[bool] = mapped_column(Boolean, default=False)
    # Seconds each move may take (None: no clock). The deadline is last_move_at + turn_clock,
    # so it lives in the database and survives restarts with no extra bookkeeping.
    turn_clock: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Fischer clock (None: per-move clock): turn_clock is then each seat's starting bank, and a
    # seat gains this many seconds per move it makes. The banks, in seconds left as of
    # last_move_at, are kept by the move pipeline: {"<seat>": seconds}.
    clock_increment: Mapped[int | None] = mapped_column(Integer, nullable=True)
    clock_banks: Mapped[dict[str, float] | None] = mapped_column(JsonType, nullable=True)
    # The level of a bot that stands in for a player here (a vote, a leave, the admin), chosen
    # when the room is made; None on rooms older than migration 0012: the server's BOT_LEVEL.
    standin_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # "live" or "turn-based" (a game over days: nobody is away, the clock always runs, players
    # are told by mail or webhook); None on rooms older than migration 0016: live.
    pace: Mapped[str | None] = mapped_column(String(16), nullable=True)


@event.listens_for(Room.state, "set")
def _state_is_current(room: Room, value: Any, old: Any, initiator: Any) -> None:
    """Whoever sets a room's state through the ORM (a start, a take-back, a rollback) sets it
    at the room's version: the older snapshot and its tail no longer apply."""
    room.state_version = None


@event.listens_for(Room, "before_update")
def _state_written_with_its_version(mapper: Any, connection: Any, room: Room) -> None:
    """The ORM leaves out a value set equal to the one loaded; a cleared `state_version`
    says the column holds the state at the room's version, so the state is written with it.
    The history is read with `get_history` (without loading, as before), not through
    `inspect(room).attrs`: that memoises on the instance's state an AttributeState per column,
    each pointing back at it, a cycle of ~25 objects that outlives the room and that the
    collector may freeze (app/ops/collector.py)."""
    if (get_history(room, "state_version", passive=PASSIVE_NO_INITIALIZE).deleted
            and room.state_version is None):
        flag_modified(room, "state")


class Seat(Base):
    __tablename__ = "seats"
    # One seat per player per room. Seats with no player (empty, or a bot's) are in neither
    # player index: only statements naming a player read them, and NULLs never clash (0023).
    __table_args__ = (
        Index("uq_seats_room_player", "room_code", "player_id", unique=True,
              postgresql_where=text(SEATED), sqlite_where=text(SEATED)),
        Index("ix_seats_player_id", "player_id",
              postgresql_where=text(SEATED), sqlite_where=text(SEATED)),
    )

    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"),
                                           primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    connections: Mapped[int] = mapped_column(Integer, default=0)
    # When the seat's last connection closed (or the game started without one): the grace
    # period before the others may vote a bot in runs from here. None while connected.
    absent_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The player a bot stands in for after a vote (or the admin): they may take the seat back.
    replaced_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)


class SeatVote(Base):
    """One player's vote to hand an absent seat to a bot; counts only for the current absence."""

    __tablename__ = "seat_votes"

    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"),
                                           primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    voter_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Handover(Base):
    """A seat changing hands mid-game: a bot in for an absent player ("bot"), or back ("back").

    Kept with the room so that the log and the banner can say who was replaced, and why, to a
    player who comes back later, after a reload or a restart."""

    __tablename__ = "handovers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"),
                                           index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    cause: Mapped[str] = mapped_column(String(8))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))


class MoveRow(Base):
    __tablename__ = "moves"
    __table_args__ = (
        UniqueConstraint("room_code", "seat", "client_id", name="uq_moves_room_seat_client"),
    )

    # Keyed by room and version (migration 0021): no serial id, one index fewer per move. No
    # foreign key (migration 0022): only a write of the room inserts a move, and the sweep that
    # deletes rooms deletes their moves.
    room_code: Mapped[str] = mapped_column(String(16), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    client_id: Mapped[str] = mapped_column(String(64))
    move: Mapped[dict[str, Any]] = mapped_column(JsonType)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JsonType)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Who made it, as the seat was held then ({"name", "bot", "via"}: app/core/movelog.py);
    # None on moves older than migration 0011.
    by: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True)


class AdminAction(Base):
    """The audit log: every admin action on a room, kept even after the room is gone."""

    __tablename__ = "admin_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    actor: Mapped[str] = mapped_column(String(40))
    action: Mapped[str] = mapped_column(String(24))
    room_code: Mapped[str] = mapped_column(String(16), index=True)
    version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    detail: Mapped[dict[str, Any]] = mapped_column(JsonType)


class ChatMessage(Base):
    """One chat line in a room, kept with the room. `seat` None: said by a spectator."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"),
                                           index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    name: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(String(500))


class Watcher(Base):
    """One open spectator connection, in any process: who is watching a room.

    Like `Seat.connections`, a process killed with sockets open leaves its rows until the room
    is gone (the rows cascade with it)."""

    __tablename__ = "watchers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code", ondelete="CASCADE"),
                                           index=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    # The process holding the socket, so that a dead process's rows can be reaped.
    origin: Mapped[str | None] = mapped_column(String(16), nullable=True)


class Process(Base):
    """A running server process and its last heartbeat (app/table/presence.py)."""

    __tablename__ = "processes"

    origin: Mapped[str] = mapped_column(String(16), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatSocket(Base):
    """One open seat socket and the process holding it: what a dead process's counts were.

    No foreign key to rooms on purpose: checking one would share-lock the room row, and a
    socket opening while the host starts the game (room locked, seats updated) would deadlock.
    No index but the key: a row is written and deleted per socket, and the reaper's NOT IN on
    `origin` scans the table whatever its indexes (migration 0023).
    """

    __tablename__ = "seat_sockets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    origin: Mapped[str] = mapped_column(String(16))
    room_code: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


# -- the people package's tables (app/people/, migration 0015) ---------------------------

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
class NotifySettings(Base):
    """A player's notification channels (app/notify/): an e-mail address (used only once
    verified), a webhook URL, and whether mails come as a daily digest. The tokens of the
    verification link and the unsubscribe link (which every mail carries, so it must be
    readable) grant nothing but that one change to this row."""

    __tablename__ = "notify_settings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                           primary_key=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False)
    webhook: Mapped[str | None] = mapped_column(String(2000), nullable=True)
    digest: Mapped[bool] = mapped_column(Boolean, default=False)
    verify_token: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    unsubscribe_token: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Outbox(Base):
    """A notification due (the transactional outbox, app/notify/): written in the transaction
    that makes it due (a move, a settings change), sent by a worker in any process. `dedupe`
    ("<kind>:<room>:<version>:<player>:<channel>") makes each one at most one row."""

    __tablename__ = "notify_outbox"
    __table_args__ = (Index("ix_notify_outbox_due", "status", "due_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    dedupe: Mapped[str] = mapped_column(String(160), unique=True)
    kind: Mapped[str] = mapped_column(String(16))  # verify, your_turn, reminder, end, invite
    channel: Mapped[str] = mapped_column(String(8))  # email, webhook
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                           index=True)
    room_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # pending (to send at due_at), held (for the player's digest), sent, dropped (no longer
    # true, or the player is looking), failed (out of attempts).
    status: Mapped[str] = mapped_column(String(8), default="pending")
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # A worker's claim: nobody else takes the row before then (a worker killed mid-send
    # leaves it to be taken again once this passes).
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                           nullable=True)
    address: Mapped[str | None] = mapped_column(String(254), nullable=True)  # where it went
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True,
                                                     index=True)

    # The row's `dedupe` (Postgres's move statement spells it the same way).
    key = staticmethod(outbox_key)


# -- app/social/: ratings, results, friends, invitations (migration 0017) ---------------------


class Rating(Base):
    """A rater's Plackett-Luce rating in one game: a player id, or `bot:<level>` for the bots."""

    __tablename__ = "ratings"

    rater: Mapped[str] = mapped_column(String(48), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)


class Result(Base):
    """One seat of a rated game, written in the transaction that ended it (no foreign key: it
    outlives its room). `standin`: a bot played this seat for part of the game."""

    __tablename__ = "results"
    __table_args__ = (UniqueConstraint("room_code", "seat", name="uq_results_room_seat"),
                      Index("ix_results_rater_game", "rater", "game"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(String(16))
    game: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int] = mapped_column(Integer)
    rater: Mapped[str] = mapped_column(String(48))
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    rank: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    standin: Mapped[bool] = mapped_column(Boolean)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Friend(Base):
    """`player_id` added `friend_id` as a friend (one way: it lets the friend see the
    player's games, `app/social/privacy.py`)."""

    __tablename__ = "friends"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    friend_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True,
                                           index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Invite(Base):
    """An invitation to a room, shown in the invitee's lobby."""

    __tablename__ = "invites"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    to_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    from_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    room_code: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
