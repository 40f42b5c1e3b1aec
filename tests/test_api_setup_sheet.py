"""A card's set-up for the page: GET /api/v1/scenarios/{id}/map.svg and /setup.

Every card's map is well-formed SVG in French and in English, says its words in the asked
language, and never draws what a crate holds; the set-up sheet places every figure and
marker of the game of the same seed, measured from the two nearest edges; a stored game's
sheet is the set-up it started from.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from flask.testing import FlaskClient

from rules.game import Game
from scenarios.cards import load_cards
from scenarios.play import scenario_equipment
from scenarios.setup_sheet import spot
from service.api.rules_api import _fresh
from tests.api_support import error_of, make_app, start_game

CARDS = list(load_cards())
SVG = "{http://www.w3.org/2000/svg}"
EDGES = {"fr": ("Bord des survivants", "Bord opposé", "Bord gauche", "Bord droit"),
         "en": ("Survivors' edge", "Far edge", "Left edge", "Right edge")}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    app = make_app(tmp_path_factory.mktemp("setup-sheet"))
    test_client: FlaskClient = app.test_client()
    return test_client


def hidden_names(game: Game) -> set[str]:
    """The names of what the game's crates hold (and of nothing lying in the open)."""
    shown = {k for m in game.markers.values() if m["kind"] != "crate" for k in m["items"]}
    equipment = {**game.catalog.equipment, **scenario_equipment(game.referee.card)}
    held = {k for m in game.markers.values() if m["kind"] == "crate" for k in m["items"]}
    return {n for k in held - shown for n in (equipment[k].name, equipment[k].name_en) if n}


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("card_id", CARDS)
def test_every_card_has_its_map_in_each_language(client: FlaskClient, card_id: str,
                                                 lang: str) -> None:
    response = client.get(f"/api/v1/scenarios/{card_id}/map.svg?seed=1&lang={lang}")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    text = response.get_data(as_text=True)
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    card = load_cards()[card_id]
    assert root.findtext(f"{SVG}title") == (card.name.fr if lang == "fr" else card.name.en)
    words = {el.text for el in root.iter(f"{SVG}text")}
    assert set(EDGES[lang]) <= words
    other = "en" if lang == "fr" else "fr"
    assert not set(EDGES[other]) & words
    for zone in card.zones:
        said = zone.name.fr if lang == "fr" else zone.name.en
        assert said in words, (card_id, said)
    # every figure is drawn, numbered as its base; no crate's contents, anywhere
    game = _fresh(card_id, 1, None, None)  # the game the map was drawn from (kept)
    circles = [c for c in root.iter(f"{SVG}circle") if c.findtext(f"{SVG}title")]
    assert len(circles) >= len(game.figures)
    hidden = hidden_names(game)
    assert hidden or card_id != "nuit", card_id  # its crate 2 holds heals (seed 1)
    for name in hidden:
        assert name not in text, (card_id, name)
    assert "crate1" not in text and "loot" not in text


def test_the_rescue_has_a_map_with_its_soldier(client: FlaskClient) -> None:
    root = ET.fromstring(client.get("/api/v1/scenarios/sauvetage/map.svg?lang=en").data)
    titles = {el.findtext(f"{SVG}title") for el in root.iter(f"{SVG}circle")}
    assert any(t and "soldier" in t.lower() for t in titles), titles


def test_the_map_leaves_the_zombies_out_when_asked(client: FlaskClient) -> None:
    every = ET.fromstring(client.get("/api/v1/scenarios/nettoyage/map.svg?seed=2").data)
    calm = ET.fromstring(client.get("/api/v1/scenarios/nettoyage/map.svg?seed=2"
                                    "&zombies=false").data)
    zombies = sum(f.side == "zombies" for f in _fresh("nettoyage", 2, None, None).figures.values())
    assert zombies > 0
    assert len(list(every.iter(f"{SVG}circle"))) - len(list(calm.iter(f"{SVG}circle"))) \
        == zombies


