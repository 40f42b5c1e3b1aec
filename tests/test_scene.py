"""Scene loading: the DESIGN.md example loads; every malformed scene names its fault."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from geometry.errors import SceneError
from geometry.scene import load_scene
from geometry.units import TABLE_INCHES

TABLES = sorted((Path(__file__).parent.parent / "scenarios" / "tables").glob("*.json"))

EXAMPLE: dict[str, Any] = {
    "table": {"width": 31.4961, "depth": 31.4961},
    "terrain": [
        {"id": "house", "kind": "polygon", "polygon": [[2, 2], [6, 2], [6, 5], [2, 5]],
         "blocks_sight": True, "blocks_movement": True},
        {"id": "wall", "kind": "wall", "line": [[10, 3], [10, 9], [13, 9]], "thickness": 0.25},
        {"id": "door", "kind": "door", "line": [[13, 9], [14, 9]], "thickness": 0.25,
         "open": False},
    ],
    "figures": [
        {"id": "s1", "side": "survivors", "x": 3.0, "y": 8.0, "base_mm": 25},
        {"id": "z1", "side": "zombies", "x": 20.0, "y": 12.5, "base_mm": 25, "type": "rodeur"},
    ],
}


def test_design_example_loads() -> None:
    scene = load_scene(EXAMPLE)
    assert [f.id for f in scene.figures] == ["s1", "z1"]
    assert scene.figure("z1").extra == {"type": "rodeur"}
    wall = scene.terrain[1]
    # 6 + 3 in of centre line, 0.25 in thick, mitred corner: exactly 9 * 0.25 in^2.
    assert wall.footprint.area == pytest.approx(9 * 0.25)
    assert scene.terrain[0].footprint.area == pytest.approx(12.0)


def test_defaults() -> None:
    scene = load_scene({"figures": [{"id": "a", "side": "civilians", "x": 5, "y": 5}]})
    assert scene.table.width == scene.table.depth == pytest.approx(TABLE_INCHES)
    assert scene.figures[0].base_mm == 25
    assert scene.terrain == ()


def test_open_door_blocks_nothing() -> None:
    data = copy.deepcopy(EXAMPLE)
    data["terrain"][2]["open"] = True
    door = load_scene(data).terrain[2]
    assert not door.sight_blocking and not door.movement_blocking


def test_base_may_touch_a_wall_and_another_base() -> None:
    r = 12.5 / 25.4
    load_scene({
        "terrain": [{"id": "box", "kind": "polygon", "polygon": [[10, 10], [12, 10], [12, 12],
                                                                 [10, 12]]}],
        "figures": [{"id": "a", "side": "survivors", "x": 12 + r, "y": 11},
                    {"id": "b", "side": "zombies", "x": 12 + 3 * r, "y": 11}],
    })


def broken(path: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(EXAMPLE)
    keys = path.split(".")
    node: Any = data
    for key in keys[:-1]:
        node = node[int(key)] if key.isdigit() else node[key]
    last = keys[-1]
    if value is DELETE:
        del node[int(last) if last.isdigit() else last]
    else:
        node[int(last) if last.isdigit() else last] = value
    return data


DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "code", "words"),
    [
        ("figures.1.x", 31.3, "scene.off_table", ["figures[1] (“z1”)", "past the edge"]),
        ("figures.1.x", -1, "scene.off_table", ["figures[1]", "past the edge"]),
        ("figures.0.y", 4.0, "scene.overlaps_terrain",
         ["figures[0] (“s1”)", "overlaps terrain[0] (“house”)"]),
        ("figures.0.y", 5.3, "scene.overlaps_terrain",
         ["figures[0] (“s1”)", "overlaps terrain[0] (“house”)"]),
        ("figures.1", {"id": "z1", "side": "zombies", "x": 3.5, "y": 8.2},
         "scene.overlaps_figure", ["figures[1] (“z1”)", "overlaps the base of figures[0] (“s1”)"]),
        ("figures.1.id", "s1", "scene.duplicate_id", ["figures[1]", "“s1” is already taken"]),
        ("figures.1.id", "house", "scene.duplicate_id", ["“house” is already taken"]),
        ("figures.1.side", "aliens", "scene.bad_side", ["figures[1]", "side", '"aliens"']),
        ("figures.1.x", "12", "scene.not_number", ["figures[1].x", "a number", '"12"']),
        ("figures.1.x", True, "scene.not_number", ["figures[1].x", "a number"]),
        ("figures.1.base_mm", 0, "scene.not_positive", ["figures[1].base_mm", "above zero"]),
        ("figures.1.y", DELETE, "scene.missing_xy", ["“z1”", "“y” is missing"]),
        ("terrain.0.polygon", [[0, 0], [1, 1]], "scene.too_few_points",
         ["terrain[0].polygon", "at least 3"]),
        ("terrain.0.polygon", [[20, 20], [24, 24], [24, 20], [20, 24]], "scene.polygon_crosses",
         ["terrain[0]", "“house”", "crosses itself", "Self-intersection"]),
        ("terrain.0.polygon", [[20, 20], [21, 21], [22, 22]], "scene.polygon_crosses",
         ["“house”", "crosses itself"]),
        ("terrain.0.kind", "tree", "scene.bad_kind", ["terrain[0]", "kind", '"tree"']),
        ("terrain.1.thickness", -0.25, "scene.not_positive",
         ["terrain[1].thickness", "above zero", "-0.25"]),
        ("terrain.1.line", [[10, 3], [10, 3]], "scene.repeated_point",
         ["“wall”", "repeats the point"]),
        ("terrain.2.open", "no", "scene.not_boolean", ["terrain[2].open", "true or false"]),
        ("terrain.0.blocks_sight", 1, "scene.not_boolean",
         ["terrain[0].blocks_sight", "true or false"]),
        ("table.width", 0, "scene.not_positive", ["table.width", "above zero"]),
        ("figures", {}, "scene.not_list", ["figures", "a list"]),
        ("figures", DELETE, "scene.missing_figures", ["“figures”"]),
        ("tabel", {}, "scene.unknown_field", ["no field “tabel”"]),
    ],
)
def test_malformed_scene_names_the_item(path: str, value: Any, code: str,
                                        words: list[str]) -> None:
    with pytest.raises(SceneError) as caught:
        load_scene(broken(path, value))
    assert caught.value.words is not None and caught.value.words.code == code
    for word in words:
        assert word in str(caught.value)
    assert caught.value.to_json()["error"]["code"] == "invalid_scene"
    assert caught.value.to_json("fr")["error"]["words"]["code"] == code


def test_a_scene_error_names_a_piece_and_a_figure_by_their_names() -> None:
    scene = broken("figures.0.y", 4.0)
    scene["terrain"][0].update(name="Maison", name_en="House")
    scene["figures"][0].update(name="Lucas")
    with pytest.raises(SceneError) as caught:
        load_scene(scene)
    assert caught.value.text("fr") == ("Lucas : le socle empiète sur « Maison », qu'on ne peut "
                                       "pas traverser : posez la figurine à côté.")
    assert caught.value.text("en") == ("Lucas: the base overlaps “House”, which cannot be "
                                       "walked through: set the figure down clear of it.")
    assert caught.value.where == "figures[0]"
    assert "house" not in caught.value.text("fr")


def test_names_for_people_in_french_and_english_are_allowed() -> None:
    scene = broken("name", "Coin de rue")
    scene.update(name_en="Street corner", description="Une boutique.",
                 description_en="A shop.")
    scene["terrain"][0].update(name="Maison", name_en="House")
    loaded = load_scene(scene).terrain[0]
    assert loaded.id == "house" and (loaded.name, loaded.name_en) == ("Maison", "House")
    with pytest.raises(SceneError, match="no field “name_de”"):
        load_scene({**scene, "name_de": "Straßenecke"})


def test_not_an_object() -> None:
    with pytest.raises(SceneError, match="an object is expected"):
        load_scene([1, 2])


@pytest.mark.parametrize("path", TABLES, ids=[p.stem for p in TABLES])
def test_demo_tables_load(path: Path) -> None:
    scene = load_scene(json.loads(path.read_text(encoding="utf-8")))
    assert len(scene.terrain) >= 15 and len(scene.figures) >= 10
