"""`stale_write(reason)`: a statement's way to fail on purpose (Postgres).

Why: the move that ends a game is written in one autocommitted statement that also sets its
raters' ratings, each only if the row still holds the rating read just before
(`app.store.results.pg_rated`). When one does not, the statement must write nothing at all;
plain SQL cannot raise, so the statement calls this function, which raises with its own
SQLSTATE (`results.STALE`), and the store writes the move again on its locked path. SQLite
writes the end of a game in its one transaction and needs nothing.

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-29
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("""
CREATE FUNCTION stale_write(reason text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'stale write: %', reason USING ERRCODE = 'ZS001';
END $$""")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION stale_write(text)")
