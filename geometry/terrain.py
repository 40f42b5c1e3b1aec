"""Terrain pieces and their footprints, and the merged blocker sets used by sight and paths."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry.polygon import orient

from i18n import Message, Name

__all__ = ["TerrainKind", "TerrainPiece", "wall_footprint", "BlockerEdges", "blocker_edges",
           "piece_words"]

TerrainKind = Literal["polygon", "wall", "door"]
Point = tuple[float, float]


def wall_footprint(line: Sequence[Point], thickness: float) -> Polygon:
    """A wall's area: its centre line buffered by thickness/2, flat ends, mitred joins."""
    shape = LineString(line).buffer(thickness / 2.0, cap_style="flat", join_style="mitre")
    if not isinstance(shape, Polygon):  # a self-crossing line can buffer into several parts
        shape = shapely.union_all(shape.geoms)
    return shape


@dataclass(frozen=True, eq=False)
class TerrainPiece:
    """One piece of terrain with its footprint; an open door blocks nothing. `name` (French)
    and `name_en` are what a person calls it ("" when the scene gives none)."""

    id: str
    kind: TerrainKind
    footprint: Polygon
    blocks_sight: bool = True
    blocks_movement: bool = True
    open: bool = False
    name: str = ""
    name_en: str = ""

    @property
    def sight_blocking(self) -> bool:
        return self.blocks_sight and not self.open

    @property
    def movement_blocking(self) -> bool:
        return self.blocks_movement and not self.open

    @property
    def words(self) -> Name | Message:
        """What a person calls it (`piece_words`)."""
        return piece_words(self.name, self.name_en, self.kind)

    def __repr__(self) -> str:
        return f"TerrainPiece(id={self.id!r}, kind={self.kind!r}, area={self.footprint.area:.3f})"


def piece_words(name: str, name_en: str, kind: str) -> Name | Message:
    """What a person calls a terrain piece: its name in quotes ("« Porte du bar »" /
    "“Bar door”"), or, for a piece the scene names not, a word for its kind ("le mur" /
    "the wall"), never its id."""
    if name:
        return {"fr": f"« {name} »", "en": f"“{name_en or name}”"}
    if kind == "wall":
        return Message("scene.piece.wall")
    if kind == "door":
        return Message("scene.piece.door")
    return Message("scene.piece.other")


FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class BlockerEdges:
    """The boundary of a union of blockers as directed edges with the interior on their left.

    `starts[i]`-`ends[i]` is edge i. Exteriors run counter-clockwise and holes clockwise, so
    a point strictly to the right of an edge sees it from outside: only those edges can be
    where a ray first enters an obstacle.
    """

    union: shapely.Geometry
    starts: FloatArray
    ends: FloatArray

    @property
    def count(self) -> int:
        return int(self.starts.shape[0])


def blocker_edges(footprints: Iterable[Polygon]) -> BlockerEdges:
    """Merge footprints into one geometry and list its oriented boundary edges."""
    parts = [p for p in footprints if not p.is_empty]
    union = shapely.union_all(parts) if parts else Polygon()
    starts: list[FloatArray] = []
    ends: list[FloatArray] = []
    polygons = getattr(union, "geoms", [union])
    for polygon in polygons:
        if polygon.is_empty or not isinstance(polygon, Polygon):
            continue
        ccw = orient(polygon, sign=1.0)
        for ring in (ccw.exterior, *ccw.interiors):
            xy = np.asarray(ring.coords, dtype=np.float64)
            starts.append(xy[:-1])
            ends.append(xy[1:])
    if starts:
        s, e = np.concatenate(starts), np.concatenate(ends)
    else:
        s = e = np.zeros((0, 2), dtype=np.float64)
    shapely.prepare(union)
    return BlockerEdges(union=union, starts=s, ends=e)
