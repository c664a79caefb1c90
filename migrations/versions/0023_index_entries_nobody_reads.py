"""Index entries no statement reads are no longer written: the socket ledger's `origin`, and
the seats' player indexes for seats with no player.

Every seat socket that opens inserts a ledger row (`seat_sockets`) and every close deletes it,
so each index of that table takes an entry per socket (two per room set up) and bloats with the
churn. The one statement that selects by origin, the reaper's (`SqlTable.reap`: the rows whose
process has no heartbeat, `origin NOT IN (SELECT origin FROM processes)`), scans the table on
Postgres and on SQLite with or without the index: an index cannot find what is NOT IN a list.
Counts and closes find their row by its key.

A room is made with all its seats, the empty ones with no player, and bots' seats have none:
each put a NULL in `ix_seats_player_id` and in `uq_seats_room_player`, which only statements
naming a player (`player_id = …`) read, and NULLs never clash in a unique index. Both indexes
now leave those seats out, so a two-player room's set-up writes two index entries fewer; a
seat taken gets its entries then, as before. The statements that read seats by room alone use
the key (`pk_seats`).

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEATED = "player_id IS NOT NULL"
# name, columns, unique
PLAYER_INDEXES = (("ix_seats_player_id", ["player_id"], False),
                  ("uq_seats_room_player", ["room_code", "player_id"], True))


def upgrade() -> None:
    op.drop_index("ix_seat_sockets_origin", table_name="seat_sockets")
    for name, columns, unique in PLAYER_INDEXES:
        op.drop_index(name, table_name="seats")
        op.create_index(name, "seats", columns, unique=unique,
                        postgresql_where=sa.text(SEATED), sqlite_where=sa.text(SEATED))


def downgrade() -> None:
    for name, columns, unique in PLAYER_INDEXES:
        op.drop_index(name, table_name="seats")
        op.create_index(name, "seats", columns, unique=unique)
    op.create_index("ix_seat_sockets_origin", "seat_sockets", ["origin"])
