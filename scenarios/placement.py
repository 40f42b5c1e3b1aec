"""Finding room for bases and tokens on a table: in a zone, clear of terrain and of each other.

Candidate spots are a fine grid over the zone where the whole base fits inside the zone, on
the table and clear of movement-blocking terrain; they are taken in random order (zombies,
crates: spread out) or nearest-first from an anchor (survivors: a group), keeping a gap from
everything already placed. A placer given a `keep_out` area (the camera's corner squares,
`geometry.corners`) puts nothing there: no spot whose base, or token (`reach`), would reach
into it.

Set-up runs often (the simulator sets a game up for every game it plays), so the work that
depends only on the table is done once for it and kept (a few tables, the zones and rings of
the cards): the grid spots of a region, and the distance from every grid spot to the nearest
movement-blocking footprint. Checks against what is already placed are numpy arrays over a
block of spots at a time. Every answer is the one the plain loops gave: where numpy's
distance (or the grid's, measured piece by piece) is within `BORDER` of a limit, the spot is
measured again exactly as before (`Spot.gap`, the distance to the union of the blockers).
"""

from __future__ import annotations

import functools
import math
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from geometry.scene import Scene

__all__ = ["Spot", "Placer", "far_from"]

GRID_STEP = 0.25  # inches between candidate spots
CLEARANCE = 0.02  # inches kept from blocking terrain
CHUNK = 512  # candidate spots checked at once against what is placed
BORDER = 1e-7  # inches: a vectorised distance this near a limit is measured again exactly
REACH = 0.6  # inches: the grid's distances to the terrain are kept up to this far (at least)
TABLES_KEPT = 16  # tables whose terrain distances are kept
REGIONS_KEPT = 512  # regions whose grid spots are kept
PIECES_KEPT = 4096  # footprints whose grid distances are kept (every placed tile piece)

Floats = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]


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
        width, depth = self.scene.table.width, self.scene.table.depth
        self._blocked = _blocked(self.scene, width, depth)
        self._order_blocked = (self._blocked if self.order_scene is None
                               else _blocked(self.order_scene, width, depth))
        self.table = box(0, 0, width, depth)

    def candidates(self, region: BaseGeometry, r: float,
                   reach: float | None = None) -> list[tuple[float, float]]:
        """Grid spots where a base of radius r lies wholly in the region, on the table and
        clear of blocking terrain, and what stands there (`reach` from the spot, r by
        default) clear of the keep-out area."""
        px, py = self._pool(region, r)
        if px.size and (self.keep_out is not None or self.order_scene is not None):
            ok = self._allowed(px, py, r, reach)
            px, py = px[ok], py[ok]
        return list(zip(px.tolist(), py.tolist(), strict=True))

    def _pool(self, region: BaseGeometry, r: float) -> tuple[Floats, Floats]:
        """The spots drawn from: the grid in the region, clear of the order scene's terrain.
        (Grid spots are multiples of GRID_STEP, exact in binary: no rounding is needed.)"""
        px, py = _region_spots(shapely.to_wkb(region), r, self.scene.table.width,
                               self.scene.table.depth)
        if self._order_blocked is not None and px.size:
            clear = self._order_blocked.clear(px, py, r + CLEARANCE)
            px, py = px[clear], py[clear]
        return px, py

    def _allowed(self, px: Floats, py: Floats, r: float, reach: float | None) -> Mask:
        """Which spots are clear of the scene's terrain (when it is not the order scene's)
        and of the keep-out area."""
        ok = np.ones(len(px), dtype=bool)
        if self.order_scene is not None and self._blocked is not None and len(px):
            ok &= self._blocked.clear(px, py, r + CLEARANCE - 1e-4)
        if self.keep_out is not None and len(px):
            ok &= far_from(self.keep_out, px, py, (r if reach is None else reach) + CLEARANCE)
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
        px, py = self._pool(region, r)
        if avoid is not None and px.size:
            keep = ~shapely.intersects_xy(avoid, px, py)
            px, py = px[keep], py[keep]
        order = _drawn(px, py, region, rng, anchor)
        px, py = px[order], py[order]
        taken = _Near(self.taken, [gap] * len(self.taken), inclusive=False)
        kept_away = _Near([s for s, _ in away], [d for _, d in away], inclusive=True)

        def fits(lo: int, hi: int) -> Mask:  # clear of what was placed before and of `away`
            x, y = px[lo:hi], py[lo:hi]
            return ~(taken.hit(x, y, r) | kept_away.hit(x, y, r))

        sep = max(gap, spacing)
        drawn = _pick(px, py, r, count, sep, fits)
        chosen = [Spot(float(px[i]), float(py[i]), r) for i in drawn]
        checked = (self.keep_out is not None or self.order_scene is not None) and chosen
        if not checked or self._allowed(px[drawn], py[drawn], r, reach).all():
            self.taken.extend(chosen)  # (a spot nothing forbade leaves no room to another)
            return list(chosen)
        allowed = self._allowed(px, py, r, reach)
        slots = _instead(px, py, r, count, sep, drawn, allowed, fits)
        self.taken.extend(s for s in slots if s is not None)
        return slots

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


