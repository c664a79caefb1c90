"""A notification's name in the outbox (`notify_outbox.dedupe`): one spelling for the notify
package, the store's paths and Postgres's move statement, so each is at most one row."""

from __future__ import annotations


def outbox_key(kind: str, room: str | None, version: int | None, player: str,
               channel: str) -> str:
    """"<kind>:<room>:<version>:<player>:<channel>", "-" for a room or version it has none of."""
    return f"{kind}:{room or '-'}:{'-' if version is None else version}:{player}:{channel}"
