"""Games over HTTP: start, state, legal actions, apply with versions (409), illegal (422),
typed dice, undo, the AI, path preview, sight, zone, engaged pairs, the event stream, and
two workers sharing one database."""

from __future__ import annotations

import json
from typing import Any

import pytest
from api_support import auth, error_of, make_app, start_game

from i18n import render
from rules.game import Game
from service.cli import main
from service.live import table_view


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return make_app(tmp_path_factory.mktemp("games"))


@pytest.fixture()
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture()
def game(client: Any) -> dict[str, Any]:
    return start_game(client)


def post(client: Any, game: dict[str, Any], path: str, body: dict[str, Any],
         token: str | None = None) -> Any:
    return client.post(f"/api/v1/games/{game['id']}{path}", json=body,
                       headers=auth(token or game["token"]))


def first_move(client: Any, game: dict[str, Any]) -> dict[str, Any]:
    listed = client.get(f"/api/v1/games/{game['id']}/actions").json["actions"]
    move: dict[str, Any] = next(a["action"] for a in listed if a["action"]["type"] == "move")
    return move


def test_start_gives_the_seeded_setup(client: Any, game: dict[str, Any]) -> None:
    from scenarios.play import start_scenario

    want = start_scenario("nettoyage", None, 3)
    assert game["version"] == 0 and game["scenario"] == "nettoyage" and game["seed"] == 3
    assert game["state"] == table_view(want.to_json())
    assert game["deciding"] == "survivors" and game["terminal"] is False
    assert len(game["token"]) >= 30
    again = client.get(f"/api/v1/games/{game['id']}").json
    assert "token" not in again and again["state"] == game["state"]


def test_closed_crates_keep_their_contents_secret(client: Any) -> None:
    """The players see where the crates are and what opening one costs, not what is inside
    nor which one hides a trap; an opened crate shows what is left in it."""
    from scenarios.play import start_scenario

    full = start_scenario("caisses", None, 3).to_json()
    assert any(m["kind"] == "crate" and m["items"] for m in full["markers"])
    assert full["referee"]["traps"]
    started = client.post("/api/v1/games", json={"scenario": "caisses", "seed": 3}).json
    for seen in (started, client.get(f"/api/v1/games/{started['id']}").json):
        crates = [m for m in seen["state"]["markers"] if m["kind"] == "crate"]
        assert crates and all(m["hidden"] and "items" not in m and "units" not in m
                              for m in crates)
        assert "traps" not in seen["state"]["referee"]
    opened = {"id": "c", "kind": "items", "x": 1.0, "y": 1.0, "items": {"balles": 1},
              "units": {"balles": 10}}
    assert table_view({"markers": [opened], "referee": None})["markers"] == [opened]


def test_start_with_an_unknown_scenario_or_band(client: Any) -> None:
    error = error_of(client.post("/api/v1/games", json={"scenario": "atlantis"}), 422)
    assert "atlantis" in error["message"]
    error = error_of(client.post("/api/v1/games", json={"scenario": "nettoyage",
                                                        "band": "beatles"}), 422)
    assert "beatles" in error["message"]
    error_of(client.post("/api/v1/games", json={"scenario": "nettoyage",
                                                "roster_id": "nope"}), 404)


def test_unknown_game_is_404(client: Any) -> None:
    for path in ("", "/actions", "/zone", "/engaged", "/export", "/events",
                 "/sight?figure=m1"):
        assert error_of(client.get(f"/api/v1/games/nope{path}"), 404)["code"] == "not_found"