def _drawn(px: Floats, py: Floats, region: BaseGeometry, rng: random.Random | None,
           anchor: tuple[float, float] | None) -> npt.NDArray[np.intp]:
    """The order the spots are tried in: shuffled by `rng` (the same permutation, and the
    same draws from it, as shuffling the spots themselves), else nearest the anchor first
    (the key is worked out in Python floats, as it always was)."""
    if rng is not None:
        order = list(range(len(px)))
        rng.shuffle(order)
        return np.array(order, dtype=np.intp)
    ax, ay = anchor or _centre(region)
    near = [round(math.hypot(x - ax, y - ay), 6) for x, y in zip(px.tolist(), py.tolist(),
                                                                 strict=True)]
    return np.lexsort((py, px, np.array(near, dtype=float)))  # by distance, then x, then y


def _pick(px: Floats, py: Floats, r: float, count: int, sep: float,
          fits: Callable[[int, int], Mask], start: Sequence[Spot] = ()) -> list[int]:
    """The spots taken going down the list: each one `fits` allows that is at least `sep`
    (edge to edge) from those taken before it and from `start`, until `count` are (with
    `start`). Checked a block of spots at a time; each spot taken rules out the rest of the
    block near it at once."""
    picked: list[int] = []
    placed = list(start)
    lo = 0
    while lo < len(px) and len(placed) != count:
        hi = min(len(px), lo + CHUNK)
        ok = fits(lo, hi)
        ok &= ~_Near(placed, [sep] * len(placed), inclusive=False).hit(px[lo:hi], py[lo:hi], r)
        i = 0
        while len(placed) != count and i < hi - lo:
            j = i + int(np.argmax(ok[i:]))
            if not ok[j]:
                break
            spot = Spot(float(px[lo + j]), float(py[lo + j]), r)
            picked.append(lo + j)
            placed.append(spot)
            ok[j + 1:] &= ~_ruled_out(spot, px[lo + j + 1:hi], py[lo + j + 1:hi], r, sep)
            i = j + 1
        lo = hi
    return picked


def _ruled_out(spot: Spot, px: Floats, py: Floats, r: float, sep: float) -> Mask:
    """Which spots (radius r) the spot is nearer than `sep` to, edge to edge, as
    `spot.gap(x, y, r) < sep` says (measured again so where numpy is within BORDER)."""
    gaps = np.hypot(spot.x - px, spot.y - py) - spot.r - r
    out: Mask = gaps < sep
    for b in np.flatnonzero(np.abs(gaps - sep) <= BORDER):
        out[b] = spot.gap(float(px[b]), float(py[b]), r) < sep
    return out


def _instead(px: Floats, py: Floats, r: float, count: int, sep: float, drawn: list[int],
             allowed: Mask, fits: Callable[[int, int], Mask]) -> list[Spot | None]:
    """The spots drawn with each one the corners or the changed terrain forbid replaced by
    the next allowed spot in the order (the others keep their place and rank; None when
    none is left), and more after them while there is room."""
    chosen = [Spot(float(px[i]), float(py[i]), r) for i in drawn]
    good = [bool(allowed[i]) for i in drawn]
    kept = [s for s, ok in zip(chosen, good, strict=True) if ok]
    others = allowed.copy()
    others[drawn] = False  # a spot drawn is not drawn again

    def spare_fits(lo: int, hi: int) -> Mask:
        return fits(lo, hi) & others[lo:hi]

    spare = [Spot(float(px[i]), float(py[i]), r)
             for i in _pick(px, py, r, count, sep, spare_fits, start=kept)]
    out: list[Spot | None] = []
    for s, ok in zip(chosen, good, strict=True):
        out.append(s if ok else spare.pop(0) if spare else None)
    return out + spare


