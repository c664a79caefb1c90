"""Who is watching: one row per open spectator connection, across server processes.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "watchers",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_code", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.ForeignKeyConstraint(["room_code"], ["rooms.code"], ondelete="CASCADE",
                                name="fk_watchers_room_code_rooms"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name="fk_watchers_player_id_players"),
        sa.PrimaryKeyConstraint("id", name="pk_watchers"),
    )
    op.create_index("ix_watchers_room_code", "watchers", ["room_code"])


def downgrade() -> None:
    op.drop_index("ix_watchers_room_code", table_name="watchers")
    op.drop_table("watchers")
