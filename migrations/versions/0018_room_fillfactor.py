"""Rooms keep room on their pages for their next versions (Postgres `fillfactor`).

A room row is written with every move (~1.5 KB: its state). At the default fillfactor of 100
a page holds five rooms and no space, so two moves out of three made a new row version on
another page: every index of `rooms` took a new entry and vacuum had dead ones to clear. With
space left on each page, the new version goes beside the old one (a HOT update) and the
indexes are not touched. SQLite has no such setting.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROOMS_FILLFACTOR = 40


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"ALTER TABLE rooms SET (fillfactor = {ROOMS_FILLFACTOR})")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE rooms RESET (fillfactor)")
