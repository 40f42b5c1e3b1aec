"""The database tables (SQLAlchemy Core): rosters, campaigns, and games kept as event logs.

A game is its `games` row (the start state from `Game.export()` and how it was set up) plus
its `events` rows, one per acknowledged action or undo, numbered by `seq` from 1; the game's
`version` is the last `seq`. The Alembic migrations in `service/migrations` create exactly
these tables (a test compares them).
"""

from __future__ import annotations

import sqlalchemy as sa

__all__ = ["metadata", "rosters", "campaigns", "games", "events", "cameras"]

metadata = sa.MetaData()

rosters = sa.Table(
    "rosters", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
)

# a deleted roster's token, so that a change sent to it later is checked as before (a wrong
# token 403, the right one told the band is gone): service/api/rosters.py
deleted_rosters = sa.Table(
    "deleted_rosters", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("deleted", sa.DateTime(timezone=True), nullable=False),
)

campaigns = sa.Table(
    "campaigns", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
)

games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("campaign_id", sa.String(32), sa.ForeignKey("campaigns.id", ondelete="CASCADE"),
              nullable=True, index=True),
    sa.Column("scenario", sa.String(64), nullable=True),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("setup", sa.JSON, nullable=False),
    sa.Column("start", sa.JSON, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("recorded", sa.Boolean, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)

events = sa.Table(
    "events", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("action", sa.JSON, nullable=True),
    sa.Column("dice", sa.JSON, nullable=False),
    sa.Column("typed", sa.Boolean, nullable=False),
    sa.Column("notes", sa.JSON, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)

# A game's camera: its calibration file and tag -> figure assignment (PUT /games/ID/camera),
# and the last analysis of a frame or of posted positions (what `vision watch` sent last).
cameras = sa.Table(
    "cameras", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("last", sa.JSON, nullable=True),
    sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
)
