"""The socket ledger (`seat_sockets`) loses its index on `origin`, which no statement reads.

Every seat socket that opens inserts a ledger row and every close deletes it, so each index of
the table takes an entry per socket (two per room set up) and bloats with the churn. The one
statement that selects by origin, the reaper's (`SqlTable.reap`: the rows whose process has no
heartbeat, `origin NOT IN (SELECT origin FROM processes)`), scans the table on Postgres and on
SQLite with or without it: an index cannot find what is NOT IN a list. Counts and closes find
their row by its key.

Revision ID: 0020
Revises: 0018
Create Date: 2026-11-29
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0020"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_seat_sockets_origin", table_name="seat_sockets")


def downgrade() -> None:
    op.create_index("ix_seat_sockets_origin", "seat_sockets", ["origin"])
