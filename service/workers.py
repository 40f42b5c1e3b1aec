"""Heavy work off the request threads: small pools of worker processes, each task with a
time and a memory budget.

A camera frame's analysis or an arbitration that builds paths can take seconds of CPU and
hundreds of MB. Run on a server's request thread it would hold Python's one interpreter lock
and that thread, and could not be stopped. Here it runs in a worker process instead:

- a pool has `size` processes and lets `waiting` more requests queue; a request finding the
  queue full, or waiting longer than `wait` seconds for a process, is answered 503 with
  `Retry-After` (`Busy`), and one client (its address) may have at most `per_client`
  requests in a pool at once (429);
- workers run at a lower priority (`NICE`): on a busy machine the table's own requests,
  answered in the server process, get the processor first;
- a task gets `budget` seconds: an alarm in the worker stops Python code at the budget
  (`OverBudget`, HTTP 413), and a worker still busy a few seconds later (stuck in C code,
  an OpenCV search) is killed and replaced;
- a worker's address space is capped (`memory_mb` above what it holds at start), so a task
  that would need more ends with MemoryError, answered as `OverBudget` too;
- errors the work raises on purpose (`SurviveUsError`) come back as `ApiError`s with their
  code, words, place and status.

Processes start on first use (fresh interpreters: they share nothing with the server's
threads) and import what the pool `preload`s before taking work. `time_budget` is the same
alarm for a process's main thread (the command line uses it).
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from geometry.errors import SurviveUsError
from i18n import Message
from rules.limits import LimitError
from service.errors import ApiError

__all__ = ["Pool", "PoolSettings", "Busy", "OverBudget", "time_budget", "pool",
           "shutdown", "KILL_GRACE"]

KILL_GRACE = 3.0  # seconds past the budget before a worker stuck in C code is killed
NICE = 10  # workers' scheduling priority below the server's


def _import_roots() -> list[str]:
    """Where a worker finds the project and its packages: this process's `sys.path`, less
    package folders. OpenCV's loader puts its own folder there while it is imported, so a
    worker started by one thread while another imports cv2 found `cv2/typing` as `typing`
    and did not start (seen under load)."""
    return [p for p in sys.path if p and not os.path.isfile(os.path.join(p, "__init__.py"))]


class OverBudget(LimitError):
    """Work stopped at its time or memory budget (HTTP 413)."""

    code = "over_budget"


class Busy(ApiError):
    """No worker free soon enough (503), or this client's share in use (429)."""

    code = "busy"
    status = 503

    def __init__(self, message: Message, retry_after: int, status: int = 503,
                 code: str | None = None) -> None:
        super().__init__(message, "", status=status, code=code)
        self.retry_after = retry_after


class _Stopped(BaseException):
    """Raised by the alarm inside the work (a BaseException: `except Exception` in the work
    does not swallow it)."""


@contextlib.contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Stop the Python code run inside at `seconds` with `OverBudget` (main thread only;
    elsewhere, and for seconds <= 0, nothing is limited)."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(_signum: int, _frame: Any) -> None:
        raise _Stopped

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _Stopped:
        raise OverBudget(Message("limits.budget", {"s": _whole(seconds)}), "") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _whole(seconds: float) -> int | float:
    return int(seconds) if float(seconds).is_integer() else round(seconds, 1)


# -- the worker process --------------------------------------------------------------------------
def _carry(error: BaseException) -> dict[str, Any]:
    """An error raised by the work, as plain data for the server to raise again."""
    if isinstance(error, SurviveUsError):
        status = getattr(error, "status", None)
        if not isinstance(status, int):
            status = 413 if isinstance(error, LimitError) else 422
        return {"code": error.code, "where": error.where, "status": status,
                "words": error.words.to_json() if error.words is not None else None,
                "message": error.message}
    return {"code": "server_error", "where": "", "status": 500, "words": None,
            "message": f"{type(error).__name__}: {error}"}


