"""The move path's plain counters expose exactly what prometheus_client's own would."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from app.ops.loop_metrics import LoopCounter, LoopHistogram

BOUNDS = (0.001, 0.01, 0.1, 1.0)
VALUES = (0.0, 0.001, 0.0010001, 0.005, 0.01, 0.5, 1.0, 3.0, 250.0)


def _samples(registry: CollectorRegistry) -> list[str]:
    """The exposition's sample lines, without `_created` (only the library's own have it)."""
    return sorted(line for line in generate_latest(registry).decode().splitlines()
                  if not line.startswith("#") and "_created" not in line)


def test_a_histogram_matches_the_librarys_buckets_count_and_sum() -> None:
    ours, theirs = CollectorRegistry(), CollectorRegistry()
    lean = LoopHistogram("x_seconds", "doc", BOUNDS, registry=ours)
    real = Histogram("x_seconds", "doc", buckets=BOUNDS, registry=theirs)
    for value in VALUES:
        lean.observe(value)
        real.observe(value)
    assert _samples(ours) == _samples(theirs)
    assert 'x_seconds_bucket{le="0.001"} 2.0' in _samples(ours)  # a bound is inclusive


def test_a_counter_matches_the_librarys_by_label_values() -> None:
    ours, theirs = CollectorRegistry(), CollectorRegistry()
    lean = LoopCounter("moves", "doc", ["game", "source"], registry=ours)
    real = Counter("moves", "doc", ["game", "source"], registry=theirs)
    for labels in [("a", "player"), ("a", "player"), ("b", "bot")]:
        lean.inc(*labels)
        real.labels(*labels).inc()
    assert _samples(ours) == _samples(theirs)
    assert 'moves_total{game="a",source="player"} 2.0' in _samples(ours)
