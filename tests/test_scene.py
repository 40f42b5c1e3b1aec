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
    ("path", "value", "words"),
    [
        ("figures.1.x", 31.3, ["figures[1]", "'z1'", "not wholly on the"]),
        ("figures.1.x", -1, ["figures[1]", "not wholly on the"]),
        ("figures.0.y", 4.0, ["figures[0]", "'s1'", "overlaps terrain 'house'"]),
        ("figures.0.y", 5.3, ["figures[0]", "'s1'", "overlaps terrain 'house'"]),
        ("figures.1", {"id": "z1", "side": "zombies", "x": 3.5, "y": 8.2},
         ["figures[1]", "'z1'", "overlaps the base of 's1'"]),
        ("figures.1.id", "s1", ["figures[1]", "duplicate id 's1'"]),
        ("figures.1.id", "house", ["duplicate id 'house'"]),
        ("figures.1.side", "aliens", ["figures[1]", "'side'", "'aliens'"]),
        ("figures.1.x", "12", ["figures[1].x", "expected a number", "'12'"]),
        ("figures.1.x", True, ["figures[1].x", "expected a number"]),
        ("figures.1.base_mm", 0, ["figures[1].base_mm", "positive"]),
        ("figures.1.y", DELETE, ["'z1'", "missing 'y'"]),
        ("terrain.0.polygon", [[0, 0], [1, 1]], ["terrain[0].polygon", "at least 3"]),
        ("terrain.0.polygon", [[20, 20], [24, 24], [24, 20], [20, 24]],
         ["terrain[0]", "'house'", "bad polygon", "Self-intersection"]),
        ("terrain.0.polygon", [[20, 20], [21, 21], [22, 22]], ["'house'", "bad polygon"]),
        ("terrain.0.kind", "tree", ["terrain[0]", "'kind'", "'tree'"]),
        ("terrain.1.thickness", -0.25, ["terrain[1].thickness", "positive", "-0.25"]),
        ("terrain.1.line", [[10, 3], [10, 3]], ["'wall'", "repeats the point"]),
        ("terrain.2.open", "no", ["terrain[2].open", "true or false"]),
        ("terrain.0.blocks_sight", 1, ["terrain[0].blocks_sight", "true or false"]),
        ("table.width", 0, ["table.width", "positive"]),
        ("figures", {}, ["figures", "expected a list"]),
        ("figures", DELETE, ["missing 'figures'"]),
        ("tabel", {}, ["unknown field 'tabel'"]),
    ],
)
def test_malformed_scene_names_the_item(path: str, value: Any, words: list[str]) -> None:
    with pytest.raises(SceneError) as caught:
        load_scene(broken(path, value))
    for word in words:
        assert word in str(caught.value)
    assert caught.value.to_json()["error"]["code"] == "invalid_scene"


def test_names_for_people_in_french_and_english_are_allowed() -> None:
    scene = broken("name", "Coin de rue")
    scene.update(name_en="Street corner", description="Une boutique.",
                 description_en="A shop.")
    scene["terrain"][0].update(name="Maison", name_en="House")
    assert load_scene(scene).terrain[0].id == "house"
    with pytest.raises(SceneError, match="unknown field 'name_de'"):
        load_scene({**scene, "name_de": "Straßenecke"})


def test_not_an_object() -> None:
    with pytest.raises(SceneError, match="expected an object"):
        load_scene([1, 2])


@pytest.mark.parametrize("path", TABLES, ids=[p.stem for p in TABLES])
def test_demo_tables_load(path: Path) -> None:
    scene = load_scene(json.loads(path.read_text(encoding="utf-8")))
    assert len(scene.terrain) >= 15 and len(scene.figures) >= 10
