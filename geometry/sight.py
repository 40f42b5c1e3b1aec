"""Exact line of sight and visible fractions, from visibility polygons.

Rule (DESIGN.md): a target is visible when some point of its base's circumference can be
joined to the observer's base centre by a segment that does not cross the interior of any
sight-blocking terrain; touching a boundary does not block; figures never block.

Method. From an observer O, every ray is blocked where it first *enters* an obstacle, which
only happens on an edge that faces O. Between two consecutive "critical" angles (the
directions of those edges' end points) the first edge hit is the same, so the visibility
polygon is a fan of wedges, each cut by one edge's line. A point P of a target's circle is
visible exactly when it lies on O's side of (or on) the cutting line of the wedge holding
it. The visible part of the circle is then found exactly: the circle is split at its
crossings with the critical rays and the cutting lines, and each piece is wholly visible or
wholly hidden, so testing its midpoint decides it. Everything is vectorised over all
(observer, target) pairs at once.

A target whose visible part has zero length (it only touches the visible region, as when
the sight line runs along a wall face) is still visible per the rule: that is decided by
its distance to the closed visibility polygon.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Polygon, box

from geometry.terrain import BlockerEdges, blocker_edges

__all__ = ["View", "SightField", "SightAnswers"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

TWO_PI = 2.0 * math.pi
ANGLE_MERGE = 1e-13  # critical angles closer than this are one direction
TOUCH = 1e-9  # inches: a target this close to the visible region touches it
MARGIN = 2.0  # inches around the table that bound every view
OFFSET = 8.0  # > 2 pi: shifts each observer's angles into its own range for one searchsorted


def _cross(ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray) -> FloatArray:
    return ax * by - ay * bx


@dataclass(frozen=True, eq=False)
class View:
    """What one observer sees, as a fan of wedges around `origin`.

    Wedge k spans the angles [angles[k], angles[k+1]] (the last wraps round to angles[0] +
    2 pi); inside it a point is visible when it lies on the origin's side of the line
    through `line_points[k]` with direction `line_dirs[k]`. `blind` is an observer standing
    inside sight-blocking terrain: every sight line crosses it, so nothing is seen.
    """

    origin: tuple[float, float]
    angles: FloatArray
    line_points: FloatArray
    line_dirs: FloatArray
    blind: bool = False

    def _depths(self, angles: FloatArray, wedge: IntArray) -> FloatArray:
        ux, uy = np.cos(angles), np.sin(angles)
        a = self.line_points[wedge] - np.asarray(self.origin)
        e = self.line_dirs[wedge]
        return _cross(a[:, 0], a[:, 1], e[:, 0], e[:, 1]) / _cross(ux, uy, e[:, 0], e[:, 1])

    @cached_property
    def polygon(self) -> Polygon:
        """The closed visibility polygon (bounded by the table plus a margin)."""
        if self.blind:
            return Polygon()
        n = self.angles.size
        wedges = np.arange(n)
        starts = self.angles
        ends = np.append(self.angles[1:], self.angles[0] + TWO_PI)
        near = self._depths(starts, wedges)
        far = self._depths(ends, wedges)
        ox, oy = self.origin
        xs = np.column_stack((ox + near * np.cos(starts), ox + far * np.cos(ends))).ravel()
        ys = np.column_stack((oy + near * np.sin(starts), oy + far * np.sin(ends))).ravel()
        return Polygon(np.column_stack((xs, ys)))


@dataclass(frozen=True)
class SightAnswers:
    """Visibility per (observer, target) pair: the rule's yes/no and the visible fraction."""

    visible: BoolArray
    fraction: FloatArray


