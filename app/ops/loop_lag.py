"""The event loop's own latency, always on: every room of a process waits while the loop is held.

A task sleeps `PROBE_SECONDS` and records how late it woke (`ziggurat_loop_lag_seconds`); the
garbage collector's pauses are timed through `gc.callbacks`, by generation
(`ziggurat_gc_pause_seconds`). A lag over `STALL_SECONDS` is logged with the collections that ran
inside it, so that a stall names its cause: a collection (which generation) or a callback that
held the loop, and with the CPU time the process had meanwhile (on a shared machine a lag can be
the machine's). Cost: one timer, two clock reads and a histogram observation per tick, and two
clock reads per collection.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Any

from prometheus_client import Gauge, Histogram

from app.ops.loop_metrics import LoopHistogram
from app.tasks import stop_task

log = logging.getLogger(__name__)

PROBE_SECONDS = 0.02
STALL_SECONDS = 0.05
LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

# Observed on the loop's thread only, 50 times a second: a plain-number histogram (loop_metrics).
LOOP_LAG_SECONDS = LoopHistogram("ziggurat_loop_lag_seconds", "How late the event loop woke a "
                                 f"{PROBE_SECONDS * 1000:.0f} ms sleep: the wait every ready "
                                 "callback had on top of its own.", LAG_BUCKETS)
LOOP_LAG_MAX = Gauge("ziggurat_loop_lag_max_seconds", "The longest loop lag since start.")
GC_PAUSE_SECONDS = Histogram("ziggurat_gc_pause_seconds", "Garbage collections' pauses, by "
                             "generation (2: a full collection).", ["generation"],
                             buckets=LAG_BUCKETS)
GC_PAUSE_MAX = Gauge("ziggurat_gc_pause_max_seconds", "The longest collection since start, by "
                     "generation.", ["generation"])


class GcTiming:
    """Times every collection; keeps what ran since the probe's last tick for its stall line."""

    def __init__(self) -> None:
        self._started = 0.0
        self._pauses = [GC_PAUSE_SECONDS.labels(str(g)) for g in range(3)]
        self._maxima = [GC_PAUSE_MAX.labels(str(g)) for g in range(3)]
        self._longest = [0.0, 0.0, 0.0]
        self.window: list[tuple[int, float, int]] = []  # (generation, seconds, collected)

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        pause = time.perf_counter() - self._started
        generation = info["generation"]
        self._pauses[generation].observe(pause)
        if pause > self._longest[generation]:
            self._longest[generation] = pause
            self._maxima[generation].set(pause)
        if len(self.window) < 100:  # a window of ticks nobody reads (no probe) stays small
            self.window.append((generation, pause, info["collected"]))

    def take_window(self) -> list[tuple[int, float, int]]:
        """The collections since the last call."""
        window, self.window = self.window, []
        return window


_timing: GcTiming | None = None


def gc_timing() -> GcTiming:
    """The process's one collector timing, installed in `gc.callbacks` on first use."""
    global _timing
    if _timing is None:
        _timing = GcTiming()
        gc.callbacks.append(_timing)
    return _timing


def describe(window: list[tuple[int, float, int]]) -> str:
    """The collections inside a stall, by generation, for its log line."""
    if not window:
        return "no garbage collection in it"
    parts = []
    for generation in range(3):
        pauses = [seconds for g, seconds, _ in window if g == generation]
        if pauses:
            freed = sum(collected for g, _, collected in window if g == generation)
            parts.append(f"gen {generation}: {len(pauses)} taking {sum(pauses) * 1000:.1f} ms "
                         f"(longest {max(pauses) * 1000:.1f} ms, {freed} freed)")
    return "collections " + "; ".join(parts)


class LoopLag:
    """The probe task: started with the app, stopped with it."""

    def __init__(self, interval: float = PROBE_SECONDS, stall: float = STALL_SECONDS) -> None:
        self.interval = interval
        self.stall = stall
        self.longest = 0.0
        self._gc = gc_timing()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="loop-lag probe")

    async def stop(self) -> None:
        await stop_task(self._task)
        self._task = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        self._gc.take_window()
        while True:
            due = loop.time() + self.interval
            cpu = time.thread_time()
            await asyncio.sleep(self.interval)
            self.observe(loop.time() - due, time.thread_time() - cpu)

    def observe(self, lag: float, cpu: float) -> None:
        """One tick `lag` seconds late; `cpu`: this thread's CPU time since the last tick (far
        less than the lag: the machine, not this process, held it)."""
        lag = max(lag, 0.0)
        LOOP_LAG_SECONDS.observe(lag)
        window = self._gc.take_window()
        if lag > self.longest:
            self.longest = lag
            LOOP_LAG_MAX.set(lag)
        if lag > self.stall:
            log.warning("event loop held %.0f ms (%.0f ms of CPU since the last tick); %s",
                        lag * 1000, cpu * 1000, describe(window))
