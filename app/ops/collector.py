"""The garbage collector kept off the latency tail: no collection walks the long-lived objects.

CPython 3.11's collector is not incremental: a collection pauses the whole process for as long
as it takes to walk every object of the generations it collects. A held room costs ~60 tracked
objects for each of its sockets (uvicorn's protocol, transport and request, the socket's task,
coroutines, timers, the room cache): 1.5M objects at 8,000 rooms, which a full collection walks
in ~2 s of CPU. Measured there with the thresholds (50,000, 20, 100): young collections paused
the loop 30-260 ms and a generation-1 collection, which walked the survivors of twenty of them
(~360k objects), 1.2-3.2 s (the stall of issue 41).

Nor can thresholds bound a walk: Python counts allocations minus deallocations, and a move
replaces a room's held objects (its state, its seats) by new ones, so the count hardly rises
while the young generation grows by ~40k objects a second; at 8,000 rooms one young collection
walked 204k objects. So:
- Whatever exists once the app has started (modules, tables, models, the games) is frozen
  (`gc.freeze`) out of every walk.
- A task collects the young generation every `YOUNG_SECONDS`: a walk covers what was made in the
  last 50 ms (6k objects, 4 ms of CPU typically at 8,000 rooms; 18k, 17 ms at most on a shared
  machine). The threshold stays on as a net for a burst between two ticks.
- Whatever survives a collection is frozen right after it (`freeze_survivors`): each object is
  walked once at most, and the older generations stay empty. Frozen objects are still freed by
  reference counting when they are let go; only a reference cycle among them is never
  collected. Measured on Postgres: 80 rooms played to the end through the API, sockets closed,
  left no unreachable object among the frozen. The one cycle the shared load generator's runs
  made (15,570 and 16,425 found by the net below at 8,000 rooms) was uvicorn's HTTP protocol and
  its parser after a websocket upgrade, 18 objects a socket, frozen when a young collection
  came between the connection and its upgrade: `HeaderDeadline` breaks it, and bench/serve.sh
  had served without it. Served with it, a full collection with `gc.DEBUG_SAVEALL` found 0
  unreachable objects at 100 and 1,000 saturated rooms (games ending, sockets replaced) and at
  8,000 rooms at human pace, mid-run and after the sockets closed. Paths that load does not
  take made some too (bench/bot_rooms.py found them): a room written through the ORM (~25
  objects, gone: app/store/models.py), and SQLAlchemy's bind parameters of an `.in_()` built
  per call (two cycles, ~10 objects, as long as the statement is alive at a young collection:
  app/store/bot_games.py builds its statement once; the other such sites remain, on paths a
  request takes rarely). SQLite's ORM sessions do
  leave cycles (~100 objects a room): a single-writer store holds no room in memory, its heap
  stays small, and its server freezes no survivor (app/main.py). There is no gauge of the
  frozen count: `gc.get_freeze_count()` walks the whole list (~0.4 s at 8,000 rooms); the
  process's resident memory (`process_resident_memory_bytes`) is the one to watch.
- A safety net for the cycles a code path leaves among the frozen: once the
  process's resident memory has doubled since the last full reclaim, and is over twice
  `RECLAIM_FLOOR` (checked every minute), everything is unfrozen, collected once, and frozen
  again (`reclaim`, logged with its pause). That pause is the old full collection's (~1.1 s at
  8,000 rooms), but it comes once per doubling of the heap, not every few seconds; the floor
  keeps it out of a server filling up to its working size (8,000 rooms: ~390 MiB from ~90 at
  start, which doubled twice and paused play for a reclaim that found nothing), so that it
  comes only if something does leak.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import time
from typing import Any

from app.tasks import stop_task

log = logging.getLogger(__name__)

YOUNG_SECONDS = 0.05
YOUNG_OBJECTS = 5_000
RECLAIM_GROWTH = 2.0  # resident memory this many times the last reclaim's: reclaim again
RECLAIM_FLOOR = 256 << 20  # and past twice this: a full server (8,000 rooms, ~390 MiB) is no leak
RECLAIM_CHECK_SECONDS = 60.0
_PAGE = os.sysconf("SC_PAGE_SIZE")

_python_thresholds = gc.get_threshold()


def freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    """A `gc.callbacks` hook: after a collection, freeze what survived it (`gc.freeze` only
    moves the generations' lists onto the permanent one, which is safe once it is over)."""
    if phase == "stop":
        gc.freeze()


def tune_gc(survivors: bool = True) -> None:
    """Freeze the app as started, set the young threshold, and (`survivors`) freeze whatever
    survives a collection from now on."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, *_python_thresholds[1:])
    if survivors and freeze_survivors not in gc.callbacks:
        gc.callbacks.append(freeze_survivors)


def release_gc() -> None:
    """At shutdown: the collector as Python sets it, everything walked again (a process that
    starts another app, such as the tests', collects what the last one let go)."""
    if freeze_survivors in gc.callbacks:
        gc.callbacks.remove(freeze_survivors)
    gc.unfreeze()
    gc.set_threshold(*_python_thresholds)


def resident_bytes() -> int:
    """The process's resident memory now (Linux: /proc/self/statm; 0 where it cannot be read,
    which never triggers a reclaim)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0


def reclaim() -> int:
    """Collect everything once, frozen objects included, and freeze what is left; how many
    unreachable objects it found (logged, with the pause: more than none means a leak)."""
    began = time.perf_counter()
    gc.unfreeze()
    found = gc.collect()
    gc.freeze()
    log.warning("full reclaim: %d unreachable objects, loop held %.0f ms", found,
                (time.perf_counter() - began) * 1000)
    return found


class Collector:
    """The collector's policy for the app's life, and its task of young collections.
    `freeze_survivors`: off where the heap stays small and a full collection short."""

    def __init__(self, freeze_survivors: bool = True, interval: float = YOUNG_SECONDS,
                 check_every: float = RECLAIM_CHECK_SECONDS, floor: int = RECLAIM_FLOOR) -> None:
        self.freeze_survivors = freeze_survivors
        self.interval = interval
        self.check_every = check_every
        self.floor = floor
        self.reclaimed_at = 0  # resident bytes after the last full reclaim (or the start)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        tune_gc(self.freeze_survivors)
        self.reclaimed_at = resident_bytes()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="young collections")

    async def stop(self) -> None:
        await stop_task(self._task)
        self._task = None
        release_gc()

    def check(self) -> bool:
        """Reclaim if resident memory has grown `RECLAIM_GROWTH` times since the last time and
        past as many times the floor; whether it did."""
        if not self.freeze_survivors or not self.reclaimed_at:
            return False
        if resident_bytes() < RECLAIM_GROWTH * max(self.reclaimed_at, self.floor):
            return False
        reclaim()
        self.reclaimed_at = resident_bytes()
        return True

    async def _run(self) -> None:
        checked = time.monotonic()
        while True:
            await asyncio.sleep(self.interval)
            gc.collect(0)
            if time.monotonic() - checked >= self.check_every:
                checked = time.monotonic()
                self.check()
