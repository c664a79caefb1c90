"""Bounded memos of what a process made or read lately: rooms, lobbies, players, chat buckets.
Each is an `OrderedDict` kept in order of use, the least recently used let go past its limit."""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def keep(memo: OrderedDict[K, V], key: K, value: V, limit: int) -> None:
    """Hold `value` under `key` as the most recently used entry, and let go of the least
    recently used one once `memo` holds more than `limit`."""
    memo[key] = value
    memo.move_to_end(key)
    if len(memo) > limit:
        memo.popitem(last=False)