class _Near:
    """Spots already placed, each with the edge distance a new base must keep from it: more
    than `limits[k]` when `inclusive` (the gap may not equal it), at least it otherwise."""

    def __init__(self, spots: Sequence[Spot], limits: Sequence[float], *,
                 inclusive: bool) -> None:
        self.spots = list(spots)
        self.x = np.array([s.x for s in spots], dtype=float)
        self.y = np.array([s.y for s in spots], dtype=float)
        self.r = np.array([s.r for s in spots], dtype=float)
        self.limits = np.array(limits, dtype=float)
        self.inclusive = inclusive

    def hit(self, px: Floats, py: Floats, r: float) -> Mask:
        """Which of the new spots (radius r) some spot is too near to, as
        `any(s.gap(x, y, r) < limit)` (`<=` when inclusive) says for each."""
        out = np.zeros(len(px), dtype=bool)
        if not self.spots or not len(px):
            return out
        reach = self.r + r + self.limits + 1.0  # farther off, in x or y, no spot can be hit
        near = ((self.x > px.min() - reach) & (self.x < px.max() + reach)
                & (self.y > py.min() - reach) & (self.y < py.max() + reach))
        if not near.any():
            return out
        k = np.flatnonzero(near)
        gaps = (np.hypot(self.x[k, None] - px[None, :], self.y[k, None] - py[None, :])
                - self.r[k, None] - r)
        limits = self.limits[k, None]
        hits = gaps <= limits if self.inclusive else gaps < limits
        for a, b in zip(*np.nonzero(np.abs(gaps - limits) <= BORDER), strict=True):
            exact = self.spots[int(k[a])].gap(float(px[b]), float(py[b]), r)
            limit = float(self.limits[k[a]])
            hits[a, b] = exact <= limit if self.inclusive else exact < limit
        found: Mask = hits.any(axis=0)
        return found


@functools.lru_cache(maxsize=REGIONS_KEPT)
def _region_spots(region_wkb: bytes, r: float, width: float,
                  depth: float) -> tuple[Floats, Floats]:
    """The grid spots where a base of radius r lies wholly in the region and on the table,
    in rows (y, then x): they depend on nothing else, so they are kept by the region's
    exact coordinates (its WKB). The arrays are read-only, as they are shared."""
    region = shapely.from_wkb(region_wkb)
    inner = region.intersection(box(0, 0, width, depth)).buffer(-r)
    if inner.is_empty:
        px = py = np.zeros(0)
    else:
        x0, y0, x1, y1 = inner.bounds
        xs = np.arange(math.floor(x0 / GRID_STEP) * GRID_STEP, x1 + 1e-9, GRID_STEP)
        ys = np.arange(math.floor(y0 / GRID_STEP) * GRID_STEP, y1 + 1e-9, GRID_STEP)
        gx, gy = np.meshgrid(xs, ys)
        px, py = gx.ravel(), gy.ravel()
        shapely.prepare(inner)
        keep = shapely.intersects_xy(inner, px, py)
        px, py = px[keep], py[keep]
    px.flags.writeable = py.flags.writeable = False
    return px, py


