"""The scene: table, terrain and figures, loaded from the scene JSON of DESIGN.md.

Loading validates everything a player could get wrong and names the offending item:
``figures[3] 'z2': base overlaps terrain 'house'``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt
import shapely
from scipy.spatial.distance import pdist, squareform
from shapely.geometry import Polygon
from shapely.validation import explain_validity

from geometry.errors import SceneError
from geometry.terrain import TerrainKind, TerrainPiece, wall_footprint
from geometry.units import DEFAULT_BASE_MM, TABLE_INCHES, base_radius

__all__ = ["Side", "SIDES", "Table", "Figure", "Scene", "load_scene", "xy_pair"]

Side = Literal["survivors", "zombies", "civilians"]
SIDES: tuple[Side, ...] = ("survivors", "zombies", "civilians")
# name and description are for people: French, with their English in name_en, description_en
ROOT_KEYS = frozenset({"table", "terrain", "figures", "name", "name_en", "description",
                       "description_en"})
TERRAIN_KEYS = {
    "polygon": frozenset({"polygon"}),
    "wall": frozenset({"line", "thickness"}),
    "door": frozenset({"line", "thickness", "open"}),
}
FIGURE_CORE_KEYS = frozenset({"id", "side", "x", "y", "base_mm"})
OVERLAP_TOLERANCE = 1e-9  # inches: touching is legal, overlapping is not


@dataclass(frozen=True)
class Table:
    width: float = TABLE_INCHES
    depth: float = TABLE_INCHES


@dataclass(frozen=True)
class Figure:
    """A figure on its round base; `extra` keeps fields other tools added (`type`, `status`...)."""

    id: str
    side: Side
    x: float
    y: float
    base_mm: float = DEFAULT_BASE_MM
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def radius(self) -> float:
        return base_radius(self.base_mm)

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x, self.y)

    @property
    def is_human(self) -> bool:
        return self.side != "zombies"

    def moved_to(self, x: float, y: float) -> Figure:
        return Figure(self.id, self.side, x, y, self.base_mm, self.extra)


@dataclass(frozen=True, eq=False)
class Scene:
    """An immutable, validated scene. Figures keep their input order."""

    table: Table
    terrain: tuple[TerrainPiece, ...]
    figures: tuple[Figure, ...]

    @cached_property
    def index(self) -> dict[str, int]:
        return {f.id: i for i, f in enumerate(self.figures)}

    def figure(self, figure_id: str) -> Figure:
        try:
            return self.figures[self.index[figure_id]]
        except KeyError:
            raise SceneError(f"unknown figure id {figure_id!r}", figure_id) from None

    @cached_property
    def centres(self) -> npt.NDArray[np.float64]:
        return np.array([f.centre for f in self.figures], dtype=np.float64).reshape(-1, 2)

    @cached_property
    def radii(self) -> npt.NDArray[np.float64]:
        return np.array([f.radius for f in self.figures], dtype=np.float64)

    @property
    def sight_blockers(self) -> tuple[TerrainPiece, ...]:
        return tuple(t for t in self.terrain if t.sight_blocking)

    @property
    def movement_blockers(self) -> tuple[TerrainPiece, ...]:
        return tuple(t for t in self.terrain if t.movement_blocking)

    def with_figure(self, figure: Figure) -> Scene:
        """This scene with one figure replaced (same id), unchecked: for what-if queries."""
        figures = tuple(figure if f.id == figure.id else f for f in self.figures)
        return Scene(self.table, self.terrain, figures)


# --- loading ---------------------------------------------------------------------------


def _number(value: Any, where: str, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SceneError(f"{where}: expected a number, got {value!r}", where)
    number = float(value)
    if not math.isfinite(number):
        raise SceneError(f"{where}: expected a finite number, got {value!r}", where)
    if positive and number <= 0:
        raise SceneError(f"{where}: expected a positive number, got {value!r}", where)
    return number


def xy_pair(value: Any) -> tuple[float, float] | None:
    """`value` as an (x, y) pair of finite numbers, or None when it is not one."""
    ok = isinstance(value, list | tuple) and len(value) == 2 and all(
        isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
        for v in value)
    return (float(value[0]), float(value[1])) if ok else None


def _boolean(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise SceneError(f"{where}: expected true or false, got {value!r}", where)
    return value


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise SceneError(f"{where}: expected an object, got {value!r}", where)
    return cast(Mapping[str, Any], value)


def _points(value: Any, where: str, minimum: int) -> list[tuple[float, float]]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise SceneError(f"{where}: expected a list of [x, y] points, got {value!r}", where)
    if len(value) < minimum:
        raise SceneError(f"{where}: needs at least {minimum} points, got {len(value)}", where)
    points = []
    for i, pair in enumerate(value):
        here = f"{where}[{i}]"
        if not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2:
            raise SceneError(f"{here}: expected an [x, y] pair, got {pair!r}", here)
        points.append((_number(pair[0], here), _number(pair[1], here)))
    return points


def _item_id(raw: Mapping[str, Any], where: str, seen: dict[str, str]) -> str:
    item_id = raw.get("id")
    if not isinstance(item_id, str) or not item_id:
        raise SceneError(f"{where}: 'id' must be a non-empty string, got {item_id!r}", where)
    if item_id in seen:
        raise SceneError(f"{where}: duplicate id {item_id!r} (also {seen[item_id]})", where)
    seen[item_id] = where
    return item_id


def _terrain(raw_value: Any, where: str, seen: dict[str, str]) -> TerrainPiece:
    raw = _mapping(raw_value, where)
    item_id = _item_id(raw, where, seen)
    label = f"{where} {item_id!r}"
    kind = raw.get("kind")
    if kind not in TERRAIN_KEYS:
        raise SceneError(
            f"{label}: 'kind' must be 'polygon', 'wall' or 'door', got {kind!r}", f"{where}.kind"
        )
    for key in TERRAIN_KEYS[kind] - {"open"}:
        if key not in raw:
            raise SceneError(f"{label}: a {kind} needs {key!r}", f"{where}.{key}")
    terrain_kind = cast(TerrainKind, kind)
    if kind == "polygon":
        footprint = _polygon(raw["polygon"], f"{where}.polygon", label)
    else:
        line = _points(raw["line"], f"{where}.line", 2)
        for a, b in zip(line, line[1:], strict=False):
            if a == b:
                raise SceneError(f"{label}: line repeats the point {list(a)}", f"{where}.line")
        thickness = _number(raw["thickness"], f"{where}.thickness", positive=True)
        footprint = wall_footprint(line, thickness)
    is_open = _boolean(raw.get("open", False), f"{where}.open") if kind == "door" else False
    if kind != "door" and "open" in raw:
        raise SceneError(f"{label}: only a door can be 'open'", f"{where}.open")
    return TerrainPiece(
        id=item_id,
        kind=terrain_kind,
        footprint=footprint,
        blocks_sight=_boolean(raw.get("blocks_sight", True), f"{where}.blocks_sight"),
        blocks_movement=_boolean(raw.get("blocks_movement", True), f"{where}.blocks_movement"),
        open=is_open,
    )


def _polygon(value: Any, where: str, label: str) -> Polygon:
    points = _points(value, where, 3)
    polygon = Polygon(points)
    if not polygon.is_valid:
        raise SceneError(f"{label}: bad polygon: {explain_validity(polygon)}", where)
    if polygon.area <= 0:
        raise SceneError(f"{label}: bad polygon: it has no area", where)
    return polygon


def _figure(raw_value: Any, where: str, seen: dict[str, str], table: Table) -> Figure:
    raw = _mapping(raw_value, where)
    item_id = _item_id(raw, where, seen)
    label = f"{where} {item_id!r}"
    side = raw.get("side")
    if side not in SIDES:
        raise SceneError(
            f"{label}: 'side' must be one of {', '.join(SIDES)}, got {side!r}", f"{where}.side"
        )
    for key in ("x", "y"):
        if key not in raw:
            raise SceneError(f"{label}: missing {key!r}", f"{where}.{key}")
    x = _number(raw["x"], f"{where}.x")
    y = _number(raw["y"], f"{where}.y")
    base_mm = _number(raw.get("base_mm", DEFAULT_BASE_MM), f"{where}.base_mm", positive=True)
    extra = {k: v for k, v in raw.items() if k not in FIGURE_CORE_KEYS}
    figure = Figure(item_id, cast(Side, side), x, y, base_mm, extra)
    r = figure.radius
    tol = OVERLAP_TOLERANCE
    if x - r < -tol or y - r < -tol or x + r > table.width + tol or y + r > table.depth + tol:
        raise SceneError(
            f"{label}: base at ({x}, {y}) with radius {r:.3f} in is not wholly on the "
            f"{table.width:.4f} x {table.depth:.4f} in table",
            where,
        )
    return figure


def _check_overlaps(scene: Scene) -> None:
    """Bases may touch terrain and each other, never overlap them."""
    if not scene.figures:
        return
    blockers = scene.movement_blockers
    if blockers:
        # Every (terrain piece, figure) pair in one vectorised call; the first offence in
        # terrain order, then figure order, is reported, as a loop over the pieces would.
        footprints = np.array([piece.footprint for piece in blockers], dtype=object)
        gaps = shapely.distance(footprints[:, None], shapely.points(scene.centres)[None, :])
        over = np.argwhere(gaps - scene.radii[None, :] < -OVERLAP_TOLERANCE)
        if over.size:
            k, i = int(over[0][0]), int(over[0][1])
            f = scene.figures[i]
            raise SceneError(
                f"figures[{i}] {f.id!r}: base overlaps terrain {blockers[k].id!r} that blocks "
                "movement",
                f"figures[{i}]",
            )
    gap = squareform(pdist(scene.centres)) - (scene.radii[:, None] + scene.radii[None, :])
    np.fill_diagonal(gap, np.inf)
    overlapping = np.argwhere(gap < -OVERLAP_TOLERANCE)
    if overlapping.size:
        i, j = sorted(overlapping[0])
        a, b = scene.figures[i], scene.figures[j]
        raise SceneError(
            f"figures[{j}] {b.id!r}: base overlaps the base of {a.id!r} "
            f"(by {-gap[i, j]:.3f} in)",
            f"figures[{j}]",
        )


def load_scene(data: Any) -> Scene:
    """Validate scene JSON (already parsed) and build a Scene; raise SceneError naming the item."""
    root = _mapping(data, "scene")
    unknown = sorted(set(root) - ROOT_KEYS)
    if unknown:
        raise SceneError(f"scene: unknown field {unknown[0]!r}", unknown[0])
    raw_table = _mapping(root.get("table", {}), "table")
    for key in sorted(set(raw_table) - {"width", "depth"}):
        raise SceneError(f"table: unknown field {key!r}", f"table.{key}")
    table = Table(
        width=_number(raw_table.get("width", TABLE_INCHES), "table.width", positive=True),
        depth=_number(raw_table.get("depth", TABLE_INCHES), "table.depth", positive=True),
    )
    raw_terrain = root.get("terrain", [])
    if not isinstance(raw_terrain, list):
        raise SceneError(f"terrain: expected a list, got {raw_terrain!r}", "terrain")
    if "figures" not in root:
        raise SceneError("scene: missing 'figures' (it may be an empty list)", "figures")
    raw_figures = root["figures"]
    if not isinstance(raw_figures, list):
        raise SceneError(f"figures: expected a list, got {raw_figures!r}", "figures")
    seen: dict[str, str] = {}
    terrain = tuple(_terrain(t, f"terrain[{i}]", seen) for i, t in enumerate(raw_terrain))
    figures = tuple(_figure(f, f"figures[{i}]", seen, table) for i, f in enumerate(raw_figures))
    scene = Scene(table, terrain, figures)
    _check_overlaps(scene)
    return scene
