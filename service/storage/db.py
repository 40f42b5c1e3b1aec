"""The database: an engine for SQLite (default) or PostgreSQL, durable writes, migrations.

SQLite runs in WAL mode with `synchronous=FULL` (an acknowledged write survives a power cut)
and every write transaction starts with `BEGIN IMMEDIATE`, so two workers never both read a
row, change it and write it back (the default deferred BEGIN loses such updates). PostgreSQL
writes lock the row they change (`SELECT ... FOR UPDATE`) instead. A read transaction sees
one snapshot of the database on both: SQLite's deferred BEGIN takes it at the first read,
and PostgreSQL reads run REPEATABLE READ (its default, READ COMMITTED, gives each statement
its own snapshot, so a game row read at version v and its events read next could include
event v+1 that another worker committed in between). `upgrade` brings the schema to the
newest Alembic revision; it runs when the app starts.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection, Engine

from geometry.errors import SurviveUsError
from i18n import Message

__all__ = ["Database", "DatabaseError", "DEFAULT_URL", "database_url", "normalise_url"]

DEFAULT_URL = "sqlite:///data/survive-us.sqlite3"
MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
_IMMEDIATE = "survive_us_immediate"


def database_url(explicit: str | None = None) -> str:
    """`explicit`, else `DATABASE_URL`, else the SQLite file in ./data."""
    return normalise_url(explicit or os.environ.get("DATABASE_URL") or DEFAULT_URL)


def normalise_url(url: str) -> str:
    """Plain `postgresql://` URLs use psycopg 3; a bare path means a SQLite file."""
    if url.startswith(("postgres://", "postgresql://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url


class DatabaseError(SurviveUsError):
    """A database URL the service cannot use, or a database it cannot reach."""

    code = "database"


def _shown(url: str) -> str:
    """The URL as it may be printed: its password hidden."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except (sa.exc.ArgumentError, ValueError):
        return url.split("://", 1)[0] + "://..." if "://" in url else url


class Database:
    """One engine and the two kinds of transaction the service uses: `read` and `write`."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        scheme = self.url.split("://", 1)[0]
        if scheme not in ("sqlite", "postgresql+psycopg"):
            raise DatabaseError(Message("service.db.unsupported", {
                "url": _shown(url), "scheme": scheme + "://"}), "database")
        self.is_sqlite = self.url.startswith("sqlite")
        # SQLite has one writer at a time; its busy handler makes a waiting writer sleep and
        # poll (1, 2, 5 ... 100 ms), a long tail under load. Threads of this process queue
        # here instead (other processes still meet the busy handler).
        self._writer = threading.RLock() if self.is_sqlite else None
        if self.is_sqlite:
            try:
                self.engine = _sqlite_engine(self.url)
            except OSError as error:  # its folder cannot be made
                raise DatabaseError(Message("service.db.unreachable", {
                    "url": self.url, "reason": error.strerror or str(error)}),
                    "database") from None
        else:
            self.engine = sa.create_engine(self.url, pool_pre_ping=True)

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A transaction that only reads, from one snapshot of the database (in WAL mode
        readers never wait for a writer; on PostgreSQL a REPEATABLE READ transaction that
        only reads never fails to serialise)."""
        with self.engine.connect() as conn:
            if not self.is_sqlite:
                conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                yield conn

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A transaction that writes: committed when the block ends, rolled back on error."""
        with self._one_writer(), self.engine.connect() as conn:
            conn.execution_options(**{_IMMEDIATE: True})
            with conn.begin():
                yield conn

    @contextmanager
    def _one_writer(self) -> Iterator[None]:
        if self._writer is None:
            yield
            return
        with self._writer:
            yield

    def upgrade(self) -> None:
        """Migrate the schema to the newest revision (several workers may start at once)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        try:
            with self.write() as conn:
                if not self.is_sqlite:
                    conn.exec_driver_sql("SELECT pg_advisory_xact_lock(72201)")
                config.attributes["connection"] = conn
                command.upgrade(config, "head")
        except (sa.exc.OperationalError, sa.exc.InterfaceError) as error:
            # the first connection: a server that does not answer, a file that cannot open
            reason = str(error.orig or error).strip().splitlines()[0]
            raise DatabaseError(Message("service.db.unreachable", {
                "url": _shown(self.url), "reason": reason}), "database") from None

    def integrity_ok(self) -> bool:
        """SQLite's `PRAGMA integrity_check` (always true elsewhere)."""
        if not self.is_sqlite:
            return True
        with self.read() as conn:
            return bool(conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok")

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_engine(url: str) -> Engine:
    path = sa.engine.make_url(url).database
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = sa.create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # SQLAlchemy's "begin" hook below issues BEGIN
        cursor = dbapi_conn.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON",
                       "busy_timeout=30000"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        immediate = conn.get_execution_options().get(_IMMEDIATE, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine
