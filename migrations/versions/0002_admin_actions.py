"""The admin audit log: who did what to which room, when, at which version.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "admin_actions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(40), nullable=False),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("room_code", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=True),
        sa.Column("detail", JSON, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_admin_actions"),
    )
    op.create_index("ix_admin_actions_room_code", "admin_actions", ["room_code"])


def downgrade() -> None:
    op.drop_index("ix_admin_actions_room_code", table_name="admin_actions")
    op.drop_table("admin_actions")
