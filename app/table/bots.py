"""Bot seats: the search bots (`bots.choose`) decide in a process pool, off the event loop, and
their moves go through the same pipeline as a person's.

A seat's `bot` column holds its level (`easy`, `normal`, `hard`, …; rows from before levels say
`random`). A decision is bounded three ways: the level's own budget inside the engine, the
engine's fallback when the search fails, and here a timeout on the pool call — a decision that
errors, times out or finds the pool broken plays `bots.fallback_move`, so no room ever waits on
a bot for long. Decisions wait for a free worker before they are sent (`BotThinker._slots`), so
that the timeout measures the search, not the queue: with more rooms thinking than workers (20
`hard` rooms on one worker), a queued decision would otherwise time out, and its timeout end
the workers searching for the other rooms. Likewise a new pool's start (spawning workers that
import the engine and every game: seconds on a loaded machine) is waited for apart, under
`STARTUP_SECONDS`: counted in a decision's timeout, it would time out, retire the pool and start
another one, again and again while the machine is busy.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import bots as engine
from app.config import Settings
from app.context import Context
from app.core.client_ids import platform_id
from app.errors import ApiError
from app.ops.metrics import BOT_DECISION_SECONDS, BOT_DECISIONS, BOT_POOL_WAIT_SECONDS
from app.play.moves import Mover, submit_move
from app.table.bot_share import FairSlots
from app.table.bot_worker import start_worker, think, warm
from games import REGISTRY
from games.protocol import Move, State

log = logging.getLogger(__name__)
MAX_BOT_MOVES_PER_WAKE = 100_000
STARTUP_SECONDS = 120.0  # a new pool's workers have started and imported the engine by then


def level_of(bot: str | None) -> str:
    """A seat's stored bot string as a level the engine knows (an unknown one plays normal)."""
    return bot if bot in engine.LEVELS else engine.DEFAULT_LEVEL


def pool_size(workers: int) -> int:
    """`BOT_WORKERS`, or one worker per core minus one (the event loop keeps a core), at least
    one."""
    return workers if workers > 0 else max(1, (os.cpu_count() or 1) - 1)


