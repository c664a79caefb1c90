"""Issue 24: weak admin tokens refuse to start the server; any token, ASCII or not, is compared
without a 500 (items 4 and Low)."""

from __future__ import annotations

import secrets

import pytest
from pydantic import ValidationError

from app.config import Settings
from app.errors import ApiError
from app.guard.auth import bearer, check_admin

STRONG = "clé-très-secrète-42"


@pytest.mark.parametrize("token", ["x", "password", "12345678", "passwordpassword",
                                   "1234567890123456", "aaaaaaaaaaaaaaa1", "Short-1"])
def test_a_weak_admin_token_refuses_to_start(token: str) -> None:
    with pytest.raises(ValidationError, match="too weak"):
        Settings(admin_token=token)


@pytest.mark.parametrize("token", [secrets.token_urlsafe(24), secrets.token_hex(16), STRONG,
                                   "test-admin-token"])
def test_a_long_mixed_admin_token_is_kept(token: str) -> None:
    assert Settings(admin_token=token).admin_token == token


def _as_header(text: str) -> str:
    """What the ASGI server hands over for a header a client sent as UTF-8 (decoded latin-1)."""
    return text.encode().decode("latin-1")


@pytest.mark.parametrize("guess", ["é", "\u00e9" * 40, "日本語のトークン", "\x80\xff"])
def test_a_non_ascii_guess_is_not_admin_not_a_crash(guess: str) -> None:
    for sent in (guess, _as_header(guess)):
        with pytest.raises(ApiError) as refused:
            check_admin("test-admin-token", sent)
        assert refused.value.code == "not_admin"


def test_a_non_ascii_admin_token_works_as_sent_in_a_header() -> None:
    check_admin(STRONG, bearer(_as_header(f"Bearer {STRONG}")))
    with pytest.raises(ApiError):
        check_admin(STRONG, _as_header(STRONG[:-1]))


def test_a_token_ending_in_a_utf8_byte_0xa0_keeps_that_byte() -> None:
    """'à' is C3 A0 in UTF-8; latin-1 reads A0 as a no-break space, which str.strip() drops."""
    token = "secret-token-voilà"
    check_admin(token, bearer(_as_header(f"Bearer {token}")))
