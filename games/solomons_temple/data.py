"""The reconstructed 100-card deck and the 5x5 board (see RULES.md for every choice)."""

from __future__ import annotations

STRUCTURES = ("Porch", "Pillar Boaz", "Pillar Jachin", "Main Hall", "Holy of Holies")
FURNISHINGS = {
    "Bronze Sea": "Porch",
    "Bronze Lavers": "Porch",
    "Capital of Boaz": "Pillar Boaz",
    "Capital of Jachin": "Pillar Jachin",
    "Table of Showbread": "Main Hall",
    "Golden Lampstand": "Main Hall",
    "Altar of Incense": "Main Hall",
    "Ark of the Covenant": "Holy of Holies",
    "Cherubim": "Holy of Holies",
    "Veil": "Holy of Holies",
}
SINS = (
    "Selfish Heart",
    "Idol Worship",
    "Covetous Thoughts",
    "Doubt",
    "False Worship",
    "Blaspheme",
    "Loss of Faith",
    "Arrogance",
    "Loss of Heart",
)
PROPHETS = ("Isaiah", "Jeremiah", "Ezekiel")

GOOD_COUNTS: dict[str, int] = {
    **{name: 1 for name in STRUCTURES},
    **{name: 1 for name in FURNISHINGS},
    "Filling of the Holy of Holies": 1,
    **{name: 1 for name in PROPHETS},
    "King David": 1,
    "King Solomon": 1,
    "Priest": 3,
    "Altar": 3,
    "Levite": 3,
    "Pray and Fast": 1,
    "Scapegoat": 1,
    "Cooperation": 2,
    "Burnt Offering": 10,
    "Grain Offering": 2,
    "Peace Offering": 2,
    "Guilt Offering": 2,
    "Guarded Gate": 4,
    "Israelite Army": 4,
}
EVIL_COUNTS: dict[str, int] = {
    **{name: 2 for name in SINS},
    "Bad Offering": 2,
    "Blemished Animal": 2,
    "Broken Altar": 2,
    "Evil Priest": 2,
    "Unclean": 2,
}
MILITARY_COUNTS: dict[str, int] = {
    "Babylonian Army": 7,
    "Destruction": 4,
    "Lay Siege": 1,
    "Secret Passage": 2,
}
COUNTS = {**GOOD_COUNTS, **EVIL_COUNTS, **MILITARY_COUNTS}
GOOD = frozenset(GOOD_COUNTS)

TEXT: dict[str, str] = {
    **{s: "Structure. Build it in the Building Phase." for s in STRUCTURES},
    **{f: f"Furnishing. Needs {where} built first." for f, where in FURNISHINGS.items()},
    **{s: "Sin. When your opponent announces a build, stop it unless answered." for s in SINS},
    "Loss of Heart": "Sin. No building this turn; no Burnt Offering undoes it.",
    "Filling of the Holy of Holies": "With all 5 Structures and 10 Furnishings built: you win.",
    **{
        p: "Prophet. While in play, you roll when attacked: Star of David stops the attack."
        for p in PROPHETS
    },
    "King David": "Guarded Gates become instants, without limit, outside the building limit.",
    "King Solomon": "Structures become instants, without limit, outside the building limit.",
    "Priest": "With an Altar, lets you make offerings.",
    "Altar": "With a Priest, lets you make offerings.",
    "Levite": "Search your draw pile for a Structure; shuffle.",
    "Pray and Fast": "No good cards for two turns; on the third take a good card back.",
    "Scapegoat": "Activated by a Burnt Offering; discard it (with a Priest) to negate a Sin.",
    "Cooperation": "When you build a Furnishing, build a second one with it.",
    "Burnt Offering": "On Priest and Altar: negate the Sin played against you.",
    "Grain Offering": "On Priest and Altar: no Sin this turn, so your build goes ahead.",
    "Peace Offering": "On Priest and Altar: swap a good card in hand for one in your pile.",
    "Guilt Offering": "On Priest and Altar: shuffle your hand into your draw pile, draw 8.",
    "Guarded Gate": "Build on an open gate; armies must go around it.",
    "Israelite Army": "After an attack: armies in the city go to any free space; two rout all.",
    "Bad Offering": "On the opponent's Altar: their next offering is negated.",
    "Blemished Animal": "Right after an animal offering: negate it.",
    "Broken Altar": "Discard the opponent's Altar.",
    "Evil Priest": "Replaces the opponent's Priest; no offerings until a new Priest.",
    "Unclean": "The opponent's Priest can make no sacrifice this turn.",
    "Babylonian Army": "Military. Place an army at the north gate and move it one space.",
    "Destruction": "Military. An army next to a Guarded Gate or the Temple destroys it.",
    "Lay Siege": "Military. With 2+ armies: no cards on armies for two turns; then break any gate.",
    "Secret Passage": "Military. Move one army through a Guarded Gate.",
}

ROWS, COLS = 5, 5
ENTRY = (0, 2)
GATES = (0, 2, 4)
TEMPLE_CELLS = ((4, 1), (4, 2), (4, 3))
ARMY_TOKENS = 5
HAND = 8
