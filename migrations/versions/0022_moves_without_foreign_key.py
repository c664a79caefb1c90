"""Moves no longer check their room by foreign key: the room sweep deletes a room's moves.

Postgres checks a foreign key with a trigger that runs a query per inserted row: on a move's
statement it cost as much as the insert itself (EXPLAIN ANALYZE: 0.04-0.07 ms of a 0.2 ms
statement). A move is only ever inserted by the statement that writes its room (the insert is
joined to the room's update, or runs in the same transaction after it), so the key could never
refuse one; what the key also did, deleting a room's moves with the room, the sweep
(`SharedStore.delete_closed_rooms`) now does itself.

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-29
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_constraint("fk_moves_room_code_rooms", type_="foreignkey")


def downgrade() -> None:
    op.execute("DELETE FROM moves WHERE room_code NOT IN (SELECT code FROM rooms)")
    with op.batch_alter_table("moves") as batch:
        batch.create_foreign_key("fk_moves_room_code_rooms", "rooms", ["room_code"], ["code"],
                                 ondelete="CASCADE")