def _serve(tasks: Connection, conn: Connection, preload: tuple[str, ...], memory_mb: int,
           budget: float) -> None:
    """A worker's loop: import, cap memory, then run (function, args) until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server's Ctrl-C is the server's
    os.nice(NICE)  # the table's own requests, in the server process, come first
    for name in preload:
        importlib.import_module(name)
    if memory_mb > 0:
        with open("/proc/self/statm") as statm:
            start = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        cap = start + memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    conn.send(("ready", os.getpid()))
    while True:
        try:
            task = tasks.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        target, args = task
        module, _, name = target.partition(":")
        try:
            with time_budget(budget):
                result = getattr(importlib.import_module(module), name)(*args)
            conn.send(("ok", result))
        except _Stopped:  # the alarm rang as the work ended
            conn.send(("error", _carry(OverBudget(Message("limits.budget",
                                                          {"s": _whole(budget)}), ""))))
        except MemoryError:
            conn.send(("error", _carry(OverBudget(Message("limits.memory",
                                                          {"mb": memory_mb}), ""))))
        except Exception as error:  # everything goes back to the request that sent it
            conn.send(("error", _carry(error)))


class _Worker:
    """One worker process (a fresh interpreter running `_child`) and two pipes to it."""

    def __init__(self, settings: PoolSettings) -> None:
        self.broken = True  # until it answers a task as it should
        self.baseline_mb: float | None = None
        self.renewing = self.retire = self.gone = False  # (Pool._renew)
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        spec = json.dumps({"read": to_child_r, "write": from_child_w,
                           "preload": list(settings.preload), "memory_mb": settings.memory_mb,
                           "budget": settings.budget})
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(_import_roots())
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", "import service.workers as w; w._child()", spec],
                pass_fds=(to_child_r, from_child_w), stdin=subprocess.DEVNULL, env=env,
                close_fds=True)
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        self.send = Connection(to_child_w, readable=False)
        self.conn = Connection(from_child_r, writable=False)
        if not self.conn.poll(settings.start_timeout):
            self.kill()
            raise RuntimeError(f"the {settings.name} worker did not start")
        try:
            self.conn.recv()
        except (EOFError, OSError):
            self.kill()
            raise RuntimeError(f"the {settings.name} worker did not start") from None
        self.broken = False

    def rss_mb(self) -> float:
        """The worker's resident memory now (0 when it cannot be read)."""
        try:
            with open(f"/proc/{self.process.pid}/statm") as statm:
                pages = int(statm.read().split()[1])
        except (OSError, ValueError, IndexError):
            return 0.0
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20

    def grown(self, regrow_mb: int) -> bool:
        """Whether the worker holds `regrow_mb` more than after its first task (what it
        imports and caches for good), which it then takes as its measure."""
        now = self.rss_mb()
        if self.baseline_mb is None:
            self.baseline_mb = now
            return False
        return regrow_mb > 0 and now > self.baseline_mb + regrow_mb

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.process.wait(5)
        for end in (self.send, self.conn):
            with contextlib.suppress(Exception):
                end.close()

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.send.send(None)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(1)
        self.kill()


def _child() -> None:
    """A worker process's entry (`python -c ...`, the pool's settings in argv[1])."""
    spec = json.loads(sys.argv[1])
    _serve(Connection(spec["read"], writable=False), Connection(spec["write"], readable=False),
           tuple(spec["preload"]), int(spec["memory_mb"]), float(spec["budget"]))


@dataclass(frozen=True)
class PoolSettings:
    """A pool's size, queue, per-client share and budgets (docs/api.md, "Limits")."""

    name: str
    size: int = 1
    waiting: int = 4
    per_client: int = 2
    wait: float = 10.0  # seconds a request waits for a free worker before a 503
    budget: float = 10.0  # seconds of work a task may take
    memory_mb: int = 1024
    regrow_mb: int = 64  # a worker grown this much past its first task is replaced
    preload: tuple[str, ...] = ()
    start_timeout: float = 60.0


