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
from typing import TYPE_CHECKING, Any

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


def _closing(app: Any) -> Any:
    """`app`, with each response's body closed even when the browser drops the connection.

    werkzeug's development server reads what is left of a dropped connection before it closes
    the body, and that read can itself fail (connection reset), so the body of a file sent
    by `send_from_directory` stays open and Python warns when it is collected (a CI run
    failed on it, under `filterwarnings = error`). A generator's `finally` runs when it is
    collected, so the file is closed there.
    """
    def wrapped(environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
        body = app(environ, start_response)
        try:
            yield from body
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()
    return wrapped


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
    from service.workers import pool

    pool(app.config["AI_POOL"]).warm()  # as `survive-us serve` does: the AI's first answer
    # does not wait for its worker processes to start (seconds on a loaded machine)
    server = make_server("127.0.0.1", 0, _closing(app), threaded=True,
                         request_handler=QuietHandler)
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
