"""Presence: process heartbeats, and the process of every seat socket and spectator, so that a
dead process's connections can be given back.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "processes",
        sa.Column("origin", sa.String(16), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("origin", name="pk_processes"),
    )
    op.create_table(
        "seat_sockets",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("origin", sa.String(16), nullable=False),
        sa.Column("room_code", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_seat_sockets"),
    )
    op.create_index("ix_seat_sockets_origin", "seat_sockets", ["origin"])
    with op.batch_alter_table("watchers") as batch:
        batch.add_column(sa.Column("origin", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("watchers") as batch:
        batch.drop_column("origin")
    op.drop_index("ix_seat_sockets_origin", table_name="seat_sockets")
    op.drop_table("seat_sockets")
    op.drop_table("processes")
