"""Finding room for bases and tokens on a table: in a zone, clear of terrain and of each other.

Candidate spots are a fine grid over the zone where the whole base fits inside the zone, on
the table and clear of movement-blocking terrain; they are taken in random order (zombies,
crates: spread out) or nearest-first from an anchor (survivors: a group), keeping a gap from
everything already placed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from geometry.scene import Scene

__all__ = ["Spot", "Placer"]

GRID_STEP = 0.25  # inches between candidate spots
CLEARANCE = 0.02  # inches kept from blocking terrain


@dataclass(frozen=True)
class Spot:
    x: float
    y: float
    r: float

    def gap(self, x: float, y: float, r: float) -> float:
        """Edge-to-edge distance to a base of radius r at (x, y)."""
        return math.hypot(self.x - x, self.y - y) - self.r - r


@dataclass
class Placer:
    """Places round things on a table one group at a time; remembers what it placed."""

    scene: Scene
    taken: list[Spot] = field(default_factory=list)

    def __post_init__(self) -> None:
        blockers = [t.footprint for t in self.scene.movement_blockers]
        self._blocked: BaseGeometry | None = shapely.union_all(blockers) if blockers else None
        if self._blocked is not None:
            shapely.prepare(self._blocked)
        self.table = box(0, 0, self.scene.table.width, self.scene.table.depth)

    def candidates(self, region: BaseGeometry, r: float) -> list[tuple[float, float]]:
        """Grid spots where a base of radius r lies wholly in the region, on the table and
        clear of blocking terrain."""
        inner = region.intersection(self.table).buffer(-r)
        if inner.is_empty:
            return []
        x0, y0, x1, y1 = inner.bounds
        xs = np.arange(math.floor(x0 / GRID_STEP) * GRID_STEP, x1 + 1e-9, GRID_STEP)
        ys = np.arange(math.floor(y0 / GRID_STEP) * GRID_STEP, y1 + 1e-9, GRID_STEP)
        gx, gy = np.meshgrid(xs, ys)
        px, py = gx.ravel(), gy.ravel()
        keep = shapely.intersects_xy(inner, px, py)
        px, py = px[keep], py[keep]
        if self._blocked is not None and px.size:
            clear = shapely.distance(self._blocked, shapely.points(px, py)) >= r + CLEARANCE
            px, py = px[clear], py[clear]
        return [(round(float(x), 4), round(float(y), 4)) for x, y in zip(px, py, strict=True)]

    def place(self, region: BaseGeometry, count: int, r: float, *, gap: float = 0.05,
              rng: random.Random | None = None, anchor: tuple[float, float] | None = None,
              away: Sequence[tuple[Spot, float]] = (), avoid: BaseGeometry | None = None,
              spacing: float = 0.0) -> list[Spot]:
        """Up to `count` new spots in the region (fewer when it is full).

        `gap`: least edge distance to anything already placed; `away`: (spot, d) pairs that
        each new base must be more than d from, edge to edge; `avoid`: no base centre there;
        `spacing`: least edge distance between the new spots themselves (when more than gap).
        Random order with `rng`, nearest to `anchor` first otherwise.
        """
        spots = self.candidates(region, r)
        if avoid is not None and spots:
            pts = np.array(spots)
            spots = [s for s, bad in zip(spots, shapely.intersects_xy(avoid, pts[:, 0], pts[:, 1]),
                                         strict=True) if not bad]
        if rng is not None:
            rng.shuffle(spots)
        else:
            ax, ay = anchor or _centre(region)
            spots.sort(key=lambda p: (round(math.hypot(p[0] - ax, p[1] - ay), 6), p))
        chosen: list[Spot] = []
        for x, y in spots:
            if len(chosen) == count:
                break
            if any(s.gap(x, y, r) < gap for s in self.taken):
                continue
            if spacing > gap and any(s.gap(x, y, r) < spacing for s in chosen):
                continue
            if any(s.gap(x, y, r) <= d for s, d in away):
                continue
            spot = Spot(x, y, r)
            chosen.append(spot)
            self.taken.append(spot)
        return chosen

    def place_near(self, region: BaseGeometry, count: int, r: float, *,
                   rng: random.Random | None = None, steps: Iterable[float] = (),
                   **kwargs: object) -> list[Spot]:
        """Place in the region, then in wider and wider rings around it for what is left."""
        chosen = self.place(region, count, r, rng=rng, **kwargs)  # type: ignore[arg-type]
        for grow in steps:
            if len(chosen) == count:
                break
            ring = region.buffer(grow)
            chosen += self.place(ring, count - len(chosen), r, rng=rng,
                                 **kwargs)  # type: ignore[arg-type]
        return chosen


def _centre(region: BaseGeometry) -> tuple[float, float]:
    point = region.representative_point() if not isinstance(region, Polygon) else region.centroid
    if not region.contains(point):
        point = region.representative_point()
    assert isinstance(point, Point)
    return (point.x, point.y)