def test_legal_actions_all_and_per_figure(client: Any, game: dict[str, Any]) -> None:
    every = client.get(f"/api/v1/games/{game['id']}/actions").json
    assert every["version"] == 0 and every["deciding"] == "survivors"
    # an attack also says its dice and chances (`odds`)
    assert all(set(a) - {"odds"} == {"action", "text", "text_words", "cost"}
               for a in every["actions"])
    assert all(("odds" in a) == (a["action"]["type"] in ("melee", "shoot", "contaminate"))
               for a in every["actions"])
    assert all(render(a["text_words"], "en") == a["text"] for a in every["actions"])
    types = {a["action"]["type"] for a in every["actions"]}
    # L74 (R1): the survivors hold AP and can act, so they may not give up; a figure may
    # stand still instead
    assert "move" in types and "end_activations" not in types and "pass" not in types
    assert any("stands still" in a["text"] for a in every["actions"])
    one = client.get(f"/api/v1/games/{game['id']}/actions?figure=m1").json["actions"]
    assert one and all(a["action"].get("figure") == "m1" for a in one)
    name = game["names"]["m1"]
    assert all(name["en"] in a["text"] and "m1" not in a["text"] for a in one)
    french = client.get(f"/api/v1/games/{game['id']}/actions?figure=m1&lang=fr").json["actions"]
    assert all(name["fr"] in a["text"] for a in french)
    assert any("reste sur place" in a["text"] for a in french)
    error_of(client.get(f"/api/v1/games/{game['id']}/actions?figure=zz"), 404)
    error_of(client.get(f"/api/v1/games/{game['id']}/actions?colour=red"), 422)


def test_apply_then_stale_version_is_409(client: Any, game: dict[str, Any]) -> None:
    move = first_move(client, game)
    done = post(client, game, "/actions", {"version": 0, "action": move})
    assert done.status_code == 200, done.json
    body = done.json
    assert body["version"] == 1 and body["kind"] == "action" and body["notes"]
    assert body["game"]["version"] == 1
    moved = next(f for f in body["game"]["state"]["figures"] if f["id"] == move["figure"])
    before = next(f for f in game["state"]["figures"] if f["id"] == move["figure"])
    assert (moved["x"], moved["y"]) != (before["x"], before["y"])
    error = error_of(post(client, game, "/actions", {"version": 0, "action": move}), 409)
    assert error["code"] == "stale_version"
    assert client.post(f"/api/v1/games/{game['id']}/actions",
                       json={"version": 0, "action": move},
                       headers=auth(game["token"])).json["error"]["version"] == 1


def test_illegal_and_malformed_actions_are_422(client: Any, game: dict[str, Any]) -> None:
    far = {"type": "move", "figure": "m1", "to": [30.0, 30.0]}
    error = error_of(post(client, game, "/actions", {"version": 0, "action": far}), 422)
    assert error["code"] == "illegal_action" and error["words"]["code"].startswith("refusal.")
    assert "Lucas" in error["message"] and "m1" not in error["message"]
    error = error_of(post(client, game, "/actions", {"version": 0, "action": {"type": "fly"}}),
                     422)
    assert error["code"] == "invalid_action" and error["where"] == "action.type"
    error = error_of(post(client, game, "/actions",
                          {"version": 0, "action": {"type": "move", "figure": "z1",
                                                    "toward": "m1"}}), 422)
    assert error["code"] == "illegal_action"
    assert client.get(f"/api/v1/games/{game['id']}").json["version"] == 0  # nothing written


def test_changes_need_the_token(client: Any, game: dict[str, Any]) -> None:
    move = first_move(client, game)
    url = f"/api/v1/games/{game['id']}/actions"
    assert error_of(client.post(url, json={"version": 0, "action": move}), 401)["code"] == \
        "token_required"
    error = error_of(client.post(url, json={"version": 0, "action": move},
                                 headers=auth("wrong")), 403)
    assert error["code"] == "not_yours"
    other = start_game(client, seed=4)
    error_of(post(client, game, "/actions", {"version": 0, "action": move}, other["token"]),
             403)


END = {"type": "end_activations"}


@pytest.fixture()
def passing(client: Any) -> dict[str, Any]:
    """A game where a side may give up its turn (setting allow_pass, the pre-R1 reading)."""
    return start_game(client, settings={"allow_pass": True})


