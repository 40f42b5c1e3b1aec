"""Timing helpers: the median of many runs, in the same process as the comparison."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    median_s: float
    p90_s: float
    runs: int

    def ms(self) -> str:
        return f"{self.median_s * 1e3:.3f} ms"

    def us(self) -> str:
        return f"{self.median_s * 1e6:.1f} µs"


def measure(fn: Callable[[], object], *, runs: int = 30, warmup: int = 3) -> Timing:
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    samples.sort()
    return Timing(statistics.median(samples), samples[int(0.9 * (len(samples) - 1))], runs)
