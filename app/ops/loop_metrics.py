"""Counters and histograms for the move path: plain numbers, read by Prometheus at scrape time.

Why not prometheus_client's own `Counter` and `Histogram`: each increment takes a lock and each
observation searches the buckets in Python (with two locked increments), ~5 µs a move in all
on this machine's kind, for figures only the event loop's thread ever writes. Here an increment
is a dict or list addition, an observation a `bisect` (in C); `collect` turns them into the same
metric families (`*_total`, `*_bucket`/`*_count`/`*_sum`) at each scrape. Write them only from the
event loop's thread (the hot path does); the scrape runs on it too.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence

from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import REGISTRY, CollectorRegistry
from prometheus_client.utils import floatToGoString


class LoopCounter:
    """A counter by label values (all given at each `inc`)."""

    def __init__(self, name: str, documentation: str, labels: Sequence[str] = (),
                 registry: CollectorRegistry = REGISTRY) -> None:
        self._name, self._documentation, self._labels = name, documentation, list(labels)
        self._counts: dict[tuple[str, ...], int] = {}
        registry.register(self)  # type: ignore[arg-type]  # a collector by shape

    def inc(self, *values: str) -> None:
        self._counts[values] = self._counts.get(values, 0) + 1

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(self._name, self._documentation, labels=self._labels)
        for values, count in self._counts.items():
            family.add_metric(list(values), count)
        yield family


class LoopHistogram:
    """A histogram with fixed upper bounds (seconds), no labels."""

    def __init__(self, name: str, documentation: str, buckets: Sequence[float],
                 registry: CollectorRegistry = REGISTRY) -> None:
        self._name, self._documentation = name, documentation
        self._bounds = tuple(buckets)
        self._counts = [0] * (len(self._bounds) + 1)  # the last: above every bound (+Inf)
        self._sum = 0.0
        registry.register(self)  # type: ignore[arg-type]  # a collector by shape

    def observe(self, value: float) -> None:
        self._counts[bisect_left(self._bounds, value)] += 1
        self._sum += value

    def collect(self) -> Iterator[Metric]:
        cumulative, total = [], 0
        for bound, count in zip((*self._bounds, float("inf")), self._counts, strict=True):
            total += count
            cumulative.append((floatToGoString(bound), total))
        family = HistogramMetricFamily(self._name, self._documentation)
        family.add_metric([], cumulative, self._sum)
        yield family