class SightField:
    """The sight-blocking terrain of one table, prepared once; views and answers from it."""

    def __init__(self, footprints: Iterable[Polygon], width: float, depth: float) -> None:
        bounds = box(-MARGIN, -MARGIN, width + MARGIN, depth + MARGIN)
        clipped = [shapely.intersection(p, bounds) for p in footprints]
        self.blockers: BlockerEdges = blocker_edges(p for p in clipped if p.area > 0)
        # The bounding box, walked clockwise so that the outside lies on each edge's left.
        corners = np.array(bounds.exterior.coords[:-1][::-1], dtype=np.float64)
        if _cross(*(corners[1] - corners[0]), *(corners[2] - corners[1])) > 0:
            corners = corners[::-1]
        self._starts = np.concatenate((self.blockers.starts, corners))
        self._ends = np.concatenate((self.blockers.ends, np.roll(corners, -1, axis=0)))
        self._dirs = self._ends - self._starts
        self._union = self.blockers.union
        # sight answers by (observer x, y, target x, y, radius): `geometry.space.Space`
        # keeps them here, for the field lives as long as its terrain
        self.answered: dict[tuple[float, float, float, float, float], Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the sight answers it keeps (measured again where needed)."""
        state = self.__dict__.copy()
        state["answered"] = {}
        return state

    # --- one observer -------------------------------------------------------------------

    def view(self, origin: tuple[float, float]) -> View:
        """The fan of visibility wedges around `origin`."""
        ox, oy = float(origin[0]), float(origin[1])
        if not self._union.is_empty and shapely.contains_xy(self._union, ox, oy):
            empty = np.zeros(1)
            return View((ox, oy), empty, np.zeros((1, 2)), np.ones((1, 2)), blind=True)
        a, e = self._starts, self._dirs
        ax, ay = a[:, 0] - ox, a[:, 1] - oy
        # Edges facing the observer: it lies strictly to their right.
        facing = _cross(e[:, 0], e[:, 1], -ax, -ay) < -1e-12 * np.hypot(e[:, 0], e[:, 1])
        a, e, ax, ay = a[facing], e[facing], ax[facing], ay[facing]
        bx, by = ax + e[:, 0], ay + e[:, 1]
        angles = np.sort(np.concatenate((np.arctan2(ay, ax), np.arctan2(by, bx))))
        keep = np.ones(angles.size, dtype=bool)
        keep[1:] = np.diff(angles) > ANGLE_MERGE
        angles = angles[keep]
        if angles[-1] - angles[0] > TWO_PI - ANGLE_MERGE and angles.size > 1:
            angles = angles[:-1]
        mids = (angles + np.append(angles[1:], angles[0] + TWO_PI)) / 2.0
        ux, uy = np.cos(mids)[:, None], np.sin(mids)[:, None]
        ex, ey = e[:, 0][None, :], e[:, 1][None, :]
        denom = _cross(ux, uy, ex, ey)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = _cross(ax[None, :], ay[None, :], ex, ey) / denom
            s = _cross(ax[None, :], ay[None, :], ux, uy) / denom
        hits = (s >= 0.0) & (s <= 1.0) & (t > 0.0)
        first = np.argmin(np.where(hits, t, np.inf), axis=1)
        return View((ox, oy), angles, a[first], e[first])

    # --- many pairs at once -------------------------------------------------------------

    def answers(
        self,
        views: Sequence[View],
        observer: IntArray,
        centres: FloatArray,
        radii: FloatArray,
    ) -> SightAnswers:
        """Sight from `views[observer[p]]` to the base (`centres[p]`, `radii[p]`), per pair p."""
        pairs = observer.size
        if pairs == 0:
            return SightAnswers(np.zeros(0, dtype=bool), np.zeros(0))
        lut = _Lookup(views)
        origin = lut.origins[observer]
        rel = centres - origin
        dist = np.hypot(rel[:, 0], rel[:, 1])
        alpha = np.arctan2(rel[:, 1], rel[:, 0])
        beta = np.arcsin(np.clip(radii / np.maximum(dist, 1e-300), 0.0, 1.0))

        phi, pair = _breakpoints(lut, observer, centres, radii, alpha, beta)
        # Each breakpoint starts an arc that runs to the next one of the same pair.
        last = np.append(pair[1:] != pair[:-1], True)
        first_of_group = np.searchsorted(pair, pair, side="left")
        nxt = np.where(last, phi[first_of_group] + TWO_PI, np.append(phi[1:], 0.0))
        arc = nxt - phi
        mid = phi + arc / 2.0
        mx = centres[pair, 0] + radii[pair] * np.cos(mid)
        my = centres[pair, 1] + radii[pair] * np.sin(mid)
        seen = lut.sees(observer[pair], mx, my)
        fraction = np.bincount(pair, weights=arc * seen, minlength=pairs) / TWO_PI
        # Arc sums carry rounding of about 1e-15: snap the exact ends of the range.
        fraction = np.where(fraction > 1.0 - 1e-12, 1.0, np.where(fraction < 1e-12, 0.0, fraction))

        visible = fraction > 0.0
        unsure = np.flatnonzero(~visible & ~lut.blind[observer])
        if unsure.size:
            # Within TOUCH of the closed polygon: a prepared `dwithin` stops at the first
            # edge close enough, where `distance` measured every edge (4x slower here).
            shapes = [v.polygon for v in views]
            shapely.prepare(shapes)
            polygons = np.array(shapes, dtype=object)[observer[unsure]]
            near = shapely.dwithin(polygons, shapely.points(centres[unsure]),
                                   radii[unsure] + TOUCH)
            visible[unsure] = near
            rest = unsure[~near]
            if rest.size:
                visible[rest] = self._through_zero_width_gap(lut, observer, centres, radii, rest)
        return SightAnswers(visible, fraction)

    @cached_property
    def _eroded(self) -> shapely.Geometry:
        """Blockers shrunk by TOUCH, so that sight lines grazing a boundary pass robustly."""
        shrunk = shapely.buffer(self._union, -TOUCH, join_style="mitre")
        shapely.prepare(shrunk)
        return shrunk

    def _through_zero_width_gap(
        self,
        lut: _Lookup,
        observer: IntArray,
        centres: FloatArray,
        radii: FloatArray,
        pairs: IntArray,
    ) -> BoolArray:
        """Sight exactly along a critical ray, between obstacles touching it from both sides.

        Such a sight line has zero width, so it never shows in the fan of wedges; only the
        critical rays crossing the target can carry one. Each is tested on its own.
        """
        o = observer[pairs]
        rel = centres[pairs] - lut.origins[o]
        alpha = np.arctan2(rel[:, 1], rel[:, 0])
        beta = np.arcsin(np.clip(radii[pairs] / np.hypot(rel[:, 0], rel[:, 1]), 0.0, 1.0))
        slack = 1e-9
        owner, ray = lut.rays_between(o, alpha - beta - slack, alpha + beta + slack)
        found = np.zeros(pairs.size, dtype=bool)
        if owner.size == 0:
            return found
        p = pairs[owner]
        origin = lut.origins[observer[p]]
        u = np.column_stack((np.cos(lut.angles[ray]), np.sin(lut.angles[ray])))
        w = origin - centres[p]
        along = -(w[:, 0] * u[:, 0] + w[:, 1] * u[:, 1])
        foot = w + along[:, None] * u
        half = np.sqrt(np.maximum(radii[p] ** 2 - (foot[:, 0] ** 2 + foot[:, 1] ** 2), 0.0))
        near = origin + (along - half)[:, None] * u
        lines = shapely.linestrings(np.stack((origin, near), axis=1))
        clear = ~shapely.intersects(self._eroded, lines)
        np.logical_or.at(found, owner, clear)
        return found

    def matrix(
        self,
        observers: FloatArray,
        targets: FloatArray,
        target_radii: FloatArray,
        views: Sequence[View] | None = None,
    ) -> tuple[BoolArray, FloatArray]:
        """Full observers x targets matrices of visibility and visible fraction."""
        if views is None:
            views = [self.view((float(x), float(y))) for x, y in observers]
        m, n = len(observers), len(targets)
        observer = np.repeat(np.arange(m), n)
        target = np.tile(np.arange(n), m)
        got = self.answers(views, observer, targets[target], target_radii[target])
        return got.visible.reshape(m, n), got.fraction.reshape(m, n)


def _breakpoints(lut: _Lookup, observer: IntArray, centres: FloatArray, radii: FloatArray,
                 alpha: FloatArray, beta: FloatArray) -> tuple[FloatArray, IntArray]:
    """Where each target circle may change from seen to hidden: (angle on circle, pair),
    sorted by pair then angle. These are its crossings with the critical rays inside its
    angular span [alpha - beta, alpha + beta] and with the cutting line of every wedge the
    span touches, plus one arbitrary point so that every pair has at least one."""
    pairs = observer.size
    origin = lut.origins[observer]
    ray_pair, ray_index = lut.rays_between(observer, alpha - beta, alpha + beta)
    first_wedge = lut.wedge_of(observer, alpha - beta)
    line_pair = np.concatenate((np.arange(pairs), ray_pair))
    line_index = np.concatenate((first_wedge, ray_index))
    ray_dir = np.column_stack((np.cos(lut.angles[ray_index]), np.sin(lut.angles[ray_index])))
    # A ray inside the circle's span meets it ahead of the observer: its line's crossings
    # are the ray's.
    phis = [
        alpha[:, None],
        _line_circle_phis(origin[ray_pair], ray_dir, centres[ray_pair], radii[ray_pair]),
        _line_circle_phis(lut.points[line_index], lut.dirs[line_index], centres[line_pair],
                          radii[line_pair]),
    ]
    owners = [np.arange(pairs)[:, None], np.repeat(ray_pair[:, None], 2, axis=1),
              np.repeat(line_pair[:, None], 2, axis=1)]
    phi = np.concatenate([x.ravel() for x in phis])
    pair = np.concatenate([x.ravel() for x in owners])
    ok = np.isfinite(phi)
    phi, pair = np.mod(phi[ok], TWO_PI), pair[ok]
    order = np.lexsort((phi, pair))
    return phi[order], pair[order]


def _line_circle_phis(
    point: FloatArray, direction: FloatArray, centre: FloatArray, radius: FloatArray
) -> FloatArray:
    """Angles (around each circle) where a line crosses it: shape (n, 2), NaN where it misses."""
    d = direction / np.hypot(direction[:, 0], direction[:, 1])[:, None]
    w = point - centre
    # Foot of the perpendicular from the centre, then +- half the chord along the line.
    along = -(w[:, 0] * d[:, 0] + w[:, 1] * d[:, 1])
    foot = w + along[:, None] * d
    off2 = radius**2 - (foot[:, 0] ** 2 + foot[:, 1] ** 2)
    half = np.sqrt(np.where(off2 >= 0.0, off2, np.nan))
    phis = np.empty((point.shape[0], 2))
    for k, sign in enumerate((-1.0, 1.0)):
        q = foot + (sign * half)[:, None] * d
        phis[:, k] = np.arctan2(q[:, 1], q[:, 0])
    return phis


class _Lookup:
    """All views' wedges in flat arrays, each observer's angles shifted into its own range."""

    def __init__(self, views: Sequence[View]) -> None:
        sizes = np.array([v.angles.size for v in views], dtype=np.intp)
        self.start = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.intp)
        self.size = sizes
        self.angles = np.concatenate([v.angles for v in views])
        self.keys = self.angles + OFFSET * np.repeat(np.arange(len(views)), sizes)
        self.points = np.concatenate([v.line_points for v in views])
        self.dirs = np.concatenate([v.line_dirs for v in views])
        self.origins = np.array([v.origin for v in views], dtype=np.float64)
        self.blind = np.array([v.blind for v in views], dtype=bool)

    @staticmethod
    def _wrap(theta: FloatArray) -> FloatArray:
        return np.mod(theta + math.pi, TWO_PI) - math.pi

    def wedge_of(self, observer: IntArray, theta: FloatArray) -> IntArray:
        """Global index of the wedge holding direction `theta` of each observer."""
        key = self._wrap(theta) + OFFSET * observer
        pos = np.searchsorted(self.keys, key, side="right") - 1
        before_first = pos < self.start[observer]
        return np.where(before_first, self.start[observer] + self.size[observer] - 1, pos)

    def rays_between(
        self, observer: IntArray, lo: FloatArray, hi: FloatArray
    ) -> tuple[IntArray, IntArray]:
        """(pair, global ray index) for every critical angle strictly inside (lo, hi)."""
        lo_w = self._wrap(lo)
        hi_w = lo_w + (hi - lo)
        off = OFFSET * observer
        a1 = np.searchsorted(self.keys, lo_w + off, side="right")
        b1 = np.searchsorted(self.keys, np.minimum(hi_w, math.pi) + off, side="left")
        b1 = np.minimum(b1, self.start[observer] + self.size[observer])
        wraps = hi_w > math.pi
        a2 = self.start[observer]
        b2 = np.where(wraps, np.searchsorted(self.keys, hi_w - TWO_PI + off, side="left"), a2)
        pair1, index1 = _expand(a1, np.maximum(b1 - a1, 0))
        pair2, index2 = _expand(a2, np.maximum(b2 - a2, 0))
        return np.concatenate((pair1, pair2)), np.concatenate((index1, index2))

    def sees(self, observer: IntArray, x: FloatArray, y: FloatArray) -> BoolArray:
        """Whether each point lies in its observer's closed visibility region."""
        origin = self.origins[observer]
        theta = np.arctan2(y - origin[:, 1], x - origin[:, 0])
        wedge = self.wedge_of(observer, theta)
        a, e = self.points[wedge], self.dirs[wedge]
        side = _cross(e[:, 0], e[:, 1], x - a[:, 0], y - a[:, 1])
        scale = np.hypot(e[:, 0], e[:, 1])
        seen: BoolArray = (side <= 1e-12 * scale) & ~self.blind[observer]
        return seen


def _expand(starts: IntArray, counts: IntArray) -> tuple[IntArray, IntArray]:
    """Ragged ranges [start, start + count) as flat (owner, value) arrays."""
    owner = np.repeat(np.arange(starts.size), counts)
    first = np.repeat(np.cumsum(counts) - counts, counts)
    value = np.repeat(starts, counts) + (np.arange(owner.size) - first)
    return owner.astype(np.intp), value.astype(np.intp)