class _Blocked:
    """A table's movement-blocking terrain, for telling which spots are at least d from it
    as `shapely.distance(union of the footprints, spot) >= d` does.

    Measuring thousands of spots against the union is slow, so the distance from every grid
    spot to the nearest footprint edge (0 inside one) is measured once, in numpy, for spots
    up to `reach` from a footprint (infinite further out); that is the same distance but for
    rounding, so only a spot whose grid distance lies within BORDER of d, or that is not on
    the grid, is measured against the union.

    It is kept for the table and may serve any thread, so its footprints are its own (made
    from their WKB, never prepared): a scene's own may be prepared by a path finder, and a
    prepared GEOS geometry must not be queried from two threads at once (libgeos issue
    825)."""

    def __init__(self, footprints_wkb: Sequence[bytes], width: float, depth: float) -> None:
        self.footprints = list(shapely.from_wkb(np.array(footprints_wkb, dtype=object)))
        self.nx = math.floor(width / GRID_STEP) + 1
        self.ny = math.floor(depth / GRID_STEP) + 1
        self.measured: tuple[float, Floats] | None = None  # (reach, grid), set at once

    @functools.cached_property
    def union(self) -> BaseGeometry:
        """The footprints as one geometry, as the spots were always measured against."""
        return shapely.union_all(self.footprints)

    def clear(self, px: Floats, py: Floats, d: float) -> Mask:
        """Which spots are at least d from the terrain."""
        grid = self._grid(d)
        ix = np.rint(px / GRID_STEP).astype(np.intp)
        iy = np.rint(py / GRID_STEP).astype(np.intp)
        on = ((ix * GRID_STEP == px) & (iy * GRID_STEP == py) & (ix >= 0) & (ix < self.nx)
              & (iy >= 0) & (iy < self.ny))
        near = np.full(len(px), np.nan)
        near[on] = grid[iy[on], ix[on]]
        ok = near >= d
        again = ~on | np.isnan(near) | (np.abs(near - d) <= BORDER)
        if again.any():
            ok[again] = shapely.distance(self.union, shapely.points(px[again], py[again])) >= d
        return ok

    def _grid(self, d: float) -> Floats:
        """The grid's distances, measured again further out when d needs it."""
        measured = self.measured
        if measured is None or d + 0.05 > measured[0]:  # (a spot off every window is
            reach = max(REACH, d + 0.1)  # further than reach: clear by a margin)
            measured = self.measured = (reach, _edge_distances(self.footprints, self.nx,
                                                               self.ny, reach))
        return measured[1]


def _edge_distances(footprints: Sequence[BaseGeometry], nx: int, ny: int,
                    reach: float) -> Floats:
    """For each grid spot (rows by y), its distance to the nearest footprint: 0 inside one,
    else to the nearest edge of their rings within `reach` of the spot (infinite when none
    is); NaN everywhere (measure each spot exactly) when a footprint is not made of
    polygons. Each footprint's share is kept (by its WKB): the scene and the order scene
    share most pieces, and a town's tiles come back, turned and placed alike, in other
    towns."""
    keys = [(wkb, nx, ny, reach)
            for wkb in shapely.to_wkb(np.array(footprints, dtype=object)).tolist()]
    with _PIECES_LOCK:
        found = [_PIECES.get(key) for key in keys]
        for key, share in zip(keys, found, strict=True):
            if share is not None:
                _PIECES.move_to_end(key)
    missing = [i for i, share in enumerate(found) if share is None]
    if missing:
        measured = _piece_distances([footprints[i] for i in missing], nx, ny, reach)
        if measured is None:
            return np.full((ny, nx), np.nan)
        with _PIECES_LOCK:
            for i, share in zip(missing, measured, strict=True):
                found[i] = _PIECES[keys[i]] = share
            while len(_PIECES) > PIECES_KEPT:
                _PIECES.popitem(last=False)
    shares = [share for share in found if share is not None]
    grid = np.full(ny * nx, np.inf)
    if shares:
        np.minimum.at(grid, np.concatenate([c for c, _ in shares]),
                      np.concatenate([d for _, d in shares]))
    return grid.reshape(ny, nx)


_PIECES: OrderedDict[tuple[bytes, int, int, float],
                     tuple[npt.NDArray[np.int32], Floats]] = OrderedDict()
_PIECES_LOCK = threading.Lock()


