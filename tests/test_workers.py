"""Worker pools (service/workers.py): a worker whose memory grows is replaced, in the
background, so a long-running server's memory stays flat (issue 17)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from service.workers import Pool, PoolSettings, pool


@pytest.fixture
def small() -> Iterator[Pool]:
    settings = PoolSettings("test-regrow", size=1, waiting=2, per_client=3, wait=60.0,
                            regrow_mb=16, preload=("worker_support",))
    yield pool(settings)
    pool(settings).close()


def test_a_worker_grown_past_its_bound_is_replaced(small: Pool) -> None:
    first = small.run("worker_support:pid")
    assert small.run("worker_support:hold", 4) == first  # grown a little: kept
    assert small.run("worker_support:pid") == first
    assert small.run("worker_support:hold", 40) == first  # then replaced after this task
    deadline = time.monotonic() + 60
    while (now := small.run("worker_support:pid")) == first and time.monotonic() < deadline:
        time.sleep(0.2)  # (a request meanwhile may have been answered by the old one)
    assert now != first
    assert small.run("worker_support:pid") == now  # the fresh one stays