@pytest.mark.parametrize("card_id", ["escorte", "convoi"])  # civilians, exits; items
def test_the_sheet_places_the_game_of_the_same_seed(client: FlaskClient, card_id: str) -> None:
    sheet = client.get(f"/api/v1/scenarios/{card_id}/setup?seed=5").json
    game = start_game(client, card_id, seed=5)
    started = {f["id"]: f for f in game["state"]["figures"]}
    placed = {f["id"]: f for side in sheet["figures"].values() for f in side}
    assert set(placed) == set(started)
    width = depth = 31.4961
    for ident, fig in placed.items():
        assert (fig["x"], fig["y"]) == (round(started[ident]["x"], 2),
                                        round(started[ident]["y"], 2))
        assert fig["at"] == spot(started[ident]["x"], started[ident]["y"], width, depth)
        assert fig["name"] == game["names"][ident]
        across, along = fig["at"]
        assert across["edge"] in ("left", "right") and along["edge"] in ("near", "far")
        assert 0 <= across["inches"] <= width / 2 + 0.01
    markers = {m["id"]: m for m in game["state"]["markers"]}
    assert {c["id"] for c in sheet["crates"]} == {k for k, m in markers.items()
                                                  if m["kind"] == "crate"}
    assert {c["id"] for c in sheet["items"]} == {k for k, m in markers.items()
                                                 if m["kind"] != "crate"}
    for crate in sheet["crates"]:  # a crate is where it is, nothing more
        assert set(crate) == {"id", "number", "x", "y", "at"}
    assert sheet["seed"] == 5 and sheet["band"] == {"fr": "Les flics et les gosses",
                                                    "en": "Cops and kids"}
    # the stored game's sheet is the set-up it started from, whatever happened since
    of_game = client.get(f"/api/v1/scenarios/{card_id}/setup?game={game['id']}").json
    assert {k: v for k, v in of_game.items() if k != "game"} == \
        {k: v for k, v in sheet.items() if k != "game"}
    assert of_game["game"] == game["id"]


def test_the_sheet_says_what_the_card_says(client: FlaskClient) -> None:
    sheet: dict[str, Any] = client.get("/api/v1/scenarios/nuit/setup?seed=3").json
    assert sheet["turns"] == {"limit": 8, "end_roll": {"from_turn": 5, "ends_on": 4}}
    assert sheet["weather"]["name"]["en"] == "Night" and sheet["weather"]["sight_limit"] == 8
    assert {z["kind"] for z in sheet["zones"]} >= {"deployment", "zombies", "light"}
    assert all(g["tile"] for g in sheet["terrain"])  # the town, tile by tile
    assert len(sheet["terrain"]) == 16
    rescue = client.get("/api/v1/scenarios/refuge/setup").json
    gate = rescue["exits"][0]
    assert (gate["edge"], gate["whole"], gate["from"], gate["to"]) == ("far", False, 11.0, 16.0)
    assert rescue["figures"]["survivors"][0]["zone"]["en"] == "Survivors' deployment"
    words = client.get("/api/v1/scenarios/remede/setup").json["rules_words"]
    assert [w["code"] for w in words] == ["scenario.rule.immobile", "scenario.rule.treat"]


def test_the_cards_say_how_long_they_last(client: FlaskClient) -> None:
    listed = {c["id"]: c for c in client.get("/api/v1/scenarios").json}
    assert listed["nuit"]["end_roll"] == {"from_turn": 5, "ends_on": 4}
    assert all(c["end_roll"] is None for k, c in listed.items() if k != "nuit")
    words = client.get("/api/v1/scenarios/helico/setup").json["rules_words"]
    assert [w["code"] for w in words] == ["scenario.rule.helicopter"]


def test_errors(client: FlaskClient) -> None:
    error_of(client.get("/api/v1/scenarios/nope/map.svg"), 404)
    error_of(client.get("/api/v1/scenarios/nuit/setup?game=abc"), 404)
    assert error_of(client.get("/api/v1/scenarios/nuit/setup?band=zz"), 422)["where"] == "band"
    assert error_of(client.get("/api/v1/scenarios/nuit/map.svg?band=cops_and_kids"
                               "&roster_id=x"), 422)["where"] == "band"
    assert error_of(client.get("/api/v1/scenarios/nuit/setup?table=moon"), 422)["where"] \
        == "table"
    error_of(client.get("/api/v1/scenarios/nuit/setup?seed=-1"), 422)
    game = start_game(client, "escorte", seed=1)
    other = error_of(client.get(f"/api/v1/scenarios/nuit/setup?game={game['id']}&lang=en"), 422)
    assert other["where"] == "game" and "The longest night" in other["message"]
