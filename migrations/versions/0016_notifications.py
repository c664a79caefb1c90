"""Turn-based rooms and notifications: `rooms.pace`, `notify_settings`, `notify_outbox`.

`rooms.pace` is "live" or "turn-based" (NULL: a room made before this revision, live). A
player's channels live in `notify_settings`; `notify_outbox` is the transactional outbox the
notification workers claim (app/notify/, docs/architecture.md "Notifications").

Revision ID: 0016
Revises: 0013
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column("rooms", sa.Column("pace", sa.String(16), nullable=True))
    op.create_table(
        "notify_settings",
        sa.Column("player_id", sa.String(32),
                  sa.ForeignKey("players.id", ondelete="CASCADE",
                                name="fk_notify_settings_player_id_players"), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("email_verified", sa.Boolean(), nullable=False),
        sa.Column("webhook", sa.String(2000), nullable=True),
        sa.Column("digest", sa.Boolean(), nullable=False),
        sa.Column("verify_token", sa.String(64), nullable=True),
        sa.Column("unsubscribe_token", sa.String(64), nullable=True),
        sa.Column("updated_at", _WHEN, nullable=False),
        sa.PrimaryKeyConstraint("player_id", name="pk_notify_settings"),
        sa.UniqueConstraint("verify_token", name="uq_notify_settings_verify_token"),
        sa.UniqueConstraint("unsubscribe_token", name="uq_notify_settings_unsubscribe_token"),
    )
    op.create_table(
        "notify_outbox",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("dedupe", sa.String(160), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("channel", sa.String(8), nullable=False),
        sa.Column("player_id", sa.String(32),
                  sa.ForeignKey("players.id", ondelete="CASCADE",
                                name="fk_notify_outbox_player_id_players"), nullable=False),
        sa.Column("room_code", sa.String(16), nullable=True),
        sa.Column("version", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("due_at", _WHEN, nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("claimed_until", _WHEN, nullable=True),
        sa.Column("address", sa.String(254), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("sent_at", _WHEN, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_notify_outbox"),
        sa.UniqueConstraint("dedupe", name="uq_notify_outbox_dedupe"),
    )
    op.create_index("ix_notify_outbox_due", "notify_outbox", ["status", "due_at"])
    op.create_index("ix_notify_outbox_player_id", "notify_outbox", ["player_id"])
    op.create_index("ix_notify_outbox_sent_at", "notify_outbox", ["sent_at"])


def downgrade() -> None:
    op.drop_table("notify_outbox")
    op.drop_table("notify_settings")
    op.drop_column("rooms", "pace")
