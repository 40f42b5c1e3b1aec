"""What an outside client reads in the OpenAPI document agrees with what the server does
(found by an outside Schemathesis run against `survive-us serve`, issue 17):

- numeric bounds are JSON Schema's `minimum` / `maximum`: pydantic left the bounds of a
  `Whole` (an integer also written 710.0) as `ge` / `le`, which no client reads, so a seed
  of -1 or a die of 7 passed for valid data;
- an operation that takes a token documents 401 and 403: a wrong token is a 403 `not_yours`,
  on the reads that check one (`/access`, `/export`) as on the writes;
- a roster's PUT and DELETE say they take the token;
- the frame's `calibration` part is JSON (it was "any string", and a non-JSON one is a 400)."""

from __future__ import annotations

import base64
import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_support import auth, make_app, start_game
from pg_support import POSTGRES, fresh_schema

BOUND_NAMES = {"ge", "le", "gt", "lt"}
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAg"
                       "ABSK+kcQAAAABJRU5ErkJggg==")  # one grey pixel
BANDS = Path(__file__).parent.parent / "rules" / "data" / "bands"


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def client(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The app on SQLite, and on a fresh schema of the test PostgreSQL database when
    SURVIVE_US_TEST_POSTGRES names one (its search path in PGOPTIONS)."""
    folder = tmp_path_factory.mktemp("outside")
    if request.param == "sqlite":
        yield make_app(folder).test_client()
        return
    with fresh_schema("o") as schema:
        old = os.environ.get("PGOPTIONS")
        os.environ["PGOPTIONS"] = f"-csearch_path={schema}"
        app = make_app(folder, DATABASE_URL=POSTGRES)
        try:
            yield app.test_client()
        finally:
            app.extensions["survive_us"].db.dispose()
            if old is None:
                os.environ.pop("PGOPTIONS", None)
            else:
                os.environ["PGOPTIONS"] = old


@pytest.fixture(scope="module")
def spec(client: Any) -> dict[str, Any]:
    document: dict[str, Any] = client.get("/openapi.json").get_json()
    return document


def _keys(node: Any, where: str = "") -> list[tuple[str, str]]:
    """Every (place, key) of a JSON document."""
    found: list[tuple[str, str]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            found.append((where, key))
            found += _keys(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _keys(value, f"{where}/{index}")
    return found


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method.upper(), path, op) for path, item in spec["paths"].items()
            for method, op in item.items() if isinstance(op, dict) and "responses" in op]


def test_bounds_use_json_schema_names(spec: dict[str, Any]) -> None:
    assert [f"{where}/{key}" for where, key in _keys(spec) if key in BOUND_NAMES] == []
    dice = spec["components"]["schemas"]["ActionIn"]["properties"]["dice"]["anyOf"][0]
    assert dice["items"] == {"type": "integer", "minimum": 1, "maximum": 6}
    seed = spec["components"]["schemas"]["GameIn"]["properties"]["seed"]
    assert (seed["minimum"], seed["maximum"]) == (0, 2**53)
    after = spec["paths"]["/api/v1/games/{game_id}/events"]["get"]["parameters"]
    assert {"type": "integer", "minimum": 0, "maximum": 2**53} in [
        option for p in after if p["name"] == "after" for option in p["schema"]["anyOf"]]


def test_a_bound_the_spec_states_is_the_one_the_server_holds(client: Any) -> None:
    """The documented bounds are enforced as written (a whole float counts as an integer)."""
    for seed, status in ((-1, 422), (0, 201), (2**53, 201), (2**53 + 1, 422), (3.0, 201)):
        response = client.post("/api/v1/games", json={"scenario": "nettoyage", "seed": seed})
        assert response.status_code == status, (seed, response.get_json())


def test_every_operation_taking_a_token_documents_401_and_403(spec: dict[str, Any]) -> None:
    secured = [(method, path, op) for method, path, op in _operations(spec)
               if op.get("security")]
    assert {(m, p) for m, p, _ in secured} >= {
        ("GET", "/api/v1/games/{game_id}/access"), ("GET", "/api/v1/games/{game_id}/export"),
        ("GET", "/api/v1/campaigns/{campaign_id}/access"),
        ("GET", "/api/v1/campaigns/{campaign_id}/export"),
        ("PUT", "/api/v1/rosters/{roster_id}"), ("DELETE", "/api/v1/rosters/{roster_id}")}
    missing = [(m, p) for m, p, op in secured if not {"401", "403"} <= set(op["responses"])]
    assert missing == []


@pytest.mark.parametrize("route", ["access", "export"])
def test_a_wrong_token_on_a_read_is_the_documented_403(client: Any, spec: dict[str, Any],
                                                       route: str) -> None:
    game = start_game(client)
    response = client.get(f"/api/v1/games/{game['id']}/{route}", headers=auth("wrong"))
    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "not_yours"
    documented = spec["paths"][f"/api/v1/games/{{game_id}}/{route}"]["get"]["responses"]
    assert "403" in documented


def test_a_rosters_change_without_its_token_is_the_documented_401(client: Any,
                                                                  spec: dict[str, Any]) -> None:
    roster = json.loads((BANDS / "cops_and_kids.json").read_text())
    created = client.post("/api/v1/rosters", json={"roster": roster})
    assert created.status_code == 201, created.get_json()
    roster_id = created.get_json()["id"]
    item = spec["paths"]["/api/v1/rosters/{roster_id}"]
    put = client.put(f"/api/v1/rosters/{roster_id}", json={"roster": roster})
    delete = client.delete(f"/api/v1/rosters/{roster_id}", headers=auth("wrong"))
    assert (put.status_code, delete.status_code) == (401, 403)
    assert {"401", "403"} <= set(item["put"]["responses"]) & set(item["delete"]["responses"])


def test_the_frames_calibration_part_is_documented_as_json(client: Any,
                                                           spec: dict[str, Any]) -> None:
    """The part holds a calibration file's JSON: the spec says so (an object sent as
    application/json), and a part that is not JSON is the documented 400."""
    post = spec["paths"]["/api/v1/games/{game_id}/frames"]["post"]
    form = post["requestBody"]["content"]["multipart/form-data"]
    assert form["schema"]["properties"]["calibration"]["type"] == "object"
    assert form["encoding"]["calibration"] == {"contentType": "application/json"}
    assert "400" in post["responses"]
    game = start_game(client)
    response = client.post(f"/api/v1/games/{game['id']}/frames", headers=auth(game["token"]),
                           data={"frame": (io.BytesIO(PNG), "frame.png", "image/png"),
                                 "calibration": ""}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert response.get_json()["error"]["where"] == "body.calibration"


@pytest.mark.parametrize("part", ["field", "file"])
def test_a_frame_part_the_spec_does_not_name_is_refused(client: Any, part: str) -> None:
    """The multipart frame takes frame, mode and calibration only (the spec forbids others, as
    a JSON body's unknown fields): an outside Schemathesis run sent one and got a 200."""
    extra: dict[str, Any] = {"x-unknown": "42"} if part == "field" else {
        "other": (io.BytesIO(b"x"), "o.png", "image/png")}
    game = start_game(client)
    response = client.post(f"/api/v1/games/{game['id']}/frames", headers=auth(game["token"]),
                           data={"frame": (io.BytesIO(PNG), "frame.png", "image/png"), **extra},
                           content_type="multipart/form-data")
    assert response.status_code == 422, response.get_json()
    name = next(iter(extra))
    assert response.get_json()["error"]["where"] == f"body.{name}"


@pytest.mark.parametrize("known", [True, False])
def test_a_change_without_a_token_is_401_whether_or_not_the_id_exists(client: Any,
                                                                      known: bool) -> None:
    """An outside run replayed a successful roster DELETE without its token and got a 404
    (the roster was gone), which Schemathesis read as the token being ignored: the token's
    presence is checked before anything is looked up, so a request without one is 401 for a
    known id and for an unknown one alike (and says nothing of which ids exist)."""
    roster = json.loads((BANDS / "cops_and_kids.json").read_text())
    created = client.post("/api/v1/rosters", json={"roster": roster}).get_json()
    game = start_game(client)
    roster_id, game_id = (created["id"], game["id"]) if known else ("0" * 32, "f" * 32)
    if not known:  # the roster existed once: deleted with its token, then asked again
        assert client.delete(f"/api/v1/rosters/{created['id']}",
                             headers=auth(created["token"])).status_code == 204
        roster_id = created["id"]
    answers = [client.delete(f"/api/v1/rosters/{roster_id}"),
               client.put(f"/api/v1/rosters/{roster_id}", json={"roster": roster}),
               client.post(f"/api/v1/games/{game_id}/actions",
                           json={"version": 0, "action": {"type": "end_turn"}}),
               client.get(f"/api/v1/games/{game_id}/access"),
               client.post(f"/api/v1/campaigns/{game_id}/choose", json={"scenario": "x"})]
    assert [(a.status_code, a.get_json()["error"]["code"]) for a in answers] == \
        [(401, "token_required")] * len(answers)
    # with a token, an unknown id is still the 404 it was; a read's optional token changes
    # nothing there either
    if not known:
        assert client.delete(f"/api/v1/rosters/{roster_id}",
                             headers=auth(created["token"])).status_code == 404
        assert client.get(f"/api/v1/games/{game_id}/export").status_code == 404


def _schemas(node: Any) -> list[dict[str, Any]]:
    """Every schema-like object of a document part."""
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        found += [node] if "type" in node else []
        for value in node.values():
            found += _schemas(value)
    elif isinstance(node, list):
        for value in node:
            found += _schemas(value)
    return found


def test_the_spec_declares_what_the_json_reader_refuses(client: Any,
                                                        spec: dict[str, Any]) -> None:
    """An outside run sent a NUL in a query value (`?figure=`), in a body's text and in a key,
    and a 34-digit `version`, all valid by the spec, all refused 422 by the reader: the spec
    now says so (a text's pattern without NUL, an integer of at most 30 digits). A version
    of 28 to 30 digits passed the reader and made the 409's message fail (500): a version is
    at most 2**53, as a seed."""
    nodes = _schemas(spec["paths"]) + _schemas(spec["components"]["schemas"])
    texts = [n for n in nodes if n["type"] == "string"
             and not {"enum", "const", "format", "contentMediaType"} & set(n)]
    assert texts and all("pattern" in n for n in texts)
    assert all(n.get("maximum", 0) <= 10**30 - 1 and "maximum" in n
               for n in nodes if n["type"] == "integer")
    sight = spec["paths"]["/api/v1/games/{game_id}/sight"]["get"]["parameters"]
    figure = next(p["schema"] for p in sight if p["name"] == "figure")
    assert figure["pattern"] == "^[^\\u0000]*$"
    game = start_game(client)
    refused = client.get(f"/api/v1/games/{game['id']}/sight?figure=s%00")
    assert (refused.status_code, refused.get_json()["error"]["code"]) == (422, "invalid_text")
    token = auth(game["token"])
    action = {"type": "end_turn"}
    version_in = spec["components"]["schemas"]["ActionIn"]["properties"]["version"]
    assert (version_in["minimum"], version_in["maximum"]) == (0, 2**53)
    for version, status in ((2**53, 409), (2**53 + 1, 422), (10**29, 422), (10**30, 422)):
        response = client.post(f"/api/v1/games/{game['id']}/actions", headers=token,
                               data=f'{{"version": {version}, "action": {json.dumps(action)}}}',
                               content_type="application/json")
        assert response.status_code == status, (version, response.get_json())


def test_every_refusal_names_its_code(client: Any) -> None:
    """An outside run got 422s whose code was the bare `error` (a game given both `band` and
    `roster_id`): every refusal names a code of docs/api.md. The views' ApiErrors are all
    read for a `code`, and the one the run met is asked through HTTP."""
    import ast
    service = Path(__file__).parent.parent / "service"
    bare = [f"{path.name}:{node.lineno}" for path in sorted(service.rglob("*.py"))
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ApiError"
            and not any(keyword.arg == "code" for keyword in node.keywords)]
    assert bare == []
    both = client.post("/api/v1/games", json={"scenario": "nettoyage", "band": "la_zone",
                                              "roster_id": "0" * 32})
    assert (both.status_code, both.get_json()["error"]["code"]) == (422, "invalid_request")


def test_a_huge_negative_last_event_id_is_refused_not_a_500(client: Any) -> None:
    """`Last-Event-ID: -999...` (40 digits) made the refusal's message fail (a 28-digit number
    is beyond what the number formatting writes): the number is said back as it was sent."""
    game = start_game(client)
    response = client.get(f"/api/v1/games/{game['id']}/events",
                          headers={"Last-Event-ID": "-" + "9" * 40})
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["where"]) == ("invalid_request", "Last-Event-ID")
    assert "9" * 40 in error["message"]


