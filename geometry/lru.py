"""A small least-recently-used cache bounded by count and by an estimate of its memory.

The geometry answers the same queries again and again (a path from a figure that has not
moved, the region of a spot), from one game or from many served at once, so their results
are kept; but a server process runs for days, so what is kept must stay bounded.
`functools.lru_cache` bounds only the count and keys on every argument, where these caches
key on a query's exact values and weigh entries of very different sizes (a path of two
points or of a hundred, an avoid list of no base or of forty), hence this one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["LRU"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """At most `max_items` entries and about `max_bytes` (as `weigh(key, value)` counts
    them); the least recently used go first. Safe to share between threads: every operation
    takes the cache's own lock (held only for the dictionary work, never while a value is
    computed). An entry heavier than `max_bytes` alone is not kept."""

    def __init__(self, max_items: int, max_bytes: int | None = None,
                 weigh: Callable[[K, V], int] | None = None) -> None:
        if max_items < 1:
            raise ValueError("an LRU keeps at least one entry")
        self.max_items = max_items
        self.max_bytes = max_bytes
        self._weigh = weigh
        self._data: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: K) -> V | None:
        """The value kept for `key` (now the most recently used), else None."""
        with self._lock:
            found = self._data.get(key)
            if found is None:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return found[0]

    def put(self, key: K, value: V) -> None:
        """Keep `value` for `key`, evicting the least recently used beyond the bounds."""
        size = self._weigh(key, value) if self._weigh is not None else 0
        if self.max_bytes is not None and size > self.max_bytes:
            return
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._data[key] = (value, size)
            self._bytes += size
            while len(self._data) > self.max_items or (
                    self.max_bytes is not None and self._bytes > self.max_bytes):
                _, (_, gone) = self._data.popitem(last=False)
                self._bytes -= gone

    @property
    def nbytes(self) -> int:
        """What the entries weigh now, as `weigh` counts them (0 without `weigh`)."""
        with self._lock:
            return self._bytes

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._bytes = 0
