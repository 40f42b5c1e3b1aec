"""The scenario cards: every card loads, bad cards are named, set-ups are seeded and legal."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import shapely
from shapely.geometry import Polygon, box

from geometry.errors import DataError
from geometry.scene import load_scene
from rules.catalog import load_catalog
from rules.dice import Dice
from rules.settings import Settings
from rules.warband import band_cost, example_bands
from scenarios.cards import DATA_DIR, load_cards, load_random_tables
from scenarios.docs import markdown
from scenarios.objectives import Condition, count_needed
from scenarios.render import render_card, svg_map
from scenarios.setup import DEFAULT_BAND, buy_zombies, exit_segment, roll_dice, setup_scenario
from scenarios.tables import table_data, table_names
from scenarios.town import load_tiles
from service.cli import main

ROOT = Path(__file__).resolve().parents[1]
CARDS = load_cards()
CARD_IDS = list(CARDS)
BANDS = example_bands()
R25 = 25 / 25.4 / 2
KEEP_AWAY = 8.0


@cache
def setup_of(card_id: str, seed: int, band: str = DEFAULT_BAND) -> dict[str, Any]:
    return setup_scenario(card_id, seed, BANDS[band])


def gap(a: dict[str, Any], b: dict[str, Any]) -> float:
    return math.hypot(a["x"] - b["x"], a["y"] - b["y"]) - 2 * R25


def whole_base_in(region: Any, figure: dict[str, Any]) -> bool:
    return bool(region.buffer(1e-6).contains(shapely.Point(figure["x"], figure["y"]).buffer(R25)))


# --------------------------------------------------------------------------------------------
# The cards as data


def test_ten_cards_six_regular_four_conclusive() -> None:
    kinds = [(c.kind, c.number) for c in CARDS.values()]
    assert kinds == [("regular", n) for n in range(1, 7)] + [("conclusive", n)
                                                              for n in range(1, 5)]
    assert sorted(c.draw_roll[0] for c in CARDS.values() if c.kind == "conclusive") == [2, 3, 4, 5]


@pytest.mark.parametrize("card_id", CARD_IDS)
def test_every_card_is_complete(card_id: str) -> None:
    card = CARDS[card_id]
    assert Path(card.source).name == f"scenario_{card_id}.toml"
    for text in (card.name, card.summary, card.story, card.survivors.text, card.zombies.text,
                 card.objectives.survivors.text, card.objectives.zombies.text):
        assert text.fr.strip() and text.en.strip()
    assert card.objectives.survivors.conditions and card.objectives.zombies.conditions
    for table in (card.consequences, card.weather, card.crates.loot):
        faces = [f for e in table for f in range(e.low, e.high + 1)]
        assert sorted(faces) == [1, 2, 3, 4, 5, 6]
    assert card.zone(card.survivors.deployment).kind == "deployment"
    assert abs(sum(card.zombies.mix.values()) - 1) < 1e-9
    json.dumps(card.to_json())  # plain data


def _named(card_id: str) -> Iterator[tuple[str, str, str, str]]:
    """Every name a card holds for people: (where, id, French, English)."""
    card = CARDS[card_id]
    yield "name", card.id, card.name.fr, card.name.en
    for kind, entries in (("zones", card.zones), ("exits", card.exits),
                          ("civilians", card.civilians), ("items", card.items)):
        for entry in entries:
            yield kind, entry.id, entry.name.fr, entry.name.en
    for roll in card.weather:
        yield "weather", roll.value.id, roll.value.name.fr, roll.value.name.en
    for piece in card.extra_terrain:
        yield "extra_terrain", piece["id"], piece["name"], piece["name_en"]


@pytest.mark.parametrize("card_id", CARD_IDS)
def test_every_name_on_a_card_is_in_french_and_english(card_id: str) -> None:
    for where, entry_id, french, english in _named(card_id):
        assert french.strip() and english.strip(), (where, entry_id)
        assert english != entry_id and "_" not in english, (where, entry_id)


def test_docs_names_lists_every_name() -> None:
    """docs/names.md: a row per name, for the rules data, the cards, the tiles and the tables."""
    page = (ROOT / "docs" / "names.md").read_text(encoding="utf-8")
    catalog = load_catalog()
    for table in ("archetypes", "zombies", "equipment", "skills"):
        for entry in getattr(catalog, table).values():
            assert f"| `{entry.id}` | {entry.name} | {entry.name_en} |" in page, entry.id
    for tile in load_tiles().values():
        assert f"| `{tile.id}` | {tile.name.fr} | {tile.name.en} |" in page, tile.id
        for piece in tile.terrain:
            row = f"| `{tile.id}` | `{piece['id']}` | {piece['name']} | {piece['name_en']} |"
            assert row in page, (tile.id, piece["id"])
    for layout in table_names():
        scene = table_data(layout)
        assert f"| `{layout}` | {scene['name']} | {scene['name_en']} |" in page, layout
        for piece in scene["terrain"]:
            row = f"| `{layout}` | `{piece['id']}` | {piece['name']} | {piece['name_en']} |"
            assert row in page, (layout, piece["id"])
    for card_id in CARD_IDS:
        for where, entry_id, french, english in _named(card_id):
            if where == "name":
                row = f"| `{card_id}` | {french} | {english} |"
            elif where == "weather":
                row = f"| `{entry_id}` | {french} | {english} |"
            else:
                row = f"| `{card_id}` | `{entry_id}` | {french} | {english} |"
            assert row in page, (card_id, where, entry_id)


def test_the_random_tables_are_named_in_french_and_english() -> None:
    tables = load_random_tables()
    for entry in (*tables.weather, *tables.deployment):
        name = entry.value.name
        assert name.fr.strip() and name.en.strip() and name.fr != name.en


def test_cards_use_the_catalog_ids() -> None:
    catalog = load_catalog()
    for card in CARDS.values():
        for entry in card.crates.loot:
            item = getattr(entry.value, "item", None)
            if entry.value.type == "equipment":
                assert item in catalog.equipment
        assert set(card.zombies.mix) <= set(catalog.zombies)


def test_the_cards_cover_the_rulebook_ideas() -> None:
    """L31-41: secure a zone, evacuate, escort, refuge, survive, rescue, convoy, crates,
    care for the sick."""
    types = {c.type for card in CARDS.values() for c in card.objectives.survivors.conditions}
    assert types >= {"kill_all", "hold_zone", "exit", "escort", "survive_turns", "free", "carry",
                     "open_crates", "heal", "reach"}
    refuge = CARDS["refuge"].exit("porte")
    assert refuge.to is not None and refuge.to - refuge.from_ <= 6  # a precise point


def test_every_condition_type_describes_itself() -> None:
    for cls in Condition.registry.values():
        assert cls.type and cls.__doc__


def test_counting_words() -> None:
    assert [count_needed("half", n) for n in (5, 6, 7, 8)] == [3, 3, 4, 4]
    assert count_needed("all", 4) == 4 and count_needed(2, 9) == 2


def test_the_d20_tables() -> None:
    tables = load_random_tables()
    weather = {e.value.id: (e.low, e.high) for e in tables.weather}
    assert weather == {"clear": (1, 3), "rain": (4, 4), "fog": (5, 5), "night": (6, 6)}
    assert tables.weather_by_id("rain").effects.range_factor == 0.5  # type: ignore[union-attr]
    assert tables.weather_by_id("fog").effects.sight_limit == 12  # type: ignore[union-attr]
    methods = [(e.low, e.high, e.value.method) for e in tables.deployment]
    assert methods == [(1, 2, "far_edge"), (3, 4, "zones"), (5, 5, "side_edges"),
                       (6, 6, "anywhere")]


# --------------------------------------------------------------------------------------------
# Bad cards


@pytest.fixture
def data_copy(tmp_path: Path) -> Iterator[Path]:
    for path in DATA_DIR.glob("*.toml"):
        shutil.copy(path, tmp_path / path.name)
    yield tmp_path


def _edit(directory: Path, card_id: str, old: str, new: str) -> None:
    path = directory / f"scenario_{card_id}.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("card_id", "old", "new", "field", "fragment"),
    [
        ("evacuation", 'item = "pistolet", with', 'item = "pistol", with', "crates.loot[5].item",
         '"pistol"'),
        ("evacuation", 'exit = "route"', 'exit = "road"',
         "objectives.survivors.conditions[0].exit", "exit id"),
        ("convoi", "factor = 1.0", 'factor = "lots"', "zombies.points.factor", '"lots"'),
        ("nettoyage", 'ends_when = [{ type = "kill_all" }]', 'ends_when = [{ type = "kill" }]',
         "objectives.ends_when[0].type", '"kill_all"'),
        ("escorte", 'roll = 6\ntype = "new_member"', 'roll = 5\ntype = "new_member"',
         "consequences[5].roll", "face 5 is already given"),
        ("sauvetage", 'skill = "tireur_emerite"', 'skill = "heroique"', "special_rules[0].skill",
         "militaire_f"),
        ("remede", 'archetype = "medecin"', 'archetype = "militaire_h"',
         "consequences[5].archetype", "class \"follower\""),
        ("helico", "turns = { limit = 8 }", "turns = { limit = 8, extra = 1 }", "turns.extra",
         "unknown field"),
        ("refuge", "number = 1", "number = 2", "number", "scenario_nuit.toml"),
        ("caisses", "zombie = \"rodeur\"\ncount = 1", "zombie = \"runner\"\ncount = 1",
         "special_rules[0].zombie", '"runner"'),
        ("nuit", 'weather = "night"', 'weather = "snow"', "weather", '"snow"'),
        ("escorte", 'mix = { rodeur = 0.5, slasher = 0.3, ignoble = 0.2 }',
         'mix = { rodeur = 0.5, slasher = 0.3, ignoble = 0.3 }', "zombies.mix", "adding up to 1"),
        ("nettoyage", "polygon = [[10.5, 13.5], [21.5, 13.5], [21.5, 22.0], [10.5, 22.0]]",
         "polygon = [[10.5, 13.5], [21.5, 22.0], [21.5, 13.5], [10.5, 22.0]]",
         "zones[1].polygon", "Self-intersection"),
        ("nettoyage", "polygon = [[1.2, 7.6], [8.9, 7.6], [8.9, 15.9], [1.2, 15.9]]",
         "polygon = [[1.2, 7.6], [48.9, 7.6], [8.9, 15.9], [1.2, 15.9]]",
         "zones[5].polygon", "on the table"),
        ("convoi", 'reinforcements = [\n  { from_turn = 3, every = 2, count = "D3"',
         'reinforcements = [\n  { from_turn = 3, every = 2, count = "D7"',
         "zombies.reinforcements[0].count", '"D7"'),
    ],
)
def test_a_bad_card_names_file_entry_and_field(data_copy: Path, card_id: str, old: str,
                                               new: str, field: str, fragment: str) -> None:
    _edit(data_copy, card_id, old, new)
    with pytest.raises(DataError) as caught:
        load_cards(data_copy)
    message = caught.value.message
    assert f"scenario_{card_id}.toml" in message
    assert f"entry '{card_id}'" in message
    assert f"field '{field}'" in message
    assert fragment in message
    assert caught.value.where == f"scenario_{card_id}.toml:{card_id}.{field}"


def test_missing_field(data_copy: Path) -> None:
    path = data_copy / "scenario_caisses.toml"
    lines = [line for line in path.read_text(encoding="utf-8").splitlines()
             if not line.startswith("summary =")]
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(DataError, match="entry 'caisses', field 'summary': missing required"):
        load_cards(data_copy)


def test_not_toml(data_copy: Path) -> None:
    _edit(data_copy, "convoi", "turns = { limit = 8 }", "turns = { limit = 8")
    with pytest.raises(DataError, match="scenario_convoi.toml: not valid TOML"):
        load_cards(data_copy)


def test_a_missing_card_leaves_a_hole_in_the_table(data_copy: Path) -> None:
    (data_copy / "scenario_caisses.toml").unlink()
    with pytest.raises(DataError, match=r"regular cards must be numbered 1 to 6 once each, got "
                                        r"\[1, 2, 3, 5, 6\]"):
        load_cards(data_copy)


def test_a_bad_random_table(data_copy: Path) -> None:
    path = data_copy / "random_conditions.toml"
    text = path.read_text(encoding="utf-8").replace("roll = [1, 3]", "roll = [1, 2]", 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=r"field 'weather': the faces 1-6 .* missing \[3\]"):
        load_random_tables(data_copy)


@pytest.mark.parametrize(
    ("card_id", "old", "new", "field", "fragment"),
    [
        ("convoi", 'name = "Camion en panne", name_en = "Broken-down truck" }',
         'name = "Camion en panne" }', "extra_terrain[0].name_en",
         "missing required field (piece 'camion')"),
        ("convoi", 'name = "Camion en panne", name_en = "Broken-down truck" }',
         'name = "Camion en panne", name_en = " " }', "extra_terrain[0].name_en",
         'expected a non-empty string (piece \'camion\'), got " "'),
        ("convoi", 'name = "Camion en panne", name_en = "Broken-down truck" }',
         'name_en = "Broken-down truck" }', "extra_terrain[0].name",
         "missing required field"),
        ("refuge", 'name = { fr = "La porte du camp", en = "The camp gate" }',
         'name = { fr = "La porte du camp" }', "exits[0].name.en", "missing required field"),
        ("escorte", 'name = { fr = "Le kiosque", en = "The kiosk" }',
         'name = { fr = "Le kiosque", en = "" }', "zones[4].name.en",
         'expected a non-empty string, got ""'),
        ("convoi", 'name = { fr = "Jerrican d\'essence", en = "Jerrycan of fuel" }',
         'name = "Jerrican d\'essence"', "items[0].name", "expected a table"),
    ],
)
def test_a_name_without_its_english_is_refused(data_copy: Path, card_id: str, old: str,
                                               new: str, field: str, fragment: str) -> None:
    _edit(data_copy, card_id, old, new)
    with pytest.raises(DataError) as caught:
        load_cards(data_copy)
    assert caught.value.message.startswith(
        f"{data_copy / f'scenario_{card_id}.toml'}: entry '{card_id}', field '{field}': ")
    assert fragment in caught.value.message
    assert caught.value.where == f"scenario_{card_id}.toml:{card_id}.{field}"


def test_a_random_table_name_without_its_english_is_refused(data_copy: Path) -> None:
    path = data_copy / "random_conditions.toml"
    text = path.read_text(encoding="utf-8").replace(
        'name = { fr = "Brouillard", en = "Fog" }', 'name = { fr = "Brouillard" }')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_random_tables(data_copy)
    assert "random_conditions.toml: entry 'random conditions', field 'weather[2].name.en': " \
           "missing required field" in caught.value.message


@pytest.mark.parametrize(
    ("old", "new", "field", "fragment"),
    [
        (', "name_en": "Bar door"', "", "terrain[11].name_en",
         "missing required field (piece 'bar_door')"),
        ('"name": "Porte du bar", ', '"name": "", ', "terrain[11].name",
         "expected a non-empty string (piece 'bar_door'), got \"\""),
        ('  "name_en": "Main street",\n', "", "name_en", "missing required field"),
    ],
)
def test_a_demo_table_without_both_names_is_refused(tmp_path: Path, old: str, new: str,
                                                    field: str, fragment: str) -> None:
    text = (ROOT / "scenarios" / "tables" / "street.json").read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "street.json").write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        table_data("street", tmp_path)
    assert caught.value.message.startswith(
        f"{tmp_path / 'street.json'}: entry 'street', field '{field}': ")
    assert fragment in caught.value.message
    assert caught.value.where == f"street.json:street.{field}"


def test_a_bad_extra_terrain_piece(data_copy: Path) -> None:
    _edit(data_copy, "convoi", 'kind = "polygon", polygon = [[21.5, 1.0]',
          'kind = "blob", polygon = [[21.5, 1.0]')
    with pytest.raises(DataError, match=r"field 'extra_terrain \(terrain\[0\]\.kind\)'"):
        load_cards(data_copy)


# --------------------------------------------------------------------------------------------
# Set-up


@pytest.mark.parametrize("card_id", CARD_IDS)
def test_setup_is_reproducible_and_valid(card_id: str) -> None:
    first = setup_scenario(card_id, 11)
    assert first == setup_scenario(card_id, 11)
    assert json.loads(json.dumps(first)) == first  # plain JSON
    assert first != setup_scenario(card_id, 12)
    scene = load_scene(first["scene"])
    sides = [f.side for f in scene.figures]
    assert sides.count("survivors") == len(BANDS[DEFAULT_BAND].members)
    assert sides.count("zombies") == first["zombies"]["figures"]


@pytest.mark.parametrize("band", sorted(BANDS))
@pytest.mark.parametrize("card_id", CARD_IDS)
def test_zombies_spend_at_most_their_points(card_id: str, band: str) -> None:
    card, catalog = CARDS[card_id], load_catalog()
    result = setup_of(card_id, 5, band)
    cost = band_cost(BANDS[band], catalog)
    points = card.zombies.points.points(cost)
    assert result["band"]["cost"] == cost
    assert result["zombie_points"]["points"] == points == math.floor(
        cost * card.zombies.points.factor + 1e-9) + card.zombies.points.plus
    bought = result["zombies"]["bought"]
    spent = sum(catalog.zombies[z].cost * n for z, n in bought.items())
    assert spent == result["zombies"]["spent"] <= points
    assert points - spent < min(z.cost for z in catalog.zombies.values())  # nothing left to buy
    assert len(bought) == 3  # a mix
    types = [f["type"] for f in result["scene"]["figures"] if f["side"] == "zombies"]
    assert {t: types.count(t) for t in set(types)} == bought


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("card_id", CARD_IDS)
def test_placement_follows_the_card(card_id: str, seed: int) -> None:
    card = CARDS[card_id]
    result = setup_of(card_id, seed)
    scene_json = result["scene"]
    load_scene(scene_json)
    figures = scene_json["figures"]
    zones = {z.id: Polygon(z.polygon) for z in card.zones}
    survivors = [f for f in figures if f["side"] == "survivors"]
    for figure in survivors:
        assert whole_base_in(zones[card.survivors.deployment], figure), figure
    for figure in (f for f in figures if f["side"] == "civilians"):
        group = card.civilian_group(figure["group"])
        assert figure["type"] == group.kind
        assert whole_base_in(zones[group.zone], figure), figure
    for marker in result["markers"]:
        if marker["kind"] == "item":
            lying = next(m for m in card.markers if m.item == marker["item"])
            assert zones[lying.zone].contains(shapely.Point(marker["x"], marker["y"]))
        else:
            assert any(zones[z].contains(shapely.Point(marker["x"], marker["y"]))
                       for z in card.crates.zones)
    assert len(result["crates"]) == card.crates.count
    deployment = result["zombie_deployment"]
    width = depth = scene_json["table"]["width"]
    method = deployment["method"]
    if method == "far_edge":
        areas = [box(0, depth - 3, width, depth)]
    elif method == "zones":
        areas = [zones[z] for z in card.zombies.zones]
    elif method == "side_edges":
        areas = [box(0, depth / 3, 3, depth), box(width - 3, depth / 3, width, depth)]
    else:
        areas = [box(0, 0, width, depth)]
    avoid = [zones[z] for z in card.zombies.avoid]
    for zombie in (f for f in figures if f["side"] == "zombies"):
        nearest = min(gap(zombie, s) for s in survivors)
        if method == "anywhere":
            assert nearest > 10
        inside = any(whole_base_in(area, zombie) for area in areas)
        assert inside or nearest > KEEP_AWAY, (zombie, method)
        assert not any(z.contains(shapely.Point(zombie["x"], zombie["y"])) for z in avoid)


@pytest.mark.parametrize("card_id", CARD_IDS)
def test_rolls_are_recorded_and_match_the_tables(card_id: str) -> None:
    card = CARDS[card_id]
    result = setup_of(card_id, 2)
    dice = [d for roll in result["rolls"] for d in roll["dice"]]
    assert all(1 <= d <= 6 for d in dice)
    for crate in result["crates"]:
        entry = next(e for e in card.crates.loot if e.covers(crate["loot_roll"]))
        assert crate["loot"] == entry.value.to_json()
    weather = result["weather"]
    if weather["roll"] is not None:
        assert next(e for e in card.weather if e.covers(weather["roll"])).value.id == weather["id"]
    else:
        assert len(card.weather) == 1
    deployment = result["zombie_deployment"]
    if deployment["roll"] is not None:
        table = load_random_tables().deployment
        assert next(e for e in table if e.covers(deployment["roll"])).value.method == \
            deployment["method"]
    else:
        assert card.zombies.deployment == "zones" and deployment["method"] == "zones"


def test_typed_in_dice_are_used_in_order() -> None:
    # evacuation: 2 crates, then the weather, then the zombie deployment
    result = setup_scenario("evacuation", 1, dice=[3, 5, 4, 6])
    assert [c["loot"]["item"] for c in result["crates"]] == ["soins", "baton"]
    assert result["weather"]["id"] == "rain" and result["weather"]["roll"] == 4
    assert result["zombie_deployment"]["method"] == "anywhere"
    night = setup_scenario("nuit", 1, dice=[1, 1, 3])  # 2 crates, fixed weather, deployment
    assert night["weather"]["id"] == "night" and night["weather"]["fixed"]
    assert night["zombie_deployment"]["method"] == "zones"
    assert night["zombie_deployment"]["zones"] == ["nord", "est", "sud", "ouest"]


def test_rescue_always_deploys_in_its_zone() -> None:
    for seed in range(5):
        assert setup_of("sauvetage", seed)["zombie_deployment"]["roll"] is None


def test_settings_change_the_setup() -> None:
    fixed = setup_scenario("evacuation", 3, settings=Settings(zombie_points=10, weather="clear"))
    assert fixed["zombies"]["points"] == 10 and fixed["weather"]["id"] == "clear"
    card_only = setup_scenario("evacuation", 3, settings=Settings(zombie_deployment="card"))
    assert card_only["zombie_deployment"]["method"] == "zones"


@pytest.mark.parametrize("card_id", CARD_IDS)
def test_every_card_plays_on_a_random_town(card_id: str) -> None:
    result = setup_scenario(card_id, 1, table="town")
    assert result["layout"]["table"] == "town" and "town" in result["layout"]
    load_scene(result["scene"])


def test_scene_carries_zones_and_markers() -> None:
    result = setup_of("convoi", 0)
    pieces = {p["id"]: p for p in result["scene"]["terrain"]}
    assert pieces["zone_depot"]["role"] == "zone"
    assert pieces["camion"]["name"] == "Camion en panne"
    assert pieces["camion"]["name_en"] == "Broken-down truck"
    assert (pieces["zone_depot"]["name"], pieces["zone_depot"]["name_en"]) == (
        "La maison de Marcel", "Marcel's house")
    fuel = [p for p in pieces.values() if p.get("marker") == "item"]
    assert len(fuel) == 3 and all(not p["blocks_movement"] for p in fuel)
    crates = [p for p in pieces.values() if p.get("marker") == "crate"]
    assert len(crates) == 1
    assert result["exits"] == []
    exits = setup_of("refuge", 0)["exits"]
    assert exits[0]["segment"] == [[11.0, pytest.approx(31.4961, abs=1e-3)],
                                   [16.0, pytest.approx(31.4961, abs=1e-3)]]


@pytest.mark.parametrize("card_id", CARD_IDS)
def test_every_name_in_a_setup_scene_is_in_french_and_english(card_id: str) -> None:
    scene = setup_of(card_id, 3)["scene"]
    assert scene["name"].strip() and scene["name_en"].strip() and scene["name"] != scene["name_en"]
    assert scene["description"].strip() and scene["description_en"].strip()
    for piece in scene["terrain"]:
        if piece.get("role") == "marker":
            continue  # crates and items: the game's markers, named by their contents
        assert piece["name"].strip() and piece["name_en"].strip(), piece["id"]
    for figure in scene["figures"]:
        if figure["side"] == "zombies":
            continue  # a type, named by the rules catalog
        assert figure["name"].strip() and figure["name_en"].strip(), figure["id"]


def test_an_unnamed_member_is_named_after_the_archetype_not_its_id() -> None:
    roster = BANDS[DEFAULT_BAND]
    unnamed = dataclasses.replace(roster, members=tuple(
        dataclasses.replace(m, name=None) for m in roster.members))
    scene = setup_scenario("evacuation", 1, unnamed)["scene"]
    names = {f["id"]: (f["name"], f["name_en"]) for f in scene["figures"]
             if f["side"] == "survivors"}
    assert names["m1"] == ("Ex-flic (H)", "Ex-cop (M)")


def test_buy_zombies() -> None:
    catalog = load_catalog()
    mix = {"rodeur": 0.4, "slasher": 0.3, "ignoble": 0.3}
    assert buy_zombies(0, mix, catalog) == {}
    assert buy_zombies(1, mix, catalog) == {"rodeur": 1}
    assert buy_zombies(54, mix, catalog) == {"rodeur": 23, "slasher": 8, "ignoble": 5}
    for points in range(0, 120, 7):
        bought = buy_zombies(points, {"ignoble": 1.0}, catalog)
        assert sum(catalog.zombies[z].cost * n for z, n in bought.items()) == points


def test_dice_expressions() -> None:
    rng = random.Random(4)

    def roll(purpose: str) -> int:
        return rng.randint(1, 6)

    assert roll_dice(3, roll) == (3, [])
    for _ in range(50):
        value, dice = roll_dice("D3", roll)
        assert value == math.ceil(dice[0] / 2) and 1 <= value <= 3
        value, dice = roll_dice("2D6", roll)
        assert value == sum(dice) and len(dice) == 2
        value, dice = roll_dice("D6+1", roll)
        assert value == dice[0] + 1


def test_exit_segments() -> None:
    assert exit_segment("near", 0, None, 10, 20) == [[0, 0.0], [10, 0.0]]
    assert exit_segment("right", 2, 5, 10, 20) == [[10, 2], [10, 5]]


def test_dice_record_replays_the_setup() -> None:
    """The recorded dice, typed back in, give the same set-up (seed only places figures)."""
    result = setup_of("caisses", 3)
    dice = [d for roll in result["rolls"] for d in roll["dice"]]
    again = setup_scenario("caisses", 3, dice=dice)
    assert again["rolls"] == result["rolls"]
    assert Dice.fixed(dice).typed == dice


# --------------------------------------------------------------------------------------------
# Command line, maps and page


def test_scenarios_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == CARD_IDS
    for row in rows:
        assert {"id", "name", "kind"} <= set(row)
        assert row["kind"] in ("regular", "conclusive")
    assert main(["--lang", "fr", "scenarios", "list"]) == 0
    assert "Évacuation" in capsys.readouterr().out
    assert main(["--lang", "en", "scenarios", "list"]) == 0
    assert "Evacuation" in capsys.readouterr().out


def test_scenario_setup_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["scenario", "setup", "escorte", "--seed", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(
        json.dumps(setup_scenario("escorte", 4)))
    band = tmp_path / "band.json"
    band.write_text(json.dumps(BANDS["la_zone"].to_json()), encoding="utf-8")
    assert main(["scenario", "setup", "escorte", "--seed", "4", "--band", str(band),
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["band"]["name"] == "La zone" and out["band"]["cost"] == 70
    assert main(["scenario", "setup", "escorte", "--seed", "4", "--band", "the_school"]) == 0
    assert "zombies:" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "where"),
    [
        (["scenario", "setup", "zzz", "--seed", "1"], "id"),
        (["scenario", "setup", "escorte", "--seed", "1", "--band", "nobody"], "band"),
        (["scenario", "setup", "escorte", "--seed", "1", "--table", "moon"], "table"),
        (["scenario", "show", "zzz"], "id"),
    ],
)
def test_scenario_cli_errors(capsys: pytest.CaptureFixture[str], argv: list[str],
                             where: str) -> None:
    assert main([*argv, "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "unknown_scenario" and error["where"] == where
    assert main(argv) == 2  # text: the sentence alone, on stderr
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("survive-us: ") and "{" not in err


def test_scenario_show(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "show", "remede", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown == json.loads(json.dumps(CARDS["remede"].to_json()))
    assert shown["objectives"]["survivors"]["conditions"] == [
        {"type": "heal", "targets": "malade", "count": 3}]
    assert main(["--lang", "fr", "scenario", "show", "remede"]) == 0
    assert "Le remède" in capsys.readouterr().out


@pytest.mark.parametrize("card_id", CARD_IDS)
def test_the_checked_in_maps_are_up_to_date(card_id: str) -> None:
    svg = render_card(card_id)
    ET.fromstring(svg)  # well-formed
    path = ROOT / "docs" / "img" / "scenarios" / f"{card_id}.svg"
    assert path.read_text(encoding="utf-8") == svg, (
        "run: python -m scenarios.render docs/img/scenarios --markdown docs/scenarios.md")


def test_the_page_is_up_to_date() -> None:
    page = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    assert page == markdown()
    for card in CARDS.values():
        assert f"img/scenarios/{card.id}.svg" in page


def test_svg_map_draws_figures_with_their_ids() -> None:
    scene = {"terrain": [], "figures": [{"id": "s1", "side": "survivors", "x": 3, "y": 3}]}
    root = ET.fromstring(svg_map(scene, title="t"))
    assert any(el.text == "s1" for el in root.iter() if el.tag.endswith("text"))


@pytest.mark.parametrize("card_id", ["escorte", "convoi", "nuit"])
def test_a_setup_starts_a_plain_game(card_id: str) -> None:
    """The set-up is the engine's input already: a plain skirmish starts from its scene."""
    from rules.setup import skirmish

    band = BANDS[DEFAULT_BAND]
    result = setup_of(card_id, 3)
    game = skirmish(result["scene"], band, seed=3, max_turns=result["turns"]["limit"])
    placed = {f["id"]: (f["x"], f["y"]) for f in result["scene"]["figures"]}
    for member in band.members:
        assert (game.figures[member.id].x, game.figures[member.id].y) == placed[member.id]
    zombies = [f for f in game.figures.values() if f.side == "zombies"]
    assert len(zombies) == result["zombies"]["figures"]
    assert {f.kind for f in zombies} == set(result["zombies"]["bought"])
