"""One seat per player per room, enforced by the database (issue 11).

The join path already holds the room's lock; this makes a double seat impossible whatever
path writes seats next. Seats that break the rule in older data are given up first: a player
keeps their lowest seat; the others go to a bot in a game in progress, else become empty.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DOUBLE = ("seats.player_id IS NOT NULL AND EXISTS (SELECT 1 FROM seats AS other "
          "WHERE other.room_code = seats.room_code AND other.player_id = seats.player_id "
          "AND other.seat < seats.seat)")
ACTIVE = "(SELECT status FROM rooms WHERE rooms.code = seats.room_code) = 'active'"


def upgrade() -> None:
    op.execute(f"UPDATE seats SET bot = 'random' WHERE {DOUBLE} AND {ACTIVE}")
    op.execute(f"UPDATE seats SET player_id = NULL, connections = 0 WHERE {DOUBLE}")
    op.create_index("uq_seats_room_player", "seats", ["room_code", "player_id"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_seats_room_player", table_name="seats")