@dataclass
class Pool:
    """A few worker processes for one kind of heavy work (see the module docstring)."""

    settings: PoolSettings
    _idle: list[_Worker] = field(default_factory=list)
    _started: int = 0
    _admitted: int = 0
    _clients: dict[str, int] = field(default_factory=dict)
    _lock: threading.Condition = field(default_factory=threading.Condition)

    def run(self, target: str, *args: Any, client: str = "") -> Any:
        """`module:function(*args)` in a worker; raises Busy, OverBudget, or the work's own
        error as an ApiError."""
        s = self.settings
        with self._lock:
            if self._clients.get(client, 0) >= s.per_client:
                raise Busy(Message("service.busy_client", {"n": s.per_client}),
                           _whole_up(s.budget), status=429, code="too_many_requests")
            if self._admitted >= s.size + s.waiting:
                raise Busy(Message("service.busy", {"s": _whole_up(s.wait)}),
                           _whole_up(s.wait))
            self._admitted += 1
            self._clients[client] = self._clients.get(client, 0) + 1
        try:
            worker = self._take()
            try:
                return self._call(worker, target, args)
            finally:
                if worker.broken:
                    self._replace(worker)
                else:
                    if not worker.renewing and worker.grown(s.regrow_mb):
                        self._renew(worker)
                    self._give_back(worker)
        finally:
            with self._lock:
                self._admitted -= 1
                left = self._clients[client] - 1
                if left:
                    self._clients[client] = left
                else:
                    del self._clients[client]

    def _take(self) -> _Worker:
        s = self.settings
        deadline = time.monotonic() + s.wait
        with self._lock:
            while not self._idle:
                if self._started < s.size:
                    self._started += 1
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Busy(Message("service.busy", {"s": _whole_up(s.wait)}),
                               _whole_up(s.wait))
                self._lock.wait(left)
            else:
                return self._idle.pop()
        try:
            return _Worker(s)
        except BaseException:
            with self._lock:
                self._started -= 1
                self._lock.notify()
            raise

    @property
    def in_use(self) -> int:
        """Requests in the pool now: running or waiting for a worker."""
        with self._lock:
            return self._admitted

    def warm(self) -> None:
        """Start the pool's workers now, in the background (a server's first heavy request
        then does not wait for a fresh interpreter)."""
        def start() -> None:
            taken = []
            try:
                for _ in range(self.settings.size):
                    taken.append(self._take())
            except Exception:  # noqa: S110 - a worker that fails to start is started later
                pass
            for worker in taken:
                self._give_back(worker)

        threading.Thread(target=start, name=f"{self.settings.name} warm-up",
                         daemon=True).start()

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            if not worker.retire:
                self._idle.append(worker)
                self._lock.notify()
                return
        # replaced by a fresh one while it worked (Pool._renew): it stops
        threading.Thread(target=worker.stop, daemon=True).start()

    def _replace(self, worker: _Worker) -> None:
        """A worker that failed mid-task is killed; the next request starts a new one."""
        worker.kill()
        with self._lock:
            worker.gone = True
            if not worker.retire:  # (a retired one's place is its fresh replacement's)
                self._started -= 1
            self._lock.notify()

    def _renew(self, worker: _Worker) -> None:
        """A worker whose memory grew (caches of many games and tables: bounded, but a
        server runs for weeks) is replaced so that the pool's memory stays flat: a fresh
        one is started in the background while the old one goes on working, then takes its
        place (the old one stops when next idle). No request waits for the new interpreter."""
        worker.renewing = True

        def renew() -> None:
            try:
                fresh = _Worker(self.settings)
            except Exception:
                worker.renewing = False  # tried again after a later task
                return
            with self._lock:
                if worker in self._idle:
                    self._idle.remove(worker)
                    old: _Worker | None = worker
                else:  # working, or gone (broken): not given back again
                    worker.retire, old = True, None
                    if worker.gone:
                        self._started += 1  # the fresh one takes the place _replace freed
                self._idle.append(fresh)
                self._lock.notify()
            if old is not None:
                old.stop()

        threading.Thread(target=renew, name=f"{self.settings.name} renewal",
                         daemon=True).start()

    def _call(self, worker: _Worker, target: str, args: tuple[Any, ...]) -> Any:
        s = self.settings
        worker.broken = True
        worker.send.send((target, args))
        if not worker.conn.poll(s.budget + KILL_GRACE):  # stuck in C code: killed
            raise OverBudget(Message("limits.budget", {"s": _whole(s.budget)}), "")
        try:
            status, payload = worker.conn.recv()
        except (EOFError, OSError):  # the worker died (killed by the system, or a crash)
            raise OverBudget(Message("limits.memory", {"mb": s.memory_mb}), "") from None
        worker.broken = False
        if status == "ok":
            return payload
        raise ApiError(_words(payload), payload["where"], code=payload["code"],
                       status=payload["status"])

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
            self._started -= len(idle)
        for worker in idle:
            worker.stop()


def _words(payload: dict[str, Any]) -> str | Message:
    words = payload.get("words")
    return Message.from_json(words) if isinstance(words, dict) else str(payload["message"])


def _whole_up(seconds: float) -> int:
    return max(1, int(-(-seconds // 1)))


_POOLS: dict[str, Pool] = {}
_POOLS_LOCK = threading.Lock()


def pool(settings: PoolSettings) -> Pool:
    """The process's pool named `settings.name` (made on first use with these settings)."""
    with _POOLS_LOCK:
        found = _POOLS.get(settings.name)
        if found is None or found.settings != settings:
            if found is not None:
                found.close()
            found = _POOLS[settings.name] = Pool(settings)
        return found


@atexit.register
def shutdown() -> None:
    """Stop every pool's idle workers (busy ones are daemons: they end with the server)."""
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
    for p in pools:
        p.close()


def call_in(settings: PoolSettings | None, target: str, *args: Any, client: str = "") -> Any:
    """`target(*args)` in `settings`' pool, or here when `settings` is None (in-process)."""
    if settings is None:
        module, _, name = target.partition(":")
        function: Callable[..., Any] = getattr(importlib.import_module(module), name)
        return function(*args)
    return pool(settings).run(target, *args, client=client)
