"""Bring the schema to head with Alembic, as the server does on start.

The server migrates in a short-lived child process (`upgrade_to_head_async`): Alembic, Mako,
Pygments and the migration scripts are ~7.5 MiB of a process that never needs them again once
the schema is at head (issue 27's memory goal); in the child they go when it exits. Alembic is
imported only by the functions that run it, so importing this module does not pull it in.
Run as `python -m app.store.migrate` (the URL in `ZIGGURAT_MIGRATE_URL`) it is that child.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from alembic.config import Config

# The project root (alembic.ini), as app.config has it; not imported from there, so that the
# child does not load the settings and the games for nothing.
ROOT = Path(__file__).resolve().parents[2]
URL_VARIABLE = "ZIGGURAT_MIGRATE_URL"


class MigrationFailed(RuntimeError):
    """The child that migrates exited with an error; its output was logged."""


def alembic_config(database_url: str) -> Config:
    from alembic.config import Config

    config = Config(str(ROOT / "alembic.ini"))
    config.attributes["database_url"] = database_url
    config.attributes["configure_logger"] = False
    return config


def upgrade_to_head(database_url: str) -> None:
    """In this process (the child, the tests of migrations)."""
    from alembic import command

    command.upgrade(alembic_config(database_url), "head")


async def upgrade_to_head_async(database_url: str) -> None:
    """In a child process, which exits once the schema is at head. Its output (Alembic's log
    lines, a traceback) is this process's stderr; a failure raises `MigrationFailed` with the
    child's last line, so the server does not start, as when it migrated in process."""
    env = dict(os.environ, **{URL_VARIABLE: database_url})
    # The child finds `app` where this process found it, whatever its working directory.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), env.get("PYTHONPATH"))))
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "app.store.migrate", env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    output, _ = await child.communicate()
    text = output.decode(errors="replace")
    if text:
        sys.stderr.write(text)
        sys.stderr.flush()
    if child.returncode:
        last = next((line for line in reversed(text.splitlines()) if line.strip()), "")
        raise MigrationFailed(f"migrating the schema to head failed "
                              f"(exit {child.returncode}): {last}")


def main() -> None:
    url = os.environ.get(URL_VARIABLE)
    if not url:
        sys.exit(f"{URL_VARIABLE} is not set")
    import alembic.command  # noqa: F401  before the log is set up: its import lines stay quiet

    # The server's log format, so that Alembic's lines read as they did in process.
    handler = logging.StreamHandler()
    if os.environ.get("LOG_FORMAT") == "json":  # as app/ops/logs.py writes the server's
        from pythonjsonlogger.json import JsonFormatter

        handler.setFormatter(JsonFormatter(
            "{asctime}{levelname}{name}{message}", style="{",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger"}))
    else:
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    upgrade_to_head(url)


if __name__ == "__main__":
    main()
