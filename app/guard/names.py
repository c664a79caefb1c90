"""Display names: normalised (NFC, spaces collapsed) and free of characters that hide or
reorder text (controls, NUL, zero-width and bidi marks, fillers that draw as blank), which could
impersonate another player or break a Postgres text column."""

from __future__ import annotations

import unicodedata

from app.errors import ApiError

MAX_NAME = 40


def invisible(ch: str) -> bool:
    """A control, format (zero-width, bidi), surrogate, private-use or unassigned character:
    Unicode category C. (Names also lose the line and paragraph separators: they are whitespace,
    and a name's whitespace is collapsed to single spaces.)"""
    return unicodedata.category(ch)[0] == "C"


# Drawn as nothing although not in category C: the Default_Ignorable_Code_Point letters and
# marks (Hangul fillers, the combining grapheme joiner, Khmer inherent vowels, Mongolian and
# other variation selectors) and the Braille blank. "Bob" and "Bob\u3164" look alike (issue 24).
_BLANK = frozenset({0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0,
                    *range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)})
_EMOJI_STYLE = frozenset({0xFE0E, 0xFE0F})  # text or emoji presentation: "❤️" keeps its FE0F


def _blank_at(name: str, i: int) -> bool:
    """Whether `name[i]` shows nothing. A presentation selector after a symbol (❤️) or in a
    keycap (1️⃣) changes how it is drawn; after a letter it draws nothing."""
    point = ord(name[i])
    if point not in _BLANK:
        return False
    if point in _EMOJI_STYLE and i > 0:
        symbol = unicodedata.category(name[i - 1])[0] == "S"
        keycap = name[i + 1:i + 2] == "\u20e3"
        return not (symbol or keycap)
    return True


def clean_name(raw: str) -> str:
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if any(invisible(ch) for ch in name) or any(_blank_at(name, i) for i in range(len(name))):
        raise ApiError(422, "bad_name", "Names may not contain control, invisible or "
                       "direction-changing characters.")
    if not 0 < len(name) <= MAX_NAME:
        raise ApiError(422, "bad_name", f"A name has 1 to {MAX_NAME} visible characters.")
    return name
