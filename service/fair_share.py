"""Each client's share of the server's interpreter (docs/api.md, Limits).

The server answers requests on threads of one process, and Python runs one thread at a time.
Work too heavy for a request thread goes to the worker pools (service/workers.py: paths,
the camera, the AI), but what stays is not free: an arbitration of 200 lines of sight takes
about 8 ms. One client sending those back to back, with no pause, held the interpreter half
of the time, and the 50 other clients' table-pace requests waited behind it (p95 38-48 ms
where they take 2 ms alone; `python -m bench.attack_load`).

So each client (its address) has an account of processor time, measured on the request's
own thread (`time.thread_time`): it earns `share` seconds a second, keeps at most `burst`,
and each request it sends costs what it used. While the account is negative, its requests
are answered 429 `too_many_requests` with `Retry-After`, the time it takes to earn back to
zero. A tablet at table pace uses about a hundredth of a core; the defaults
(`SHARE`, `BURST`: a tenth of a core, 3 s at once) leave ten such tablets behind
one address far below the share, and the 3 s cover a finished game's summary and chances
curve read at once. Event streams are counted for their start only (their slot is bounded
by service/api/stream.py); time a request spends waiting for a worker process is not
processor time here.
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from dataclasses import dataclass

from flask import Flask, g, request

from i18n import Message
from service.workers import Busy

__all__ = ["FairShare", "Account", "register", "client_of"]

MAX_CLIENTS = 10_000  # accounts kept; full ones are forgotten first (they hold nothing)
SHARE = 0.1  # a client's share by default: a tenth of a core (survive-us serve, server_app)
BURST = 3.0  # and the seconds it may use at once


@dataclass
class Account:
    """What one client may still use: `balance` seconds at `at` (time.monotonic)."""

    balance: float
    at: float


class FairShare:
    """The accounts of all clients, safe to use from the server's threads."""

    def __init__(self, share: float, burst: float) -> None:
        if share <= 0 or burst <= 0:
            raise ValueError("a client's share and burst must be positive")
        self.share, self.burst = share, burst
        self._accounts: dict[str, Account] = {}
        self._lock = threading.Lock()

    def _account(self, client: str, now: float) -> Account:
        """The client's account brought up to `now` (the caller holds the lock)."""
        account = self._accounts.get(client)
        if account is None:
            if len(self._accounts) >= MAX_CLIENTS:
                self._forget_full(now)
            account = self._accounts[client] = Account(self.burst, now)
        account.balance = min(self.burst, account.balance + (now - account.at) * self.share)
        account.at = now
        return account

    def _forget_full(self, now: float) -> None:
        full = [c for c, a in self._accounts.items()
                if a.balance + (now - a.at) * self.share >= self.burst]
        for client in full or list(self._accounts)[: MAX_CLIENTS // 10]:
            del self._accounts[client]

    def wait(self, client: str) -> int:
        """Whole seconds `client` must wait before its next request is taken (0: now)."""
        now = time.monotonic()
        with self._lock:
            balance = self._account(client, now).balance
        return 0 if balance >= 0 else max(1, math.ceil(-balance / self.share))

    def charge(self, client: str, seconds: float) -> None:
        """Take `seconds` of processor time, used by one of its requests, from `client`."""
        now = time.monotonic()
        with self._lock:
            self._account(client, now).balance -= max(0.0, seconds)


def client_of(address: str) -> str:
    """The account an address draws on: itself, or for IPv6 its /64 network (one home or
    host is given a whole /64, so its addresses are one client)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return address


def register(app: Flask) -> None:
    """Hold every API request of `app` to its client's share, when `CLIENT_SHARE` is set
    (`survive-us serve` and `service.wsgi.server_app` set it; tests leave it off)."""
    share = app.config.get("CLIENT_SHARE")
    if not share:
        return
    accounts = FairShare(float(share), float(app.config.get("CLIENT_BURST", BURST)))
    app.extensions["fair_share"] = accounts

    @app.before_request
    def admit() -> None:
        if not request.path.startswith("/api/"):
            return
        client = client_of(request.remote_addr or "")
        wait = accounts.wait(client)
        if wait:
            raise Busy(Message("service.client_share", {"s": wait}), wait, status=429,
                       code="too_many_requests")
        g.cpu_account = (client, time.thread_time())

    @app.teardown_request
    def charge(_error: BaseException | None) -> None:
        started = g.pop("cpu_account", None)
        if started is not None:
            client, at = started
            accounts.charge(client, time.thread_time() - at)
