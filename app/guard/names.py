"""Display names: normalised (NFC, spaces collapsed) and free of characters that hide or
reorder text (controls, NUL, zero-width and bidi marks), which could impersonate another player
or break a Postgres text column."""

from __future__ import annotations

import unicodedata

from app.errors import ApiError

MAX_NAME = 40


def invisible(ch: str) -> bool:
    """A control, format (zero-width, bidi), surrogate, private-use or unassigned character:
    Unicode category C. (Names also lose the line and paragraph separators: they are whitespace,
    and a name's whitespace is collapsed to single spaces.)"""
    return unicodedata.category(ch)[0] == "C"


def clean_name(raw: str) -> str:
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if any(invisible(ch) for ch in name):
        raise ApiError(422, "bad_name", "Names may not contain control, invisible or "
                       "direction-changing characters.")
    if not 0 < len(name) <= MAX_NAME:
        raise ApiError(422, "bad_name", f"A name has 1 to {MAX_NAME} visible characters.")
    return name
