"""Move ids: the platform's own (bots, the admin) live in a namespace players cannot use.

Exactly-once delivery keys moves by (room, seat, client id). If a player could send ids shaped
like the platform's, a seat handed to a bot would find its ids "already applied" forever. Every
platform id starts with `~`, and a player's id may not.
"""

from __future__ import annotations

from app.errors import ApiError
from app.guard.names import invisible

PLATFORM_PREFIX = "~"
MAX_CLIENT_ID = 64


def platform_id(kind: str, *parts: object) -> str:
    """The id of a move the platform makes itself: `~bot:<version>:<seat>`, `~admin:…`."""
    return PLATFORM_PREFIX + ":".join([kind, *(str(p) for p in parts)])


def check_player_id(raw: object) -> str:
    """A player's move id: 1 to 64 printable characters, not in the platform's namespace."""
    if not isinstance(raw, str) or not 0 < len(raw) <= MAX_CLIENT_ID:
        raise ApiError(400, "bad_message", f"A move needs an 'id': a string of 1 to "
                       f"{MAX_CLIENT_ID} characters, unique per move.")
    # Printable ASCII (a UUID, say) has no such character: the per-character lookup, for the
    # rest only, cost 5% of the server's instructions per move.
    if not (raw.isascii() and raw.isprintable()) and any(invisible(ch) for ch in raw):
        raise ApiError(400, "bad_characters", "A move id may not contain control or "
                       "invisible characters.")
    if raw.startswith(PLATFORM_PREFIX):
        raise ApiError(400, "reserved_id", f"Move ids starting with {PLATFORM_PREFIX!r} are "
                       "reserved for the server's own moves.")
    return raw
