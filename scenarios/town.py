"""A random town: the 80 x 80 cm table as 4 x 4 tiles of 20 x 20 cm whose roads connect.

Tiles are data (`scenarios/data/tiles.toml`): road exits and terrain pieces in tile inches.
The town is laid as MidEvil lays its board (seeds/004): the first tile goes in the middle,
then each tile drawn from the shuffled deck goes against a tile already laid, turned so that
"no road is cut and no entrance blocked": on every side meeting a laid tile, road meets road
and verge meets verge. A tile that fits nowhere is set aside; an exhausted deck is reshuffled
from the set-aside tiles and a fresh deck. Where it can, a tile extends the road network
(it touches a laid road with one of its own). A finished town is kept only when all its roads
form one network that reaches the survivors' edge (y = 0); otherwise the next is laid from
the same random stream, so a seed always gives the same town.

>>> town = generate_town(random.Random(7))
>>> town.roads_connected()
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import shapely
from shapely.geometry import Polygon, box

from geometry.errors import DataError, SceneError
from geometry.scene import load_scene
from geometry.units import TABLE_INCHES
from i18n import Message
from rules.catalog_schema import Location, read_entries, source_label
from scenarios.schema import Builder, Ident, Range, check_piece_names

__all__ = [
    "TILE_INCHES",
    "GRID",
    "ROAD_WIDTH",
    "Side",
    "Tile",
    "PlacedTile",
    "Town",
    "load_tiles",
    "generate_town",
    "road_area",
]

GRID = 4
TILE_INCHES = TABLE_INCHES / GRID  # 7.874 in = 20 cm
ROAD_WIDTH = 3.0
MAX_ATTEMPTS = 200

Side = Literal["N", "E", "S", "W"]
SIDES: tuple[Side, ...] = ("N", "E", "S", "W")  # clockwise: turning a tile moves N to E
OPPOSITE: dict[Side, Side] = {"N": "S", "E": "W", "S": "N", "W": "E"}
STEP: dict[Side, tuple[int, int]] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
DATA_PATH = Path(__file__).resolve().parent / "data" / "tiles.toml"

Id = Annotated[str, Ident()]


@dataclass(frozen=True)
class TileName:
    fr: str
    en: str


@dataclass(frozen=True)
class Tile:
    """A tile type as drawn, N up."""

    id: Id
    name: TileName
    exits: tuple[Side, ...]
    count: Annotated[int, Range(0, 10)]
    terrain: tuple[Any, ...]
    surface: Literal["road", "plaza"] = "road"

    def exits_turned(self, quarter_turns: int) -> frozenset[Side]:
        """The exits after turning the tile `quarter_turns` times clockwise."""
        return _turned(self.exits, quarter_turns)


@functools.lru_cache(maxsize=1024)
def _turned(exits: tuple[Side, ...], quarter_turns: int) -> frozenset[Side]:
    """(Asked thousands of times while a town is laid: kept.)"""
    return frozenset(SIDES[(SIDES.index(s) + quarter_turns) % 4] for s in exits)


@dataclass(frozen=True)
class PlacedTile:
    tile: str
    column: int
    row: int
    turns: int  # quarter turns clockwise
    exits: frozenset[Side]
    order: int  # 0 for the first tile laid

    @property
    def origin(self) -> tuple[float, float]:
        return (self.column * TILE_INCHES, self.row * TILE_INCHES)

    def to_json(self) -> dict[str, Any]:
        return {"tile": self.tile, "column": self.column, "row": self.row,
                "turns": self.turns, "exits": sorted(self.exits, key=SIDES.index),
                "order": self.order}


def road_area(exits: frozenset[Side] | tuple[Side, ...], size: float = TILE_INCHES) -> Polygon:
    """The roads of a tile in tile inches: a 3 in band from each exit to the centre."""
    c, h = size / 2, ROAD_WIDTH / 2
    parts = []
    for side in exits:
        if side == "N":
            parts.append(box(c - h, c - h, c + h, size))
        elif side == "S":
            parts.append(box(c - h, 0.0, c + h, c + h))
        elif side == "E":
            parts.append(box(c - h, c - h, size, c + h))
        else:
            parts.append(box(0.0, c - h, c + h, c + h))
    if not parts:
        return Polygon()
    merged = shapely.union_all(parts).normalize()
    assert isinstance(merged, Polygon)
    return merged


@functools.cache
def load_tiles(path: Path = DATA_PATH) -> Mapping[str, Tile]:
    """The tile types, checked: terrain valid, inside the tile and off the roads."""
    out: dict[str, Tile] = {}
    for location, table in read_entries(path, "tiles"):
        entry = table.get("id")
        location = Location(location.source, location.file_name,
                            entry if isinstance(entry, str) else location.entry)
        builder = Builder(location)
        tile = builder.build(Tile, table)
        if tile.id in out:
            raise builder.bad("id", "an id not used by an earlier tile", tile.id)
        if len(set(tile.exits)) != len(tile.exits):
            raise builder.bad("exits", "distinct sides", list(tile.exits))
        _check_tile_terrain(tile, builder)
        out[tile.id] = tile
    if not out:
        raise DataError(Message("scenario.data.no_tiles", {"source": source_label(path)}),
                        where=path.name)
    return out


def _check_tile_terrain(tile: Tile, builder: Builder) -> None:
    try:
        scene = load_scene({"table": {"width": TILE_INCHES, "depth": TILE_INCHES},
                            "terrain": list(tile.terrain), "figures": []})
    except SceneError as error:
        raise builder.fail(f"terrain ({error.where})", error.message) from None
    check_piece_names(builder, "terrain", tile.terrain)
    roads = road_area(frozenset(tile.exits))
    whole = box(0, 0, TILE_INCHES, TILE_INCHES)
    for i, piece in enumerate(scene.terrain):
        if not whole.contains(piece.footprint):
            raise builder.fail(f"terrain[{i}]", f"piece {piece.id!r} is not wholly on the tile")
        blocks = piece.blocks_movement or piece.blocks_sight
        if blocks and not roads.is_empty and piece.footprint.intersects(roads.buffer(-1e-9)):
            raise builder.fail(f"terrain[{i}]", f"piece {piece.id!r} is on the road")


# --------------------------------------------------------------------------------------------
# The town


@dataclass(frozen=True)
class Town:
    """A laid town: `cells[(column, row)]`, row 0 along the survivors' edge."""

    cells: Mapping[tuple[int, int], PlacedTile]
    attempts: int = 1

    def road_tiles(self) -> list[tuple[int, int]]:
        return [cell for cell, placed in self.cells.items() if placed.exits]

    def neighbours(self, cell: tuple[int, int]) -> list[tuple[int, int]]:
        """Cells joined to this one by a road."""
        out = []
        for side in self.cells[cell].exits:
            dx, dy = STEP[side]
            other = (cell[0] + dx, cell[1] + dy)
            if other in self.cells and OPPOSITE[side] in self.cells[other].exits:
                out.append(other)
        return out

    def roads_match(self) -> bool:
        """Every side shared by two tiles has road on both or on neither."""
        for (col, row), placed in self.cells.items():
            for side in SIDES:
                dx, dy = STEP[side]
                other = self.cells.get((col + dx, row + dy))
                if other and (side in placed.exits) != (OPPOSITE[side] in other.exits):
                    return False
        return True

    def roads_connected(self) -> bool:
        """All road tiles form one network (a graph search over joined roads)."""
        roads = self.road_tiles()
        if not roads:
            return False
        seen = {roads[0]}
        todo = [roads[0]]
        while todo:
            for other in self.neighbours(todo.pop()):
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        return len(seen) == len(roads)

    def edge_roads(self, edge: Side) -> list[tuple[int, int]]:
        """Tiles whose road leaves the table by this edge (S is the survivors' edge)."""
        return [cell for cell, placed in self.cells.items()
                if edge in placed.exits and _on_edge(cell, edge)]

    def is_good(self) -> bool:
        return (len(self.cells) == GRID * GRID and self.roads_match()
                and self.roads_connected() and bool(self.edge_roads("S")))

    def terrain(self) -> list[dict[str, Any]]:
        """Scene terrain: each tile's road surface (blocking nothing) and its pieces."""
        tiles = load_tiles()
        out: list[dict[str, Any]] = []
        for (col, row), placed in sorted(self.cells.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            tile = tiles[placed.tile]
            prefix = f"t{col}{row}_"
            ox, oy = placed.origin
            ring = _surface_ring(tile.surface, placed.exits)
            if ring:
                points = [[round(ox + x, 4), round(oy + y, 4)] for x, y in ring]
                out.append({"id": f"{prefix}{tile.surface}", "kind": "polygon",
                            "polygon": points, "blocks_sight": False,
                            "blocks_movement": False, "surface": tile.surface,
                            "name": tile.name.fr, "name_en": tile.name.en})
            for piece in tile.terrain:
                moved = dict(piece)
                moved["id"] = prefix + str(piece["id"])
                key = "polygon" if piece["kind"] == "polygon" else "line"
                moved[key] = [_place(p, placed.turns, ox, oy) for p in piece[key]]
                moved["tile"] = f"{col},{row}"
                out.append(moved)
        return out

    def scene_json(self, name: str = "Ville au hasard",
                   name_en: str = "Random town") -> dict[str, Any]:
        """The town as a scene; `name` in French and `name_en` in English, as every name."""
        return {
            "name": name,
            "name_en": name_en,
            "description": "Une ville de 4 x 4 dalles posées selon la règle de MidEvil : "
                           "les routes se raccordent.",
            "description_en": "A town of 4 x 4 tiles laid with MidEvil's rule: roads connect.",
            "table": {"width": TABLE_INCHES, "depth": TABLE_INCHES},
            "terrain": self.terrain(),
            "figures": [],
        }

    def to_json(self) -> dict[str, Any]:
        ordered = sorted(self.cells.values(), key=lambda p: (p.row, p.column))
        return {"tiles": [p.to_json() for p in ordered], "attempts": self.attempts}


@functools.lru_cache(maxsize=64)
def _surface_ring(surface: str, exits: frozenset[Side]) -> tuple[tuple[float, float], ...]:
    """A tile's surface in tile inches (the whole tile for a plaza, else its roads), as its
    ring's points without the closing one; () when it has none. Kept: every town lays the
    same few."""
    shape = (box(0, 0, TILE_INCHES, TILE_INCHES) if surface == "plaza"
             else road_area(exits))
    if shape.is_empty:
        return ()
    return tuple((float(x), float(y)) for x, y in list(shape.exterior.coords)[:-1])


def _on_edge(cell: tuple[int, int], edge: Side) -> bool:
    col, row = cell
    return {"N": row == GRID - 1, "S": row == 0, "E": col == GRID - 1, "W": col == 0}[edge]


def _place(point: list[float], turns: int, ox: float, oy: float) -> list[float]:
    """A tile point turned clockwise about the tile centre, then moved to the tile's place."""
    x, y = float(point[0]), float(point[1])
    for _ in range(turns % 4):
        x, y = y, TILE_INCHES - x
    return [round(ox + x, 4), round(oy + y, 4)]


def generate_town(rng: random.Random, *, start_tile: str = "carrefour",
                  start_cell: tuple[int, int] | None = None) -> Town:
    """Lay towns from `rng` until one has one connected road network reaching y = 0."""
    tiles = load_tiles()
    if start_tile not in tiles:
        raise KeyError(start_tile)
    for attempt in range(1, MAX_ATTEMPTS + 1):
        cells = _lay(rng, tiles, start_tile, start_cell)
        town = Town(cells, attempts=attempt)
        if town.is_good():
            return town
    raise RuntimeError(f"no good town in {MAX_ATTEMPTS} attempts")  # pragma: no cover


def _deck(rng: random.Random, tiles: Mapping[str, Tile]) -> list[str]:
    deck = [tile.id for tile in tiles.values() for _ in range(tile.count)]
    rng.shuffle(deck)
    return deck


def _lay(rng: random.Random, tiles: Mapping[str, Tile], start_tile: str,
         start_cell: tuple[int, int] | None) -> dict[tuple[int, int], PlacedTile]:
    middle = [(1, 1), (2, 1), (1, 2), (2, 2)]
    first = start_cell if start_cell is not None else rng.choice(middle)
    first_turns = rng.randrange(4)
    cells: dict[tuple[int, int], PlacedTile] = {
        first: PlacedTile(start_tile, first[0], first[1], first_turns,
                          tiles[start_tile].exits_turned(first_turns), 0)}
    deck = _deck(rng, tiles)
    aside: list[str] = []
    order = 1
    while len(cells) < GRID * GRID:
        if not deck:
            deck = aside + _deck(rng, tiles)
            rng.shuffle(deck)
            aside = []
        tile = tiles[deck.pop()]
        options: list[tuple[tuple[int, int], int, bool]] = []
        for cell in _free_neighbours(cells):
            for turns in range(4 if tile.exits else 1):
                exits = tile.exits_turned(turns)
                fits, extends = _fits(cells, cell, exits)
                if fits:
                    options.append((cell, turns, extends))
        if not options:
            aside.append(tile.id)
            continue
        extending = [o for o in options if o[2]]
        cell, turns, _ = rng.choice(extending or options)
        cells[cell] = PlacedTile(tile.id, cell[0], cell[1], turns, tile.exits_turned(turns), order)
        order += 1
    return cells


def _free_neighbours(cells: Mapping[tuple[int, int], PlacedTile]) -> list[tuple[int, int]]:
    out = set()
    for col, row in cells:
        for dx, dy in STEP.values():
            cell = (col + dx, row + dy)
            if 0 <= cell[0] < GRID and 0 <= cell[1] < GRID and cell not in cells:
                out.add(cell)
    return sorted(out)


def _fits(cells: Mapping[tuple[int, int], PlacedTile], cell: tuple[int, int],
          exits: frozenset[Side]) -> tuple[bool, bool]:
    """(no road cut on any laid side, one of its roads meets a laid road)."""
    extends = False
    for side in SIDES:
        dx, dy = STEP[side]
        other = cells.get((cell[0] + dx, cell[1] + dy))
        if other is None:
            continue
        mine, theirs = side in exits, OPPOSITE[side] in other.exits
        if mine != theirs:
            return False, False
        extends = extends or mine
    return True, extends
