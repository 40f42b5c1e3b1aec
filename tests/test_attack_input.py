"""Odd and hostile input through HTTP, on SQLite and on PostgreSQL (issue 17, findings 5, 6,
7 and 9): nothing is stored that cannot be read back, odd JSON and text get a 4xx naming what
is wrong and where (never a 500), the spec and the code agree, and an export without the token
keeps the secrets a game's answer keeps."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_support import auth, error_of, start_game
from attack_support import BACKENDS, app_on

from service.jsonio import MAX_DEPTH

DEEP = "[" * 1000 + "]" * 1000  # 2 KB: Python's own reader overflows on it
JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module", params=BACKENDS)
def client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Any]:
    for app in app_on(request.param, tmp_path_factory.mktemp(request.param)):
        yield app.test_client()


@pytest.fixture(scope="module")
def game(client: Any) -> dict[str, Any]:
    return start_game(client, "caisses", seed=1)  # crates, two of them trapped


def nested(depth: int, leaf: Any = 1) -> Any:
    """An object `depth` levels deep (`{"a": {"a": ... leaf}}`)."""
    value = leaf
    for _ in range(depth):
        value = {"a": value}
    return value


def json_routes(client: Any, ids: dict[str, str]) -> list[tuple[str, str]]:
    """Every route that reads a JSON body, from the OpenAPI document, its ids filled."""
    spec = client.get("/openapi.json").json
    found = []
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if "application/json" in op.get("requestBody", {}).get("content", {}):
                found.append((method.upper(), path.format(**ids)))
    return found


def test_json_nested_1000_deep_is_refused_on_every_json_route(client: Any,
                                                              game: dict[str, Any]) -> None:
    ids = {"game_id": game["id"], "campaign_id": "c" * 32, "roster_id": "r" * 32}
    routes = json_routes(client, ids)
    assert len(routes) >= 23
    for method, path in routes:
        error = error_of(client.open(path, method=method, data=DEEP, headers={
            **JSON, **auth(game["token"])}), 422)
        assert (error["code"], error["where"]) == ("too_deep", "json"), (method, path)
        assert str(MAX_DEPTH) in error["message"]
        error = error_of(client.open(path, method=method, json=nested(MAX_DEPTH + 5),
                                     headers=auth(game["token"])), 422)
        assert error["where"] == "json" + ".a" * MAX_DEPTH, (method, path)


def test_deep_json_in_a_multipart_calibration_is_refused(client: Any,
                                                         game: dict[str, Any]) -> None:
    url = f"/api/v1/games/{game['id']}/frames"
    for calibration, status, code in ((DEEP, 422, "too_deep"), ('{"version": NaN}', 400,
                                                                "invalid_json")):
        data = {"frame": (_png(), "f.png", "image/png"), "calibration": calibration}
        error = error_of(client.post(url, data=data, content_type="multipart/form-data",
                                     headers=auth(game["token"])), status)
        assert error["code"] == code and error["where"].startswith("body.calibration")


def _png() -> Any:
    import io

    return io.BytesIO(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)


@pytest.mark.parametrize("body, status, code, where", [
    ('{"roster": {"name": NaN}}', 400, "invalid_json", "json.roster.name"),
    ('{"roster": {"members": [1, -Infinity]}}', 400, "invalid_json", "json.roster.members.1"),
    ('{"roster": {"x": 1e400}}', 422, "invalid_number", "json.roster.x"),
    ('{"roster": {"x": ' + "9" * 5000 + "}}", 422, "invalid_number", "json.roster.x"),
    ('{"roster": {"name": "\\ud800"}}', 422, "invalid_text", "json.roster.name"),
    ('{"roster": {"name": "a\\u0000b"}}', 422, "invalid_text", "json.roster.name"),
    ('{"roster": {"a\\u0000": 1}}', 422, "invalid_text", "json.roster.a\\u0000"),
    ('{"roster": {"members": [{"name": "\\udc00x"}]}}', 422, "invalid_text",
     "json.roster.members.0.name"),
])
def test_odd_json_is_named_where(client: Any, body: str, status: int, code: str,
                                 where: str) -> None:
    for route in ("/api/v1/rosters", "/api/v1/rosters/validate"):
        error = error_of(client.post(route, data=body, headers=JSON), status)
        assert (error["code"], error["where"]) == (code, where), route
        assert where in error["message"]


def test_raw_surrogate_bytes_and_bad_utf8(client: Any) -> None:
    error = error_of(client.post("/api/v1/rosters", data=b'{"roster": {"name": "\xed\xa0\x80"}}',
                                 headers=JSON), 422)
    assert error["where"] == "json.roster.name"
    error = error_of(client.post("/api/v1/rosters", data=b'{"roster": {"name": "\xff"}}',
                                 headers=JSON), 400)
    assert error["code"] == "invalid_json"


def test_nul_and_surrogates_in_paths_and_queries(client: Any, game: dict[str, Any]) -> None:
    for path, where in (("/api/v1/games/abc%00", "path.game_id"),
                        ("/api/v1/rosters/%00", "path.roster_id"),
                        ("/api/v1/campaigns/x%00y/export", "path.campaign_id"),
                        (f"/api/v1/games/{game['id']}/actions?figure=m%00",
                         "query.figure"),
                        ("/api/v1/scenarios/caisses/setup?roster_id=%00", "query.roster_id"),
                        ("/api/v1/scenarios/caisses%00/setup", "path.scenario_id")):
        error = error_of(client.get(path), 422)
        assert (error["code"], error["where"]) == ("invalid_text", where), path
    error = error_of(client.post(f"/api/v1/games/{game['id']}%00/undo", json={"version": 0},
                                 headers=auth(game["token"])), 422)
    assert error["where"] == "path.game_id"


def test_nothing_unreadable_is_stored_by_the_camera(client: Any) -> None:
    made = start_game(client, "nettoyage", seed=3)
    url = f"/api/v1/games/{made['id']}"
    for body in (json.dumps({"table": nested(300), "figures": []}),
                 '{"table": {"found": true, "x": NaN}, "figures": []}',
                 '{"table": {"x": "\\u0000"}, "figures": []}'):
        response = client.post(f"{url}/frames/positions", data=body,
                               headers={**JSON, **auth(made["token"])})
        assert response.status_code in (400, 422), response.json
        assert client.get(f"{url}/camera").json == {"settings": {}, "last": None}
    response = client.put(f"{url}/camera", json={"calibration": nested(200)},
                          headers=auth(made["token"]))
    assert response.status_code == 422
    assert client.get(f"{url}/camera").json == {"settings": {}, "last": None}


# the deepest, longest and oddest values the service takes, which must come back as sent
ODD_TEXT = "Ça « va » 🧟 \u2028 \\ \" \t 日本 \U0001f600 é"
ODD_NUMBERS = [10 ** 29, -(10 ** 29), 1.7976931348623157e308, 5e-324, -0.0, 0.1, 3]


def test_every_stored_field_reads_back_as_sent(client: Any) -> None:
    band = json.loads(Path("rules/data/bands/cops_and_kids.json").read_text(encoding="utf-8"))
    band["name"] = ODD_TEXT
    band["members"][0]["name"] = ODD_TEXT[::-1]
    made = client.post("/api/v1/rosters", json={"roster": band})
    assert made.status_code == 201, made.json
    read = client.get(f"/api/v1/rosters/{made.json['id']}").json
    assert read["roster"] == made.json["roster"] and read["roster"]["name"] == ODD_TEXT
    assert read["roster"]["members"][0]["name"] == ODD_TEXT[::-1]

    game = start_game(client, "nettoyage", seed=3)
    url = f"/api/v1/games/{game['id']}"
    # the deepest table a body may hold: the body is level 1, the table level 2
    table = {"found": False, "reason": ODD_TEXT, "numbers": ODD_NUMBERS,
             "deep": nested(MAX_DEPTH - 3, ODD_TEXT)}
    posted = client.post(f"{url}/frames/positions", json={"table": table, "figures": [],
                                                          "time": ODD_TEXT, "frame": 7.0},
                         headers=auth(game["token"]))
    assert posted.status_code == 200, posted.json
    last = client.get(f"{url}/camera").json["last"]
    assert last["table"] == table and last["posted_time"] == ODD_TEXT and last["frame"] == 7
    assert [repr(n) for n in last["table"]["numbers"]] == [repr(n) for n in ODD_NUMBERS]
    settings = {"tags": {"5": "m1", "049": "z1"}, "mode": "colour", "calibration": None}
    put = client.put(f"{url}/camera", json=settings, headers=auth(game["token"]))
    assert put.status_code == 200, put.json
    assert client.get(f"{url}/camera").json["settings"] == settings

    # a game's whole record: exported, imported, exported again, the same
    export = client.get(f"{url}/export", headers=auth(game["token"])).json
    copy_made = client.post("/api/v1/games/import", json={
        "export": export["export"], "seed": 3, "band": {"fr": ODD_TEXT, "en": ODD_TEXT}})
    assert copy_made.status_code == 201, copy_made.json
    again = client.get(f"/api/v1/games/{copy_made.json['id']}/export",
                       headers=auth(copy_made.json["token"])).json
    assert again["export"] == export["export"] and again["band"] == {"fr": ODD_TEXT,
                                                                     "en": ODD_TEXT}


def test_a_null_body_is_no_body(client: Any, game: dict[str, Any]) -> None:
    url = f"/api/v1/games/{game['id']}/camera"
    settings = {"tags": {"7": "m1"}, "mode": "tags", "calibration": None}
    assert client.put(url, json=settings, headers=auth(game["token"])).status_code == 200
    error = error_of(client.put(url, data="null", headers={**JSON, **auth(game["token"])}),
                     422)
    assert (error["code"], error["where"]) == ("invalid_request", "json")
    assert client.get(url).json["settings"] == settings  # the camera was not reset
    for route in ("/api/v1/games", "/api/v1/arbitrate", "/api/v1/qr"):
        error_of(client.post(route, data="null", headers=JSON), 422)


def test_integers_may_be_written_as_whole_floats(client: Any) -> None:
    made = client.post("/api/v1/games", json={"scenario": "nettoyage", "seed": 3.0,
                                              "max_turns": 6.0})
    assert made.status_code == 201, made.json
    assert made.json["seed"] == 3 and made.json["state"]["max_turns"] == 6
    error = error_of(client.post("/api/v1/games", json={"scenario": "nettoyage",
                                                        "seed": 3.5}), 422)
    assert error["where"] == "json.seed"
    url = f"/api/v1/games/{made.json['id']}"
    listed = client.get(f"{url}/actions").json["actions"]
    step = client.post(f"{url}/actions", json={"version": 0.0, "action": listed[0]["action"]},
                       headers=auth(made.json["token"]))
    assert step.status_code == 200 and step.json["version"] == 1
    assert client.post("/api/v1/draws", json={"length": 3.0, "seed": 1e3}).status_code == 200


def test_the_spec_says_what_the_code_asks(client: Any, game: dict[str, Any]) -> None:
    spec = client.get("/openapi.json").json
    sight = spec["paths"]["/api/v1/games/{game_id}/sight"]["get"]["parameters"]
    assert next(p for p in sight if p["name"] == "figure")["required"] is True
    error = error_of(client.get(f"/api/v1/games/{game['id']}/sight"), 422)
    assert error["where"] == "query.figure"
    tags = spec["components"]["schemas"]["CameraIn"]["properties"]["tags"]
    assert tags["propertyNames"] == {"pattern": "^[0-9]{1,3}$"}
    error = error_of(client.put(f"/api/v1/games/{game['id']}/camera", json={"tags": {"x": "m1"}},
                                headers=auth(game["token"])), 422)
    assert error["where"].startswith("json.tags")
    for op in ("post", "put"):
        for path, item in spec["paths"].items():
            if op in item and "application/json" in item[op].get("requestBody", {}).get(
                    "content", {}):
                assert {"400", "403", "413", "415", "422"} <= set(item[op]["responses"]), path


@pytest.mark.parametrize("image, fmt", [(b"GIF89a" + b"\x00" * 64, "GIF"),
                                        (b"RIFF\x00\x00\x00\x00WEBPVP8 " + b"\x00" * 64,
                                         "WebP"),
                                        (b"BM" + b"\x00" * 16 + b"\x04\x00\x00\x00" * 2
                                         + b"\x00" * 64, "BMP")], ids=["gif", "webp", "bmp"])
def test_a_frame_of_another_format_is_415(client: Any, game: dict[str, Any], image: bytes,
                                          fmt: str) -> None:
    url = f"/api/v1/games/{game['id']}/frames"
    for content_type in ("image/jpeg", "image/png"):
        response = client.post(url, data=image, headers={**auth(game["token"]),
                                                         "Content-Type": content_type})
        error = error_of(response, 415)
        assert error["code"] == "unsupported_media_type" and fmt in error["message"]


def _crates(export: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in export["start"]["markers"] if m["kind"] == "crate"]


def test_an_export_without_the_token_keeps_the_secrets(client: Any,
                                                       game: dict[str, Any]) -> None:
    url = f"/api/v1/games/{game['id']}"
    shown = client.get(f"{url}/export").json
    assert shown["complete"] is False
    assert "traps" not in shown["export"]["start"]["referee"]
    state = client.get(url).json["state"]
    assert shown["export"]["start"]["markers"] == state["markers"]  # as GET shows them
    assert all(m["hidden"] and not {"items", "units", "loot"} & set(m)
               for m in _crates(shown["export"]))
    whole = client.get(f"{url}/export", headers=auth(game["token"])).json
    assert whole["complete"] is True and whole["export"]["start"]["referee"]["traps"]
    assert all("items" in m for m in _crates(whole["export"]))
    error_of(client.get(f"{url}/export", headers=auth("not-the-token")), 403)
    # the page opens only a whole record elsewhere; a shown one says why not
    error = error_of(client.post("/api/v1/games/import", json={"export": shown["export"]}),
                     422)
    assert error["code"] == "incomplete_export" and "token" in error["message"]
    made = client.post("/api/v1/games/import", json={"export": whole["export"]})
    assert made.status_code == 201, made.json


def test_a_campaign_export_without_the_token_keeps_the_secrets(client: Any) -> None:
    made = client.post("/api/v1/campaigns", json={"example": "cops_and_kids", "seed": 2}).json
    url = f"/api/v1/campaigns/{made['id']}"
    started = client.post(f"{url}/games", json={"seed": 1}, headers=auth(made["token"]))
    assert started.status_code == 201
    shown = client.get(f"{url}/export").json
    whole = client.get(f"{url}/export", headers=auth(made["token"])).json
    assert (shown["complete"], whole["complete"]) == (False, True)
    for game in shown["games"]:
        assert "traps" not in (game["export"]["start"]["referee"] or {})
        assert all(m.get("hidden") for m in _crates(game["export"]))
    assert client.post("/api/v1/campaigns/import", json=whole).status_code == 201
    hidden = copy.deepcopy(whole)
    hidden["games"] = shown["games"]
    if any(_crates(g["export"]) for g in shown["games"]):
        error = error_of(client.post("/api/v1/campaigns/import", json=hidden), 422)
        assert error["code"] == "incomplete_export"
