"""A demo campaign for `make run`: created at start when the database holds no campaign.

Its token is only ever stored as a hash in the database, so it is printed once and, for a
SQLite database, kept in `demo.json` beside the database file so a later start can print
it again (a demo convenience; real campaigns' tokens are never written anywhere).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask

from rules.warband import example_bands
from scenarios.campaign_record import new_campaign, start_next
from service.storage import gamelog, records
from service.tokens import new_token

__all__ = ["ensure_demo", "DEMO_BAND"]

DEMO_BAND = "cops_and_kids"
DEMO_SEED = 1


def _note_file(app: Flask) -> Path | None:
    db = app.extensions["survive_us"].db
    if not db.is_sqlite:
        return None
    path = sa.engine.make_url(db.url).database
    return Path(path).with_name("demo.json") if path and path != ":memory:" else None


def ensure_demo(app: Flask) -> dict[str, Any]:
    """The demo campaign's id, first game and token (None when not known any more)."""
    db = app.extensions["survive_us"].db
    note = _note_file(app)
    with db.read() as conn:
        existing = records.list_campaigns(conn, limit=1)
    if existing:
        known = json.loads(note.read_text()) if note is not None and note.exists() else {}
        info = {"campaign": existing[0].id, "game": known.get("game"),
                "token": known.get("token") if known.get("campaign") == existing[0].id
                else None}
        app.config["DEMO"] = info
        return info
    campaign = new_campaign(example_bands()[DEMO_BAND], 3, random.Random(DEMO_SEED),
                            seed=DEMO_SEED)
    game = start_next(campaign, DEMO_SEED)
    export = game.export()
    token, digest = new_token()
    with db.write() as conn:
        campaign_id = records.insert_campaign(conn, digest, campaign.to_json())
        game_id = gamelog.insert_game(
            conn, token_hash=digest, seed=DEMO_SEED,
            setup={"kind": "campaign", "campaign_version": 1,
                   "scenario": campaign.next_scenario, "seed": DEMO_SEED},
            start={"start": export["start"], "log": export["log"][:1]},
            scenario=campaign.next_scenario, campaign_id=campaign_id)
    info = {"campaign": campaign_id, "game": game_id, "token": token}
    if note is not None:
        note.write_text(json.dumps(info) + "\n", encoding="utf-8")
    app.config["DEMO"] = info
    return info
