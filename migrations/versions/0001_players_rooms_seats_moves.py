"""Players, rooms, seats and the append-only move log.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _when(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        _when("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("token_hash", name="uq_players_token_hash"),
    )
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("host_id", sa.String(32), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", JSON, nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("next_room", sa.String(16), nullable=True),
        _when("created_at"),
        _when("updated_at"),
        _when("last_move_at", nullable=True),
        sa.ForeignKeyConstraint(["host_id"], ["players.id"], name="fk_rooms_host_id_players"),
        sa.PrimaryKeyConstraint("code", name="pk_rooms"),
    )
    op.create_index("ix_rooms_status", "rooms", ["status"])
    op.create_table(
        "seats",
        sa.Column("room_code", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("bot", sa.String(40), nullable=True),
        sa.Column("connections", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["room_code"], ["rooms.code"], ondelete="CASCADE",
                                name="fk_seats_room_code_rooms"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_seats_player_id_players"),
        sa.PrimaryKeyConstraint("room_code", "seat", name="pk_seats"),
    )
    op.create_index("ix_seats_player_id", "seats", ["player_id"])
    op.create_table(
        "moves",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_code", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("client_id", sa.String(64), nullable=False),
        sa.Column("move", JSON, nullable=False),
        sa.Column("events", JSON, nullable=False),
        _when("created_at"),
        sa.ForeignKeyConstraint(["room_code"], ["rooms.code"], ondelete="CASCADE",
                                name="fk_moves_room_code_rooms"),
        sa.PrimaryKeyConstraint("id", name="pk_moves"),
        sa.UniqueConstraint("room_code", "version", name="uq_moves_room_version"),
        sa.UniqueConstraint("room_code", "seat", "client_id", name="uq_moves_room_seat_client"),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_index("ix_seats_player_id", table_name="seats")
    op.drop_table("seats")
    op.drop_index("ix_rooms_status", table_name="rooms")
    op.drop_table("rooms")
    op.drop_table("players")
