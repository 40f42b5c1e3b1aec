"""Exact visibility graph of a round base among polygonal blockers.

The base centre moves in the free space: the table shrunk by the base radius r, minus every
blocker grown by r (and every enemy base grown by r + its own radius). A grown polygon is
bounded by offset edges and by arcs of radius r centred on the polygon's convex corners, so a
shortest path is a chain of straight segments tangent to these circles and arcs along them.

We keep the circles exact instead of approximating the grown shapes by polygons: lengths come
out exact, the graph has no arc vertices (hence is small and quick to build), and only the
waypoints that trace an arc are approximated, from outside, when a path is written out.

Graph nodes are tangent points on circles; edges are bitangent segments (tested against the
terrain) and arcs between neighbouring tangent points of one circle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.polygon import orient

__all__ = [
    "Circles",
    "StaticGraph",
    "arc_polylines",
    "arc_step",
    "arc_steps",
    "build_static_graph",
    "cone_offset",
    "core_region",
    "corner_circles",
    "in_box",
    "in_cone",
    "polylines_clear",
    "segment_point_distance",
    "segments_clear",
    "select_polylines",
    "tangent_lines",
    "unit",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

TAU = 2.0 * math.pi
EXACT_SLACK = 1e-9  # clearance slack for contacts that are exact in real numbers
ARC_EXCESS_PER_RADIAN = 2.5e-4  # length added by the outside polyline of an arc, inches/rad


def arc_step(radius: float) -> float:
    """Angular step of the outside polyline of an arc of `radius`.

    A circumscribed polyline with step a is longer than its arc by about radius * a^2 / 12 per
    radian turned; we keep that below ARC_EXCESS_PER_RADIAN so even a path winding a few full
    turns stays well inside the 0.01 in length tolerance.
    """
    return min(0.1, math.sqrt(12.0 * ARC_EXCESS_PER_RADIAN / max(radius, 1e-9)))


def arc_steps(radii: FloatArray) -> FloatArray:
    """`arc_step` for an array of radii."""
    safe = np.maximum(radii, 1e-9)
    return np.asarray(
        np.minimum(0.1, np.sqrt(12.0 * ARC_EXCESS_PER_RADIAN / safe)), dtype=np.float64
    )


@dataclass(frozen=True)
class Circles:
    """Circles a shortest path may wrap around, each with the arc its tangent points may use.

    For a corner, tangent points lie on the arc of outward normals between its two edges
    (`start` to `start + span`, counter-clockwise): only there is the circle the boundary of the
    grown blocker. `simple` corners have no other terrain near their arc, so arcs need no test.
    """

    centres: FloatArray
    radii: FloatArray
    start: FloatArray
    span: FloatArray
    simple: BoolArray

    @property
    def count(self) -> int:
        return int(self.radii.shape[0])


def cone_offset(phi: FloatArray, start: FloatArray) -> FloatArray:
    """Counter-clockwise angle from `start` to `phi`, in [-1e-9, 2 pi - 1e-9)."""
    return np.mod(phi - start + EXACT_SLACK, TAU) - EXACT_SLACK


def segment_point_distance(a: FloatArray, b: FloatArray, p: FloatArray) -> FloatArray:
    """Distances from points p to segments a-b, broadcasting over leading axes."""
    ax, ay, bx, by = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    px, py = p[..., 0], p[..., 1]
    abx, aby = bx - ax, by - ay
    apx, apy = px - ax, py - ay
    den = abx * abx + aby * aby
    t = (apx * abx + apy * aby) / np.where(den > 0.0, den, 1.0)
    t = np.clip(t, 0.0, 1.0)
    return np.asarray(np.hypot(apx - t * abx, apy - t * aby), dtype=np.float64)


def _union_rings(union: shapely.Geometry) -> list[FloatArray]:
    """The rings of the blocker union as open vertex arrays with the blockers on their left."""
    rings: list[FloatArray] = []
    for polygon in shapely.get_parts(union):
        if polygon.is_empty or polygon.geom_type != "Polygon":
            continue
        ccw = orient(polygon, sign=1.0)
        for ring in (ccw.exterior, *ccw.interiors):
            xy = np.asarray(ring.coords, dtype=np.float64)[:-1]
            if xy.shape[0] >= 3:
                rings.append(xy)
    return rings


def corner_circles(union: shapely.Geometry, radius: float, reach: float) -> Circles:
    """Circles of radius `radius` on the convex corners of the blocker union.

    `reach` is how far outside a circle an arc's polyline may stray: a corner is `simple` when
    every other edge closer than radius + reach + radius lies inside the wedge of the corner's
    two edge lines, which keeps all its arc polylines at least `radius` from that edge.
    """
    centres: list[FloatArray] = []
    normals_in: list[FloatArray] = []
    normals_out: list[FloatArray] = []
    spans: list[FloatArray] = []
    edge_a: list[FloatArray] = []
    edge_b: list[FloatArray] = []
    incoming: list[IntArray] = []  # per corner: indices of its two edges in the edge list
    outgoing: list[IntArray] = []
    edge_count = 0
    for xy in _union_rings(union):
        prev_xy, next_xy = np.roll(xy, 1, axis=0), np.roll(xy, -1, axis=0)
        d_in, d_out = xy - prev_xy, next_xy - xy
        cross = d_in[:, 0] * d_out[:, 1] - d_in[:, 1] * d_out[:, 0]
        dot = np.einsum("ij,ij->i", d_in, d_out)
        turn = np.arctan2(cross, dot)
        convex = turn > 1e-12
        n_in = np.stack([d_in[:, 1], -d_in[:, 0]], axis=1)
        n_in /= np.linalg.norm(n_in, axis=1, keepdims=True)
        n_out = np.stack([d_out[:, 1], -d_out[:, 0]], axis=1)
        n_out /= np.linalg.norm(n_out, axis=1, keepdims=True)
        idx = np.arange(xy.shape[0])
        centres.append(xy[convex])
        normals_in.append(n_in[convex])
        normals_out.append(n_out[convex])
        spans.append(turn[convex])
        edge_a.append(xy)
        edge_b.append(next_xy)
        incoming.append(edge_count + (idx[convex] - 1) % xy.shape[0])
        outgoing.append(edge_count + idx[convex])
        edge_count += xy.shape[0]
    if not centres:
        empty = np.zeros(0, dtype=np.float64)
        return Circles(np.zeros((0, 2)), empty, empty, empty, np.zeros(0, dtype=np.bool_))
    c = np.concatenate(centres)
    nin, nout = np.concatenate(normals_in), np.concatenate(normals_out)
    a, b = np.concatenate(edge_a), np.concatenate(edge_b)
    gap = segment_point_distance(a[None, :, :], b[None, :, :], c[:, None, :])
    near = gap < 2.0 * radius + reach + 1e-6
    rows = np.arange(c.shape[0])
    near[rows, np.concatenate(incoming)] = False
    near[rows, np.concatenate(outgoing)] = False
    inside = _in_wedge(a, c, nin, nout) & _in_wedge(b, c, nin, nout)
    simple = ~np.any(near & ~inside, axis=1)
    start = np.arctan2(nin[:, 1], nin[:, 0])
    radii = np.full(c.shape[0], radius, dtype=np.float64)
    return Circles(c, radii, start, np.concatenate(spans), simple)


def _in_wedge(p: FloatArray, c: FloatArray, nin: FloatArray, nout: FloatArray) -> BoolArray:
    """Whether points p (edges) lie behind both edge lines of each corner (corners x points)."""
    rel = p[None, :, :] - c[:, None, :]
    behind_in = np.einsum("cpi,ci->cp", rel, nin) <= 1e-12
    behind_out = np.einsum("cpi,ci->cp", rel, nout) <= 1e-12
    return np.asarray(behind_in & behind_out, dtype=np.bool_)


def tangent_lines(
    c1: FloatArray, r1: FloatArray, c2: FloatArray, r2: FloatArray, slack: float = 0.0
) -> tuple[FloatArray, FloatArray, BoolArray]:
    """The four common tangents of circle pairs: angles of the tangent points and existence.

    Returns (phi1, phi2, ok), each of shape (4, n): tangent k touches circle 1 at
    c1 + r1 * u(phi1[k]) and circle 2 at c2 + r2 * u(phi2[k]). Rows 0-1 are outer tangents,
    rows 2-3 inner ones (which exist only for disjoint circles). A centre distance short of
    the needed one by at most `slack` still counts, with the tangent clamped to the contact.
    """
    d = c2 - c1
    dist = np.hypot(d[:, 0], d[:, 1])
    beta = np.arctan2(d[:, 1], d[:, 0])
    phis1: list[FloatArray] = []
    phis2: list[FloatArray] = []
    oks: list[BoolArray] = []
    for k in (1.0, -1.0):
        need = r1 - k * r2
        ok = (dist >= np.abs(need) - slack) & (dist > 0.0)
        gamma = np.arccos(np.clip(need / np.where(dist > 0.0, dist, 1.0), -1.0, 1.0))
        for sign in (1.0, -1.0):
            theta = beta + sign * gamma
            phis1.append(theta)
            phis2.append(theta if k > 0 else theta + math.pi)
            oks.append(ok)
    return np.stack(phis1), np.stack(phis2), np.stack(oks)


def unit(phi: FloatArray) -> FloatArray:
    """Unit vectors at angles phi, shape phi.shape + (2,)."""
    return np.stack([np.cos(phi), np.sin(phi)], axis=-1)


def arc_polylines(
    centres: FloatArray, radii: FloatArray, phi0: FloatArray, delta: FloatArray
) -> tuple[FloatArray, IntArray]:
    """Polylines just outside arcs, as (points, offsets): arc i is points[off[i]:off[i+1]].

    Each polyline starts and ends on the circle and its vertices sit on the tangents at evenly
    spaced angles, so it never cuts inside the circle (a chord polyline would let the base
    clip the corner) and is longer than the arc by at most ARC_EXCESS_PER_RADIAN per radian.
    """
    steps = arc_steps(radii)
    pieces = np.maximum(1, np.ceil(np.abs(delta) / steps - 1e-9)).astype(np.intp)
    counts = pieces + 2
    offsets = np.zeros(counts.shape[0] + 1, dtype=np.intp)
    np.cumsum(counts, out=offsets[1:])
    total = int(offsets[-1])
    arc_of = np.repeat(np.arange(counts.shape[0]), counts)
    j = np.arange(total) - offsets[arc_of]  # 0 .. pieces + 1 within each arc
    piece_angle = delta[arc_of] / pieces[arc_of]
    # j = 0: start point; 1..pieces: outside vertices; pieces + 1: end point.
    angle = np.where(
        j == 0,
        phi0[arc_of],
        np.where(
            j == counts[arc_of] - 1,
            phi0[arc_of] + delta[arc_of],
            phi0[arc_of] + (j - 0.5) * piece_angle,
        ),
    )
    scale = np.where((j == 0) | (j == counts[arc_of] - 1), 1.0, 1.0 / np.cos(0.5 * piece_angle))
    points = centres[arc_of] + (radii[arc_of] * scale)[:, None] * unit(angle)
    return points, offsets


@dataclass(frozen=True)
class StaticGraph:
    """Tangent-point nodes and clear edges of the terrain alone, sorted by (circle, angle).

    Nodes of one circle are contiguous (`circle_ptr[c]:circle_ptr[c + 1]`) and in angle order,
    so a static arc always joins nodes i and i + 1.
    """

    circles: Circles
    node_xy: FloatArray
    node_circle: IntArray
    node_phi: FloatArray
    node_offset: FloatArray  # angle from the circle's `start`, in [0, span]
    circle_ptr: IntArray
    seg_a: IntArray
    seg_b: IntArray
    arc_a: IntArray  # arc_b is arc_a + 1

    @property
    def node_count(self) -> int:
        return int(self.node_circle.shape[0])


def in_box(p: FloatArray, box: tuple[float, float, float, float], slack: float) -> BoolArray:
    """Whether points lie in the box (xmin, ymin, xmax, ymax) give or take `slack`."""
    x0, y0, x1, y1 = box
    return np.asarray(
        (p[..., 0] >= x0 - slack)
        & (p[..., 0] <= x1 + slack)
        & (p[..., 1] >= y0 - slack)
        & (p[..., 1] <= y1 + slack),
        dtype=np.bool_,
    )


def in_cone(phi: FloatArray, start: FloatArray, span: FloatArray) -> BoolArray:
    """Whether angles phi fall on the usable arcs (start, span) of their circles."""
    return np.asarray(cone_offset(phi, start) <= span + EXACT_SLACK, dtype=np.bool_)


def segments_clear(
    union: shapely.Geometry,
    a: FloatArray,
    b: FloatArray,
    clearance: FloatArray | float,
    core: shapely.Geometry | None = None,
) -> BoolArray:
    """Whether each segment a-b stays at least `clearance` from the (prepared) union.

    `core`, when given, is a prepared region every point of which is closer to the union than
    any clearance asked: a segment meeting it is blocked, and that test is several times
    cheaper than the distance test, which then runs only on the remaining segments.
    """
    if a.shape[0] == 0:
        return np.zeros(0, dtype=np.bool_)
    if union.is_empty:
        return np.ones(a.shape[0], dtype=np.bool_)
    lines = shapely.linestrings(np.stack([a, b], axis=1))
    need = np.broadcast_to(np.asarray(clearance, dtype=np.float64), lines.shape)
    ok = np.ones(lines.shape[0], dtype=np.bool_)
    if core is not None and not core.is_empty:
        ok = ~shapely.intersects(core, lines)
    idx = np.flatnonzero(ok)
    ok[idx] = ~shapely.dwithin(union, lines[idx], need[idx])
    return ok


def core_region(union: shapely.Geometry, radius: float) -> shapely.Geometry:
    """A prepared polygon inside the grown blockers, strictly closer than radius - 1e-5.

    Buffer polygons put their arc vertices on the circle and cut chords inside it, so every
    point is within the buffer distance of the union.
    """
    core = shapely.buffer(union, radius - 1e-5, quad_segs=4)
    shapely.prepare(core)
    return core


def polylines_clear(
    union: shapely.Geometry,
    points: FloatArray,
    offsets: IntArray,
    clearance: float,
    core: shapely.Geometry | None = None,
) -> BoolArray:
    """Whether each polyline (points, offsets) stays at least `clearance` from the union."""
    n = offsets.shape[0] - 1
    if n == 0 or union.is_empty:
        return np.ones(n, dtype=np.bool_)
    index = np.repeat(np.arange(n), np.diff(offsets))
    lines = shapely.linestrings(points, indices=index)
    ok = np.ones(n, dtype=np.bool_)
    if core is not None and not core.is_empty:
        ok = ~shapely.intersects(core, lines)
    idx = np.flatnonzero(ok)
    ok[idx] = ~shapely.dwithin(union, lines[idx], clearance)
    return ok


def build_static_graph(
    union: shapely.Geometry,
    free_box: tuple[float, float, float, float],
    radius: float,
    core: shapely.Geometry | None = None,
) -> StaticGraph:
    """Bitangents between corner circles that clear the terrain, and the arcs joining them."""
    reach = radius / math.cos(0.5 * arc_step(radius)) - radius
    circles = corner_circles(union, radius, reach)
    n = circles.count
    i, j = np.triu_indices(n, k=1)
    phi1, phi2, ok = tangent_lines(
        circles.centres[i], circles.radii[i], circles.centres[j], circles.radii[j]
    )
    ii = np.broadcast_to(i, ok.shape)[ok]
    jj = np.broadcast_to(j, ok.shape)[ok]
    p1, p2 = phi1[ok], phi2[ok]
    keep = in_cone(p1, circles.start[ii], circles.span[ii])
    keep &= in_cone(p2, circles.start[jj], circles.span[jj])
    ii, jj, p1, p2 = ii[keep], jj[keep], p1[keep], p2[keep]
    t1 = circles.centres[ii] + radius * unit(p1)
    t2 = circles.centres[jj] + radius * unit(p2)
    keep = in_box(t1, free_box, EXACT_SLACK) & in_box(t2, free_box, EXACT_SLACK)
    ii, jj, p1, p2, t1, t2 = ii[keep], jj[keep], p1[keep], p2[keep], t1[keep], t2[keep]
    keep = segments_clear(union, t1, t2, radius - EXACT_SLACK, core)
    ii, jj, p1, p2, t1, t2 = ii[keep], jj[keep], p1[keep], p2[keep], t1[keep], t2[keep]

    m = ii.shape[0]
    circle = np.concatenate([ii, jj])
    phi = np.concatenate([p1, p2])
    xy = np.concatenate([t1, t2])
    offset = np.clip(cone_offset(phi, circles.start[circle]), 0.0, circles.span[circle])
    order = np.lexsort((offset, circle))
    rank = np.empty_like(order)
    rank[order] = np.arange(order.shape[0])
    circle, phi, xy, offset = circle[order], phi[order], xy[order], offset[order]
    seg_a, seg_b = rank[:m], rank[m:]

    same = circle[:-1] == circle[1:]
    arc_a = np.flatnonzero(same)
    sweep = offset[arc_a + 1] - offset[arc_a]
    arc_a = arc_a[
        arcs_clear_static(union, circles, free_box, circle[arc_a], phi[arc_a], sweep, core)
    ]
    circle_ptr = np.searchsorted(circle, np.arange(n + 1)).astype(np.intp)
    return StaticGraph(
        circles=circles,
        node_xy=xy,
        node_circle=circle.astype(np.intp),
        node_phi=phi,
        node_offset=offset,
        circle_ptr=circle_ptr,
        seg_a=seg_a.astype(np.intp),
        seg_b=seg_b.astype(np.intp),
        arc_a=arc_a.astype(np.intp),
    )


def arcs_clear_static(
    union: shapely.Geometry,
    circles: Circles,
    free_box: tuple[float, float, float, float],
    circle: IntArray,
    phi0: FloatArray,
    delta: FloatArray,
    core: shapely.Geometry | None = None,
) -> BoolArray:
    """Whether arcs (as their outside polylines) stay on the table and clear of the terrain.

    Arcs of simple corners far from the table edge need no test at all.
    """
    result = np.ones(circle.shape[0], dtype=np.bool_)
    if circle.shape[0] == 0:
        return result
    centres, radii = circles.centres[circle], circles.radii[circle]
    outer = radii / np.cos(0.5 * arc_steps(radii))
    x0, y0, x1, y1 = free_box
    near_edge = (
        (centres[:, 0] - outer < x0)
        | (centres[:, 0] + outer > x1)
        | (centres[:, 1] - outer < y0)
        | (centres[:, 1] + outer > y1)
    )
    check = near_edge | ~circles.simple[circle]
    idx = np.flatnonzero(check)
    if idx.shape[0] == 0:
        return result
    points, offsets = arc_polylines(centres[idx], radii[idx], phi0[idx], delta[idx])
    inside = in_box(points, free_box, EXACT_SLACK)
    on_table = np.logical_and.reduceat(inside, offsets[:-1])
    clear = on_table.copy()
    terrain = ~circles.simple[circle[idx]]
    if np.any(terrain):
        sub = np.flatnonzero(terrain)
        pts, offs = select_polylines(points, offsets, sub)
        clear[sub] &= polylines_clear(union, pts, offs, float(radii[0]) - EXACT_SLACK, core)
    result[idx] = clear
    return result


def select_polylines(
    points: FloatArray, offsets: IntArray, which: IntArray
) -> tuple[FloatArray, IntArray]:
    """The polylines `which` out of (points, offsets), in the same representation."""
    counts = offsets[which + 1] - offsets[which]
    new_offsets = np.zeros(which.shape[0] + 1, dtype=np.intp)
    np.cumsum(counts, out=new_offsets[1:])
    take = np.concatenate([np.arange(offsets[k], offsets[k + 1]) for k in which])
    return points[take], new_offsets
