"""Bot seats: a random legal move, played through the same pipeline as a person's."""

from __future__ import annotations

import asyncio
import logging
import random

from app.context import Context
from app.errors import ApiError
from app.play.client_ids import platform_id
from app.play.moves import Mover, submit_move
from games import REGISTRY

log = logging.getLogger(__name__)
MAX_BOT_MOVES_PER_WAKE = 100_000


class BotDriver:
    """One task per room while bots are to act. Waking a running room just asks it to look again.

    Several processes may wake the same room; the pipeline's version check makes the extra
    moves harmless refusals, so at most one bot move per version lands.
    """

    def __init__(self, hall: Context, delay_seconds: float) -> None:
        self._hall = hall
        self._delay = delay_seconds
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._chooser = random.Random()

    def wake(self, code: str) -> None:
        if code in self._running:
            self._again.add(code)
            return
        task = asyncio.get_running_loop().create_task(self._drive(code))
        self._running[code] = task
        task.add_done_callback(lambda _: self._running.pop(code, None))

    async def _drive(self, code: str) -> None:
        for _ in range(MAX_BOT_MOVES_PER_WAKE):
            self._again.discard(code)
            if self._delay:
                await asyncio.sleep(self._delay)
            try:
                moved = await self._move_once(code)
            except ApiError as exc:
                log.info("bot move in %s refused: %s", code, exc.code)
                moved = exc.code in {"stale", "not_your_turn", "not_seated"}
            except Exception:
                log.exception("bot driver failed in room %s", code)
                return
            if not moved and code not in self._again:
                return

    async def _move_once(self, code: str) -> bool:
        view = await self._hall.store.bot_view(code)
        if view is None:
            return False
        room, bots = view
        if room.status != "active" or not bots:
            return False
        game = REGISTRY[room.game]
        acting = sorted(game.to_act(room.state) & bots)
        if not acting:
            return False
        seat = acting[0]
        move = self._chooser.choice(game.legal_moves(room.state, seat))
        await submit_move(self._hall, code, Mover(seat=seat, bot=True),
                          platform_id("bot", room.version, seat), room.version, move)
        return True

    async def stop(self) -> None:
        for task in list(self._running.values()):
            task.cancel()