def test_typed_dice_and_missing_dice(client: Any, passing: dict[str, Any]) -> None:
    """Both sides end their activations: the turn ends and the next turn's AP are rolled."""
    game = passing
    assert post(client, game, "/actions", {"version": 0, "action": END}).json["dice"] == []
    error = error_of(post(client, game, "/actions", {"version": 1, "action": END,
                                                    "dice": [4]}), 422)
    assert error["code"] == "need_dice"
    error_of(post(client, game, "/actions", {"version": 1, "action": END, "dice": [7]}), 422)
    done = post(client, game, "/actions", {"version": 1, "action": END, "dice": [4, 2, 3]})
    assert done.status_code == 200, done.json
    assert done.json["dice"] == [4, 2, 3]
    state = done.json["game"]["state"]
    assert state["turn"] == 2 and state["pools"]["zombies"] == 5


def test_service_dice_are_recorded_and_replay(client: Any, passing: dict[str, Any]) -> None:
    game = passing
    post(client, game, "/actions", {"version": 0, "action": END})
    done = post(client, game, "/actions", {"version": 1, "action": END})
    assert done.status_code == 200 and len(done.json["dice"]) >= 3
    export = client.get(f"/api/v1/games/{game['id']}/export").json
    assert export["export"]["log"][-1]["dice"] == done.json["dice"]
    assert table_view(Game.replay(export["export"]).to_json()) == done.json["game"]["state"]