def test_the_frames_image_part_is_documented_as_jpeg_or_png(client: Any,
                                                          spec: dict[str, Any]) -> None:
    """An outside run sent a GIF in the multipart `frame` part, which the spec let be any
    binary, and got the 415 docs/api.md gives any other image: the part's content type is
    documented as the raw body's are."""
    post = spec["paths"]["/api/v1/games/{game_id}/frames"]["post"]
    content = post["requestBody"]["content"]
    assert set(content) == {"image/jpeg", "image/png", "multipart/form-data"}
    encoding = content["multipart/form-data"]["encoding"]["frame"]
    assert encoding == {"contentType": "image/jpeg, image/png"}
    gif = base64.b64decode("R0lGODdhAQABAIAAAAAAAP///ywAAAAAAQABAAACAkQBADs=")
    game = start_game(client)
    response = client.post(f"/api/v1/games/{game['id']}/frames", headers=auth(game["token"]),
                           data={"frame": (io.BytesIO(gif), "frame.gif", "image/gif")},
                           content_type="multipart/form-data")
    assert (response.status_code, response.get_json()["error"]["code"]) == (
        415, "unsupported_media_type")


@pytest.mark.parametrize("number", [2**53 + 1, 2**63, 10**30 - 2])
def test_an_event_number_beyond_2_53_is_refused_not_a_500(client: Any, number: int) -> None:
    """An outside run previewed an action at version 999...998 (30 digits): the database could
    not look up the events after it (beyond a 64-bit integer) and the 409's message could not
    write it, a 500 each. Every version and event number a request sends (a change's, a
    preview's, `?after=`, `Last-Event-ID`) is at most 2**53, as the spec says."""
    game = start_game(client)
    base = f"/api/v1/games/{game['id']}"
    token = auth(game["token"])
    answers = {
        "preview": client.post(f"{base}/preview", json={"action": {}, "version": number}),
        "undo": client.post(f"{base}/undo", headers=token, json={"version": number}),
        "after": client.get(f"{base}/events?after={number}"),
        "header": client.get(f"{base}/events", headers={"Last-Event-ID": str(number)})}
    assert {name: (a.status_code, a.get_json()["error"]["code"]) for name, a in answers.items()
            } == dict.fromkeys(answers, (422, "invalid_request"))
    at_most = client.post(f"{base}/preview", json={"action": {}, "version": 2**53})
    assert at_most.status_code == 409, at_most.get_json()


