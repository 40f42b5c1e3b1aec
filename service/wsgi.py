"""The app as a long-running server runs it: `'service.wsgi:server_app()'` for gunicorn,
and what `survive-us serve` does before waitress starts.

Why the garbage collector is told about start-up. After `create_app` the process holds about
120 000 tracked objects (the rules catalog, the scenario cards, pydantic and Flask's
machinery) that live as long as it does. CPython's full collection walks all of them: about
90-120 ms during which every thread waits for the GIL, so a request that meets one is late by
that much (it was most of the tail of the 10 x 100 sight arbitration under 20 clients).
`gc.freeze()` moves what exists at start-up out of the collector's reach; later full
collections walk only what requests created (games in play, caches): about 5-15 ms. Nothing is
cached or skipped: the same objects stay alive either way, cycles made by requests are still
collected.

Why the interpreter switches threads every half millisecond (`SWITCH_INTERVAL`, Python's
default is 5 ms). A thread that needs the interpreter while another computes waits for the
running one's slice to end, and a short request needs several slices: behind one client's
back-to-back arbitrations, 50 clients at table pace answered in 13 ms median, 38 ms p95
(3 and 8 ms without it); with 0.5 ms slices, 9 and 26 ms (`python -m bench.attack_load`).
The computing thread loses a little to the extra switches.

Why each client has a share of the processor: service/fair_share.py (`CLIENT_SHARE` cores on
average, `CLIENT_BURST` seconds at once, for every address).
"""

from __future__ import annotations

import gc
import sys
from typing import Any

from apiflask import APIFlask

from service import fair_share
from service.app import create_app

__all__ = ["settle", "server_app", "SWITCH_INTERVAL", "SERVER_DEFAULTS"]

SWITCH_INTERVAL = 0.0005
SERVER_DEFAULTS: dict[str, Any] = {"CLIENT_SHARE": fair_share.SHARE,
                                   "CLIENT_BURST": fair_share.BURST}


def settle(application: APIFlask) -> APIFlask:
    """Collect what start-up left, then freeze the survivors out of later collections."""
    gc.collect()
    gc.freeze()
    sys.setswitchinterval(SWITCH_INTERVAL)
    return application


def server_app(config: dict[str, Any] | None = None) -> APIFlask:
    """`create_app(config)` settled for serving (DATABASE_URL from the environment)."""
    return settle(create_app({**SERVER_DEFAULTS, **(config or {})}))
