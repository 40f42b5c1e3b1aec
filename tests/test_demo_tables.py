"""The demo tables in scenarios/tables/ and the scene JSON schema in docs/.

Checked with jsonschema and shapely only, independently of the project's loader, so a bug
there cannot hide a bad table (or the other way round).
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import pytest
import shapely
from jsonschema import Draft202012Validator
from shapely.geometry import LineString, Point, Polygon, box

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_PATH = ROOT / "docs" / "scene.schema.json"
TABLE_PATHS = sorted((ROOT / "scenarios" / "tables").glob("*.json"))
TABLE_SIZE = 31.4961  # 80 cm
MIN_GAP = 0.1  # inches between a demo base and blocking terrain or another base
DEPLOYMENT_DEPTH = 6.0

Scene = dict[str, Any]


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.fixture(params=TABLE_PATHS, ids=lambda p: p.stem)
def scene(request: pytest.FixtureRequest) -> Scene:
    result: Scene = json.loads(request.param.read_text(encoding="utf-8"))
    return result


def footprint(item: Scene) -> shapely.Geometry:
    """A polygon's area, or a wall's/door's centre line buffered flat-ended and mitred."""
    if item["kind"] == "polygon":
        return Polygon(item["polygon"])
    return LineString(item["line"]).buffer(
        item["thickness"] / 2, cap_style="flat", join_style="mitre"
    )


def blocks_movement(item: Scene) -> bool:
    if item["kind"] == "door" and item.get("open", False):
        return False
    return bool(item.get("blocks_movement", True))


def radius(figure: Scene) -> float:
    return float(figure.get("base_mm", 25)) / 25.4 / 2


def table_box(scene: Scene) -> shapely.Geometry:
    table = scene.get("table", {})
    return box(0, 0, table.get("width", TABLE_SIZE), table.get("depth", TABLE_SIZE))


def test_there_are_demo_tables() -> None:
    names = {p.stem for p in TABLE_PATHS}
    assert {"street", "junction", "ruined_block"} <= names


def test_schema_accepts_table(scene: Scene, validator: Draft202012Validator) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(scene)]
    assert errors == []


def test_ids_unique(scene: Scene) -> None:
    ids = [t["id"] for t in scene["terrain"]] + [f["id"] for f in scene["figures"]]
    assert sorted({i for i in ids if ids.count(i) > 1}) == []


def test_terrain_footprints_valid_and_on_table(scene: Scene) -> None:
    surface = table_box(scene)
    for item in scene["terrain"]:
        shape = footprint(item)
        assert shape.is_valid, (item["id"], shapely.is_valid_reason(shape))
        assert shape.area > 0, item["id"]
        assert surface.contains(shape), item["id"]


def test_bases_on_table(scene: Scene) -> None:
    surface = table_box(scene)
    for fig in scene["figures"]:
        base = Point(fig["x"], fig["y"]).buffer(radius(fig), quad_segs=64)
        assert surface.contains(base), fig["id"]


def test_bases_clear_of_blocking_terrain(scene: Scene) -> None:
    blocking = [(t["id"], footprint(t)) for t in scene["terrain"] if blocks_movement(t)]
    for fig in scene["figures"]:
        centre = Point(fig["x"], fig["y"])
        for tid, shape in blocking:
            clearance = shape.distance(centre) - radius(fig)
            assert clearance >= MIN_GAP, (fig["id"], tid, round(clearance, 3))


def test_bases_clear_of_each_other(scene: Scene) -> None:
    figures = scene["figures"]
    for i, a in enumerate(figures):
        for b in figures[i + 1 :]:
            edge = math.dist((a["x"], a["y"]), (b["x"], b["y"])) - radius(a) - radius(b)
            assert edge >= MIN_GAP, (a["id"], b["id"], round(edge, 3))


def test_every_name_is_in_french_and_english(scene: Scene) -> None:
    """`name` and `description` are French, as every name; `name_en` and `description_en`
    the English. Each terrain piece has both names, and its English is not its id."""
    for key in ("name", "name_en", "description", "description_en"):
        assert isinstance(scene[key], str) and scene[key].strip(), key
    assert scene["name"] != scene["name_en"]
    for piece in scene["terrain"]:
        assert piece["name"].strip() and piece["name_en"].strip(), piece["id"]
        assert piece["name_en"] != piece["id"] and "_" not in piece["name_en"], piece["id"]