def test_a_frame_part_is_read_by_its_bytes(client: Any) -> None:
    """An outside run sent a PNG in a `frame` part labelled image/jpeg (the spec gives the
    part either type) and got 415: a browser labels a file after its extension, so a PNG
    saved as .jpg came to the same. The part is read by its bytes; the raw body's
    Content-Type still has to say what the bytes are."""
    game = start_game(client)
    url, token = f"/api/v1/games/{game['id']}/frames", auth(game["token"])
    part = client.post(url, headers=token, content_type="multipart/form-data",
                       data={"frame": (io.BytesIO(PNG), "photo.jpg", "image/jpeg")})
    assert part.status_code == 200, part.get_json()
    raw = client.post(url, headers=token, data=PNG, content_type="image/jpeg")
    assert (raw.status_code, raw.get_json()["error"]["code"]) == (415, "unsupported_media_type")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_huge_number_in_a_scene_is_said_not_a_500(client: Any, lang: str) -> None:
    """A figure at x = 1e29 is off the table: the refusal quotes the number, which Babel's
    28-digit arithmetic could not write (a 500, found by the outside run)."""
    scene = {"terrain": [], "figures": [
        {"id": "a", "side": "survivors", "x": 1e29, "y": 5},
        {"id": "b", "side": "zombies", "x": 5, "y": 5}]}
    answer = client.post(f"/api/v1/arbitrate?lang={lang}", json={
        "scene": scene, "questions": [{"ask": "distance", "from": "a", "to": "b"}]})
    assert answer.status_code in (413, 422), answer.get_data(as_text=True)[:300]
    assert answer.get_json()["error"]["message"]
