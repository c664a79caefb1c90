"""More rooms thinking than bot workers (20 `hard` rooms on one worker): a decision waits for a
free worker before its timeout starts, so a queued decision is not dropped for the queue's time,
and its timeout does not end the worker searching for another room."""

from __future__ import annotations

import asyncio
import time
from random import Random
from typing import Any

import bots
from app.config import Settings
from app.table.bots import BotThinker
from games import REGISTRY

LUCENT = REGISTRY["gem-pyramid"]
SEARCH_SECONDS = 4.0  # each search alone fits its budget (easy: 0.1 s + a grace of 6 s) ...
GRACE_SECONDS = 6.0  # ... but two in a row do not: timed from the queue, the second times out


def last_move_think(game_id: str, state: Any, seat: int, *args: Any) -> Any:
    """An engine that answers at once, with a move the fallback would not pick."""
    return REGISTRY[game_id].legal_moves(state, seat)[-1]


def slow_think(game_id: str, state: Any, seat: int, *args: Any) -> Any:
    time.sleep(SEARCH_SECONDS)
    return last_move_think(game_id, state, seat)


async def test_decisions_queued_for_the_one_worker_each_get_their_whole_budget() -> None:
    thinker = BotThinker(Settings(bot_workers=1, bot_timeout_grace_seconds=GRACE_SECONDS))
    state = LUCENT.setup(2, LUCENT.Options(), Random(4))
    seat = sorted(LUCENT.to_act(state))[0]
    searched = LUCENT.legal_moves(state, seat)[-1]
    assert searched != bots.fallback_move(LUCENT, state, seat, "s")
    try:
        thinker.think = last_move_think  # the worker is spawned, its imports done
        assert await thinker.decide(LUCENT.id, state, seat, "easy", "s") == searched
        thinker.think = slow_think
        moves = await asyncio.gather(*(thinker.decide(LUCENT.id, state, seat, "easy", f"s{n}")
                                       for n in range(3)))
        assert moves == [searched] * 3, "a queued decision fell back"
    finally:
        thinker.stop()