def test_demo_table_shape(scene: Scene) -> None:
    """A full-size table with a name, a plausible amount of terrain and a demo deployment."""
    assert scene["name"] and scene["description"]
    assert scene["table"] == {"width": TABLE_SIZE, "depth": TABLE_SIZE}
    assert 15 <= len(scene["terrain"]) <= 30
    sides = [f["side"] for f in scene["figures"]]
    assert 4 <= sides.count("survivors") <= 6
    assert 8 <= sides.count("zombies") <= 15
    for fig in scene["figures"]:
        if fig["side"] == "survivors":
            assert fig["y"] < DEPLOYMENT_DEPTH, fig["id"]
    coords = [c for t in scene["terrain"] for p in t.get("polygon", t.get("line")) for c in p]
    coords += [c for f in scene["figures"] for c in (f["x"], f["y"])]
    assert all(abs(c * 20 - round(c * 20)) < 1e-9 for c in coords)


DESIGN_EXAMPLE: Scene = {
    "table": {"width": 31.4961, "depth": 31.4961},
    "terrain": [
        {
            "id": "house",
            "kind": "polygon",
            "polygon": [[2, 2], [6, 2], [6, 5], [2, 5]],
            "blocks_sight": True,
            "blocks_movement": True,
        },
        {"id": "wall", "kind": "wall", "line": [[10, 3], [10, 9], [13, 9]], "thickness": 0.25},
        {
            "id": "door",
            "kind": "door",
            "line": [[13, 9], [14, 9]],
            "thickness": 0.25,
            "open": False,
        },
    ],
    "figures": [
        {"id": "s1", "side": "survivors", "x": 3.0, "y": 8.0, "base_mm": 25},
        {"id": "z1", "side": "zombies", "x": 20.0, "y": 12.5, "base_mm": 25, "type": "walker"},
    ],
}


def test_schema_accepts_design_example(validator: Draft202012Validator) -> None:
    assert list(validator.iter_errors(DESIGN_EXAMPLE)) == []


def _without_id(s: Scene) -> None:
    del s["figures"][0]["id"]


def _bad_side(s: Scene) -> None:
    s["figures"][0]["side"] = "vampires"


def _two_point_polygon(s: Scene) -> None:
    s["terrain"][0]["polygon"] = [[2, 2], [6, 2]]


def _empty_id(s: Scene) -> None:
    s["terrain"][1]["id"] = ""


def _wall_without_thickness(s: Scene) -> None:
    del s["terrain"][1]["thickness"]


def _door_one_point(s: Scene) -> None:
    s["terrain"][2]["line"] = [[13, 9]]


def _zero_thickness(s: Scene) -> None:
    s["terrain"][1]["thickness"] = 0


def _bad_kind(s: Scene) -> None:
    s["terrain"][0]["kind"] = "circle"


def _three_coordinate_point(s: Scene) -> None:
    s["terrain"][0]["polygon"][0] = [2, 2, 0]


def _negative_base(s: Scene) -> None:
    s["figures"][0]["base_mm"] = -25


def _string_open(s: Scene) -> None:
    s["terrain"][2]["open"] = "yes"


def _unknown_root_field(s: Scene) -> None:
    s["players"] = 2


def _bad_table(s: Scene) -> None:
    s["table"]["width"] = 0


@pytest.mark.parametrize(
    "spoil",
    [
        _without_id,
        _bad_side,
        _two_point_polygon,
        _empty_id,
        _wall_without_thickness,
        _door_one_point,
        _zero_thickness,
        _bad_kind,
        _three_coordinate_point,
        _negative_base,
        _string_open,
        _unknown_root_field,
        _bad_table,
    ],
    ids=lambda f: f.__name__.lstrip("_"),
)
def test_schema_rejects(spoil: Any, validator: Draft202012Validator) -> None:
    scene = copy.deepcopy(DESIGN_EXAMPLE)
    spoil(scene)
    assert not validator.is_valid(scene)
