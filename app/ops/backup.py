"""Backups that restore: `python -m app.ops.backup create [--dir DIR]` and
`python -m app.ops.backup restore FILE` (`make backup`, `make restore FILE=…`), for the
database `DATABASE_URL` names.

SQLite: SQLite's online backup API (`sqlite3.Connection.backup`) copies the database while the
server runs and writes, as one consistent snapshot (the copy is made in one step, under a read
transaction, so no half-written move is in it). Restore copies a backup back the same way; stop
the server first (it holds the rooms it serves in memory).
Postgres: `pg_dump --format=custom` (one consistent snapshot, taken without stopping anyone)
and `pg_restore --clean --if-exists` into the database named (create an empty one first for a
fresh start); the password travels in `PGPASSWORD`, never in a command line.

Which tool is the database's own business, so this module (a tool run beside the server, not a
part of it) looks at the URL's scheme itself; nothing of the server calls it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote, urlsplit

from app.config import ROOT, get_settings


class BackupFailed(RuntimeError):
    """A database tool failed or is missing; the message says which and why."""


def _sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL (`sqlite+aiosqlite:///path`), None for any other database."""
    scheme, _, rest = url.partition("://")
    if scheme.split("+")[0] != "sqlite":
        return None
    return Path(rest[1:] if rest.startswith("/") else rest)


def _pg_env(url: str) -> dict[str, str]:
    """libpq's variables for a Postgres URL: no password on a command line."""
    parts = urlsplit(url.replace("+asyncpg", "", 1))
    env = {**os.environ, "PGDATABASE": unquote(parts.path.lstrip("/")),
           "PGHOST": parts.hostname or "localhost", "PGPORT": str(parts.port or 5432)}
    if parts.username:
        env["PGUSER"] = unquote(parts.username)
    if parts.password:
        env["PGPASSWORD"] = unquote(parts.password)
    return env


def _run(tool: str, *args: str, env: dict[str, str]) -> None:
    if shutil.which(tool) is None:
        raise BackupFailed(f"{tool} is not installed (Debian: apt-get install "
                           "postgresql-client, of the server's major version or newer)")
    done = subprocess.run([tool, *args], env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupFailed(f"{tool} failed ({done.returncode}): {done.stderr.strip()}")


def create(url: str, folder: Path) -> Path:
    """A backup of the database at `url` in `folder`; its path."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    source = _sqlite_path(url)
    if source is not None:
        target = folder / f"ziggurat-{stamp}.sqlite3"
        _sqlite_copy(source, target, must_exist=True)
        return target
    target = folder / f"ziggurat-{stamp}.dump"
    _run("pg_dump", "--format=custom", "--no-owner", "--no-privileges", f"--file={target}",
         env=_pg_env(url))
    return target


def restore(url: str, backup: Path) -> None:
    """Put `backup` into the database at `url`, replacing what it holds."""
    if not backup.is_file():
        raise BackupFailed(f"there is no backup file {backup}")
    target = _sqlite_path(url)
    if target is not None:
        target.parent.mkdir(parents=True, exist_ok=True)
        _sqlite_copy(backup, target, must_exist=True)
        return
    _run("pg_restore", "--clean", "--if-exists", "--no-owner", "--no-privileges",
         "--single-transaction", "--exit-on-error", f"--dbname={_pg_env(url)['PGDATABASE']}",
         str(backup), env=_pg_env(url))


def _sqlite_copy(source: Path, target: Path, must_exist: bool) -> None:
    """SQLite's online backup API: the whole database in one step, consistent while others
    write (a reader in WAL mode blocks nobody)."""
    if must_exist and not source.is_file():
        raise BackupFailed(f"there is no SQLite database at {source}")
    with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as src, \
            sqlite3.connect(target) as dst:
        src.backup(dst)
    src.close()
    dst.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.ops.backup", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    verbs = parser.add_subparsers(dest="verb", required=True)
    make = verbs.add_parser("create", help="back up the database DATABASE_URL names")
    make.add_argument("--dir", type=Path, default=ROOT / "backups")
    back = verbs.add_parser("restore", help="replace that database's contents with a backup")
    back.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    url = get_settings().async_database_url
    try:
        if args.verb == "create":
            print(create(url, args.dir))
        else:
            restore(url, args.file)
            print(f"restored {args.file}")
    except BackupFailed as exc:
        print(f"backup: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
