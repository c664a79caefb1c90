"""The loop-lag probe (app/ops/loop_lag.py): a blocked loop is seen, and collections are timed."""

from __future__ import annotations

import asyncio
import gc
import logging
import time

import pytest

from app.ops.loop_lag import GC_PAUSE_SECONDS, LOOP_LAG_SECONDS, LoopLag, gc_timing


def _count(histogram, **labels: str) -> float:
    """Observations so far in a histogram (its `_count` sample)."""
    child = histogram.labels(**labels) if labels else histogram
    return next(s.value for m in child.collect() for s in m.samples if s.name.endswith("_count"))


def _over(histogram, bound: float) -> float:
    """Observations above `bound` (a bucket edge)."""
    buckets = {s.labels["le"]: s.value for m in histogram.collect() for s in m.samples
               if s.name.endswith("_bucket")}
    return buckets["+Inf"] - buckets[str(bound)]


async def test_a_blocking_call_is_seen_as_lag(caplog: pytest.LogCaptureFixture) -> None:
    probe = LoopLag(interval=0.01)
    probe.start()
    await asyncio.sleep(0.05)  # a few quiet ticks
    quiet = probe.longest
    before = _over(LOOP_LAG_SECONDS, 0.1)
    with caplog.at_level(logging.WARNING, logger="app.ops.loop_lag"):
        time.sleep(0.15)  # a callback that holds the loop
        await asyncio.sleep(0.05)
    await probe.stop()
    assert quiet < 0.1
    assert 0.13 <= probe.longest < 1.0
    assert _over(LOOP_LAG_SECONDS, 0.1) == before + 1
    assert any(r.getMessage().startswith("event loop held") for r in caplog.records)


async def test_a_collection_inside_a_stall_is_named(caplog: pytest.LogCaptureFixture) -> None:
    probe = LoopLag(interval=0.01)
    probe.start()
    await asyncio.sleep(0.03)
    with caplog.at_level(logging.WARNING, logger="app.ops.loop_lag"):
        gc.collect()
        time.sleep(0.08)
        await asyncio.sleep(0.03)
    await probe.stop()
    assert any("gen 2" in r.getMessage() for r in caplog.records)


def test_collections_are_timed_by_generation() -> None:
    gc_timing()
    before = [_count(GC_PAUSE_SECONDS, generation=str(g)) for g in range(3)]
    gc.collect(0)
    gc.collect(2)
    gc.collect(2)
    after = [_count(GC_PAUSE_SECONDS, generation=str(g)) for g in range(3)]
    assert after[0] >= before[0] + 1  # automatic young collections may add to it
    assert after[2] == before[2] + 2
    assert gc.callbacks.count(gc_timing()) == 1  # installed once however often asked for
