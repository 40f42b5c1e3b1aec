"""Records saved by main before the rulings of issue 12 (tests/legacy/make_records.py) still
load and replay exactly, under the settings they were saved with (a game's and a campaign's
settings are part of their record)."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from api_support import make_app

from rules.catalog import load_catalog
from rules.figures import Fig, english_name
from rules.game import Game
from rules.settings import LEGACY, Settings
from scenarios.campaign_data import Campaign
from scenarios.campaign_record import record_result, result_from_game

RECORDS = Path(__file__).parent / "legacy"


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    return data


def _then(saved: dict[str, Any]) -> dict[str, Any]:
    """The settings a record saved before some settings existed is played under: its own,
    and the rule of the time for the others."""
    return {**Settings().to_json(), **LEGACY, **saved}


def _as_now(saved: Any) -> Any:
    """A saved answer as today's code gives it: every `settings` object filled as `_then`,
    every figure given the English name a game gives a figure saved without one."""
    if isinstance(saved, dict):
        if "side" in saved and "kind" in saved and "name" in saved and "name_en" not in saved:
            figure = Fig.from_json(saved)
            return {**saved, "name_en": english_name(figure, load_catalog())}
        return {k: _then(v) if k == "settings" and isinstance(v, dict) and "allow_pass" in v
                else _as_now(v) for k, v in saved.items()}
    if isinstance(saved, list):
        return [_as_now(v) for v in saved]
    return saved


# What a record says to people (outcome reasons, the end of a scenario, consequences, causes,
# notes): words, which may be reworded; today's records add them as messages beside (`words`,
# `reason_words`, `cause_words`...), which the records saved before do not have.
_SAID = {"reason", "ended_by", "text", "cause", "notes"}


def _unsaid(data: Any) -> Any:
    """A record without its words for people: the state that a replay must give again.
    Positions are compared to a billionth of an inch: the geometry libraries may compute
    the last bit of a float differently from one release to the next (a fresh install of
    2026-12-02 moved a walked figure by 1e-15 in)."""
    if isinstance(data, dict):
        return {k: _unsaid(v) for k, v in data.items()
                if k not in _SAID and k != "words" and not k.endswith("_words")}
    if isinstance(data, list):
        return [_unsaid(v) for v in data]
    if isinstance(data, float):
        return round(data, 9)
    return data


def _moves(record: dict[str, Any]) -> tuple[Any, list[tuple[Any, Any]]]:
    """A record without its notes (words, which may be reworded): the start and every
    action with its dice."""
    return record["start"], [(e["action"], e["dice"]) for e in record["log"]]


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDS.glob("game_*.json")))
def test_a_saved_game_replays_to_its_saved_state(name: str) -> None:
    saved = _load(name)
    game = Game.replay(saved["record"])
    assert _unsaid(game.to_json()) == _unsaid(_as_now(saved["final"]))
    assert game.outcome == saved["final"]["outcome"] or (
        game.outcome is not None and game.outcome["winner"] == saved["final"]["outcome"]["winner"]
        and game.outcome["turn"] == saved["final"]["outcome"]["turn"])
    assert _moves(game.export()) == _moves(saved["record"])


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDS.glob("campaign_*.json")))
def test_a_saved_campaign_loads_and_records_each_game_again(name: str) -> None:
    steps = _load(name)["steps"]
    campaign = Campaign.from_json(steps[0]["campaign"])
    assert campaign.to_json() == _as_now(steps[0]["campaign"])
    for step in steps[1:]:
        game = Game.replay(step["game"])
        campaign = record_result(campaign, result_from_game(game, step["scenario"]),
                                 random.Random(step["after_seed"]))
        assert _unsaid(campaign.to_json()) == _unsaid(_as_now(step["campaign"]))
        # as saved, it loads and shows as it was: its English words, no message beside
        assert Campaign.from_json(step["campaign"]).to_json() == _as_now(step["campaign"])


def test_a_saved_service_database_answers_as_it_did(tmp_path: Path) -> None:
    shutil.copy(RECORDS / "service.sqlite3", tmp_path / "test.sqlite3")
    saved = _load("service_answers.json")
    game, campaign = saved["game_id"], saved["campaign_id"]
    # the tokens were not saved: the copy's game and campaign take a known one, whose holder
    # gets the whole export (what the crates hold) as it was stored
    owner = {"Authorization": "Bearer legacy-token"}
    with sqlite3.connect(tmp_path / "test.sqlite3") as conn:
        digest = hashlib.sha256(b"legacy-token").hexdigest()
        conn.execute("UPDATE games SET token_hash = ? WHERE id = ?", (digest, game))
        conn.execute("UPDATE campaigns SET token_hash = ? WHERE id = ?", (digest, campaign))
        conn.execute("UPDATE games SET token_hash = ? WHERE campaign_id = ?", (digest, campaign))
    conn.close()
    client = make_app(tmp_path).test_client()
    answer = client.get(f"/api/v1/games/{game}").json
    for key in ("state", "outcome", "version", "terminal", "deciding"):
        assert answer[key] == _as_now(saved["game"][key]), key
    export = client.get(f"/api/v1/games/{game}/export", headers=owner).json  # as stored,
    # but for its words; it names the band since issue 15 and says it is complete since
    # issue 17 (fields added beside the record, not in it)
    band = export.pop("band", None)
    assert export.pop("complete") is True
    assert band is None or set(band) == {"fr", "en"}
    assert _unsaid(export) == _unsaid(saved["game_export"])
    # it goes on under the rules it began with: the zombies may still pass with AP left
    kinds = [a["action"]["type"] for a in client.get(f"/api/v1/games/{game}/actions").json[
        "actions"]]
    assert answer["state"]["pools"]["zombies"] > 0 and "pass" in kinds
    answer = client.get(f"/api/v1/campaigns/{campaign}").json
    assert (answer["record"], answer["version"]) == _as_now((saved["campaign"]["record"],
                                                             saved["campaign"]["version"]))
    export = client.get(f"/api/v1/campaigns/{campaign}/export", headers=owner).json
    assert export.pop("complete") is True
    assert export["campaign"] == saved["campaign_export"]["campaign"]  # as stored
    assert _unsaid(export) == _unsaid(saved["campaign_export"])  # its games, but for words
    # without the token, the crates' contents are left out as a game's answer leaves them
    shown = client.get(f"/api/v1/games/{game}/export").json
    assert shown["complete"] is False
    assert all(m.get("hidden") and "items" not in m
               for m in shown["export"]["start"]["markers"] if m["kind"] == "crate")
