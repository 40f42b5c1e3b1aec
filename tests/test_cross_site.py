"""Cross-site requests (issue 17, finding 8), through HTTP on SQLite and PostgreSQL: a JSON
route takes `application/json` only (415), and a write from a page of another site is refused
(403) unless that site is listed (`ALLOWED_ORIGINS`, `serve --allow-origin`,
SURVIVE_US_ALLOW_ORIGINS), which then gets the CORS headers; programs (no Origin) and this
site's own page go through."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from api_support import auth, error_of, start_game
from attack_support import BACKENDS, app_on

from service.request_guard import ENV_ORIGINS, allowed_origins

LISTED = "https://club.example"
HOST = "localhost"  # the test client's Host
GAME = {"scenario": "nettoyage", "seed": 3}


@pytest.fixture(scope="module", params=BACKENDS)
def client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Any]:
    for app in app_on(request.param, tmp_path_factory.mktemp(request.param),
                      ALLOWED_ORIGINS=[LISTED + "/"]):
        yield app.test_client()


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", None,
                                          "application/json-patch+json"])
def test_a_json_route_takes_json_only(client: Any, content_type: str | None) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    for path in ("/api/v1/games", "/api/v1/arbitrate"):
        response = client.post(path, data='{"scenario": "nettoyage"}', headers=headers)
        error = error_of(response, 415)
        assert (error["code"], error["where"]) == ("unsupported_media_type", "Content-Type")
        assert "application/json" in error["message"]
    response = client.post("/api/v1/games", data='{"scenario": "nettoyage"}',
                           headers={"Content-Type": "application/json; charset=utf-8"})
    assert response.status_code == 201


def test_writes_from_another_site_are_refused(client: Any) -> None:
    made = start_game(client)
    url = f"/api/v1/games/{made['id']}"
    listed = client.get(f"{url}/actions").json["actions"]
    for origin in ("https://evil.example", "http://localhost.evil.example", "null",
                   f"http://{HOST}.", "http://127.0.0.1:9"):
        for method, path, body in (("POST", "/api/v1/games", GAME),
                                   ("POST", "/api/v1/arbitrate", {"scene": {}, "questions": []}),
                                   ("POST", f"{url}/actions", {"version": 0,
                                                               "action": listed[0]["action"]}),
                                   ("DELETE", "/api/v1/rosters/" + "r" * 32, None)):
            error = error_of(client.open(path, method=method, json=body, headers={
                "Origin": origin, **auth(made["token"])}), 403)
            assert (error["code"], error["where"]) == ("cross_site", "Origin")
            assert origin in error["message"] and "--allow-origin" in error["message"]
    # a browser that names no Origin but says the page is of another site
    error_of(client.post("/api/v1/games", json=GAME, headers={"Sec-Fetch-Site": "cross-site"}),
             403)
    assert client.get(url).json["version"] == 0  # nothing was played
    # reads stay open to every site (a link is enough to follow a game)
    assert client.get(url, headers={"Origin": "https://evil.example"}).status_code == 200


def test_programs_this_site_and_listed_sites_may_write(client: Any) -> None:
    for headers in ({}, {"Origin": f"http://{HOST}"}, {"Origin": f"https://{HOST}"},
                    {"Origin": f"http://{HOST}", "Sec-Fetch-Site": "same-origin"},
                    {"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"},
                    {"Origin": LISTED}, {"Origin": LISTED.upper()}):
        response = client.post("/api/v1/games", json=GAME, headers=headers)
        assert response.status_code == 201, (headers, response.json)
        cors = response.headers.get("Access-Control-Allow-Origin")
        assert cors == (headers["Origin"] if headers.get("Origin", "").lower() == LISTED
                        else None)


def test_a_listed_site_gets_its_preflight_answered(client: Any) -> None:
    response = client.options("/api/v1/games", headers={
        "Origin": LISTED, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, authorization"})
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == LISTED
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    assert "Authorization" in response.headers["Access-Control-Allow-Headers"]
    other = client.options("/api/v1/games", headers={"Origin": "https://evil.example",
                                                     "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_origins_from_settings_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_ORIGINS, "https://a.example, https://B.example/  http://c:8000")
    assert allowed_origins(["https://d.example/"]) == {
        "https://a.example", "https://b.example", "http://c:8000", "https://d.example"}
    monkeypatch.delenv(ENV_ORIGINS)
    assert allowed_origins(None) == frozenset()
    assert allowed_origins("https://e.example") == {"https://e.example"}
