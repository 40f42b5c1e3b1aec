"""Work for the worker-pool tests (imported by the workers: tests/ is on their path)."""

from __future__ import annotations

import os

KEPT: list[bytes] = []


def pid() -> int:
    return os.getpid()


def hold(mb: int) -> int:
    """Keep `mb` of touched memory for good (a cache that grows); the worker's pid."""
    KEPT.append(b"\x01" * (mb * 2**20))
    return os.getpid()
