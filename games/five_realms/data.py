"""5 Realms components: banners, characters, the 66 double-sided cards, the Alkane layout.

Card data follows the Board Game Arena port (see ../shared/rulebooks/README.md and RULES.md).
"""

from __future__ import annotations

REALMS: tuple[str, ...] = ("reptile", "feline", "raptor", "ursid", "marine")
IMPERIAL = "imperial"
RELIGIOUS = "religious"
BANNERS: tuple[str, ...] = (*REALMS, IMPERIAL, RELIGIOUS)

KING, QUEEN, WITCH, WARRIOR, TITAN = "king", "queen", "witch", "warrior", "titan"
COLONEL, GENERAL, CAPTAIN, MARSHAL = "colonel", "general", "captain", "marshal"
POPESS, WARRIOR_MONK, GAIA, OURANOS = "popess", "warrior_monk", "gaia", "ouranos"

REALM_CHARACTERS: tuple[str, ...] = (KING, QUEEN, WITCH, WARRIOR, TITAN)
IMPERIAL_CHARACTERS: tuple[str, ...] = (COLONEL, GENERAL, CAPTAIN, MARSHAL)
RELIGIOUS_CHARACTERS: tuple[str, ...] = (POPESS, WARRIOR_MONK, GAIA, OURANOS)
TITANS = frozenset({TITAN, GAIA, OURANOS})
WARRIORS = frozenset({WARRIOR, WARRIOR_MONK})
COPIES = 2

BANNER_NAMES: dict[str, str] = {
    "reptile": "Reptile",
    "feline": "Feline",
    "raptor": "Raptor",
    "ursid": "Ursid",
    "marine": "Marine",
    IMPERIAL: "Imperial Order",
    RELIGIOUS: "Religious Order",
}


def a_banner(banner: str) -> str:
    """'a Feline banner', 'an Imperial Order banner': log lines read as English."""
    name = BANNER_NAMES[banner]
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name} banner"


CHARACTER_NAMES: dict[str, str] = {
    KING: "King",
    QUEEN: "Queen",
    WITCH: "Witch",
    WARRIOR: "Warrior",
    TITAN: "Titan",
    COLONEL: "Colonel",
    GENERAL: "General",
    CAPTAIN: "Captain",
    MARSHAL: "Marshal",
    POPESS: "Popess",
    WARRIOR_MONK: "Warrior Monk",
    GAIA: "Gaïa",
    OURANOS: "Ouranos",
}

START_CASTLES = 2
COUNCIL_SIZE = 4
TITANS_TO_WIN = 5
TITAN_CASTLES = 1
GAIA_END_CASTLES = 1
THRONE_AT, THRONE_CASTLES = 3, 2
QUEEN_AT = (3, 4, 5)
WARRIOR_AT = 4
WITCH_AT = (3, 5)
POPESS_AT, POPESS_CASTLES = 4, 2
KING_CASTLES = 3
MARSHAL_CASTLES = 3
COLONEL_END_CASTLES = 2
MONK_END_STEAL = 2
STEAL = 1

# Alkane spots (x right, y down, 0-based), dealt from A clockwise; the diagonal stays empty.
LAYOUT: tuple[tuple[int, int], ...] = ((1, 0), (2, 0), (2, 1), (1, 2), (0, 2), (0, 1))
SIZE = 3
REFILL_BELOW = 2


def faces() -> list[dict[str, str]]:
    """Every card of the box as {banner, character}: 50 realm, 8 Imperial, 8 Religious."""
    kinds = [(realm, char) for realm in REALMS for char in REALM_CHARACTERS]
    kinds += [(IMPERIAL, char) for char in IMPERIAL_CHARACTERS]
    kinds += [(RELIGIOUS, char) for char in RELIGIOUS_CHARACTERS]
    return [{"banner": b, "character": c} for b, c in kinds for _ in range(COPIES)]


def character_name(face: dict[str, str]) -> str:
    """'Reptile Queen', 'Imperial Order Colonel', 'Gaïa' — what a player reads on the card."""
    name = CHARACTER_NAMES[face["character"]]
    if face["banner"] == RELIGIOUS:
        return name
    return f"{BANNER_NAMES[face['banner']]} {name}"
