"""Rows of rosters and campaigns: JSON documents with a version bumped on every change."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from i18n import Message
from service.errors import NotFound
from service.storage.tables import campaigns, deleted_rosters, rosters
from service.words import stored

__all__ = ["now", "new_id", "one_row", "insert_roster", "get_roster", "update_roster",
           "delete_roster", "insert_campaign", "get_campaign", "update_campaign", "list_campaigns"]


def now() -> datetime:
    return datetime.now(UTC)


def new_id() -> str:
    return uuid.uuid4().hex


def one_row(conn: Connection, table: sa.Table, row_id: str, what: str,
            lock: bool = False) -> sa.Row[Any]:
    """The row of `table` with this id (locked for update when asked), or a 404 naming it."""
    query = sa.select(table).where(table.c.id == row_id)
    if lock:
        query = query.with_for_update()
    row = conn.execute(query).first()
    if row is None:
        raise NotFound(Message("service.not_found", {"what": stored(what, row_id)}), "id")
    return row


def insert_roster(conn: Connection, token_hash: str, data: dict[str, Any],
                  settings: dict[str, Any]) -> str:
    row_id, when = new_id(), now()
    conn.execute(rosters.insert().values(
        id=row_id, token_hash=token_hash, name=str(data.get("name", ""))[:200], data=data,
        settings=settings, version=1, created=when, updated=when))
    return row_id


def get_roster(conn: Connection, roster_id: str, lock: bool = False) -> sa.Row[Any]:
    return one_row(conn, rosters, roster_id, "roster", lock)


def update_roster(conn: Connection, roster_id: str, data: dict[str, Any],
                  settings: dict[str, Any]) -> int:
    conn.execute(rosters.update().where(rosters.c.id == roster_id).values(
        name=str(data.get("name", ""))[:200], data=data, settings=settings,
        version=rosters.c.version + 1, updated=now()))
    return int(conn.execute(sa.select(rosters.c.version).where(
        rosters.c.id == roster_id)).scalar_one())


def delete_roster(conn: Connection, roster_id: str, token_hash: str) -> None:
    """Delete the roster, keeping its token's hash (`deleted_token`)."""
    conn.execute(rosters.delete().where(rosters.c.id == roster_id))
    conn.execute(deleted_rosters.insert().values(id=roster_id, token_hash=token_hash,
                                                 deleted=now()))


def deleted_token(conn: Connection, roster_id: str) -> str | None:
    """The token hash of a deleted roster, or None when no roster of this id was deleted."""
    found = conn.execute(sa.select(deleted_rosters.c.token_hash).where(
        deleted_rosters.c.id == roster_id)).scalar_one_or_none()
    return None if found is None else str(found)


def insert_campaign(conn: Connection, token_hash: str, data: dict[str, Any],
                    row_id: str | None = None) -> str:
    row_id, when = row_id or new_id(), now()
    name = str(data.get("roster", {}).get("name", ""))[:200]
    conn.execute(campaigns.insert().values(
        id=row_id, token_hash=token_hash, name=name, data=data, version=1, created=when,
        updated=when))
    return row_id


def get_campaign(conn: Connection, campaign_id: str, lock: bool = False) -> sa.Row[Any]:
    return one_row(conn, campaigns, campaign_id, "campaign", lock)


def update_campaign(conn: Connection, campaign_id: str, data: dict[str, Any],
                    version: int) -> int:
    """Replace the record if it is still at `version` (the caller holds the row's lock)."""
    done = conn.execute(campaigns.update().where(
        campaigns.c.id == campaign_id, campaigns.c.version == version).values(
        data=data, version=version + 1, updated=now()))
    if done.rowcount != 1:
        raise RuntimeError(f"campaign {campaign_id} changed under a locked write")
    return version + 1


def list_campaigns(conn: Connection, limit: int = 100) -> list[sa.Row[Any]]:
    return list(conn.execute(sa.select(campaigns.c.id, campaigns.c.name, campaigns.c.version,
                                       campaigns.c.created)
                             .order_by(campaigns.c.created).limit(limit)))
