"""The scene: table, terrain and figures, loaded from the scene JSON of DESIGN.md.

Loading validates everything a player could get wrong and names the offending item, in
words (`i18n.Message`, codes `scene.*`): a piece or a figure by the name the scene gives it
("« Maison »" / "“House”"), else by its place in the JSON and its id ("figures[3] (z2)"),
which is all a scene without names offers to find it by.
"""

from __future__ import annotations

import functools
import math
import re
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import MultiPolygon, Polygon
from shapely.validation import explain_validity

from geometry.errors import SceneError
from geometry.errors import shown as _shown
from geometry.terrain import TerrainKind, TerrainPiece, piece_words, wall_footprint
from geometry.units import DEFAULT_BASE_MM, TABLE_INCHES, base_radius
from i18n import Message, Name

__all__ = ["Side", "SIDES", "Table", "Figure", "Scene", "load_scene", "xy_pair",
           "figure_words", "footprint_of"]

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
FOOTPRINT_CACHE = 8192  # footprints kept: every piece of a few random towns


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

    @property
    def words(self) -> Name | Message:
        """What a person calls it (`figure_words`)."""
        return figure_words(self.extra, self.id, self.side)


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
            raise SceneError(Message("scene.unknown_figure", {"id": str(figure_id)}),
                             figure_id) from None

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


# --- names --------------------------------------------------------------------------------

_TRAILING = re.compile(r"(\d+)$")
_SIDE_WORDS = {"survivors": Message("scene.figure.survivor"),
               "zombies": Message("scene.figure.zombie"),
               "civilians": Message("scene.figure.civilian")}
_KINDS = {"polygon": Message("scene.kind.polygon"), "wall": Message("scene.kind.wall"),
          "door": Message("scene.kind.door")}


def figure_words(extra: Mapping[str, Any], figure_id: str, side: str) -> Name | Message:
    """What a person calls a figure of a scene: the name the scene gives it (a zombie or a
    civilian with the number of its id, "Rôdeur 12", as `rules.names` does), else its side
    and number ("zombie 12"), else its side and id."""
    number = _TRAILING.search(figure_id)
    digits = (number.group(1).lstrip("0") or "0") if number else ""
    name, name_en = extra.get("name"), extra.get("name_en")
    if isinstance(name, str) and name:
        english = name_en if isinstance(name_en, str) and name_en else name
        if side != "survivors" and digits:
            return {"fr": f"{name} {digits}", "en": f"{english} {digits}"}
        return {"fr": name, "en": english}
    words = _SIDE_WORDS.get(side, _SIDE_WORDS["survivors"])
    return Message(words.code, {"n": digits or figure_id})


def _label(where: str, item_id: str) -> Message:
    """An item of the JSON no name is given to: its place and its id."""
    return Message("scene.item_at", {"where": where, "id": item_id})


def _piece_label(raw: Mapping[str, Any], where: str, item_id: str, kind: Any) -> Name | Message:
    name, name_en = raw.get("name"), raw.get("name_en")
    if isinstance(name, str) and name:
        return piece_words(name, name_en if isinstance(name_en, str) else "", str(kind))
    return _label(where, item_id)


def _figure_label(raw: Mapping[str, Any], where: str, item_id: str, side: Any) -> Name | Message:
    name = raw.get("name")
    if isinstance(name, str) and name:
        return figure_words(raw, item_id, str(side))
    return _label(where, item_id)


def _bad(said: Message, where: str, value: Any, **params: Any) -> SceneError:
    """A bad value at `where`: `said` (its code) with the place and the value shown."""
    return SceneError(Message(said.code, {"where": where, "value": _shown(value), **params}),
                      where)


# --- loading ---------------------------------------------------------------------------


