"""Issue 24 (Low): names padded or split by characters that draw as nothing are refused."""

from __future__ import annotations

import pytest

from tests.api.client import Api

BLANKS = ["Bob\u3164", "\u3164", "A\u115fB", "Al\u1160ice", "\u2800", "Bob\u2800",
          "Bo\ufe0fb", "x\u034fy", "Eve\uffa0", "Ann\u180b", "Tom\U000e0100"]


@pytest.mark.parametrize("name", BLANKS)
async def test_names_with_blank_drawing_characters_are_refused(api: Api, name: str) -> None:
    body = await api.call("POST", "/api/players", json={"name": name}, expect=422)
    assert body["error"]["code"] == "bad_name"


@pytest.mark.parametrize("name", ["Alice \u2764\ufe0f", "1\ufe0f\u20e3 Bob", "\u2801 Braille",
                                  "\u0928\u092e\u0938\u094d\u0924\u0947", "\ud55c\uad6d\uc5b4"])
async def test_names_with_emoji_and_real_scripts_still_pass(api: Api, name: str) -> None:
    body = await api.call("POST", "/api/players", json={"name": name}, expect=201)
    assert body["name"] == name
