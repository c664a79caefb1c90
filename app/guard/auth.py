"""Anonymous identities: a player is whoever holds the bearer token issued at creation (the
store finds their row: `app.store.tokens`)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from app.errors import ApiError
from app.utc import utcnow


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """Only the hash is stored: a leaked database does not let anyone play as anyone."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_found(found: Any, ttl: timedelta | None) -> Any:
    """The player a token named (an ORM `Player` or a Core row with its columns), refused if
    unknown (None), signed out (its device's `revoked_at`) or expired."""
    if found is None:
        raise ApiError(401, "bad_token", "That player token is not known here; "
                       "create a player again.")
    if getattr(found, "revoked_at", None) is not None:
        raise ApiError(401, "signed_out", "This device was signed out from another of your "
                       "devices; sign in again (a link code or a passkey) to play as yourself.")
    if ttl is not None and expires_at(found, ttl) <= utcnow():
        raise ApiError(401, "token_expired", "That player token has expired (it was not "
                       "renewed in time); create a player again.")
    return found


def renewed_at(player: Any) -> datetime:
    """When the token was last issued or renewed (SQLite hands datetimes back naive, in UTC)."""
    moment = player.token_renewed_at or player.created_at
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def expires_at(player: Any, ttl: timedelta) -> datetime:
    return renewed_at(player) + ttl


def token_times(player: Any, ttl: timedelta | None) -> dict[str, str | None]:
    """`expires_at` and `renew_after` (half-way there), ISO 8601 UTC; None if never."""
    if ttl is None:
        return {"expires_at": None, "renew_after": None}
    return {"expires_at": expires_at(player, ttl).isoformat(),
            "renew_after": (renewed_at(player) + ttl / 2).isoformat()}


def bearer(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip(" \t")  # only HTTP's spaces: a UTF-8 byte 0xA0 is no space here
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, "bad_token", "Send the token as 'Authorization: Bearer <token>'.")
    return token


def check_admin(expected: str | None, token: str | None) -> None:
    """`token` as it came in a header; compared as bytes, since `hmac.compare_digest` refuses
    str beyond ASCII (issue 24: a non-ASCII guess was a 500 the guessing throttle never saw)."""
    if not expected:
        raise ApiError(403, "admin_disabled", "Admin is off: the server has no ADMIN_TOKEN set.")
    if token is None or not hmac.compare_digest(_sent_bytes(token),
                                                expected.encode("utf-8", "surrogateescape")):
        raise ApiError(403, "not_admin", "That is not the admin token.")


def _sent_bytes(header_value: str) -> bytes:
    """The bytes a client sent: ASGI servers decode header values as latin-1, so a UTF-8
    token arrives as one character per byte and encodes back to exactly what was sent."""
    try:
        return header_value.encode("latin-1")
    except UnicodeEncodeError:  # not from a header: text, sent as UTF-8
        return header_value.encode("utf-8", "surrogateescape")
