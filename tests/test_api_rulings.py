"""The rulings of issue 12 (docs/rules.md D40) through the HTTP API: a position built with
exact dice, imported, then played with typed-in dice as a player at the real table would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from api_support import auth, error_of, make_app
from flask.testing import FlaskClient
from golden_helpers import TOUCH, start, survivor, zombie

UP = 5 + TOUCH


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    return make_app(Path(tmp_path_factory.mktemp("rulings"))).test_client()


def table(client: FlaskClient, figures: list[Any], dice: list[int],
          **settings: Any) -> tuple[str, str]:
    """Store a game set up with these figures and first-turn dice; (id, token)."""
    game = start(figures, dice, **settings)
    r = client.post("/api/v1/games/import", json={"export": game.export()})
    assert r.status_code == 201, r.json
    return r.json["id"], r.json["token"]


def listed(client: FlaskClient, game_id: str) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = client.get(f"/api/v1/games/{game_id}/actions").json["actions"]
    return actions


def play(client: FlaskClient, game_id: str, token: str, action: dict[str, Any],
         dice: list[int] | None = None) -> Any:
    version = client.get(f"/api/v1/games/{game_id}").json["version"]
    body: dict[str, Any] = {"version": version, "action": action}
    if dice is not None:
        body["dice"] = dice
    return client.post(f"/api/v1/games/{game_id}/actions", json=body, headers=auth(token))


def test_r1_no_pass_while_the_ap_last_and_standing_still_is_offered(client: FlaskClient) -> None:
    game_id, token = table(client, [survivor("s1", "ex_flic_h", 5, 5),
                                    zombie("z1", "rodeur", 5, 15)], [2, 1, 1])
    actions = listed(client, game_id)
    kinds = {a["action"]["type"] for a in actions}
    assert "pass" not in kinds and "end_activations" not in kinds  # L74
    hold = next(a for a in actions if a["action"] == {"type": "move", "figure": "s1",
                                                       "to": [5.0, 5.0]})
    assert "stands still" in hold["text"]
    refused = play(client, game_id, token, {"type": "pass"})
    error = error_of(refused, 422)
    assert refused.json["error"]["words"]["code"] == "refusal.must_activate.survivors"
    assert "must activate a figure while they can" in error["message"]
    r = play(client, game_id, token, hold["action"])
    assert r.status_code == 200 and r.json["notes"] == ["Ex-cop (M) stands still"]
    assert [n["code"] for n in r.json["notes_words"]] == ["engine.stands_still"]


def test_r2_katana_attacks_at_a1_and_a3(client: FlaskClient) -> None:
    game_id, token = table(client, [survivor("s1", "enfant", 5, 5, items={"katana": 1}),
                                    zombie("z1", "rodeur", 5, UP),
                                    zombie("z2", "rodeur", 25, 25)], [6, 6, 6])
    katana = [a["action"] for a in listed(client, game_id)
              if a["action"]["type"] == "melee" and a["action"].get("weapon") == "katana"]
    assert katana == [{"type": "melee", "figure": "s1", "target": "z1", "ap": 1,
                       "weapon": "katana"}]
    r = play(client, game_id, token, katana[0], [1, 2, 3])  # L230: two dice for 1 AP
    assert r.status_code == 200
    assert r.json["notes"][0] == "Kid (M/F) attacks Walker 1 with Katana (2 dice)"
    assert r.json["notes_words"][0]["params"]["n"] == 2
    game_id, token = table(client, [survivor("s1", "racaille", 5, 5, items={"katana": 1}),
                                    zombie("z1", "ignoble", 5, UP),
                                    zombie("z2", "rodeur", 25, 25)], [6, 6, 6])
    aps = [a["action"]["ap"] for a in listed(client, game_id)
           if a["action"]["type"] == "melee" and a["action"].get("weapon") == "katana"]
    assert aps == [1, 2]
    r = play(client, game_id, token, {"type": "melee", "figure": "s1", "target": "z1", "ap": 2,
                                      "weapon": "katana"}, [1, 3, 2])
    assert r.json["notes_words"][0]["code"] == "engine.attacks_with"
    assert r.json["notes_words"][0]["params"]["n"] == 3


def test_r3_chirurgien_with_a_far_friend_s_item(client: FlaskClient) -> None:
    game_id, token = table(client, [survivor("s1", "medecin", 5, 5, skill="chirurgien"),
                                    survivor("s3", "geek", 5, UP, pv=0, status="down"),
                                    survivor("s4", "ado_h", 25, 25, items={"soins": 1}),
                                    zombie("z1", "rodeur", 20, 5)], [6, 6, 6])
    heal = {"type": "heal", "figure": "s1", "target": "s3"}
    assert heal in [a["action"] for a in listed(client, game_id)]
    r = play(client, game_id, token, heal)
    assert r.status_code == 200
    figures = {f["id"]: f for f in r.json["game"]["state"]["figures"]}
    assert figures["s3"]["status"] == "standing" and figures["s4"]["units"] == {"soins": 4}


def test_r4_and_r5_a_fall_is_not_a_death_but_frightens_a_friend(client: FlaskClient) -> None:
    game_id, token = table(client, [survivor("s1", "enfant", 5, 5, pv=1),
                                    survivor("s2", "geek", 5 - TOUCH - 2.99, 5),
                                    zombie("z1", "slasher", 5, UP)], [6, 6, 6])
    assert play(client, game_id, token, {"type": "move", "figure": "s2",
                                         "to": [5 - TOUCH - 2.99, 5]}).status_code == 200
    r = play(client, game_id, token, {"type": "melee", "figure": "z1", "target": "s1", "ap": 2},
             [3, 2, 4])  # down on the first die; the second is lost (L117); s2 tests (L127)
    assert r.status_code == 200, r.json
    assert r.json["dice"] == [3, 2, 4]
    assert ("Geek (M/F) rolls 4 (panic test on 5+: Kid (M/F) was put out of action within "
            "4 in)") in r.json["notes"]
    assert play(client, game_id, token, {"type": "decline"}).status_code == 200
    error = error_of(play(client, game_id, token, {"type": "melee", "figure": "z1",
                                                    "target": "s1", "ap": 1}, [6, 1]), 422)
    assert "is down and cannot be attacked" in error["message"]


def test_r7_a_campaign_of_two_is_refused(client: FlaskClient) -> None:
    error = error_of(client.post("/api/v1/draws", json={"length": 2, "seed": 1}), 422)
    assert "3 to 7 scenarios" in error["message"]
    error = error_of(client.post("/api/v1/campaigns", json={"example": "cops_and_kids",
                                                            "length": 2, "seed": 1}), 422)
    assert "3 to 7 scenarios" in error["message"]


@pytest.mark.parametrize(("scope", "spent"), [(None, True), ("scenario", False)])
def test_r6_a_luck_spent_in_an_earlier_scenario_stays_spent(client: FlaskClient,
                                                            scope: str | None,
                                                            spent: bool) -> None:
    """L8, L107: the partie is the whole campaign; the Bimbo's chanceuse, used in a scenario
    recorded earlier, is not offered again in the next one (unless the scope is set back)."""
    settings = {} if scope is None else {"once_per_game_scope": scope}
    made = client.post("/api/v1/campaigns", json={"example": "la_zone", "length": 3, "seed": 1,
                                                  "settings": settings}).json
    export = client.get(f"/api/v1/campaigns/{made['id']}/export").json
    for member in export["campaign"]["band"]:
        if member["id"] == "m6":
            member["used_once"] = ["chanceux"]  # as a recorded scenario leaves it
    again = client.post("/api/v1/campaigns/import", json=export)
    assert again.status_code == 201, again.json
    game = client.post(f"/api/v1/campaigns/{again.json['id']}/games", json={"seed": 1},
                       headers=auth(again.json["token"]))
    assert game.status_code == 201, game.json
    bimbo = next(f for f in game.json["state"]["figures"] if f["id"] == "m6")
    assert bool(bimbo["used_game"].get("chanceux")) is spent
