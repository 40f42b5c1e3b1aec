"""The stateless endpoints (arbitration, rules, odds, scenarios, draws) give the CLI's answers,
and every class of error comes in the one JSON shape."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from api_support import error_of, make_app

from service.cli import main

GOLDEN = sorted((Path(__file__).parent / "golden" / "arbitration").glob("*.json"))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return make_app(tmp_path_factory.mktemp("rules")).test_client()


def cli(*argv: str, stdin: str | None = None) -> Any:
    out = io.StringIO()
    if stdin is not None:
        import sys

        old, sys.stdin = sys.stdin, io.StringIO(stdin)
    try:
        with redirect_stdout(out):
            main(list(argv))
    finally:
        if stdin is not None:
            sys.stdin = old
    return json.loads(out.getvalue())


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_arbitrate_answers_as_the_cli(client: Any, path: Path) -> None:
    request = json.loads(path.read_text())["request"]
    response = client.post("/api/v1/arbitrate", json=request)
    assert response.status_code == 200
    assert response.json == cli("arbitrate", stdin=json.dumps(request))


def test_arbitrate_bad_question_is_422_with_where(client: Any) -> None:
    request = json.loads(GOLDEN[0].read_text())["request"]
    request["questions"] = [{"ask": "distance", "a": "s1", "b": "nobody"}]
    error = error_of(client.post("/api/v1/arbitrate", json=request), 422)
    assert "nobody" in error["message"]
    assert error["where"].startswith("questions[0]")
    assert error == cli("arbitrate", stdin=json.dumps(request))["error"]


def test_arbitrate_bad_scene_is_422(client: Any) -> None:
    error = error_of(client.post("/api/v1/arbitrate", json={
        "scene": {"figures": [{"id": "a", "side": "aliens", "x": 1, "y": 1}]},
        "questions": []}), 422)
    assert "aliens" in error["message"]


def test_rules_is_the_rules_dump(client: Any) -> None:
    response = client.get("/api/v1/rules")
    assert response.status_code == 200
    assert response.json == cli("rules", "dump", "--json")
    assert {"archetypes", "zombies", "equipment", "skills"} <= set(response.json)


def test_odds_match_the_cli(client: Any) -> None:
    body = {"attacker": "ex_flic_h", "target": "rodeur", "weapon": "pistolet", "mode": "shoot"}
    response = client.post("/api/v1/odds", json=body)
    assert response.status_code == 200, response.json
    want = cli("odds", "--attacker", "ex_flic_h", "--target", "rodeur", "--weapon", "pistolet",
               "--mode", "shoot", "--json")
    assert response.json == want
    assert response.json["hit"] == pytest.approx(response.json["saved"]
                                                  + response.json["unsaved"])


def test_odds_unknown_profile_is_422(client: Any) -> None:
    error = error_of(client.post("/api/v1/odds", json={"attacker": "yeti", "target": "rodeur"}),
                     422)
    assert "yeti" in error["message"]


def test_scenarios_list_and_show(client: Any) -> None:
    listed = client.get("/api/v1/scenarios").json
    assert listed == cli("scenarios", "list", "--json")
    card = client.get(f"/api/v1/scenarios/{listed[0]['id']}").json
    assert card == cli("scenario", "show", listed[0]["id"], "--json")
    error = error_of(client.get("/api/v1/scenarios/atlantis"), 404)
    assert "atlantis" in error["message"]


def test_draws_are_the_campaign_draw(client: Any) -> None:
    response = client.post("/api/v1/draws", json={"length": 4, "seed": 9})
    assert response.json == cli("campaign", "draw", "--length", "4", "--seed", "9", "--json")
    error_of(client.post("/api/v1/draws", json={"length": 1, "seed": 9}), 422)


@pytest.mark.parametrize("body, where", [
    ({"length": "4", "seed": 1}, "json.length"),       # strict: no string for an int
    ({"length": False, "seed": 1}, "json.length"),     # strict: no bool for an int
    ({"length": 4}, "json.seed"),                      # missing
    ({"length": 4, "seed": 1, "colour": "red"}, "json.colour"),  # unknown field
])
def test_schema_errors_name_the_field(client: Any, body: dict[str, Any], where: str) -> None:
    error = error_of(client.post("/api/v1/draws", json=body), 422)
    assert error["code"] == "invalid_request"
    assert error["where"] == where


def test_malformed_json_is_400(client: Any) -> None:
    error = error_of(client.post("/api/v1/draws", data='{"length": 3,',
                                 content_type="application/json"), 400)
    assert error["code"] == "invalid_json"
    assert "line 1" in error["message"]


def test_oversize_body_is_413(client: Any) -> None:
    big = json.dumps({"scene": {"pad": "x" * (1024 * 1024)}, "questions": []})
    error = error_of(client.post("/api/v1/arbitrate", data=big,
                                 content_type="application/json"), 413)
    assert error["code"] == "too_large"


def test_unknown_route_and_method(client: Any) -> None:
    assert error_of(client.get("/api/v1/nowhere"), 404)["code"] == "not_found"
    assert error_of(client.delete("/api/v1/rules"), 405)["code"] == "method_not_allowed"


def test_openapi_documents_every_route_and_error(client: Any) -> None:
    spec = client.get("/openapi.json").json
    paths = spec["paths"]
    for path in ("/api/v1/arbitrate", "/api/v1/games/{game_id}/actions",
                 "/api/v1/campaigns/{campaign_id}/results", "/api/v1/rosters/{roster_id}",
                 "/api/v1/games/{game_id}/events"):
        assert path in paths
    post = paths["/api/v1/games/{game_id}/actions"]["post"]
    assert post["requestBody"]["required"] is True
    assert {"400", "401", "404", "409", "413", "422"} <= set(post["responses"])


def test_page_is_served_at_root(client: Any) -> None:
    with client.get("/") as response:
        assert response.status_code == 200
        assert b"<html" in response.data.lower()


def bench_request(observers: int, targets: int) -> dict[str, Any]:
    from bench.tables import bench_figures, bench_terrain

    terrain = bench_terrain()
    spots = bench_figures(terrain, observers + targets)
    scene = {
        "terrain": [{"id": f"t{i}", "kind": "polygon",
                     "polygon": [[float(x), float(y)] for x, y in p.exterior.coords[:-1]]}
                    for i, p in enumerate(terrain)],
        "figures": [{"id": f"s{i}" if i < observers else f"z{i}",
                     "side": "survivors" if i < observers else "zombies",
                     "x": float(x), "y": float(y)} for i, (x, y) in enumerate(spots)]}
    questions: list[dict[str, Any]] = [
        {"ask": "line_of_sight", "from": f"s{i}", "to": f"z{j}"}
        for i in range(observers) for j in range(observers, observers + targets)]
    questions += [{"ask": "line_of_sight", "from": "z5", "to": "s0"},
                  {"ask": "distance", "a": "s0", "b": f"z{observers}"},
                  {"ask": "activatable_zombies"}]
    return {"scene": scene, "questions": questions}


def test_batched_sight_gives_the_pairwise_answers(client: Any) -> None:
    """The sight questions of a request are answered in one batch; each answer is still
    the one a single question gets."""
    from geometry.scene import load_scene
    from geometry.space import Space

    request = bench_request(3, 30)
    got = client.post("/api/v1/arbitrate", json=request).json
    scene = load_scene(request["scene"])
    for question, answer in zip(request["questions"], got["answers"], strict=True):
        if question["ask"] == "line_of_sight":
            alone = Space(scene).sight(question["from"], question["to"])
            assert (answer["visible"], answer["fraction"]) == (alone.visible, alone.fraction)
    assert any(a.get("visible") for a in got["answers"])
    assert any(a.get("visible") is False for a in got["answers"])
    request["questions"].append({"ask": "line_of_sight", "from": "s0", "to": "ghost"})
    error = error_of(client.post("/api/v1/arbitrate", json=request), 422)
    assert error == cli("arbitrate", stdin=json.dumps(request))["error"]


FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}


def test_request_errors_are_said_in_the_request_s_language(client: Any) -> None:
    """A field the schema refuses, a route that does not exist, a body that is not JSON and
    an unknown card: in French with Accept-Language: fr, each with its code and parameters
    under `words`; the same in English otherwise."""
    body = {"length": "4", "seed": 1}
    fr = error_of(client.post("/api/v1/draws", json=body, headers=FRENCH), 422)
    en = error_of(client.post("/api/v1/draws", json=body), 422)
    assert fr["message"] == "champ json.length : nombre entier attendu, reçu '4'"
    assert en["message"] == "field json.length: expected a whole number, got '4'"
    assert fr["where"] == en["where"] == "json.length"
    words = client.post("/api/v1/draws", json=body, headers=FRENCH).json["error"]["words"]
    assert words["code"] == "service.field.got"
    assert words["params"]["problem"]["code"] == "service.field.whole"
    missing = error_of(client.post("/api/v1/draws?lang=fr", json={"length": 4}), 422)
    assert missing["message"] == "champ json.seed : manquant"
    route = error_of(client.get("/api/v1/nowhere", headers=FRENCH), 404)
    assert route["code"] == "not_found" and route["message"] == "rien à l'adresse /api/v1/nowhere"
    broken = error_of(client.post("/api/v1/draws", data='{"length": 3,', headers=FRENCH,
                                  content_type="application/json"), 400)
    assert broken["code"] == "invalid_json" and "ligne 1" in broken["message"]
    card = error_of(client.get("/api/v1/scenarios/atlantis", headers=FRENCH), 404)
    assert card["message"].startswith("aucun scénario ne s'appelle « atlantis » (scénarios : ")


def test_answers_explain_themselves_in_the_request_s_language(client: Any) -> None:
    request = json.loads(GOLDEN[0].read_text())["request"]
    fr = client.post("/api/v1/arbitrate", json=request, headers=FRENCH).json["answers"]
    en = client.post("/api/v1/arbitrate", json=request).json["answers"]
    for a, b in zip(fr, en, strict=True):
        assert a["explain_words"] == b["explain_words"] and a["explain_words"]
        assert a["explain"] != b["explain"]
    odds = {"attacker": "ex_flic_h", "target": "rodeur", "weapon": "pistolet"}
    said = client.post("/api/v1/odds", json=odds, headers=FRENCH).json
    assert said["explain"] == ("Ex-flic (H) avec Pistolet, au tir, contre Rôdeur : touche sur "
                               "2+ avec +1 au dé ; sauvegarde sur 5+")
    assert said["explain_words"]["code"] == "cli.odds.attack_weapon"


def test_example_bands_are_listed_with_their_names_in_both_languages(client: Any) -> None:
    bands = client.get("/api/v1/bands").json
    by_id = {b["id"]: b for b in bands}
    assert by_id["cops_and_kids"]["names"] == {"fr": "Les flics et les gosses",
                                               "en": "Cops and kids"}
    assert all(b["names"]["fr"] != b["names"]["en"] for b in bands)
    # each one is a name the API takes to start a game, and its cost is the band's own
    game = client.post("/api/v1/games", json={"scenario": "nettoyage", "seed": 1,
                                              "band": "la_zone"})
    assert game.status_code == 201, game.json
    assert by_id["la_zone"]["members"] == len(
        [f for f in game.json["state"]["figures"] if f["side"] == "survivors"])
