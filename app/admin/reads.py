"""An admin's look at the hidden parts of a live game leaves an audit line (issue 24).

The console shows every hand of a game being played; the players cannot see that, so the audit
log must. One line per look at a room that is being played or paused (`active`, `errored`);
reads of games over, or not begun, hide nothing from anyone still playing and are not logged.
"""

from __future__ import annotations

from typing import Any

from app.context import Context
from app.core.rooms import normalize_code

LIVE = ("active", "errored")


async def audit_read(hall: Context, code: str, actor: str, what: str, **detail: Any) -> None:
    """Write a `read` line for a live room (nothing for another room, or none at all)."""
    await hall.audit.audit_look(normalize_code(code), actor, LIVE, {"what": what, **detail})
