"""Fischer clocks: a bank per seat plus an increment per move (NULL: the per-move clock).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("clock_increment", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("clock_banks", sa.JSON().with_variant(JSONB(), "postgresql"),
                                   nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("clock_banks")
        batch.drop_column("clock_increment")
