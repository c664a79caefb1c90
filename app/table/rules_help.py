"""Rules help: each game's rules in plain words, read from the game's own package.

A game may ship `HOW_TO_PLAY.md`, a summary written for players; otherwise its `RULES.md` (how
the module reads the rulebook) is served. Either marks what had to be reconstructed.
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.core.rooms import game_or_error

SOURCES = (("HOW_TO_PLAY.md", "summary"), ("RULES.md", "rules"))


@lru_cache
def rules_of(game_id: str) -> dict[str, Any]:
    """The rules text of a registered game (404 for an unknown one)."""
    game = game_or_error(game_id)
    folder = Path(sys.modules[type(game).__module__].__file__ or "").parent
    for name, kind in SOURCES:
        path = folder / name
        if path.is_file():
            return {"game": game.id, "title": game.title, "source": kind,
                    "markdown": path.read_text(encoding="utf-8")}
    return {"game": game.id, "title": game.title, "source": "description",
            "markdown": f"# {game.title}\n\n{game.description}\n"}
