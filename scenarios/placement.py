"""Finding room for bases and tokens on a table: in a zone, clear of terrain and of each other.

Candidate spots are a fine grid over the zone where the whole base fits inside the zone, on
the table and clear of movement-blocking terrain; they are taken in random order (zombies,
crates: spread out) or nearest-first from an anchor (survivors: a group), keeping a gap from
everything already placed. A placer given a `keep_out` area (the camera's corner squares,
`geometry.corners`) puts nothing there: no spot whose base, or token (`reach`), would reach
into it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from geometry.scene import Scene

__all__ = ["Spot", "Placer", "far_from"]

GRID_STEP = 0.25  # inches between candidate spots
CLEARANCE = 0.02  # inches kept from blocking terrain
CHECK_BLOCK = 256  # spots checked at once against changed terrain and keep-out


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
    """Places round things on a table one group at a time; remembers what it placed.

    `order_scene` (the table as it was before the corners were cleared) draws the candidate
    spots and their random order; the spots are then checked against `scene` and the
    keep-out area, so a set-up differs from the one without them only where they forbid a
    spot (the next spot in the same order is taken)."""

    scene: Scene
    taken: list[Spot] = field(default_factory=list)
    keep_out: BaseGeometry | None = None
    order_scene: Scene | None = None

    def __post_init__(self) -> None:
        self._blocked = _blockers(self.scene)
        self._order_blocked = (self._blocked if self.order_scene is None
                               else _blockers(self.order_scene))
        self.table = box(0, 0, self.scene.table.width, self.scene.table.depth)

    def candidates(self, region: BaseGeometry, r: float,
                   reach: float | None = None) -> list[tuple[float, float]]:
        """Grid spots where a base of radius r lies wholly in the region, on the table and
        clear of blocking terrain, and what stands there (`reach` from the spot, r by
        default) clear of the keep-out area."""
        return self._allowed(self._pool(region, r), r, reach)

    def _pool(self, region: BaseGeometry, r: float) -> list[tuple[float, float]]:
        """The spots drawn from: the grid in the region, clear of the order scene's terrain."""
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
        if self._order_blocked is not None and px.size:
            clear = shapely.distance(self._order_blocked, shapely.points(px, py)) >= (
                r + CLEARANCE)
            px, py = px[clear], py[clear]
        return [(round(float(x), 4), round(float(y), 4)) for x, y in zip(px, py, strict=True)]

    def _allowed(self, spots: list[tuple[float, float]], r: float,
                 reach: float | None) -> list[tuple[float, float]]:
        """The spots (in their order) clear of the scene's terrain and of the keep-out area."""
        if not spots or (self.keep_out is None and self.order_scene is None):
            return spots
        ok = self._allowed_mask(spots, r, reach)
        return [s for s, good in zip(spots, ok, strict=True) if good]

    def _allowed_mask(self, spots: Sequence[tuple[float, float]], r: float,
                      reach: float | None) -> Any:
        pts = np.array(spots, dtype=float).reshape(-1, 2)
        ok = np.ones(len(pts), dtype=bool)
        if self.order_scene is not None and self._blocked is not None and len(pts):
            ok &= shapely.distance(self._blocked, shapely.points(pts)) >= r + CLEARANCE - 1e-4
        if self.keep_out is not None and len(pts):
            ok &= far_from(self.keep_out, pts[:, 0], pts[:, 1],
                           (r if reach is None else reach) + CLEARANCE)
        return ok

    def place(self, region: BaseGeometry, count: int, r: float, *, gap: float = 0.05,
              rng: random.Random | None = None, anchor: tuple[float, float] | None = None,
              away: Sequence[tuple[Spot, float]] = (), avoid: BaseGeometry | None = None,
              spacing: float = 0.0, reach: float | None = None) -> list[Spot]:
        """Up to `count` new spots in the region (fewer when it is full): `place_slots`
        without the places left open."""
        slots = self.place_slots(region, count, r, gap=gap, rng=rng, anchor=anchor, away=away,
                                 avoid=avoid, spacing=spacing, reach=reach)
        return [s for s in slots if s is not None]

    def place_slots(self, region: BaseGeometry, count: int, r: float, *, gap: float = 0.05,
                    rng: random.Random | None = None, anchor: tuple[float, float] | None = None,
                    away: Sequence[tuple[Spot, float]] = (),
                    avoid: BaseGeometry | None = None, spacing: float = 0.0,
                    reach: float | None = None) -> list[Spot | None]:
        """Up to `count` new spots in the region, in the order they were drawn; None where a
        spot drawn was forbidden (keep-out, changed terrain) and no other was left, so what
        comes after keeps its rank.

        `gap`: least edge distance to anything already placed; `away`: (spot, d) pairs that
        each new base must be more than d from, edge to edge; `avoid`: no base centre there;
        `spacing`: least edge distance between the new spots themselves (when more than gap).
        `reach`: how far from the spot what is placed stands (a square token's corners),
        kept clear of the keep-out area. Random order with `rng`, nearest to `anchor` first
        otherwise.
        """
        spots = self._pool(region, r)
        if avoid is not None and spots:
            pts = np.array(spots)
            spots = [s for s, bad in zip(spots, shapely.intersects_xy(avoid, pts[:, 0], pts[:, 1]),
                                         strict=True) if not bad]
        if rng is not None:
            rng.shuffle(spots)
        else:
            ax, ay = anchor or _centre(region)
            spots.sort(key=lambda p: (round(math.hypot(p[0] - ax, p[1] - ay), 6), p))

        def fits(x: float, y: float, chosen: Sequence[Spot]) -> bool:
            if any(s.gap(x, y, r) < gap for s in self.taken) or any(
                    s.gap(x, y, r) < max(gap, spacing) for s in chosen):
                return False
            return not any(s.gap(x, y, r) <= d for s, d in away)

        chosen: list[Spot] = []
        for x, y in spots:  # the spots the table was drawn with, in the same order
            if len(chosen) == count:
                break
            if fits(x, y, chosen):
                chosen.append(Spot(x, y, r))
        checked = (self.keep_out is not None or self.order_scene is not None) and chosen
        if not checked or self._allowed_mask([(c.x, c.y) for c in chosen], r, reach).all():
            self.taken.extend(chosen)  # (a spot nothing forbade leaves no room to another)
            return list(chosen)
        masks: dict[int, Any] = {}

        def allowed(i: int) -> bool:  # spots[i], checked a block at a time as needed
            block = i // CHECK_BLOCK
            if block not in masks:
                start = block * CHECK_BLOCK
                masks[block] = self._allowed_mask(spots[start:start + CHECK_BLOCK], r, reach)
            return bool(masks[block][i % CHECK_BLOCK])

        slots = self._instead(chosen, spots, count, r, fits, allowed)
        self.taken.extend(s for s in slots if s is not None)
        return slots

    @staticmethod
    def _instead(chosen: list[Spot], spots: list[tuple[float, float]], count: int, r: float,
                 fits: Callable[[float, float, Sequence[Spot]], bool],
                 allowed: Callable[[int], bool]) -> list[Spot | None]:
        """The chosen spots with each one the corners or the changed terrain forbid replaced
        by the next allowed spot in the order (the others keep their place and rank; None
        when none is left), and more after them while there is room. `allowed(i)` says
        whether spots[i] is."""
        index = {p: i for i, p in enumerate(spots)}
        good = {(s.x, s.y): allowed(index[(s.x, s.y)]) for s in chosen}
        kept = [s for s in chosen if good[(s.x, s.y)]]
        spare: list[Spot] = []
        for i, (x, y) in enumerate(spots):
            if len(kept) + len(spare) == count:
                break
            if (x, y) not in good and fits(x, y, [*kept, *spare]) and allowed(i):
                spare.append(Spot(x, y, r))
        out: list[Spot | None] = []
        for s in chosen:
            out.append(s if good[(s.x, s.y)] else spare.pop(0) if spare else None)
        return out + list(spare)

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


def _blockers(scene: Scene) -> BaseGeometry | None:
    blockers = [t.footprint for t in scene.movement_blockers]
    blocked = shapely.union_all(blockers) if blockers else None
    if blocked is not None:
        shapely.prepare(blocked)
    return blocked


def far_from(area: BaseGeometry, px: Any, py: Any, d: float) -> Any:
    """Which points (arrays px, py) are at least d from the area: measured only for those
    within d of a part's bounding box (the corner squares are small)."""
    ok = np.ones(len(px), dtype=bool)
    for part in getattr(area, "geoms", [area]):
        x0, y0, x1, y1 = part.bounds
        near = (px > x0 - d) & (px < x1 + d) & (py > y0 - d) & (py < y1 + d)
        if near.any():
            ok[near] &= shapely.distance(part, shapely.points(px[near], py[near])) >= d
    return ok


def _centre(region: BaseGeometry) -> tuple[float, float]:
    point = region.representative_point() if not isinstance(region, Polygon) else region.centroid
    if not region.contains(point):
        point = region.representative_point()
    assert isinstance(point, Point)
    return (point.x, point.y)
