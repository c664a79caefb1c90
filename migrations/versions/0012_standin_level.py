"""The level of the bot that stands in for a player in this room: `rooms.standin_level`.

A platform option chosen when the room is made (beside the turn clock, not among the game's
options): the bot a vote, a leave or the admin puts in a seat plays at this level. NULL on rooms
made before this revision: they keep the server's BOT_LEVEL.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("standin_level", sa.String(16), nullable=True))


def downgrade() -> None:
    op.drop_column("rooms", "standin_level")
