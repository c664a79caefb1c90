"""What a finished game's seats score: who is rated as whom, their rank, whether they won.

The store calls this inside the transaction that ends a game (`app.store.results`), so it stays
pure and quick. A seat is rated as its player, also when a bot stood in for part of the game or
holds it at the end for a player who left (the seat's first hand-over names them; the result is
then marked `standin`); a seat a bot
played from the start is rated as that level's pseudo-player (`bot:hard`), so that beating the
hard bot means something. A game with fewer than two rated seats is not rated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.social.ratings import BOT_PREFIX, START, bot_rater, rate
from app.store.base import EndSeat, Placing
from games import REGISTRY


class Ends:
    """The `GameEnd` the Hall hands to the store."""

    start = START
    bot_prefix = BOT_PREFIX

    def placings(self, game: str, state: Any, seats: Sequence[EndSeat]) -> list[Placing]:
        outcome = REGISTRY[game].outcome(state)
        if outcome is None:
            return []
        placed = []
        for s in seats:
            person = s.player_id or s.replaced_id or s.handed_from
            rater = person or (bot_rater(s.bot) if s.bot else None)
            if rater is None or s.seat >= len(outcome.ranking):
                continue
            placed.append(Placing(s.seat, rater, person, outcome.ranking[s.seat],
                                  s.seat in outcome.winners,
                                  person is not None and (s.handed_from is not None
                                                          or s.bot is not None)))
        return placed if len(placed) >= 2 else []

    def rate(self, placings: Sequence[tuple[str, int]],
             priors: Mapping[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
        return rate(placings, priors)
