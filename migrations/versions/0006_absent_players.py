"""Absent players: when a seat went quiet, votes to hand it to a bot, and seats changing hands.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("absent_since", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("replaced_id", sa.String(32), nullable=True))
        batch.create_foreign_key("fk_seats_replaced_id_players", "players", ["replaced_id"],
                                 ["id"])
    op.create_table(
        "seat_votes",
        sa.Column("room_code", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("voter_id", sa.String(32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["room_code"], ["rooms.code"], ondelete="CASCADE",
                                name="fk_seat_votes_room_code_rooms"),
        sa.ForeignKeyConstraint(["voter_id"], ["players.id"],
                                name="fk_seat_votes_voter_id_players"),
        sa.PrimaryKeyConstraint("room_code", "seat", "voter_id", name="pk_seat_votes"),
    )
    op.create_table(
        "handovers",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_code", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("cause", sa.String(8), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["room_code"], ["rooms.code"], ondelete="CASCADE",
                                name="fk_handovers_room_code_rooms"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name="fk_handovers_player_id_players"),
        sa.PrimaryKeyConstraint("id", name="pk_handovers"),
    )
    op.create_index("ix_handovers_room_code", "handovers", ["room_code"])


def downgrade() -> None:
    op.drop_index("ix_handovers_room_code", table_name="handovers")
    op.drop_table("handovers")
    op.drop_table("seat_votes")
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("fk_seats_replaced_id_players", type_="foreignkey")
        batch.drop_column("replaced_id")
        batch.drop_column("absent_since")
