"""Alembic migrations of the service's database (run by `service.storage.db.upgrade`)."""
