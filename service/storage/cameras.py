"""Rows of the `cameras` table: a game's camera settings and its last analysed view."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from service.storage.records import now
from service.storage.tables import cameras

__all__ = ["get_camera", "put_settings", "put_last"]


def get_camera(conn: Connection, game_id: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(settings, last analysis) of a game's camera; empty settings when none were set."""
    row = conn.execute(sa.select(cameras).where(cameras.c.game_id == game_id)).first()
    if row is None:
        return {}, None
    return dict(row.settings), (dict(row.last) if row.last is not None else None)


def _upsert(conn: Connection, game_id: str, values: dict[str, Any]) -> None:
    done = conn.execute(sa.update(cameras).where(cameras.c.game_id == game_id)
                        .values(updated=now(), **values))
    if done.rowcount == 0:
        conn.execute(sa.insert(cameras).values(game_id=game_id, updated=now(),
                                               **{"settings": {}, "last": None, **values}))


def put_settings(conn: Connection, game_id: str, settings: dict[str, Any]) -> None:
    _upsert(conn, game_id, {"settings": settings})


def put_last(conn: Connection, game_id: str, last: dict[str, Any]) -> None:
    _upsert(conn, game_id, {"last": last})
