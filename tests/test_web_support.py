"""The page's support endpoint: POST /api/v1/games/ID/preview (an action judged, not played)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api_support import error_of, make_app, start_game


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    app = make_app(tmp_path_factory.mktemp("support"))
    test_client: FlaskClient = app.test_client()
    return test_client


@pytest.fixture(scope="module")
def game(client: FlaskClient) -> dict[str, Any]:
    return start_game(client, "nettoyage", seed=3)


def preview(client: FlaskClient, game_id: str, action: dict[str, Any],
            **extra: Any) -> Any:
    return client.post(f"/api/v1/games/{game_id}/preview", json={"action": action, **extra})


def route_length(points: list[list[float]]) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:], strict=False))


def test_a_move_toward_an_enemy_gives_its_end_and_route(client: FlaskClient,
                                                        game: dict[str, Any]) -> None:
    listed = client.get(f"/api/v1/games/{game['id']}/actions?figure=m1").json["actions"]
    toward = next(a["action"] for a in listed if a["action"]["type"] == "move")
    answer = preview(client, game["id"], toward).json
    assert answer["legal"] and answer["reason"] is None and answer["cost"] == 1
    m1 = next(f for f in game["state"]["figures"] if f["id"] == "m1")
    assert answer["waypoints"][0] == pytest.approx([m1["x"], m1["y"]])
    assert answer["waypoints"][-1] == pytest.approx(answer["end"])
    assert answer["length"] == pytest.approx(route_length(answer["waypoints"]), abs=1e-6)
    assert 0 < answer["length"] <= m1["move"] + 1e-6
    # nothing was played
    assert client.get(f"/api/v1/games/{game['id']}").json["version"] == game["version"]


def test_a_refused_move_says_why_and_still_draws_the_route(client: FlaskClient,
                                                           game: dict[str, Any]) -> None:
    m1 = next(f for f in game["state"]["figures"] if f["id"] == "m1")
    far = [m1["x"], m1["y"] + 9.0]
    answer = preview(client, game["id"], {"type": "move", "figure": "m1", "to": far}).json
    assert not answer["legal"] and answer["cost"] is None
    assert answer["reason_words"]["code"] == "refusal.too_far" and answer["reason"]  # and why
    assert answer["end"] == far and answer["length"] >= 9.0 - 1e-6


def test_a_zombie_out_of_turn_is_refused(client: FlaskClient, game: dict[str, Any]) -> None:
    answer = preview(client, game["id"], {"type": "move", "figure": "z7", "toward": "m1"}).json
    assert not answer["legal"] and answer["reason"]
    assert answer["reason_words"]["code"] == "refusal.not_your_turn.survivors"


def test_errors(client: FlaskClient, game: dict[str, Any]) -> None:
    bad = error_of(preview(client, game["id"], {"type": "fly", "figure": "m1"}), 422)
    assert "fly" in bad["message"]
    error_of(preview(client, "nope", {"type": "pass"}), 404)
    stale = error_of(preview(client, game["id"], {"type": "pass"}, version=99), 409)
    assert stale["where"] == "version"
    shot = preview(client, game["id"], {"type": "shoot", "figure": "m1", "target": "nobody",
                                        "weapon": "pistolet"})
    assert shot.status_code == 200 and not shot.json["legal"] and shot.json["cost"] is None


def test_the_page_files_are_served(client: FlaskClient) -> None:
    with client.get("/") as page:
        assert page.status_code == 200 and b'data-i18n="nav.home"' in page.data
    for name in ("js/main.js", "css/style.css", "i18n/fr.json", "i18n/en.json"):
        with client.get(f"/{name}") as response:
            assert response.status_code == 200, name


def test_the_page_gets_the_catalogs_as_code_to_text(client: FlaskClient) -> None:
    fr, en = (client.get(f"/i18n/{lang}.json").json for lang in ("fr", "en"))
    assert set(fr) == set(en) and fr["nav.home"] != en["nav.home"]
    assert fr["unit.inches"] == "{n} ps" and en["unit.inches"] == "{n} in"
    assert client.get("/i18n/de.json").status_code == 404


def test_the_page_lists_every_example_band(client: FlaskClient) -> None:
    """The band menus come from GET /bands: every example band, by both its names."""
    from rules.warband import example_bands

    listed = {b["id"]: b["names"] for b in client.get("/api/v1/bands").json}
    assert listed == {key: band.names for key, band in example_bands().items()}
    assert "/bands" in (Path(__file__).resolve().parent.parent / "web" / "js" /
                        "examples.js").read_text("utf-8")
