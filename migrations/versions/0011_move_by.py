"""Who made each move, as the seat was held then: `moves.by` ({"name", "bot", "via"}).

Written with the move by both stores (issue 23): the log must not relabel a bot's moves when
the player reclaims the seat, nor a player's when the admin hands the seat to a bot. NULL on
moves made before this revision (the log then falls back to the room's handovers).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("moves", sa.Column("by", sa.JSON().with_variant(JSONB(), "postgresql"),
                                     nullable=True))


def downgrade() -> None:
    op.drop_column("moves", "by")
