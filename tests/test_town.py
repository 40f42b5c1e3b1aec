"""The random town: tiles as data, MidEvil's placement rule, and 200 seeds of valid towns."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
import shapely
from shapely.geometry import LineString, Polygon

from geometry.errors import DataError
from geometry.scene import load_scene
from geometry.units import TABLE_INCHES
from scenarios.town import (
    DATA_PATH,
    GRID,
    SIDES,
    TILE_INCHES,
    Town,
    generate_town,
    load_tiles,
    road_area,
)

SEEDS = range(200)
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
STEP = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}


@pytest.fixture(scope="module")
def towns() -> list[Town]:
    return [generate_town(random.Random(seed)) for seed in SEEDS]


def road_graph(town: Town) -> dict[tuple[int, int], set[tuple[int, int]]]:
    """Tiles joined by a road on both sides of their shared edge (written afresh here)."""
    graph: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for (col, row), placed in town.cells.items():
        if not placed.exits:
            continue
        links = graph.setdefault((col, row), set())
        for side in placed.exits:
            dx, dy = STEP[side]
            other = town.cells.get((col + dx, row + dy))
            if other is not None and OPPOSITE[side] in other.exits:
                links.add((col + dx, row + dy))
    return graph


def reachable(graph: dict[tuple[int, int], set[tuple[int, int]]],
              start: tuple[int, int]) -> set[tuple[int, int]]:
    seen, todo = {start}, [start]
    while todo:
        for other in graph[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def test_tiles_cover_every_road_pattern() -> None:
    """With turning, the tile set can meet any pattern of neighbours (so laying never sticks)."""
    tiles = load_tiles()
    patterns = set()
    for tile in tiles.values():
        for turns in range(4):
            patterns.add(tile.exits_turned(turns))
    assert len(patterns) == 16


def test_turning_a_tile_four_times_is_the_same_tile() -> None:
    for tile in load_tiles().values():
        assert tile.exits_turned(4) == frozenset(tile.exits)
        assert len(tile.exits_turned(1)) == len(tile.exits)


@pytest.mark.parametrize("exits", [("N",), ("N", "S"), ("N", "E"), ("E", "S", "W"), SIDES])
def test_road_area_reaches_each_exit_and_the_centre(exits: tuple[str, ...]) -> None:
    area = road_area(frozenset(exits))  # type: ignore[arg-type]
    c = TILE_INCHES / 2
    assert area.contains(shapely.Point(c, c))
    mids = {"N": (c, TILE_INCHES), "S": (c, 0), "E": (TILE_INCHES, c), "W": (0, c)}
    for side, point in mids.items():
        assert area.intersects(shapely.Point(point)) == (side in exits)


def test_every_town_is_valid_and_its_roads_connect(towns: list[Town]) -> None:
    for seed, town in zip(SEEDS, towns, strict=True):
        assert sorted(town.cells) == [(c, r) for c in range(GRID) for r in range(GRID)], seed
        # MidEvil: no road cut, no entrance blocked, on every shared side
        for (col, row), placed in town.cells.items():
            for side, (dx, dy) in STEP.items():
                other = town.cells.get((col + dx, row + dy))
                if other is not None:
                    assert (side in placed.exits) == (OPPOSITE[side] in other.exits), seed
        graph = road_graph(town)
        assert graph, seed
        assert reachable(graph, next(iter(graph))) == set(graph), f"seed {seed}: two networks"
        near = [cell for cell in graph if cell[1] == 0 and "S" in town.cells[cell].exits]
        assert near, f"seed {seed}: no road reaches the survivors' edge"
        scene = load_scene(town.scene_json())
        assert scene.table.width == pytest.approx(TABLE_INCHES)
        assert town.roads_connected() and town.is_good()


def test_road_surfaces_are_one_open_area_from_the_survivors_edge(towns: list[Town]) -> None:
    """The geometry agrees with the graph: the roads (and squares) are one piece that touches
    the survivors' edge, and nothing that blocks stands on a road."""
    near_edge = LineString([(0, 0), (TABLE_INCHES, 0)])
    for seed, town in zip(SEEDS[:50], towns[:50], strict=True):
        scene_json = town.scene_json()
        roads = [Polygon(p["polygon"]) for p in scene_json["terrain"] if p.get("surface")]
        network = shapely.union_all(roads)
        assert network.geom_type == "Polygon", seed
        assert network.intersection(near_edge).length >= 2.9, seed
        streets = shapely.union_all([Polygon(p["polygon"]) for p in scene_json["terrain"]
                                     if p.get("surface") == "road"])
        scene = load_scene(scene_json)
        for piece in scene.terrain:
            if piece.blocks_movement or piece.blocks_sight:
                overlap = piece.footprint.intersection(streets).area
                assert overlap < 1e-6, (seed, piece.id)


