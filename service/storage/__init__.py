"""Where the service keeps rosters, campaigns and games: SQLite or PostgreSQL."""

from service.storage.db import Database, database_url

__all__ = ["Database", "database_url"]
