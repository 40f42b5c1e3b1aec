"""The first schema: rosters, campaigns, games and their events.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "rosters",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", WHEN, nullable=False),
        sa.Column("updated", WHEN, nullable=False),
    )
    op.create_table(
        "campaigns",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", WHEN, nullable=False),
        sa.Column("updated", WHEN, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("campaign_id", sa.String(32),
                  sa.ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=True),
        sa.Column("scenario", sa.String(64), nullable=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("setup", sa.JSON, nullable=False),
        sa.Column("start", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("recorded", sa.Boolean, nullable=False),
        sa.Column("created", WHEN, nullable=False),
    )
    op.create_index("ix_games_campaign_id", "games", ["campaign_id"])
    op.create_table(
        "events",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("action", sa.JSON, nullable=True),
        sa.Column("dice", sa.JSON, nullable=False),
        sa.Column("typed", sa.Boolean, nullable=False),
        sa.Column("notes", sa.JSON, nullable=False),
        sa.Column("created", WHEN, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_index("ix_games_campaign_id", "games")
    op.drop_table("games")
    op.drop_table("campaigns")
    op.drop_table("rosters")
