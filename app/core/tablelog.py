"""The lines of a room's story that are not moves: what the admin did, and why a room closed.

The wire `room` object carries them (`admin_log`, `closed_reason`: docs/architecture.md, wire
contract). Each admin action writes its sentence into its audit line (`admin_actions.detail`,
key "text") in the action's own transaction (`app.admin.console`), naming the seat's holder as
it was then; these functions only place and read them, so both stores' room reads (the session
path and Postgres' one statement) build the same fields. A take-back would add its own line
the same way: an `admin_actions`-like row with a version and a text, placed by `placed`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from app.utc import as_utc

# The audit lines players are told about, and the key their sentence is kept under. A player's
# take-back (`app.play.undo`) writes its own line ("Alice took back: …") the same way.
TOLD = ("rollback", "bot", "zombie", "abort", "take_back")
TEXT = "text"


def admin_log(actions: Iterable[Any]) -> list[dict[str, Any]]:
    """`[{"version", "text", "at", "action"}]`, oldest first, from audit rows (action, version,
    detail, at) in the order they were written. A line is placed after the move it followed (a
    take-back of move N after move N-1); a rollback to move N moves the lines of the moves it
    undid to N (they happened, the moves did not)."""
    notes: list[dict[str, Any]] = []
    for action in actions:
        detail = action.detail or {}
        text = detail.get(TEXT)
        if action.action not in TOLD or not text:
            continue
        version = action.version or 0
        if action.action == "take_back":  # after the move that is now the last one
            version = detail.get("made", version)
        if action.action == "rollback":
            version = detail.get("to", version)
            for note in notes:
                note["version"] = min(note["version"], version)
        notes.append({"version": version, "text": text, "at": as_utc(action.at).isoformat(),
                      "action": action.action})
    return notes


def closed_reason(room: Any, seats: Sequence[Any], aborted_by_admin: bool) -> str | None:
    """Why an aborted room is closed, as truly as the database can tell (None: not aborted).
    Besides the admin, a room closes when its host leaves the waiting room with nobody seated
    (`rooms.leave_seats`), or when it sat idle past its expiry (`app.table.expiry`)."""
    if room.status != "aborted":
        return None
    if aborted_by_admin:
        return "The admin closed this room."
    if room.state is None and not any(s.player_id for s in seats):
        return "The host left before the game started."
    if room.state is None:
        return "This room was closed: the game was not started in time."
    return "This room was closed: nobody made a move for too long."
