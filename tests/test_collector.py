"""The collector's policy (app/ops/collector.py): a collection's survivors leave every later walk;
a young cycle is still collected; the young generation is walked on time, not only on the net
count; the policy is undone at shutdown."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from app.ops.collector import YOUNG_OBJECTS, Collector, release_gc, resident_bytes, tune_gc


class Node:
    """A container the collector tracks, able to be part of a cycle."""

    def __init__(self) -> None:
        self.other: Node | None = None


def _tracked_in(obj: object, generation: int) -> bool:
    return any(o is obj for o in gc.get_objects(generation))


@pytest.fixture
def tuned() -> Iterator[None]:
    tune_gc()
    yield
    release_gc()


def test_a_survivor_of_a_young_collection_is_frozen(tuned: None) -> None:
    held = Node()  # a room's object: it lives on
    frozen = gc.get_freeze_count()
    gc.collect(0)
    assert gc.get_freeze_count() > frozen
    assert not any(_tracked_in(held, g) for g in range(3))  # out of every walk
    gc.collect(2)  # a full collection no longer walks it, and it is still alive
    assert held.other is None


def test_a_young_cycle_is_still_collected(tuned: None) -> None:
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    gc.collect(0)
    assert gone() is None


def test_young_collections_are_bounded_and_shutdown_undoes_it() -> None:
    before = gc.get_threshold()
    tune_gc()
    assert gc.get_threshold()[0] == YOUNG_OBJECTS <= 10_000
    release_gc()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    held = Node()
    gc.collect(1)
    assert _tracked_in(held, 2)  # walked again, as Python does


async def test_replaced_objects_are_walked_on_time_not_on_the_count() -> None:
    held = [Node() for _ in range(20_000)]  # a room's objects, frozen at start
    collector = Collector(interval=0.01)
    collector.start()
    try:
        await asyncio.sleep(0.03)
        assert not _tracked_in(held[0], 0)
        for i in range(len(held)):  # every move replaces them: the net count hardly rises
            held[i] = Node()
        assert gc.get_count()[0] < YOUNG_OBJECTS  # no automatic collection is due
        await asyncio.sleep(0.05)
        assert not _tracked_in(held[0], 0) and not _tracked_in(held[-1], 0)
    finally:
        await collector.stop()


async def test_a_small_heap_freezes_no_survivor() -> None:
    collector = Collector(freeze_survivors=False)
    collector.start()
    try:
        held = Node()
        gc.collect(1)
        assert _tracked_in(held, 2)  # a full collection still walks it
    finally:
        await collector.stop()


def test_a_cycle_left_among_the_frozen_is_reclaimed_once_memory_doubles(tuned: None) -> None:
    a, b = Node(), Node()
    a.other, b.other = b, a
    gc.collect(0)  # the cycle survives a young collection while in use: frozen
    gone = weakref.ref(a)
    del a, b
    gc.collect(2)
    assert gone() is not None  # a leak for the young collections: the net's case
    collector = Collector(floor=0)
    collector.reclaimed_at = 1  # as if the heap had been tiny at the last reclaim
    assert collector.check()
    assert gone() is None
    assert gc.get_freeze_count() > 0  # what is left is frozen again
    assert not collector.check()  # the new baseline is today's memory


def test_no_reclaim_while_memory_has_not_doubled(tuned: None) -> None:
    collector = Collector(floor=0)
    collector.reclaimed_at = 1 << 50
    assert not collector.check()
    assert not Collector(freeze_survivors=False, floor=0).check()


def test_no_reclaim_below_twice_the_floor(tuned: None) -> None:
    """A heap that doubled while the server filled up to its working size is not a leak."""
    now = resident_bytes()
    collector = Collector(floor=now)
    collector.reclaimed_at = 1
    assert not collector.check()
    collector.floor = now // 4
    assert collector.check()
