"""The garbage collector kept off the latency tail: no collection walks the long-lived objects.

CPython 3.11's collector is not incremental: a collection pauses the whole process for as long
as it takes to walk every object of the generations it collects. A held room costs ~60 tracked
objects for each of its sockets (uvicorn's protocol, transport and request, the socket's task,
coroutines, timers, the room cache), ~1M at 8,000 rooms. Measured there with the thresholds
(50,000, 20, 100): young collections paused the loop 30-260 ms and a generation-1 collection,
which walked the survivors of twenty of them, 1.2-1.5 s (the stall of issue 41); a full one
would walk all of it.

So:
- Whatever exists once the app has started (modules, tables, models, the games) is frozen
  (`gc.freeze`) out of every walk.
- Young collections every `YOUNG_OBJECTS` net allocations (Python's 700 cost ~5% of the CPU),
  and every other one a generation-1 collection (`YOUNG_PER_MIDDLE`): each walks a bounded
  number of objects. Bounded, not fixed: the net count also falls as old objects are freed, so
  a young collection walks the 5,000 plus as many as old ones died meanwhile (~10-25k at 8,000
  rooms, 5-20 ms), and a generation-1 one two young ones' survivors.
- An object that survived a generation-1 collection (it lived through several young ones: a
  held room's, a socket's) is frozen right after it (`freeze_survivors`), so the old generation
  stays empty and a full collection is as short as a generation-1 one. Frozen objects are still
  freed by reference counting when they are let go; only a reference cycle among them would
  never be collected: measured at 8,000 rooms, a full collection of everything frozen found
  2,190 unreachable objects (146 closed HTTP connections) among 1.48M. There is no gauge of the
  frozen count: `gc.get_freeze_count()` walks the whole list (~0.4 s at 8,000 rooms); the
  process's resident memory (`process_resident_memory_bytes`) is the one to watch.
"""

from __future__ import annotations

import gc
from typing import Any

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


def tune_gc() -> None:
    """Freeze the app as started, set the thresholds, and freeze every generation-1 survivor."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, YOUNG_PER_MIDDLE, MIDDLE_PER_OLD)
    if freeze_survivors not in gc.callbacks:
        gc.callbacks.append(freeze_survivors)


def release_gc() -> None:
    """At shutdown: the collector as Python sets it, everything walked again (a process that
    starts another app, such as the tests', collects what the last one let go)."""
    if freeze_survivors in gc.callbacks:
        gc.callbacks.remove(freeze_survivors)
    gc.unfreeze()
    gc.set_threshold(*_python_thresholds)
