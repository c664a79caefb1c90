"""Moves are keyed by (room, version): the serial `id` and its index go.

Every move inserts a row, and every index of `moves` takes an entry with it. `id` was read by
nothing (a room's moves are read by room and version, a retry by room, seat and client id),
yet it cost a sequence step and a third index entry per move. (room_code, version) was
already unique: it becomes the primary key.

Revision ID: 0021
Revises: 0018
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE moves DROP CONSTRAINT pk_moves")
        op.execute("ALTER TABLE moves DROP COLUMN id")
        op.execute("ALTER TABLE moves DROP CONSTRAINT uq_moves_room_version")
        op.execute("ALTER TABLE moves ADD CONSTRAINT pk_moves PRIMARY KEY (room_code, version)")
        return
    with op.batch_alter_table("moves") as batch:
        batch.drop_constraint("uq_moves_room_version", type_="unique")
        batch.drop_constraint("pk_moves", type_="primary")
        batch.drop_column("id")
        batch.create_primary_key("pk_moves", ["room_code", "version"])


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE moves DROP CONSTRAINT pk_moves")
        op.execute("ALTER TABLE moves ADD COLUMN id SERIAL")
        op.execute("ALTER TABLE moves ADD CONSTRAINT pk_moves PRIMARY KEY (id)")
        op.execute("ALTER TABLE moves ADD CONSTRAINT uq_moves_room_version "
                   "UNIQUE (room_code, version)")
        return
    with op.batch_alter_table("moves", recreate="always") as batch:
        batch.drop_constraint("pk_moves", type_="primary")
        batch.add_column(sa.Column("id", sa.Integer(), nullable=True))
        batch.create_primary_key("pk_moves", ["id"])
        batch.create_unique_constraint("uq_moves_room_version", ["room_code", "version"])
