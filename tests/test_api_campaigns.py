"""Campaigns over HTTP: created from a band with a secret token, read by anyone, changed
only with the token; a game of the next scenario played to its end and recorded (the CLI's
record step), healing, the final choice, history, export and import."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from api_support import auth, error_of, make_app, play_to_end

from service.cli.campaign import summary
from service.storage.tables import campaigns

BANDS = Path(__file__).parent.parent / "rules" / "data" / "bands"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return make_app(tmp_path_factory.mktemp("campaigns"))


@pytest.fixture()
def client(app: Any) -> Any:
    return app.test_client()


def new(client: Any, **body: Any) -> dict[str, Any]:
    response = client.post("/api/v1/campaigns", json={"example": "cops_and_kids", "seed": 2,
                                                      **body})
    assert response.status_code == 201, response.json
    data: dict[str, Any] = response.json
    return data


def test_create_returns_a_token_stored_only_as_its_hash(app: Any, client: Any) -> None:
    made = new(client)
    assert made["version"] == 1 and made["link"].endswith(f"?campaign={made['id']}")
    assert made["summary"]["next_scenario"] == made["record"]["draw"]["scenarios"][0]
    with app.extensions["survive_us"].db.read() as conn:
        row = conn.execute(sa.select(campaigns).where(campaigns.c.id == made["id"])).one()
    assert row.token_hash == hashlib.sha256(made["token"].encode()).hexdigest()
    assert made["token"] not in json.dumps(row.data)
    read = client.get(f"/api/v1/campaigns/{made['id']}").json
    assert "token" not in read and read["summary"] == made["summary"]


def test_create_from_a_roster_or_a_stored_roster(client: Any) -> None:
    band = json.loads((BANDS / "la_zone.json").read_text())
    inline = client.post("/api/v1/campaigns", json={"roster": band, "length": 4, "seed": 5})
    assert inline.status_code == 201
    assert len(inline.json["summary"]["scenarios"]) == 4
    stored = client.post("/api/v1/rosters", json={"roster": band}).json
    by_id = client.post("/api/v1/campaigns", json={"roster_id": stored["id"], "seed": 5})
    assert by_id.json["summary"]["band"] == client.post(
        "/api/v1/campaigns", json={"roster": band, "seed": 5}).json["summary"]["band"]


def test_create_errors(client: Any) -> None:
    error = error_of(client.post("/api/v1/campaigns", json={"seed": 1}), 422)
    assert "roster" in error["message"]
    error_of(client.post("/api/v1/campaigns", json={"example": "beatles"}), 422)
    error_of(client.post("/api/v1/campaigns", json={"roster_id": "nope"}), 404)
    band = json.loads((BANDS / "la_zone.json").read_text())
    band["members"] = band["members"][:1]
    error = error_of(client.post("/api/v1/campaigns", json={"roster": band}), 422)
    assert error["where"].startswith("band.")
    error_of(client.post("/api/v1/campaigns", json={"example": "la_zone", "length": 1}), 422)
    error_of(client.get("/api/v1/campaigns/nope"), 404)


def test_play_a_scenario_and_record_it(client: Any) -> None:
    made = new(client)
    cid, token = made["id"], made["token"]
    url = f"/api/v1/campaigns/{cid}"
    current = client.get(f"{url}/current").json
    assert current["scenario"] == made["summary"]["next_scenario"] and current["game"] is None
    assert current["card"]["id"] == current["scenario"]

    error_of(client.post(f"{url}/games", json={"seed": 5}), 401)
    error_of(client.post(f"{url}/games", json={"seed": 5}, headers=auth("bad")), 403)
    game = client.post(f"{url}/games", json={"seed": 5}, headers=auth(token))
    assert game.status_code == 201
    gid = game.json["id"]
    assert game.json["campaign_id"] == cid and game.json["token"] == token
    assert client.get(f"{url}/current").json["game"] == gid

    error = error_of(client.post(f"{url}/results", json={"game_id": gid},
                                 headers=auth(token)), 422)
    assert "not over" in error["message"]
    play_to_end(client, gid, token)

    error_of(client.post(f"{url}/results", json={"game_id": gid}), 401)
    recorded = client.post(f"{url}/results", json={"game_id": gid, "seed": 3, "dice": [2]},
                           headers=auth(token))
    assert recorded.status_code == 200, recorded.json
    body = recorded.json
    assert body["version"] == 2 and body["played"]["scenario"] == current["scenario"]
    assert body["summary"]["scenarios"][0]["state"] == "played"
    assert body["played"]["consequence"]["first"] == 2  # the typed die came first
    assert body["games"] == [{"id": gid, "scenario": current["scenario"], "seed": 5,
                              "version": body["games"][0]["version"], "recorded": True,
                              "created": body["games"][0]["created"]}]
    error = error_of(client.post(f"{url}/results", json={"game_id": gid},
                                 headers=auth(token)), 422)
    assert error["code"] == "already_recorded"
    history = client.get(f"{url}/history").json
    assert history["history"] == [body["played"]]

    # the CLI's record of the same game gives the same campaign
    from rules.dice import Dice
    from rules.game import Game
    from scenarios.campaign_record import Campaign, record_result, result_from_game

    export = client.get(f"/api/v1/games/{gid}/export").json["export"]
    import random

    want = record_result(Campaign.from_json(made["record"]),
                         result_from_game(Game.replay(export), current["scenario"]),
                         Dice(rng=random.Random(3), typed=[2]), seed=3)
    assert body["record"] == want.to_json()
    assert body["summary"] == summary(want)

    # export and import: a new campaign, same record and games, a new token
    exported = client.get(f"{url}/export", headers=auth(token)).json
    assert exported["campaign"] == body["record"] and len(exported["games"]) == 1
    copy = client.post("/api/v1/campaigns/import", json=exported)
    assert copy.status_code == 201, copy.json
    assert copy.json["id"] != cid and copy.json["token"] != token
    assert copy.json["record"] == body["record"]
    assert copy.json["games"][0]["recorded"] is True
    copied_game = client.get(f"/api/v1/games/{copy.json['games'][0]['id']}").json
    assert copied_game["state"] == client.get(f"/api/v1/games/{gid}").json["state"]


def test_import_refuses_bad_records(client: Any) -> None:
    made = new(client)
    exported = client.get(f"/api/v1/campaigns/{made['id']}/export").json
    exported["campaign"]["next"] = "soon"
    error_of(client.post("/api/v1/campaigns/import", json=exported), 422)
    error = error_of(client.post("/api/v1/campaigns/import", json={
        "campaign": made["record"], "games": [{"export": {"start": {}, "log": []}}]}), 422)
    assert error["where"].startswith("games[0]")


def test_heal_between_scenarios(client: Any) -> None:
    made = new(client)
    url = f"/api/v1/campaigns/{made['id']}"
    error = error_of(client.post(f"{url}/heal", json={"target": "m1"},
                                 headers=auth(made["token"])), 422)
    assert "has all their wounds" in error["message"]
    assert error["words"]["code"] == "campaign.error.full_pv"
    french = error_of(client.post(f"{url}/heal?lang=fr", json={"target": "m1"},
                                  headers=auth(made["token"])), 422)
    assert french["message"].endswith("a tous ses PV (8)")
    error_of(client.post(f"{url}/heal", json={"target": "m1"}), 401)
    error_of(client.post(f"{url}/heal", json={"target": "m9"}, headers=auth(made["token"])),
             422)


def test_choose_the_last_scenario(client: Any) -> None:
    made = new(client, seed=1)  # seed 1: the zombie player names the last scenario
    url = f"/api/v1/campaigns/{made['id']}"
    last = made["summary"]["scenarios"][-1]
    options = last["choice_pending"]["options"]
    error_of(client.post(f"{url}/choose", json={"scenario": "nettoyage"},
                         headers=auth(made["token"])), 422)
    chosen = client.post(f"{url}/choose", json={"scenario": options[-1]},
                         headers=auth(made["token"]))
    assert chosen.status_code == 200
    assert chosen.json["summary"]["scenarios"][-1]["id"] == options[-1]
    assert chosen.json["version"] == 2
    error_of(client.post(f"{url}/choose", json={"scenario": options[0]},
                         headers=auth(made["token"])), 422)


def test_heal_a_wounded_member(client: Any) -> None:
    record = new(client)["record"]
    record["band"][0]["pv"] = 3  # Lucas comes back from a scenario with 3 PV of 8
    made = client.post("/api/v1/campaigns/import", json={"campaign": record}).json
    healed = client.post(f"/api/v1/campaigns/{made['id']}/heal",
                         json={"target": "m1", "healer": "m6"}, headers=auth(made["token"]))
    assert healed.status_code == 200, healed.json
    lucas = next(m for m in healed.json["summary"]["band"] if m["id"] == "m1")
    doctor = next(m for m in healed.json["summary"]["band"] if m["id"] == "m6")
    assert lucas["pv"] > 3
    assert doctor["units"] != next(m for m in made["summary"]["band"]
                                   if m["id"] == "m6")["units"]


def test_demo_campaign_is_made_once(tmp_path: Path) -> None:
    """`make run`: a demo campaign and its first game when the database has none; a later
    start finds it again, with its token (kept beside the SQLite file for the demo)."""
    first = make_app(tmp_path, DEMO_CAMPAIGN=True)
    demo = first.config["DEMO"]
    client = first.test_client()
    campaign = client.get(f"/api/v1/campaigns/{demo['campaign']}").json
    assert [g["id"] for g in campaign["games"]] == [demo["game"]]
    game = client.get(f"/api/v1/games/{demo['game']}").json
    listed = client.get(f"/api/v1/games/{demo['game']}/actions").json["actions"]
    done = client.post(f"/api/v1/games/{demo['game']}/actions",
                       json={"version": game["version"], "action": listed[0]["action"]},
                       headers=auth(demo["token"]))
    assert done.status_code == 200
    again = make_app(tmp_path, DEMO_CAMPAIGN=True).config["DEMO"]
    assert again == demo
    with first.extensions["survive_us"].db.read() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(campaigns)).scalar() == 1


def test_serve_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    from service.cli import main

    assert main(["serve", "--port", "0"]) == 2
    assert "--port" in capsys.readouterr().err
