"""A fresh schema of the test PostgreSQL database (SURVIVE_US_TEST_POSTGRES, which .ci/run
starts), dropped afterwards: one per test, so tests never see each other's rows."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from service.storage.db import normalise_url

__all__ = ["POSTGRES", "fresh_schema"]

POSTGRES = os.environ.get("SURVIVE_US_TEST_POSTGRES")


@contextmanager
def fresh_schema(prefix: str = "t") -> Iterator[str]:
    """The new schema's name (skips the test when no PostgreSQL is given)."""
    if not POSTGRES:
        pytest.skip("SURVIVE_US_TEST_POSTGRES is not set")
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(normalise_url(POSTGRES))
    with admin.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    try:
        yield schema
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()
