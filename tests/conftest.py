"""Shared test set-up.

On CI (the CI environment variable set) hypothesis runs derandomized: the same examples every
run, so a landing never depends on luck; locally it explores new examples each run.

The page's browser tests (tests/test_web*.py) share `base_url` (the real app served by a
werkzeug server in a thread, on a temporary SQLite database, one per test module) and
`browser` (Debian's chromium driven by Playwright).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync"]

settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from werkzeug.serving import WSGIRequestHandler, make_server

    from service.app import create_app

    class QuietHandler(WSGIRequestHandler):
        def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
            """Requests are not logged (the test output stays readable)."""

    db = tmp_path_factory.mktemp("web") / "web.sqlite3"
    app = create_app({"DATABASE_URL": f"sqlite:///{db}", "SSE_POLL": 0.1,
                      "SSE_LIFETIME": 20.0, "TESTING": True})
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    thread.join(5)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()
