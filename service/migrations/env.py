"""Alembic environment. The app runs it on its own connection (`Database.upgrade`); the
`alembic` command (alembic.ini at the repository's root) runs it on `DATABASE_URL` or the
default SQLite file, e.g. `alembic revision --autogenerate -m "..."` after changing
service/storage/tables.py."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from service.storage.db import Database, database_url
from service.storage.tables import metadata


def run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


given = context.config.attributes.get("connection")
if given is not None:
    run(given)
else:
    database = Database(database_url())
    with database.write() as conn:
        run(conn)
    database.dispose()