def test_the_cli_replays_what_the_api_exports(client: Any, passing: dict[str, Any],
                                              tmp_path: Any,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    post(client, passing, "/actions", {"version": 0, "action": END})
    saved = tmp_path / "export.json"
    saved.write_text(json.dumps(client.get(f"/api/v1/games/{passing['id']}/export").json))
    assert main(["--lang", "en", "replay", "--json", str(saved)]) == 0
    assert table_view(json.loads(capsys.readouterr().out)) == client.get(
        f"/api/v1/games/{passing['id']}").json["state"]


def test_bad_settings_are_named(client: Any) -> None:
    error = error_of(client.post("/api/v1/games", json={"scenario": "nettoyage",
                                                        "settings": {"allow_pass": "yes"}}), 422)
    assert error["where"] == "settings.allow_pass" and '"yes"' in error["message"]


def test_undo(client: Any, game: dict[str, Any]) -> None:
    error = error_of(post(client, game, "/undo", {"version": 0}), 422)
    assert "nothing to take back" in error["message"]
    move = first_move(client, game)
    post(client, game, "/actions", {"version": 0, "action": move})
    undone = post(client, game, "/undo", {"version": 1})
    assert undone.status_code == 200
    assert undone.json["version"] == 2 and undone.json["kind"] == "undo"
    assert undone.json["game"]["state"] == game["state"]
    error_of(post(client, game, "/undo", {"version": 1}), 409)


def test_a_take_back_is_not_a_reroll(client: Any) -> None:
    """An attack taken back and played again rolls the dice it rolled the first time."""
    game = start_game(client, "nettoyage", seed=3)
    listed = client.get(f"/api/v1/games/{game['id']}/actions?figure=m1").json["actions"]
    shot = next(a["action"] for a in listed if a["action"]["type"] == "shoot")
    first = post(client, game, "/actions", {"version": 0, "action": shot}).json
    post(client, game, "/undo", {"version": first["version"]})
    again = post(client, game, "/actions", {"version": first["version"] + 1, "action": shot}).json
    assert again["dice"] == first["dice"] and again["dice"]
    assert again["game"]["state"] == first["game"]["state"]


def _zombies_turn(client: Any, game: dict[str, Any]) -> int:
    """Survivors walk toward the zombies until the zombies decide; returns the version."""
    version = 0
    for _ in range(60):
        now = client.get(f"/api/v1/games/{game['id']}").json
        if now["deciding"] == "zombies":
            return version
        listed = client.get(f"/api/v1/games/{game['id']}/actions").json["actions"]
        pick = next((a["action"] for a in listed if a["action"].get("toward", "").startswith(
            "z")), listed[0]["action"])
        version = post(client, game, "/actions", {"version": version, "action": pick}
                       ).json["version"]
    raise AssertionError("the zombies never got to decide")


def test_ai_suggest_then_play(client: Any, game: dict[str, Any]) -> None:
    error = error_of(post(client, game, "/ai/suggest", {"version": 0}), 422)
    assert error["code"] == "not_zombies_turn"
    version = _zombies_turn(client, game)
    error_of(post(client, game, "/ai/suggest", {"version": version + 1}), 409)
    hint = post(client, game, "/ai/suggest", {"version": version}).json
    assert hint["policy"] == "tactician" and hint["explanation"] and hint["text"]
    again = post(client, game, "/ai/suggest", {"version": version}).json
    assert again == hint  # nothing was applied, and the choice is seeded
    played = post(client, game, "/ai/play", {"version": version})
    assert played.status_code == 200, played.json
    assert played.json["action"] == hint["action"]
    assert played.json["explanation"] == hint["explanation"]
    assert played.json["version"] == version + 1


def test_ai_levels_languages_and_chances(client: Any, game: dict[str, Any]) -> None:
    """Each level answers with its policy; the explanation comes in the language asked for,
    as messages too; the chances are each side's, adding up to 1."""
    version = _zombies_turn(client, game)
    for level, policy in (("easy", "tactician:easy"), ("hard", "tactician:hard")):
        hint = post(client, game, "/ai/suggest", {"version": version, "level": level}).json
        assert hint["policy"] == policy and hint["messages"], hint
    en = post(client, game, "/ai/suggest", {"version": version}).json
    fr = post(client, game, "/ai/suggest", {"version": version, "lang": "fr"}).json
    assert en["action"] == fr["action"] and en["messages"] == fr["messages"]
    assert en["explanation"] != fr["explanation"]
    assert "chances des zombies" in fr["explanation"]
    assert en["chances"]["zombies"] + en["chances"]["survivors"] == pytest.approx(1.0)
    error = error_of(post(client, game, "/ai/suggest", {"version": version,
                                                         "level": "insane"}), 422)
    assert "level" in error["where"]
    chances = client.get(f"/api/v1/games/{game['id']}/chances?lang=fr").json
    assert chances["version"] == version
    assert chances["survivors"] == pytest.approx(en["chances"]["survivors"])
    assert len(chances["curve"]) == version + 1  # the start, then every action
    assert all(0.0 <= p["survivors"] <= 1.0 for p in chances["curve"])
    assert chances["turning_point"]["code"] == "ai.turning"
    assert chances["turning_text"].startswith("au tour ")
    now = client.get(f"/api/v1/games/{game['id']}/chances?curve=false").json
    assert now["curve"] == [] and now["turning_point"] is None
    assert now["survivors"] == pytest.approx(chances["survivors"])
    bad = client.get(f"/api/v1/games/{game['id']}/chances?lang=de")
    assert bad.status_code == 422


def test_the_language_follows_accept_language_unless_lang_is_given(
        client: Any, game: dict[str, Any]) -> None:
    version = _zombies_turn(client, game)
    url = f"/api/v1/games/{game['id']}/ai/suggest"
    body = {"version": version}
    french = {**auth(game["token"]), "Accept-Language": "fr-FR,fr;q=0.9,en;q=0.8"}
    fr = client.post(url, json=body, headers=french).json
    assert "chances des zombies" in fr["explanation"]
    en = client.post(url, json={**body, "lang": "en"}, headers=french).json
    assert "zombies' chances" in en["explanation"]
    german = {**auth(game["token"]), "Accept-Language": "de-DE"}
    assert "zombies' chances" in client.post(url, json=body, headers=german).json["explanation"]
    turning = client.get(f"/api/v1/games/{game['id']}/chances",
                         headers={"Accept-Language": "fr"}).json["turning_text"]
    assert turning.startswith("au tour ")
    listed = client.get(f"/api/v1/games/{game['id']}/actions?lang=fr")
    assert listed.status_code == 200


def test_path_preview(client: Any, game: dict[str, Any]) -> None:
    m1 = next(f for f in game["state"]["figures"] if f["id"] == "m1")
    near = post(client, game, "/path", {"figure": "m1", "to": [m1["x"] + 3, m1["y"] + 3]}).json
    assert near["reachable"] and near["legal_now"] and near["ap_cost"] == 1
    assert near["length"] == pytest.approx(18 ** 0.5)
    assert near["waypoints"][0] == [m1["x"], m1["y"]]
    far = post(client, game, "/path", {"figure": "m1", "to": [m1["x"], m1["y"] + 12]}).json
    assert far["reachable"] and not far["legal_now"]
    assert far["ap_cost"] == -(-far["length"] // far["move"])
    assert "Lucas" in far["refused"] and "m1" not in far["refused"]
    off = post(client, game, "/path", {"figure": "m1", "to": [-5, 3]}).json
    assert off["reachable"] is False and off["reason"] and off["ap_cost"] is None
    error_of(post(client, game, "/path", {"figure": "zz", "to": [1, 1]}), 404)
    error_of(post(client, game, "/path", {"figure": "m1", "to": [1]}), 422)
    error_of(post(client, game, "/path", {"figure": "m1", "to": [1, True]}), 422)


def test_sight_zone_engaged(client: Any, game: dict[str, Any]) -> None:
    sight = client.get(f"/api/v1/games/{game['id']}/sight?figure=m1").json
    zombies = {f["id"] for f in game["state"]["figures"] if f["side"] == "zombies"}
    assert {e["id"] for e in sight["enemies"]} == zombies
    assert all(0 <= e["fraction"] <= 1 and e["visible"] == (e["fraction"] > 0)
               for e in sight["enemies"])
    ring = sight["polygons"][0]
    assert len(ring) >= 4 and ring[0] == ring[-1]
    error_of(client.get(f"/api/v1/games/{game['id']}/sight"), 422)
    zone = client.get(f"/api/v1/games/{game['id']}/zone").json
    assert set(zone["in_zone"]) | set(zone["out_of_zone"]) == zombies
    assert all((v["inches"] <= 20) == (z in zone["in_zone"])
               for z, v in zone["nearest"].items())
    assert set(zone["activatable"]) <= set(zone["in_zone"])
    assert client.get(f"/api/v1/games/{game['id']}/engaged").json == {"version": 0,
                                                                     "pairs": []}


def test_engaged_pairs_after_contact(client: Any) -> None:
    game = start_game(client)
    version = _zombies_turn(client, game)
    for _ in range(40):  # let the zombies close in
        now = client.get(f"/api/v1/games/{game['id']}").json
        pairs = client.get(f"/api/v1/games/{game['id']}/engaged").json["pairs"]
        if pairs:
            break
        if now["deciding"] != "zombies":
            version = _survivors_wait(client, game, version)
            continue
        version = post(client, game, "/ai/play", {"version": version}).json["version"]
    assert pairs, "no zombie reached a survivor"
    figures = {f["id"]: f for f in client.get(f"/api/v1/games/{game['id']}").json["state"][
        "figures"]}
    for a, b in pairs:
        assert (figures[a]["side"] == "zombies") != (figures[b]["side"] == "zombies")


def _survivors_wait(client: Any, game: dict[str, Any], version: int) -> int:
    listed = client.get(f"/api/v1/games/{game['id']}/actions").json["actions"]
    pick = next((a["action"] for a in listed if a["action"]["type"] in ("pass",
                                                                         "end_activations")),
                listed[0]["action"])
    body: int = post(client, game, "/actions", {"version": version, "action": pick}
                     ).json["version"]
    return body


def events_of(data: bytes) -> list[dict[str, Any]]:
    out = []
    for block in data.decode().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines()
                     if ": " in line and not line.startswith(":"))
        if "data" in lines:
            out.append({"id": int(lines["id"]), "event": lines["event"],
                        **json.loads(lines["data"])})
    return out


def test_event_stream_and_resume(client: Any, game: dict[str, Any]) -> None:
    move = first_move(client, game)
    post(client, game, "/actions", {"version": 0, "action": move})
    post(client, game, "/undo", {"version": 1})
    with client.get(f"/api/v1/games/{game['id']}/events") as response:
        assert response.status_code == 200
        assert response.mimetype == "text/event-stream"
        seen = events_of(response.data)
    assert [(e["id"], e["event"]) for e in seen] == [(1, "action"), (2, "undo")]
    assert seen[0]["action"] == move
    with client.get(f"/api/v1/games/{game['id']}/events",
                    headers={"Last-Event-ID": "1"}) as response:
        assert [e["id"] for e in events_of(response.data)] == [2]
    with client.get(f"/api/v1/games/{game['id']}/events?after=2") as response:
        assert events_of(response.data) == []
    error_of(client.get(f"/api/v1/games/{game['id']}/events",
                        headers={"Last-Event-ID": "x"}), 422)


def test_event_stream_follows_a_live_game(app: Any, tmp_path: Any) -> None:
    """A stream opened before an action sees it (the poll reads the table)."""
    import threading

    client = app.test_client()
    game = start_game(client)
    app.config["SSE_LIFETIME"] = 1.0
    got: list[bytes] = []
    try:
        def listen() -> None:
            with app.test_client().get(f"/api/v1/games/{game['id']}/events") as response:
                got.append(response.data)

        listener = threading.Thread(target=listen)
        listener.start()
        move = first_move(client, game)
        assert post(client, game, "/actions", {"version": 0, "action": move}).status_code == 200
        listener.join(10)
    finally:
        app.config["SSE_LIFETIME"] = 0.0
    assert [e["id"] for e in events_of(got[0])] == [1]


def test_two_workers_share_one_database(tmp_path: Any) -> None:
    """Two apps (as two worker processes) on one file: each sees the other's actions."""
    apps = make_app(tmp_path), make_app(tmp_path)
    one, two = apps[0].test_client(), apps[1].test_client()
    game = start_game(one)
    url = f"/api/v1/games/{game['id']}"
    two.get(url)  # worker two caches version 0
    live = apps[1].extensions["survive_us"].games
    rebuilt = live.rebuilds
    move = first_move(one, game)
    assert post(one, game, "/actions", {"version": 0, "action": move}).status_code == 200
    seen = two.get(url).json
    assert seen["version"] == 1 and seen == one.get(url).json
    assert (live.rebuilds, live.catch_ups) == (rebuilt, 1)  # applied the one new event
    error_of(post(two, game, "/actions", {"version": 0, "action": move}), 409)
    assert post(two, game, "/undo", {"version": 1}).status_code == 200
    assert one.get(url).json["state"] == game["state"]


def test_import_a_game_export(client: Any, game: dict[str, Any]) -> None:
    move = first_move(client, game)
    post(client, game, "/actions", {"version": 0, "action": move})
    # the token's holder gets the whole record (what the crates hold): it replays
    export = client.get(f"/api/v1/games/{game['id']}/export",
                        headers=auth(game["token"])).json["export"]
    copy = client.post("/api/v1/games/import", json={"export": export, "seed": 3})
    assert copy.status_code == 201, copy.json
    assert copy.json["version"] == 1 and copy.json["id"] != game["id"]
    assert copy.json["state"] == client.get(f"/api/v1/games/{game['id']}").json["state"]
    export["log"][1]["action"]["figure"] = "ghost"
    error_of(client.post("/api/v1/games/import", json={"export": export}), 422)
    error = error_of(client.post("/api/v1/games/import", json={"export": {"start": {}}}), 422)
    assert error["code"] == "invalid_export"


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:3]):
            out += _paths(item, (*prefix, i))
    return out


