"""`simulate --cluster`: a batch on a Dask cluster gives the local run's summary; an address
nobody listens at is a clear error (status 2, the address named, no traceback)."""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Iterator

import pytest

from service.cli import main

ARGS = ("--scenario", "nuit", "--games", "3", "--seed", "40", "--zombies", "greedy",
        "--survivors", "bot", "--zombie-points", "6", "--json")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A one-worker LocalCluster in this process (threads, no child processes, no
    dashboard), closed with its client connections after the module."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=None, silence_logs=logging.ERROR,
                      protocol="tcp", host="127.0.0.1") as cluster:
        yield str(cluster.scheduler_address)


def test_cluster_run_matches_local_run(scheduler: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *ARGS]) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(["simulate", *ARGS, "--cluster", scheduler]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert remote == local
    assert remote["games"] == 3 and remote["zombie_points"] == 6


def test_cluster_results_come_back_in_job_order(scheduler: str) -> None:
    from ai.cluster import map_on_cluster

    seen: list[int] = []

    def count(it: object, total: int) -> Iterator[object]:
        for item in it:  # type: ignore[attr-defined]
            seen.append(item[0])
            yield item

    assert map_on_cluster(_square, list(range(12)), scheduler, progress=count) == [
        n * n for n in range(12)]
    assert sorted(seen) == list(range(12))


def _square(n: int) -> int:
    return n * n


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed when the block ends: nobody listens


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:CLOSED", "no-port-here",
                                     "tcp://nohost.invalid:8786"])
def test_unreachable_scheduler_is_a_clear_error(address: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    # the closed port is chosen when the test runs, so that every worker collects the same ids
    address = address.replace("CLOSED", str(_closed_port()))
    assert main(["simulate", *ARGS, "--cluster", address]) == 2
    captured = capsys.readouterr()
    error = json.loads(captured.out)["error"]
    assert error["where"] == "cluster" and error["code"] == "cluster_unreachable"
    assert address in error["message"]
    assert "Traceback" not in captured.err and address in captured.err