def _number(value: Any, where: str, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _bad(Message("scene.not_number"), where, value)
    number = float(value)
    if not math.isfinite(number):
        raise _bad(Message("scene.not_finite"), where, value)
    if positive and number <= 0:
        raise _bad(Message("scene.not_positive"), where, value)
    return number


def xy_pair(value: Any) -> tuple[float, float] | None:
    """`value` as an (x, y) pair of finite numbers, or None when it is not one."""
    ok = isinstance(value, list | tuple) and len(value) == 2 and all(
        isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
        for v in value)
    return (float(value[0]), float(value[1])) if ok else None


def _boolean(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(Message("scene.not_boolean"), where, value)
    return value


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _bad(Message("scene.not_object"), where, value)
    return cast(Mapping[str, Any], value)


_PLAIN_NUMBERS = (float, int)  # exactly these types: not bool, nor a numpy number


def _points(value: Any, where: str, minimum: int) -> list[tuple[float, float]]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise _bad(Message("scene.not_points"), where, value)
    if len(value) < minimum:
        raise _bad(Message("scene.too_few_points"), where, value, least=minimum, got=len(value))
    # the usual case at once: lists or tuples of two plain finite numbers (a scene is loaded
    # many times a game); anything else is checked pair by pair below, to name what is wrong
    if all(type(p) in (list, tuple) and len(p) == 2 and type(p[0]) in _PLAIN_NUMBERS
           and type(p[1]) in _PLAIN_NUMBERS for p in value):
        plain = [(float(p[0]), float(p[1])) for p in value]
        if all(math.isfinite(x) and math.isfinite(y) for x, y in plain):
            return plain
    points = []
    for i, pair in enumerate(value):
        here = f"{where}[{i}]"
        if not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2:
            raise _bad(Message("scene.not_point"), here, pair)
        points.append((_number(pair[0], here), _number(pair[1], here)))
    return points


def _item_id(raw: Mapping[str, Any], where: str, seen: dict[str, str]) -> str:
    item_id = raw.get("id")
    if not isinstance(item_id, str) or not item_id:
        raise _bad(Message("scene.bad_id"), where, item_id)
    if item_id in seen:
        raise SceneError(Message("scene.duplicate_id", {
            "where": where, "id": item_id, "other": seen[item_id]}), where)
    seen[item_id] = where
    return item_id


def _terrain(raw_value: Any, where: str, seen: dict[str, str]) -> tuple[bytes, dict[str, Any]]:
    """A piece checked: its footprint's WKB and the rest of its fields (the loader makes
    the footprints of a scene all at once)."""
    raw = _mapping(raw_value, where)
    item_id = _item_id(raw, where, seen)
    kind = raw.get("kind")
    label = _piece_label(raw, where, item_id, kind)
    if kind not in TERRAIN_KEYS:
        raise SceneError(Message("scene.bad_kind", {"piece": label, "value": _shown(kind)}),
                         f"{where}.kind")
    for key in sorted(TERRAIN_KEYS[kind] - {"open"}):
        if key not in raw:
            raise SceneError(Message("scene.needs_field", {
                "piece": label, "kind": _KINDS[kind], "field": key}), f"{where}.{key}")
    terrain_kind = cast(TerrainKind, kind)
    if kind == "polygon":
        footprint = _polygon(raw["polygon"], f"{where}.polygon", label)
    else:
        line = _points(raw["line"], f"{where}.line", 2)
        for a, b in zip(line, line[1:], strict=False):
            if a == b:
                raise SceneError(Message("scene.repeated_point", {
                    "piece": label, "x": a[0], "y": a[1]}), f"{where}.line")
        thickness = _number(raw["thickness"], f"{where}.thickness", positive=True)
        footprint = _wall_wkb(_key(line, thickness))
    is_open = _boolean(raw.get("open", False), f"{where}.open") if kind == "door" else False
    if kind != "door" and "open" in raw:
        raise SceneError(Message("scene.open_not_door", {"piece": label}), f"{where}.open")
    name, name_en = raw.get("name"), raw.get("name_en")
    return footprint, {
        "id": item_id,
        "kind": terrain_kind,
        "blocks_sight": _boolean(raw.get("blocks_sight", True), f"{where}.blocks_sight"),
        "blocks_movement": _boolean(raw.get("blocks_movement", True),
                                    f"{where}.blocks_movement"),
        "open": is_open,
        "name": name if isinstance(name, str) else "",
        "name_en": name_en if isinstance(name_en, str) else "",
    }


def _polygon(value: Any, where: str, label: Name | Message) -> bytes:
    """The polygon's WKB, once it is found valid."""
    points = _points(value, where, 3)
    wkb, why, area = _polygon_wkb(_key(points))
    if why is not None:
        said = Message("scene.polygon_crosses") if why.startswith("Self-intersection") \
            else Message("scene.bad_polygon")
        raise SceneError(Message(said.code, {"piece": label, "why": why}), where)
    if area <= 0:
        raise SceneError(Message("scene.polygon_no_area", {"piece": label}), where)
    return wkb


# Footprints are made once for the same numbers: a game loads its scene several times (the
# set-up, the game, each check), and the same tables come back game after game. What is kept
# is the footprint's WKB (exact to the bit); each load gets its own geometry from it, never
# one shared with another scene: a path finder prepares its footprints, and a prepared GEOS
# geometry must not be queried from two threads at once (libgeos issue 825). The key is the
# numbers' bytes (float64), not the floats: -0.0 equals 0.0 as a float, not as bytes.


def _key(points: Sequence[tuple[float, float]], *more: float) -> bytes:
    flat = [c for p in points for c in p]
    return struct.pack(f"{len(flat) + len(more)}d", *flat, *more)


def _unkey(key: bytes, more: int = 0) -> tuple[list[tuple[float, float]], tuple[float, ...]]:
    """The points (and the `more` numbers after them) a key was made of, to the bit."""
    numbers = struct.unpack(f"{len(key) // 8}d", key)
    flat, rest = numbers[:len(numbers) - more], numbers[len(numbers) - more:]
    return list(zip(flat[0::2], flat[1::2], strict=True)), rest


@functools.lru_cache(maxsize=FOOTPRINT_CACHE)
def _polygon_wkb(key: bytes) -> tuple[bytes, str | None, float]:
    """The polygon's WKB, why it is invalid (None when valid), and its area when valid."""
    points, _ = _unkey(key)
    polygon = Polygon(points)
    if not polygon.is_valid:
        return polygon.wkb, explain_validity(polygon), 0.0
    return polygon.wkb, None, float(polygon.area)


@functools.lru_cache(maxsize=FOOTPRINT_CACHE)
def _wall_wkb(key: bytes) -> bytes:
    points, (thickness,) = _unkey(key, 1)
    return bytes(wall_footprint(points, thickness).wkb)


def _shape(wkb: bytes) -> Polygon:
    """A geometry of this load's own, from the kept WKB."""
    shape = shapely.from_wkb(wkb)
    assert isinstance(shape, Polygon | MultiPolygon)
    return cast(Polygon, shape)


def footprint_of(kind: str, points: Sequence[tuple[float, float]],
                 thickness: float = 0.0) -> Polygon:
    """The footprint the loader makes for a piece of `kind` ("polygon", or a wall or door
    `thickness` thick along `points`), unchecked: made from the loader's cache, a geometry
    of its own."""
    if kind == "polygon":
        return _shape(_polygon_wkb(_key(points))[0])
    return _shape(_wall_wkb(_key(points, thickness)))


def _figure(raw_value: Any, where: str, seen: dict[str, str], table: Table) -> Figure:
    raw = _mapping(raw_value, where)
    item_id = _item_id(raw, where, seen)
    side = raw.get("side")
    label = _figure_label(raw, where, item_id, side)
    if side not in SIDES:
        raise SceneError(Message("scene.bad_side", {"figure": label, "value": _shown(side)}),
                         f"{where}.side")
    for key in ("x", "y"):
        if key not in raw:
            raise SceneError(Message("scene.missing_xy", {"figure": label, "field": key}),
                             f"{where}.{key}")
    x = _number(raw["x"], f"{where}.x")
    y = _number(raw["y"], f"{where}.y")
    base_mm = _number(raw.get("base_mm", DEFAULT_BASE_MM), f"{where}.base_mm", positive=True)
    extra = {k: v for k, v in raw.items() if k not in FIGURE_CORE_KEYS}
    figure = Figure(item_id, cast(Side, side), x, y, base_mm, extra)
    r = figure.radius
    tol = OVERLAP_TOLERANCE
    if x - r < -tol or y - r < -tol or x + r > table.width + tol or y + r > table.depth + tol:
        raise SceneError(Message("scene.off_table", {
            "figure": label, "x": x, "y": y, "width": table.width, "depth": table.depth}),
            where)
    return figure


def _check_overlaps(scene: Scene) -> None:
    """Bases may touch terrain and each other, never overlap them."""
    if not scene.figures:
        return
    blockers = scene.movement_blockers
    if blockers:
        # The (terrain piece, figure) pairs whose boxes come within the base's radius (no
        # other pair can overlap), measured in one vectorised call; the first offence in
        # terrain order, then figure order, is reported, as a loop over the pieces would.
        footprints = np.array([piece.footprint for piece in blockers], dtype=object)
        x, y, radii = scene.centres[:, 0], scene.centres[:, 1], scene.radii
        reach = shapely.box(x - radii, y - radii, x + radii, y + radii)
        i_all, k_all = shapely.STRtree(footprints).query(reach)
        gaps = shapely.distance(footprints[k_all], shapely.points(scene.centres[i_all]))
        offending = gaps - radii[i_all] < -OVERLAP_TOLERANCE
        over = sorted(zip(k_all[offending].tolist(), i_all[offending].tolist(), strict=True))
        if over:
            k, i = over[0]
            f = scene.figures[i]
            piece = blockers[k]
            where = next(f"terrain[{n}]" for n, t in enumerate(scene.terrain) if t is piece)
            label = piece.words if piece.name else _label(where, piece.id)
            raise SceneError(Message("scene.overlaps_terrain", {
                "figure": _scene_label(f, i), "piece": label}), f"figures[{i}]")
    # centre to centre, as scipy's pdist gives them to the last bit (numpy: the command line
    # answers without importing scipy, which takes longer than the question)
    dx = scene.centres[:, None, 0] - scene.centres[None, :, 0]
    dy = scene.centres[:, None, 1] - scene.centres[None, :, 1]
    gap = np.sqrt(dx * dx + dy * dy) - (scene.radii[:, None] + scene.radii[None, :])
    np.fill_diagonal(gap, np.inf)
    overlapping = np.argwhere(gap < -OVERLAP_TOLERANCE)
    if overlapping.size:
        i, j = sorted(overlapping[0])
        a, b = scene.figures[i], scene.figures[j]
        by = float(-gap[i, j])
        said = Message("scene.overlaps_figure") if by >= 0.05 else Message(
            "scene.overlaps_figure_slightly")
        raise SceneError(Message(said.code, {
            "figure": _scene_label(b, j), "other": _scene_label(a, i), "d": by}),
            f"figures[{j}]")


def _scene_label(figure: Figure, i: int) -> Name | Message:
    return _figure_label(figure.extra, f"figures[{i}]", figure.id, figure.side)


def load_scene(data: Any) -> Scene:
    """Validate scene JSON (already parsed) and build a Scene; raise SceneError naming the item."""
    root = _mapping(data, "scene")
    unknown = sorted(set(root) - ROOT_KEYS)
    if unknown:
        raise SceneError(Message("scene.unknown_field", {
            "field": unknown[0], "known": sorted(ROOT_KEYS)}), unknown[0])
    raw_table = _mapping(root.get("table", {}), "table")
    for key in sorted(set(raw_table) - {"width", "depth"}):
        raise SceneError(Message("scene.unknown_table_field", {"field": key}), f"table.{key}")
    table = Table(
        width=_number(raw_table.get("width", TABLE_INCHES), "table.width", positive=True),
        depth=_number(raw_table.get("depth", TABLE_INCHES), "table.depth", positive=True),
    )
    raw_terrain = root.get("terrain", [])
    if not isinstance(raw_terrain, list):
        raise _bad(Message("scene.not_list"), "terrain", raw_terrain)
    if "figures" not in root:
        raise SceneError(Message("scene.missing_figures"), "figures")
    raw_figures = root["figures"]
    if not isinstance(raw_figures, list):
        raise _bad(Message("scene.not_list"), "figures", raw_figures)
    seen: dict[str, str] = {}
    checked = [_terrain(t, f"terrain[{i}]", seen) for i, t in enumerate(raw_terrain)]
    shapes = shapely.from_wkb(np.array([wkb for wkb, _ in checked], dtype=object)).tolist()
    terrain = tuple(TerrainPiece(footprint=shape, **fields)
                    for shape, (_, fields) in zip(shapes, checked, strict=True))
    figures = tuple(_figure(f, f"figures[{i}]", seen, table) for i, f in enumerate(raw_figures))
    scene = Scene(table, terrain, figures)
    _check_overlaps(scene)
    return scene
