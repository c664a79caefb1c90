"""A player on several devices: one token per device (`devices`), link codes, passkeys.

Every player's one token becomes their first device (its id is the player's id, its renewal
time the token's), so every token issued before keeps working with the expiry it had. The
token columns leave `players` (on SQLite by rebuilding the table: `_rebuild_players`).

Revision ID: 0015
Revises: 0013
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _when(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _player(nullable: bool = False) -> sa.Column:
    return sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"),
                     nullable=nullable)


def upgrade() -> None:
    # The tokens wait aside while `players` loses their columns (on SQLite by a rebuild, which
    # would take every row pointing at a player with it, the devices' too).
    op.execute("CREATE TABLE tokens_aside AS SELECT id, token_hash, created_at, "
               "COALESCE(token_renewed_at, created_at) AS renewed_at FROM players")
    if op.get_bind().dialect.name == "sqlite":
        _rebuild_players("id VARCHAR(32) NOT NULL, name VARCHAR(40) NOT NULL, "
                         "created_at DATETIME NOT NULL, CONSTRAINT pk_players PRIMARY KEY (id)",
                         "id, name, created_at")
    else:
        op.drop_constraint("uq_players_token_hash", "players", type_="unique")
        op.drop_column("players", "token_hash")
        op.drop_column("players", "token_renewed_at")
    op.create_table(
        "devices",
        sa.Column("id", sa.String(32), primary_key=True),
        _player(),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("label", sa.String(80), nullable=True),
        _when("created_at"), _when("renewed_at"), _when("last_seen", True),
        _when("revoked_at", True),
        sa.UniqueConstraint("token_hash", name="uq_devices_token_hash"),
    )
    op.create_index("ix_devices_player_id", "devices", ["player_id"])
    op.execute("INSERT INTO devices (id, player_id, token_hash, created_at, renewed_at) "
               "SELECT id, id, token_hash, created_at, renewed_at FROM tokens_aside")
    op.drop_table("tokens_aside")
    op.create_table(
        "link_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        _player(), _when("created_at"), _when("expires_at"), _when("used_at", True),
    )
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(1400), primary_key=True),  # the credential id, base64url
        _player(),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("label", sa.String(80), nullable=True),
        _when("created_at"), _when("last_used", True),
    )
    op.create_index("ix_passkeys_player_id", "passkeys", ["player_id"])
    op.create_table(
        "passkey_challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("challenge", sa.String(128), nullable=False),
        _player(True), _when("expires_at"),
    )


def downgrade() -> None:
    op.drop_table("passkey_challenges")
    op.drop_index("ix_passkeys_player_id", "passkeys")
    op.drop_table("passkeys")
    op.drop_table("link_codes")
    op.add_column("players", sa.Column("token_hash", sa.String(64), nullable=True))
    op.add_column("players", _when("token_renewed_at", True))
    # Each player keeps the token of their first device still signed in; a player signed out
    # everywhere gets a hash no token has.
    op.execute("""UPDATE players SET
        token_hash = COALESCE((SELECT d.token_hash FROM devices d WHERE d.player_id = players.id
                               AND d.revoked_at IS NULL ORDER BY d.created_at LIMIT 1),
                              'signed-out:' || players.id),
        token_renewed_at = (SELECT d.renewed_at FROM devices d WHERE d.player_id = players.id
                            AND d.revoked_at IS NULL ORDER BY d.created_at LIMIT 1)""")
    op.drop_index("ix_devices_player_id", "devices")
    op.drop_table("devices")
    if op.get_bind().dialect.name == "sqlite":
        _rebuild_players("id VARCHAR(32) NOT NULL, name VARCHAR(40) NOT NULL, "
                         "token_hash VARCHAR(64) NOT NULL, created_at DATETIME NOT NULL, "
                         "token_renewed_at DATETIME, CONSTRAINT pk_players PRIMARY KEY (id), "
                         "CONSTRAINT uq_players_token_hash UNIQUE (token_hash)",
                         "id, name, token_hash, created_at, token_renewed_at")
    else:
        op.alter_column("players", "token_hash", nullable=False)
        op.create_unique_constraint("uq_players_token_hash", "players", ["token_hash"])


def _rebuild_players(columns: str, kept: str) -> None:
    """SQLite drops no UNIQUE column, and renaming a table rewrites the references to it
    (Alembic's batch rebuild renames the new one into place). So: the rows copied aside, the
    table dropped and made again under the name the rooms and seats point at, the rows put
    back. Foreign keys wait for the commit, by when every row has its player again: the
    pragma holds for the transaction under way, which Python's sqlite3 opens at the first
    INSERT (not at a CREATE), so it comes after one."""
    op.execute(f"CREATE TABLE players_aside AS SELECT {kept} FROM players WHERE 0")
    op.execute(f"INSERT INTO players_aside SELECT {kept} FROM players")
    op.execute("PRAGMA defer_foreign_keys = ON")
    op.execute("DROP TABLE players")
    op.execute(f"CREATE TABLE players ({columns})")
    op.execute(f"INSERT INTO players ({kept}) SELECT {kept} FROM players_aside")
    op.execute("DROP TABLE players_aside")
