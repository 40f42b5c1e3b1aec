"""Rosters over HTTP: create, read, update, validate (every problem at once, with costs, as
`band check`), delete; tokens for changes."""

from __future__ import annotations

import copy
import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from api_support import auth, error_of, make_app

from service.cli import main

BANDS = Path(__file__).parent.parent / "rules" / "data" / "bands"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return make_app(tmp_path_factory.mktemp("rosters")).test_client()


def band(name: str = "cops_and_kids") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((BANDS / f"{name}.json").read_text())
    return data


def band_check(data: dict[str, Any], tmp: Path) -> Any:
    path = tmp / "band.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    with redirect_stdout(out):
        main(["band", "check", str(path), "--json"])
    return json.loads(out.getvalue())


@pytest.mark.parametrize("name", ["cops_and_kids", "la_zone", "the_school"])
def test_validate_is_band_check(client: Any, name: str, tmp_path: Path) -> None:
    response = client.post("/api/v1/rosters/validate", json={"roster": band(name)})
    assert response.status_code == 200
    assert response.json == band_check(band(name), tmp_path)
    assert response.json["legal"] is True


def test_validate_lists_every_problem_with_costs(client: Any, tmp_path: Path) -> None:
    bad = band()
    bad["members"][0]["skill"] = "telepathie"
    bad["members"][1]["equipment"] = {"fusil": 1, "balles": 1, "casque": 1, "protection": 3}
    bad["members"] = bad["members"] * 2  # duplicate ids, too many figures
    got = client.post("/api/v1/rosters/validate", json={"roster": bad}).json
    assert got == band_check(bad, tmp_path)
    assert got["legal"] is False and got["errors"] >= 3
    wheres = {p["where"] for p in got["problems"]}
    assert any("members[0]" in w for w in wheres) and any("members[1]" in w for w in wheres)
    assert all(p["fix"] for p in got["problems"])
    assert len(got["cost"]["members"]) == len(bad["members"])


def test_malformed_roster_is_422_naming_the_field(client: Any) -> None:
    bad = band()
    bad["members"][2]["archetype"] = 7
    error = error_of(client.post("/api/v1/rosters/validate", json={"roster": bad}), 422)
    assert "members[2]" in error["where"]
    error = error_of(client.post("/api/v1/rosters/validate",
                                 json={"roster": band(), "settings": {"cheat": 1}}), 422)
    assert "cheat" in error["message"]


def test_create_read_update_delete(client: Any) -> None:
    created = client.post("/api/v1/rosters", json={"roster": band()})
    assert created.status_code == 201
    body = created.json
    roster_id, token = body["id"], body["token"]
    assert body["version"] == 1 and body["validation"]["legal"] is True
    url = f"/api/v1/rosters/{roster_id}"
    read = client.get(url).json
    assert "token" not in read and read["roster"] == body["roster"]
    assert client.get(f"{url}/validation").json == body["validation"]

    changed = copy.deepcopy(band())
    changed["name"] = "Renamed"
    changed["members"] = changed["members"][:2]
    assert error_of(client.put(url, json={"roster": changed}), 401)["code"] == "token_required"
    assert error_of(client.put(url, json={"roster": changed}, headers=auth("x")), 403)[
        "code"] == "not_yours"
    updated = client.put(url, json={"roster": changed}, headers=auth(token))
    assert updated.status_code == 200
    assert updated.json["version"] == 2 and updated.json["roster"]["name"] == "Renamed"
    assert updated.json["validation"]["legal"] is False  # too few members
    assert client.get(url).json["roster"]["name"] == "Renamed"

    error_of(client.delete(url), 401)
    deleted = client.delete(url, headers=auth(token))
    assert deleted.status_code == 204 and deleted.data == b""
    error_of(client.get(url), 404)
    # a deleted band keeps its token: its owner hears it is gone, anyone else is refused as
    # before (an outside Schemathesis run replayed the DELETE without the token: a 404 there
    # read as a change let through without its token)
    gone = error_of(client.delete(url, headers=auth(token)), 404)
    assert gone["words"]["code"] == "service.roster.deleted"
    assert error_of(client.put(url, json={"roster": changed}, headers=auth(token)), 404)[
        "words"]["code"] == "service.roster.deleted"
    assert error_of(client.delete(url, headers=auth("x")), 403)["code"] == "not_yours"
    assert error_of(client.put(url, json={"roster": changed}, headers=auth("x")), 403)[
        "code"] == "not_yours"
    error_of(client.delete(url), 401)
    never = "/api/v1/rosters/" + "0" * 32  # no band ever had this id
    assert error_of(client.delete(never, headers=auth(token)), 404)["words"]["code"] == \
        "service.not_found"


def test_a_stored_roster_plays_a_game(client: Any) -> None:
    created = client.post("/api/v1/rosters", json={"roster": band("la_zone")}).json
    game = client.post("/api/v1/games", json={"scenario": "nettoyage", "seed": 1,
                                              "roster_id": created["id"]})
    assert game.status_code == 201
    names = {f["name"] for f in game.json["state"]["figures"] if f["side"] == "survivors"}
    assert names == {m["name"] for m in band("la_zone")["members"]}
