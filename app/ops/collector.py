"""The garbage collector kept off the latency tail: no collection walks the long-lived objects.

CPython 3.11's collector is not incremental: a collection pauses the whole process for as long
as it takes to walk every object of the generations it collects. A held room costs ~60 tracked
objects for each of its sockets (uvicorn's protocol, transport and request, the socket's task,
coroutines, timers, the room cache): 1.5M objects at 8,000 rooms, which a full collection walks
in ~2 s of CPU. Measured there with the thresholds (50,000, 20, 100): young collections paused
the loop 30-260 ms and a generation-1 collection, which walked the survivors of twenty of them
(~360k objects), 1.2-3.2 s (the stall of issue 41).

The thresholds alone cannot bound a walk: Python counts allocations minus deallocations, and a
move replaces a room's held objects (its state, its seats) by new ones, so the count hardly rises
while the young generation grows by ~40k objects a second; at 8,000 rooms one young collection
walked 204k objects. So:
- Whatever exists once the app has started (modules, tables, models, the games) is frozen
  (`gc.freeze`) out of every walk.
- A task collects the young generation every `YOUNG_SECONDS`, and generation 1 with it every
  other time: a walk covers what was made in the last 0.1 s at most. The thresholds stay on as
  a net for a burst between two ticks.
- An object that survived a generation-1 collection (it lived through two young ones) is frozen
  right after it (`freeze_survivors`), so the old generation stays empty and a full collection
  is as short as a generation-1 one. Frozen objects are still freed by reference counting when
  they are let go; only a reference cycle among them is never collected. Measured at 8,000
  rooms: a full collection of everything frozen found 2,190 unreachable objects (146 HTTP
  connections from the set-up, upgraded to websockets by uvicorn's own protocol:
  `HeaderDeadline` breaks that cycle) among 1.48M, and the same 2,190 again after 136 s more
  of play (moves make no cyclic garbage); 80 rooms played to the end through the API, sockets
  closed, left none. SQLite's ORM sessions do leave cycles (~100 objects a room): a
  single-writer store holds no room in memory, its heap stays small, and its server does not
  freeze survivors (app/main.py). There is no gauge of the frozen count:
  `gc.get_freeze_count()` walks the whole list (~0.4 s at 8,000 rooms); the process's resident
  memory (`process_resident_memory_bytes`) is the one to watch.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from typing import Any

YOUNG_SECONDS = 0.05
YOUNG_OBJECTS = 5_000
YOUNG_PER_MIDDLE = 1
MIDDLE_PER_OLD = 10

_python_thresholds = gc.get_threshold()


def freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    """A `gc.callbacks` hook: after a generation-1 or full collection, freeze what survived it
    (`gc.freeze` only moves the generations' lists onto the permanent one, which is safe once
    the collection is over)."""
    if phase == "stop" and info["generation"] >= 1:
        gc.freeze()


def tune_gc(survivors: bool = True) -> None:
    """Freeze the app as started, set the thresholds, and (`survivors`) freeze every
    generation-1 survivor."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, YOUNG_PER_MIDDLE, MIDDLE_PER_OLD)
    if survivors and freeze_survivors not in gc.callbacks:
        gc.callbacks.append(freeze_survivors)


def release_gc() -> None:
    """At shutdown: the collector as Python sets it, everything walked again (a process that
    starts another app, such as the tests', collects what the last one let go)."""
    if freeze_survivors in gc.callbacks:
        gc.callbacks.remove(freeze_survivors)
    gc.unfreeze()
    gc.set_threshold(*_python_thresholds)


class Collector:
    """The collector's policy for the app's life, and its task of young collections.
    `freeze_survivors`: off where the heap stays small and a full collection short."""

    def __init__(self, freeze_survivors: bool = True, interval: float = YOUNG_SECONDS) -> None:
        self.freeze_survivors = freeze_survivors
        self.interval = interval
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        tune_gc(self.freeze_survivors)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="young collections")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        release_gc()

    async def _run(self) -> None:
        generation = 0
        while True:
            await asyncio.sleep(self.interval)
            gc.collect(generation)
            generation = 1 - generation