def _piece_distances(footprints: Sequence[BaseGeometry], nx: int, ny: int, reach: float
                     ) -> list[tuple[npt.NDArray[np.int32], Floats]] | None:
    """For each footprint, the grid spots (flat index) within `reach` of an edge of its
    rings, with the distance to that edge, and those inside it, with 0 (a spot may come more
    than once: the grid keeps the least); None when a footprint is not made of polygons.
    All measured at once, in numpy."""
    parts, part_of = shapely.get_parts(np.array(footprints, dtype=object), return_index=True)
    if not all(isinstance(p, Polygon) for p in parts):
        return None
    rings, ring_of = shapely.get_rings(parts, return_index=True)
    coords, point_of = shapely.get_coordinates(rings, return_index=True)
    same = point_of[1:] == point_of[:-1]  # consecutive points of one ring: an edge
    a, b = coords[:-1][same], coords[1:][same]
    edge_of = part_of[ring_of[point_of[:-1][same]]]
    edge, ix, iy = _windows(np.minimum(a, b), np.maximum(a, b), reach, nx, ny)
    x, y = ix * GRID_STEP, iy * GRID_STEP
    ax, ay, bx, by = a[edge, 0], a[edge, 1], b[edge, 0], b[edge, 1]
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy  # (an edge of no length, a repeated point: its end)
    t = np.divide((x - ax) * dx + (y - ay) * dy, length, out=np.zeros(len(x)),
                  where=length > 0)
    t = np.clip(t, 0.0, 1.0)
    near = np.hypot(x - (ax + t * dx), y - (ay + t * dy))
    bounds = shapely.bounds(parts)  # spots inside a footprint: within its box, and inside
    part, jx, jy = _windows(bounds[:, :2], bounds[:, 2:], 0.0, nx, ny)
    inside = shapely.intersects_xy(parts[part], jx * GRID_STEP, jy * GRID_STEP)
    # both lists come in footprint order (parts, rings and points keep it): cut them up
    cells, inner = (iy * nx + ix).astype(np.int32), (jy * nx + jx)[inside].astype(np.int32)
    k = np.arange(len(footprints) + 1)
    at = np.searchsorted(edge_of[edge], k)
    at_inner = np.searchsorted(part_of[part[inside]], k)
    shares = [(np.concatenate([cells[at[n]:at[n + 1]], inner[at_inner[n]:at_inner[n + 1]]]),
               np.concatenate([near[at[n]:at[n + 1]], np.zeros(at_inner[n + 1] - at_inner[n])]))
              for n in range(len(footprints))]
    for share in shares:  # (kept and shared: read-only)
        share[0].flags.writeable = share[1].flags.writeable = False
    return shares


def _windows(low: Floats, high: Floats, pad: float, nx: int,
             ny: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp],
                               npt.NDArray[np.intp]]:
    """Every (box, grid spot) pair with the spot in the box (corners `low`, `high`, one row
    a box) grown by `pad`: the box's row and the spot's column and row."""
    i0 = np.clip(np.ceil((low[:, 0] - pad) / GRID_STEP), 0, nx).astype(np.intp)
    i1 = np.clip(np.floor((high[:, 0] + pad) / GRID_STEP), -1, nx - 1).astype(np.intp)
    j0 = np.clip(np.ceil((low[:, 1] - pad) / GRID_STEP), 0, ny).astype(np.intp)
    j1 = np.clip(np.floor((high[:, 1] + pad) / GRID_STEP), -1, ny - 1).astype(np.intp)
    wide = np.maximum(i1 - i0 + 1, 0)
    sizes = wide * np.maximum(j1 - j0 + 1, 0)
    owner = np.repeat(np.arange(len(low)), sizes)
    local = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    wide = wide[owner]
    return owner, i0[owner] + local % wide, j0[owner] + local // wide


_TABLES: OrderedDict[tuple[Any, ...], _Blocked] = OrderedDict()
_TABLES_LOCK = threading.Lock()


def _blocked(scene: Scene, width: float, depth: float) -> _Blocked | None:
    """The scene's movement-blocking terrain (None when there is none), kept for the same
    footprints (their exact WKB, in order) on the same grid: the tables of a card come back
    game after game, and the placer is made again for each arrival in a game."""
    footprints = [t.footprint for t in scene.movement_blockers]
    if not footprints:
        return None
    wkbs = tuple(shapely.to_wkb(np.array(footprints, dtype=object)).tolist())
    key = (width, depth, wkbs)
    with _TABLES_LOCK:
        found = _TABLES.get(key)
        if found is None:
            found = _TABLES[key] = _Blocked(wkbs, width, depth)
            while len(_TABLES) > TABLES_KEPT:
                _TABLES.popitem(last=False)
        else:
            _TABLES.move_to_end(key)
        return found


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