def test_broken_exports_never_crash_the_service(client: Any, game: dict[str, Any]) -> None:
    """Seeded mutations of a real export (a field removed or given a wrong type): the
    import answers 201 or 422, never a 500."""
    import copy
    import random

    move = first_move(client, game)
    post(client, game, "/actions", {"version": 0, "action": move})
    export = client.get(f"/api/v1/games/{game['id']}/export").json["export"]
    rng = random.Random(8)
    paths = _paths(export)
    statuses = set()
    for path in rng.sample(paths, 40):
        broken = copy.deepcopy(export)
        *parents, last = path
        holder = broken
        for key in parents:
            holder = holder[key]
        if rng.random() < 0.4 and isinstance(holder, dict):
            del holder[last]
        else:
            holder[last] = rng.choice([None, "x", -1, 1e9, [], {}, True])
        response = client.post("/api/v1/games/import", json={"export": broken})
        assert response.status_code in (201, 422), (path, response.data[:300])
        statuses.add(response.status_code)
    assert statuses == {201, 422}


def test_racing_clients_one_wins_the_rest_are_stale(app: Any) -> None:
    """Eight threads send the same version at once: exactly one action is applied."""
    import threading

    client = app.test_client()
    game = start_game(client, seed=7)
    move = first_move(client, game)
    statuses: list[int] = []
    barrier = threading.Barrier(8)

    def race() -> None:
        mine = app.test_client()
        barrier.wait()
        statuses.append(post(mine, game, "/actions", {"version": 0, "action": move}
                             ).status_code)

    threads = [threading.Thread(target=race) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(statuses) == [200] + [409] * 7
    with client.get(f"/api/v1/games/{game['id']}/events") as response:
        assert [e["id"] for e in events_of(response.data)] == [1]


def test_ai_play_with_dice_typed_in(client: Any, game: dict[str, Any]) -> None:
    version = _zombies_turn(client, game)
    hint = post(client, game, "/ai/suggest", {"version": version}).json
    played = post(client, game, "/ai/play", {"version": version, "dice": [6] * 10})
    assert played.status_code == 200, played.json
    assert played.json["action"] == hint["action"]
    assert all(d == 6 for d in played.json["dice"])
    with client.get(f"/api/v1/games/{game['id']}/events?after={version}") as response:
        assert events_of(response.data)[0]["typed"] is True
    error_of(post(client, game, "/ai/play", {"version": version + 1, "dice": [0]}), 422)


def test_a_token_is_checked_before_a_page_keeps_it(client: Any, game: dict[str, Any]) -> None:
    url = f"/api/v1/games/{game['id']}/access"
    assert client.get(url, headers=auth(game["token"])).json == {"write": True}
    assert error_of(client.get(url), 401)["code"] == "token_required"
    wrong = error_of(client.get(url + "?lang=fr", headers=auth("mauvaisjeton")), 403)
    assert wrong["message"] == ("le jeton donné n'ouvre pas cette partie : vérifiez le jeton "
                                "(et le lien)")
    assert game["id"] not in wrong["message"]


def test_take_back_my_last_action_with_the_ais_replies_and_redo_it(
        client: Any, game: dict[str, Any]) -> None:
    """One take-back removes the survivors' last action and the zombies' replies after it;
    redoing the actions it lists, their dice typed in, gives the same game back."""
    version = _zombies_turn(client, game)  # the survivors' last action made it the zombies'
    for _ in range(2):
        answer = post(client, game, "/ai/play", {"version": version})
        if answer.status_code != 200 or answer.json["game"]["deciding"] != "zombies":
            break
        version = answer.json["version"]
    version = answer.json["version"] if answer.status_code == 200 else version
    before = client.get(f"/api/v1/games/{game['id']}").json
    taken = post(client, game, "/undo", {"version": version, "until": "survivors"})
    assert taken.status_code == 200, taken.json
    undone = taken.json["undone"]
    assert len(undone) >= 2 and undone[0]["action"]["figure"].startswith("m")
    assert all(u["action"]["figure"].startswith("z") for u in undone[1:] if "figure" in u["action"])
    assert taken.json["game"]["deciding"] == "survivors"
    version = taken.json["version"]
    for u in undone:
        version = post(client, game, "/actions", {"version": version, "action": u["action"],
                                                  "dice": u["dice"] or None}).json["version"]
    again = client.get(f"/api/v1/games/{game['id']}").json
    assert again["state"] == before["state"]
