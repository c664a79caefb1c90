"""Room chat: the chat_messages table and the host's switch muting spectators.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_code", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.String(500), nullable=False),
        sa.ForeignKeyConstraint(["room_code"], ["rooms.code"], ondelete="CASCADE",
                                name="fk_chat_messages_room_code_rooms"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name="fk_chat_messages_player_id_players"),
        sa.PrimaryKeyConstraint("id", name="pk_chat_messages"),
    )
    op.create_index("ix_chat_messages_room_code", "chat_messages", ["room_code"])
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("spectators_muted", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("spectators_muted")
    op.drop_index("ix_chat_messages_room_code", table_name="chat_messages")
    op.drop_table("chat_messages")