class BotThinker:
    """The process pool and the guarded call into it."""

    def __init__(self, settings: Settings) -> None:
        self._workers = pool_size(settings.bot_workers)
        self._scale = settings.bot_budget_scale
        self._grace = settings.bot_timeout_grace_seconds
        self._pool: ProcessPoolExecutor | None = None
        self._started: asyncio.Future[None] | None = None  # the current pool's warm-up call
        # One slot per worker: a decision is sent only when a worker is free to start it, and
        # the slots go to the rooms' owners in turn (`bot_share`).
        self._slots = FairSlots(self._workers)
        # What runs in the pool: a module-level function (tests swap in a failing or slow one).
        self.think = think

    def _ensure_pool(self) -> tuple[ProcessPoolExecutor, asyncio.Future[None]]:
        """The pool, made for the first search (a server without bots spawns no worker), and
        the call that tells when its workers have started."""
        if self._pool is None or self._started is None:
            # spawn, not fork: the server's process holds threads and open connections.
            self._pool = ProcessPoolExecutor(self._workers,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=start_worker)
            # Spawn the workers now: they import the engine and games.
            self._started = asyncio.wrap_future(self._pool.submit(warm))
        return self._pool, self._started

    def _iterations(self, level: str) -> int | None:
        cap = engine.LEVELS[level].iterations
        return max(1, round(cap * self._scale)) if cap and self._scale != 1 else None

    async def decide(self, game_id: str, state: State, seat: int, level: str,
                     seed: str, *, owner: str = "", urgent: bool = False) -> Move:
        """A legal move for `seat` at `level`; never raises for a seat with a legal move.

        The random level needs no search and is chosen here, as before levels (one choice among
        the legal moves); every other runs in the pool, its turn shared by `owner` (the room's
        host) with other owners, or ahead of every queued search if `urgent` (a turn clock).
        """
        level = level_of(level)
        if engine.LEVELS[level].kind == "random":
            BOT_DECISIONS.labels(level, "inline").inc()
            return engine.choose(game_id, state, seat, level, seed)
        queued = time.perf_counter()
        async with self._slots.slot(owner, urgent):
            free = time.perf_counter()
            BOT_POOL_WAIT_SECONDS.observe(free - queued)
            move = await self._search(game_id, state, seat, level, seed)
            BOT_DECISION_SECONDS.observe(time.perf_counter() - free)
        BOT_DECISIONS.labels(level, "fallback" if move is None else "searched").inc()
        if move is not None:
            return move
        # In a thread: the fallback reads the legal moves, which may be dear.
        return await asyncio.to_thread(engine.fallback_move, REGISTRY[game_id], state, seat,
                                       seed)

    async def _search(self, game_id: str, state: State, seat: int, level: str,
                      seed: str) -> Move | None:
        """The pool's answer, or None (then the fallback plays): an error, a timeout, a broken
        pool, or a call the pool dropped when another room's timeout retired it."""
        budget = engine.LEVELS[level].seconds + self._grace
        pool, started = self._ensure_pool()
        searching = False
        try:
            # Shielded: other decisions wait for the same start.
            await asyncio.wait_for(asyncio.shield(started), STARTUP_SECONDS)
            searching = True
            # The engine answers a legal move or its own fallback: nothing is checked here, on
            # the loop (a game's legal moves can cost tens of milliseconds).
            return await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(
                pool, self.think, game_id, state, seat, level, seed, self._iterations(level)),
                budget)
        except TimeoutError:
            what, limit = ("its search", budget) if searching else ("its workers' start",
                                                                  STARTUP_SECONDS)
            log.warning("bot (%s) in %s: %s took over %.1f s; playing a fallback move and "
                        "starting new bot workers", level, game_id, what, limit)
            self._retire(pool, end_workers=True)
        except BrokenProcessPool:
            log.error("the bot pool broke; playing a fallback move and starting a new one")
            self._retire(pool)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # this room's driver is being stopped
            # The pool cancelled the call (`_retire` drops calls not yet started).
            log.warning("bot (%s) in %s: the retired pool dropped the call", level, game_id)
        except Exception:
            log.exception("bot (%s) in %s failed; playing a fallback move", level, game_id)
        return None

    def _retire(self, pool: ProcessPoolExecutor, end_workers: bool = False) -> None:
        """Stop using `pool` (if still the current one); the next search makes a new one.

        After a timeout its workers are ended too: one may be stuck in a search that never
        returns, and would hold a worker for good. Searches in flight for other rooms then
        fail (BrokenProcessPool) and play their fallback moves."""
        if self._pool is not pool:
            return  # another room's failure already replaced it
        self._pool = self._started = None
        # No public way to end a pool's workers before Python 3.14 (terminate_workers).
        processes = list((getattr(pool, "_processes", None) or {}).values()) if end_workers else []
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()

    def stop(self) -> None:
        """The server stops: its workers end now, a search under way included (the workers also
        end on their own once the server's process is gone: `bot_worker.start_worker`)."""
        if self._pool is not None:
            self._retire(self._pool, end_workers=True)


class BotDriver:
    """One task per room while bots are to act. Waking a running room just asks it to look again.

    Several processes may wake the same room; the pipeline's version check makes the extra
    moves harmless refusals, so at most one bot move per version lands.
    """

    def __init__(self, hall: Context, settings: Settings) -> None:
        self._hall = hall
        self._delay = settings.bot_delay_ms / 1000
        self.thinker = BotThinker(settings)
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()

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
        view = await self._hall.moves.bot_view(code)
        if view is None:
            return False
        room, bots = view
        if room.status != "active" or not bots:
            return False
        game = REGISTRY[room.game]
        acting = sorted(game.to_act(room.state) & bots.keys())
        if not acting:
            return False
        seat = acting[0]
        move = await self.thinker.decide(room.game, room.state, seat, bots[seat],
                                         seed_of(room, seat), owner=owner_of(room))
        await submit_move(self._hall, code, Mover(seat=seat, bot=True),
                          platform_id("bot", room.version, seat), room.version, move)
        return True

    async def stop(self) -> None:
        for task in list(self._running.values()):
            task.cancel()
        self.thinker.stop()


def owner_of(room: Any) -> str:
    """Whose turn in the bot pool a room's decisions take: its host's (a room without a host
    is its own owner)."""
    return room.host_id or f"room:{room.code}"


def seed_of(room: Any, seat: int) -> str:
    """The room's secret seed makes a bot's choices reproducible (for the admin's replays) and
    unguessable to the table."""
    return f"{room.seed}:{room.version}:{seat}"

