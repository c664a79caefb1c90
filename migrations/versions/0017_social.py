"""Ratings, results, friends and invitations (app/social/).

`ratings`: one row per rater (a player id, or `bot:<level>`) and game, its Plackett-Luce mu and
sigma. `results`: one row per seat of every rated game, written in the transaction that ends
the game, with the rating before and after; no foreign keys, so a result outlives its room
(rooms are swept after their retention) and is the record the ratings are rebuilt from.
`friends`: who added whom. `invites`: an invitation to a room, shown in the invitee's lobby.

Revision ID: 0017
Revises: 0013
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("rater", sa.String(48), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("rater", "game", name=op.f("pk_ratings")),
    )
    op.create_table(
        "results",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_code", sa.String(16), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("rater", sa.String(48), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("standin", sa.Boolean(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_results")),
        sa.UniqueConstraint("room_code", "seat", name="uq_results_room_seat"),
    )
    op.create_index("ix_results_player_id", "results", ["player_id"])
    op.create_index("ix_results_rater_game", "results", ["rater", "game"])
    op.create_table(
        "friends",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("friend_id", sa.String(32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_friends_player_id_players")),
        sa.ForeignKeyConstraint(["friend_id"], ["players.id"],
                                name=op.f("fk_friends_friend_id_players")),
        sa.PrimaryKeyConstraint("player_id", "friend_id", name=op.f("pk_friends")),
    )
    op.create_index("ix_friends_friend_id", "friends", ["friend_id"])
    op.create_table(
        "invites",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("to_id", sa.String(32), nullable=False),
        sa.Column("from_id", sa.String(32), nullable=False),
        sa.Column("room_code", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["to_id"], ["players.id"], name=op.f("fk_invites_to_id_players")),
        sa.ForeignKeyConstraint(["from_id"], ["players.id"],
                                name=op.f("fk_invites_from_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invites")),
    )
    op.create_index("ix_invites_to_id", "invites", ["to_id"])


def downgrade() -> None:
    op.drop_index("ix_invites_to_id", table_name="invites")
    op.drop_table("invites")
    op.drop_index("ix_friends_friend_id", table_name="friends")
    op.drop_table("friends")
    op.drop_index("ix_results_rater_game", table_name="results")
    op.drop_index("ix_results_player_id", table_name="results")
    op.drop_table("results")
    op.drop_table("ratings")