def test_the_same_seed_gives_the_same_town() -> None:
    a = generate_town(random.Random(42))
    b = generate_town(random.Random(42))
    assert a.to_json() == b.to_json()
    assert a.scene_json() == b.scene_json()


def test_towns_vary(towns: list[Town]) -> None:
    layouts = {tuple(sorted((c, p.tile, p.turns) for c, p in t.cells.items())) for t in towns}
    assert len(layouts) > 190
    used = {p.tile for t in towns for p in t.cells.values()}
    assert used == set(load_tiles())


def test_the_first_tile_goes_where_asked() -> None:
    for seed in range(20):
        town = generate_town(random.Random(seed), start_tile="place", start_cell=(1, 2))
        first = town.cells[(1, 2)]
        assert first.tile == "place" and first.order == 0


def test_first_tile_is_in_the_middle_by_default(towns: list[Town]) -> None:
    for town in towns:
        first = next(p for p in town.cells.values() if p.order == 0)
        assert first.tile == "carrefour"
        assert (first.column, first.row) in {(1, 1), (2, 1), (1, 2), (2, 2)}


def test_every_tile_is_laid_against_an_earlier_one(towns: list[Town]) -> None:
    for town in towns[:30]:
        laid: set[tuple[int, int]] = set()
        for placed in sorted(town.cells.values(), key=lambda p: p.order):
            cell = (placed.column, placed.row)
            if laid:
                assert any((cell[0] + dx, cell[1] + dy) in laid for dx, dy in STEP.values())
            laid.add(cell)


def _tiles_copy(tmp_path: Path, old: str, new: str) -> Path:
    path = tmp_path / "tiles.toml"
    shutil.copy(DATA_PATH, path)
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "fragments"),
    [
        ('[[0.3, 0.3], [2.0, 0.3], [2.0, 1.8], [0.3, 1.8]]',
         '[[2.5, 0.3], [4.0, 0.3], [4.0, 1.8], [2.5, 1.8]]',
         ["entry 'carrefour'", "terrain[0]", "on the road"]),
        ('exits = ["N", "S"]\ncount = 3', 'exits = ["N", "Q"]\ncount = 3',
         ["entry 'rue_maison'", "exits[1]", '"Q"']),
        ('count = 1\nsurface', 'count = 1\nroads = 1\nsurface', ["'roads'", "unknown field"]),
        ('[[6.0, 0.5], [7.3, 0.5], [7.3, 1.8], [6.0, 1.8]]',
         '[[6.0, 0.5], [8.3, 0.5], [8.3, 1.8], [6.0, 1.8]]',
         ["entry 'parc'", "not wholly on the tile"]),
        ('name = "Kiosque", name_en = "Kiosk" }', 'name = "Kiosque" }',
         ["tiles.toml: entry 'carrefour', field 'terrain[0].name_en': missing required field",
          "'kiosque'"]),
        ('name = "Guérite", name_en = "Ticket booth" }', 'name_en = "Ticket booth" }',
         ["entry 'parking', field 'terrain[3].name': missing required field", "'guerite'"]),
        ('name = "Banc", name_en = "Bench" }', 'name = "Banc", name_en = "" }',
         ["entry 'place', field 'terrain[2].name_en': expected a non-empty string", 'got ""']),
        ('name = { fr = "Impasse", en = "Dead end" }', 'name = { fr = "Impasse" }',
         ["entry 'impasse', field 'name.en': missing required field"]),
    ],
)
def test_bad_tiles_name_file_entry_and_field(tmp_path: Path, old: str, new: str,
                                             fragments: list[str]) -> None:
    path = _tiles_copy(tmp_path, old, new)
    with pytest.raises(DataError) as caught:
        load_tiles(path)
    for fragment in fragments:
        assert fragment in caught.value.message


def test_every_tile_and_piece_is_named_in_french_and_english() -> None:
    for tile in load_tiles().values():
        assert tile.name.fr.strip() and tile.name.en.strip() and tile.name.en != tile.id
        for piece in tile.terrain:
            assert piece["name"].strip() and piece["name_en"].strip(), (tile.id, piece["id"])
            assert piece["name_en"] != piece["id"], (tile.id, piece["id"])


def test_the_town_scene_carries_both_names(towns: list[Town]) -> None:
    scene = towns[0].scene_json("Ville au hasard pour Le convoi", "Random town for The convoy")
    assert (scene["name"], scene["name_en"]) == ("Ville au hasard pour Le convoi",
                                                 "Random town for The convoy")
    assert scene["description"] and scene["description_en"]
    load_scene(scene)
    tiles = load_tiles()
    for piece in scene["terrain"]:
        assert piece["name"].strip() and piece["name_en"].strip(), piece["id"]
        if piece.get("surface"):  # the road or square is named after its tile
            column, row = (int(n) for n in piece["id"][1:3])
            tile = tiles[towns[0].cells[(column, row)].tile]
            assert (piece["name"], piece["name_en"]) == (tile.name.fr, tile.name.en)
