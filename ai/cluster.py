"""Playing a batch of games on a Dask distributed cluster instead of local processes.

A balance study can outgrow one machine: `survive-us simulate ... --cluster ADDRESS` sends
each game as one task to the scheduler at ADDRESS (`dask scheduler` on one machine,
`dask worker ADDRESS` on the others, each with this package installed). A game is a pure
function of its job (the seed fixes the set-up, the dice and the policies), so the results
are the same as a local run's, whichever worker plays which game; they come back in job
order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from geometry.errors import SurviveUsError
from i18n import Message

__all__ = ["ClusterError", "connect", "map_on_cluster", "CONNECT_TIMEOUT"]

CONNECT_TIMEOUT = 10.0  # seconds to reach the scheduler before giving up

J = TypeVar("J")
R = TypeVar("R")
Progress = Callable[[Iterable[Any], int], Iterable[Any]]


class ClusterError(SurviveUsError, ValueError):
    """The Dask scheduler could not be reached, or refused the work."""

    code = "cluster_unreachable"


def connect(address: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A `distributed.Client` on the scheduler at `address` ("tcp://host:8786", or
    "host:8786"), or a ClusterError naming the address."""
    from distributed import Client

    _probe(address, timeout)
    try:
        return Client(address, timeout=timeout, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise _unreachable(address, error) from None


def _unreachable(address: str, error: BaseException | str) -> ClusterError:
    reason = str(error).splitlines()[0] if str(error) else type(error).__name__
    return ClusterError(Message("ai.error.cluster", {"address": address, "reason": reason}),
                        "cluster")


def _probe(address: str, timeout: float) -> None:
    """Check the address's form and, for TCP, that something listens there, before a
    Client is made: a Client that fails to start waits out its whole timeout, and again when
    it is collected."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    if not address.strip():
        raise ClusterError(Message("ai.error.cluster_empty"), "cluster")
    try:
        scheme, location = parse_address(address)
        if scheme not in ("tcp", "tls"):
            return  # inproc:// (a cluster in this process), ucx://...: the Client checks
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as error:
        raise _unreachable(address, error) from None
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise _unreachable(address, f"{host}:{port}: {reason}") from None


def map_on_cluster(play: Callable[[J], R], todo: Sequence[J], address: str, *,
                   progress: Progress | None = None,
                   timeout: float = CONNECT_TIMEOUT) -> list[R]:
    """`[play(job) for job in todo]`, each job a task on the cluster at `address`, in order.

    The progress wrapper sees results as they finish (any order); the list is in job order.
    """
    from distributed import as_completed

    client = connect(address, timeout)
    try:
        # pure=False: two equal jobs are still two games (and no hashing of the jobs)
        futures = client.map(play, list(todo), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Any] = [None] * len(futures)

        def finished() -> Iterator[tuple[int, R]]:
            with client.as_current():  # as_completed finds its client there
                for future in as_completed(futures):  # type: ignore[no-untyped-call]
                    yield index[future.key], future.result()

        wrap = progress or (lambda it, total: it)
        for i, result in wrap(finished(), len(futures)):
            results[i] = result
        return results
    finally:
        client.close()
