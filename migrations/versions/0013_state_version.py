"""`rooms.state_version`: the version `rooms.state` holds when it is older than the room's.

Postgres writes the whole state only with some moves (`app/store/snapshots.py`); the moves
after `state_version` rebuild it. NULL (every row before this revision, and SQLite's always):
the state is at `rooms.version`.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("state_version", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("rooms", "state_version")
