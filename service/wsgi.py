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
"""

from __future__ import annotations

import gc
from typing import Any

from apiflask import APIFlask

from service.app import create_app

__all__ = ["settle", "server_app"]


def settle(application: APIFlask) -> APIFlask:
    """Collect what start-up left, then freeze the survivors out of later collections."""
    gc.collect()
    gc.freeze()
    return application


def server_app(config: dict[str, Any] | None = None) -> APIFlask:
    """`create_app(config)` settled for serving (DATABASE_URL from the environment)."""
    return settle(create_app(config))
