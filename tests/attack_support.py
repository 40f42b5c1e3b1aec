"""The app on each database the service runs on, for the attack tests (issue 17): a fresh
SQLite file, and a private schema of the PostgreSQL that SURVIVE_US_TEST_POSTGRES names
(.ci/run starts one; without it the PostgreSQL half is skipped, as tests/test_storage.py
does)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from api_support import make_app
from pg_support import POSTGRES, fresh_schema

__all__ = ["BACKENDS", "app_on", "POSTGRES"]

BACKENDS = ["sqlite", "postgresql"]


def app_on(backend: str, folder: Path, **config: Any) -> Iterator[Any]:
    """Yield the app on `backend` (a generator for a fixture); the schema is dropped after."""
    if backend == "sqlite":
        yield make_app(folder, **config)
        return
    with fresh_schema() as schema:
        assert POSTGRES
        sep = "&" if "?" in POSTGRES else "?"
        url = f"{POSTGRES}{sep}options={quote(f'-csearch_path={schema}')}"
        app = make_app(folder, DATABASE_URL=url, **config)
        try:
            yield app
        finally:
            app.extensions["survive_us"].db.dispose()
