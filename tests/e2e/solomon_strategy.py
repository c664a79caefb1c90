"""A deterministic player for the Solomon's Temple browser test: builds greedily, always sins
against a build, always atones, attacks (new armies, a step south, Destruction), answers with
Israelite Armies, and discards what it cannot build with. Shared with the seed search so the test
replays exactly the game the search found."""

from __future__ import annotations

from games.solomons_temple.data import FURNISHINGS, STRUCTURES

KEEP = ("Filling", "Burnt", "Priest", "Altar", "Levite", "Israelite", "Babylonian", "Destruction")
PREFERENCE = [
    ("play", "Filling of the Holy of Holies"), ("sin", None), ("place", None), ("build_now", None),
    ("burnt", None), ("scapegoat", None), ("announce", None), ("levite", None),
    ("destroy", None), ("sack", None), ("army", None), ("move", "s"), ("israelite", None),
    ("relocate", None), ("play", None), ("offer", "Grain Offering"), ("to_military", None),
    ("end_military", None), ("pass", None), ("skip_build", None), ("end_turn", None),
]
AVOID = ("Pray and Fast", "Guilt Offering")


def choose(legal: list[dict]) -> dict:
    """The move this player makes among `legal` (always one of them)."""
    usable = [m for m in legal if m.get("card") not in AVOID] or legal
    for m in usable:
        card = m.get("card") or ""
        if m["type"] == "discard" and card not in STRUCTURES and card not in FURNISHINGS \
                and not card.startswith(KEEP):
            return m
    for kind, detail in PREFERENCE:
        for m in usable:
            if m["type"] == kind and detail in (None, m.get("card"), m.get("dir")):
                return m
    return usable[0]
