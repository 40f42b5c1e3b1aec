"""Shortest movement paths of a round base among terrain, and the region it can reach.

Positions are base centres in inches. The base must stay whole on the table, never overlap a
movement-blocking footprint, and may touch enemy bases but not overlap them. `PathFinder`
builds the exact visibility graph of one terrain for one base radius (see `visgraph`); each
query adds its start, goal and enemy bases to that graph without rebuilding it. A finder keeps
its recent answers by their exact inputs, as it keeps its graph, within a memory budget.
"""

from __future__ import annotations

import math
import struct
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.polygon import orient

if TYPE_CHECKING:  # scipy is slow to import: a path search imports it when it runs
    from scipy.sparse import csr_matrix

from geometry.lru import LRU
from geometry.visgraph import (
    EXACT_SLACK,
    TAU,
    BoolArray,
    FloatArray,
    IntArray,
    StaticGraph,
    arc_polylines,
    arc_step,
    arc_steps,
    build_static_graph,
    cone_offset,
    core_region,
    in_box,
    in_cone,
    polylines_clear,
    segment_point_distance,
    segments_clear,
    select_polylines,
    tangent_lines,
    unit,
)
from i18n import Message

__all__ = ["Path", "PathFinder", "pathfinder", "cache_bytes", "CACHE_BYTES", "CONTACT_SLACK"]

XY = tuple[float, float]
Avoid = Sequence[tuple[float, float, float]]

CONTACT_SLACK = 1e-6  # a start or goal this far into a wall or enemy base still counts as contact
CLEAR_MARGIN = 1e-7  # beyond rounding: a point this much farther than r from terrain is clear
REACH_QUAD_SEGS = 12  # quarter-circle segments of the polygon free space used by `reach`
# GEOS rounds the number of segments of each round join, so a step can reach 1.5 times the
# nominal pi / (2 q): growing by 1 / cos of half that keeps every chord outside the circle.
REACH_GROW = 1.0 / math.cos(1.5 * math.pi / (4 * REACH_QUAD_SEGS))
WEDGE_OVERLAP = 1e-6  # radians added to each vertex's wedge on its free side
RAY_STEP = 0.02  # radians between rays tracing the round edge of the reach region
GEOMETRY_BYTES_PER_COORD = 48  # a GEOS coordinate and its share of the structure around it
# Each finder keeps its recent answers (see `PathFinder.shortest`): a game asks the same route
# again when nothing it depends on moved (the tactician's search, a refused move retried).
# One game's routes are a few hundred entries of 0.5-2 KB, a search's a few thousand.
PATH_CACHE_ITEMS = 4096
PATH_CACHE_BYTES = 2 * 1024 * 1024
REACH_CACHE_ITEMS = 32  # reach regions are big (thousands of coordinates) and seldom asked
REACH_CACHE_BYTES = 1024 * 1024
RESULT_CACHE_BYTES = PATH_CACHE_BYTES + REACH_CACHE_BYTES  # counted in each finder's nbytes


@dataclass(frozen=True)
class Path:
    """A movement path of a base centre: waypoints from start to goal, and its length.

    An unreachable path says why: `reason` in English for programs and logs; `problem` is
    "off_table", "terrain" (the base would overlap `pieces`, ids of terrain), "enemy" or
    "no_route", `at` is "start" or "goal" for the first three; `words` (filled by
    `Space.path`, which knows the pieces' names) is the reason for a person.
    """

    reachable: bool
    length: float
    waypoints: tuple[XY, ...]
    reason: str = ""
    problem: str = ""
    at: str = ""
    pieces: tuple[str, ...] = ()
    words: Message | None = field(default=None, compare=False)


@dataclass(frozen=True)
class _Scene:
    """The query's additions: extra circles (enemy bases) and free points (start, goal)."""

    centres: FloatArray  # all circles: the terrain's corners, then the enemy bases
    radii: FloatArray
    start: FloatArray
    span: FloatArray
    needs_test: BoolArray  # arcs of this circle must be tested against the terrain
    avoid_centres: FloatArray
    avoid_radii: FloatArray


@dataclass
class _QueryGraph:
    """The static graph plus one query's nodes and edges, ready for Dijkstra."""

    xy: FloatArray
    circle: IntArray  # -1 for a free point
    phi: FloatArray
    offset: FloatArray
    edge_a: IntArray
    edge_b: IntArray
    edge_w: FloatArray
    arc_delta: dict[tuple[int, int], float]  # signed sweeps of arcs on enemy circles
    point_ids: IntArray


def _fmt(p: XY) -> str:
    return f"({round(p[0], 4)}, {round(p[1], 4)})"


def _avoid_array(avoid: Avoid) -> FloatArray:
    """Enemy bases (x, y, radius) as the (n, 3) array every query reads them from."""
    return np.asarray(avoid, dtype=np.float64).reshape(-1, 3)


def _query_key(values: tuple[float, ...], bases: FloatArray) -> bytes:
    """A query's exact inputs as bytes: its floats and its bases' array, bit for bit.

    Equal keys are the very same numbers, so the answer computed for one is the answer for
    the other. Bytes rather than a tuple of floats, because 0.0 == -0.0 (which `_fmt` and
    `atan2` tell apart) and NaN != NaN. `values` has a fixed count per kind of query and
    `bases` is always (n, 3), so the byte count alone tells n.
    """
    return struct.pack(f"{len(values)}d", *values) + bases.tobytes()


def _path_bytes(key: bytes, path: Path) -> int:
    """About what a cached path keeps: its key, the object and its waypoint tuples."""
    return 600 + len(key) + len(path.reason) + 120 * len(path.waypoints)


def _geometry_bytes(key: bytes, shape: shapely.Geometry) -> int:
    """About what a cached region keeps: its key and its coordinates."""
    return 200 + len(key) + GEOMETRY_BYTES_PER_COORD * int(shapely.get_num_coordinates(shape))


class PathFinder:
    """Visibility graph for one terrain and one base radius; build once, query many times."""

    def __init__(
        self,
        blockers: Sequence[tuple[str, Polygon]],
        table: tuple[float, float],
        radius: float,
    ) -> None:
        self.radius = float(radius)
        self.table = (float(table[0]), float(table[1]))
        # One finder serves every game on this terrain (the cache below), from any server
        # thread, and its prepared GEOS geometries are not thread-safe (libgeos issue 825:
        # concurrent queries on one prepared geometry crashed a threaded server): one query
        # at a time per finder.
        self._lock = threading.RLock()
        self._ids = [str(name) for name, _ in blockers]
        self._polygons = np.array([poly for _, poly in blockers], dtype=object)
        shapely.prepare(self._polygons)
        parts = [poly for _, poly in blockers if not poly.is_empty]
        union = shapely.union_all(parts) if parts else Polygon()
        self._union = shapely.remove_repeated_points(union, 1e-9)
        shapely.prepare(self._union)
        r = self.radius
        self._box = (r, r, self.table[0] - r, self.table[1] - r)
        self._core = core_region(self._union, r)
        self._graph: StaticGraph = build_static_graph(self._union, self._box, r, self._core)
        self._reach_obstacles: shapely.Geometry | None = None
        # Answers by their exact inputs (`_query_key`): a path or region depends on nothing
        # else than this finder's terrain and radius and the query's points and bases.
        self._paths: LRU[bytes, Path] = LRU(PATH_CACHE_ITEMS, PATH_CACHE_BYTES, _path_bytes)
        self._reaches: LRU[bytes, shapely.Geometry] = LRU(
            REACH_CACHE_ITEMS, REACH_CACHE_BYTES, _geometry_bytes)

    @property
    def nbytes(self) -> int:
        """About how much memory the finder keeps: its graph's arrays, its geometries'
        coordinates and the most its answer caches may hold (`RESULT_CACHE_BYTES`: what the
        cache below counts against its budget, so that cached answers stay within it too)."""
        g = self._graph
        arrays = (g.node_xy, g.node_circle, g.node_phi, g.node_offset, g.circle_ptr, g.seg_a,
                  g.seg_b, g.arc_a, g.circles.centres, g.circles.radii, g.circles.start,
                  g.circles.span, g.circles.simple)
        shapes = [self._union, self._core, *self._polygons]
        if self._reach_obstacles is not None:
            shapes.append(self._reach_obstacles)
        coords = int(np.sum(shapely.get_num_coordinates(np.array(shapes, dtype=object))))
        return (sum(int(a.nbytes) for a in arrays) + GEOMETRY_BYTES_PER_COORD * coords
                + RESULT_CACHE_BYTES)

    # ----------------------------------------------------------------- legality

    def _problem(self, label: str, p: XY, avoid_c: FloatArray, avoid_r: FloatArray) -> Path | None:
        """Why a base centred at p is illegal (an unreachable Path saying so), or None when
        it is legal (touching is fine)."""
        xy = np.array(p, dtype=np.float64)
        if not np.all(np.isfinite(xy)) or not in_box(xy, self._box, CONTACT_SLACK):
            return Path(False, math.inf, (), f"{label} {_fmt(p)}: base off the table",
                        "off_table", label)
        point = Point(p)
        if self._polygons.size and not self._clear_of_terrain(point):
            dist = shapely.distance(self._polygons, point)
            hit = [self._ids[i] for i in np.flatnonzero(dist < self.radius - CONTACT_SLACK)]
            if hit:
                names = ", ".join(repr(h) for h in hit)
                return Path(False, math.inf, (),
                            f"{label} {_fmt(p)}: base would overlap terrain {names}",
                            "terrain", label, tuple(hit))
        if avoid_r.size:
            gap = np.hypot(*(avoid_c - xy).T) - avoid_r
            bad = np.flatnonzero(gap < -CONTACT_SLACK)
            if bad.size:
                c = avoid_c[bad[0]]
                return Path(False, math.inf, (), f"{label} {_fmt(p)}: base would overlap the "
                            f"enemy base at {_fmt((c[0], c[1]))}", "enemy", label)
        return None

    def _slack(self, p: FloatArray, avoid_c: FloatArray, avoid_r: FloatArray) -> float:
        """How far a legal point sits inside contact: segments from it may go that deep."""
        deficit = 0.0  # the same answer as any negative deficit (the terrain's when clear)
        point = Point(p[0], p[1])
        if not self._union.is_empty and not self._clear_of_terrain(point):
            deficit = self.radius - float(shapely.distance(self._union, point))
        if avoid_r.size:
            deficit = max(deficit, float(np.max(avoid_r - np.hypot(*(avoid_c - p).T))))
        return max(deficit, 0.0) + EXACT_SLACK

    def _clear_of_terrain(self, point: shapely.Geometry) -> bool:
        """Whether a base centred at `point` is clearly off every piece of terrain: farther
        than its radius (and `CLEAR_MARGIN`) from their union.

        Then no piece is within the radius less CONTACT_SLACK (the union's outline is within
        1e-9 of the pieces') and the slack owes the terrain nothing, so `_problem` and
        `_slack` need not measure the distances: a prepared `dwithin` stops at the first
        close edge, where `distance` measures every edge of every piece (a fifth of the time
        of a query needing no search, and most start and end in the open).
        """
        return not shapely.dwithin(self._union, point, self.radius + CLEAR_MARGIN)

    def _avoid_arrays(self, avoid: FloatArray) -> tuple[FloatArray, FloatArray]:
        return avoid[:, :2].copy(), avoid[:, 2] + self.radius

    # ----------------------------------------------------------------- queries

    def shortest(self, start: XY, goal: XY, avoid: Avoid = ()) -> Path:
        """The shortest legal path of the base centre from start to goal.

        Answered from the finder's cache when the same start, goal and bases (bit for bit,
        in the same order) were asked recently: the same `Path` object again (it is frozen).
        """
        start = (float(start[0]), float(start[1]))
        goal = (float(goal[0]), float(goal[1]))
        bases = _avoid_array(avoid)
        key = _query_key((*start, *goal), bases)
        with self._lock:
            found = self._paths.get(key)
            if found is None:
                found = self._shortest(start, goal, bases)
                self._paths.put(key, found)
            return found

    def _shortest(self, start: XY, goal: XY, avoid: FloatArray) -> Path:
        avoid_c, avoid_r = self._avoid_arrays(avoid)
        for label, p in (("start", start), ("goal", goal)):
            problem = self._problem(label, p, avoid_c, avoid_r)
            if problem is not None:
                return problem
        points = np.array([start, goal], dtype=np.float64)
        slacks = np.array([self._slack(p, avoid_c, avoid_r) for p in points])
        line_slack = np.array([slacks.max()])
        if self._segments_clear(points[:1], points[1:], line_slack, avoid_c, avoid_r)[0]:
            return Path(True, math.dist(start, goal), (start, goal))
        # Enemy bases only lengthen paths, so a path that clears every enemy while avoiding
        # just some of them is already the shortest: add enemies only as paths run into them.
        # Those blocking the straight line are nearly always in the way: start with them.
        active = _polyline_meets((start, goal), avoid_c, avoid_r, float(slacks.max()))
        for attempt in range(4):
            if attempt == 3:
                active[:] = True
            path = self._search(points, slacks, avoid_c[active], avoid_r[active])
            if not path.reachable:
                return path
            hit = ~active & _polyline_meets(path.waypoints, avoid_c, avoid_r, float(slacks.max()))
            if not np.any(hit):
                break
            active |= hit
        return path

    def _search(
        self, points: FloatArray, slacks: FloatArray, avoid_c: FloatArray, avoid_r: FloatArray
    ) -> Path:
        """Dijkstra from points[0] to points[1] on the graph with these enemy circles."""
        query = self._query_graph(points, slacks, avoid_c, avoid_r)
        n = query.xy.shape[0]
        src, dst = int(query.point_ids[0]), int(query.point_ids[1])
        from scipy.sparse.csgraph import dijkstra

        dist, pred = dijkstra(self._matrix(query, n), indices=src, return_predecessors=True)
        if not np.isfinite(dist[dst]):
            return Path(False, math.inf, (), "no route", "no_route")
        chain = [dst]
        while chain[-1] != src:
            chain.append(int(pred[chain[-1]]))
        waypoints = self._waypoints(query, chain[::-1], avoid_c, avoid_r)
        length = sum(math.dist(a, b) for a, b in zip(waypoints, waypoints[1:], strict=False))
        return Path(True, length, waypoints)

    def reach(self, start: XY, distance: float, avoid: Avoid = ()) -> shapely.Geometry:
        """Base-centre positions reachable from start by a legal path of at most `distance`.

        The geodesic disc: every reflex vertex v of the free space (a polygon just inside the
        true one) lights the part of the disc of radius distance - d(v) around it that it sees
        within its wedge of tangent directions; the start lights its whole visible disc.

        A recent identical query is answered from the cache: the same geometry object again,
        to be read, not changed or prepared (it may be shared between threads).
        """
        start = (float(start[0]), float(start[1]))
        bases = _avoid_array(avoid)
        key = _query_key((*start, float(distance)), bases)
        with self._lock:
            found = self._reaches.get(key)
            if found is None:
                found = self._reach(start, distance, bases)
                self._reaches.put(key, found)
            return found

    def _reach(self, start: XY, distance: float, avoid: FloatArray) -> shapely.Geometry:
        avoid_c, avoid_r = self._avoid_arrays(avoid)
        if distance <= 0.0 or self._problem("start", start, avoid_c, avoid_r) is not None:
            return Polygon()
        origin = np.array([start], dtype=np.float64)
        slack = np.array([self._slack(origin[0], avoid_c, avoid_r)])
        query = self._query_graph(origin, slack, avoid_c, avoid_r)
        n = query.xy.shape[0]
        from scipy.sparse.csgraph import dijkstra

        dist = dijkstra(self._matrix(query, n), indices=int(query.point_ids[0]), limit=distance)
        free = self._reach_free_space(avoid_c, avoid_r)
        edges = _ring_edges(free)
        fans = [self._start_fan(free, edges, origin[0], float(distance))]
        for v, w0, span, d in self._reach_sources(query, dist, free, avoid_c, avoid_r):
            rem = float(distance) - d
            if rem <= 0.0:
                continue
            # Neighbouring vertices' fans share a boundary ray: widen each wedge a hair on
            # its free side (never towards the obstacle) so that the union merges them.
            fans.append(_fan(edges, v, w0, span + WEDGE_OVERLAP, rem))
            fans.append(_fan(edges, v, w0 + math.pi - WEDGE_OVERLAP, span + WEDGE_OVERLAP, rem))
        shapes = [f for f in fans if f is not None]
        if not shapes:
            return Polygon()
        return shapely.union_all(shapes)

    # ----------------------------------------------------------------- query graph

    def _scene(self, avoid_c: FloatArray, avoid_r: FloatArray) -> _Scene:
        c = self._graph.circles
        k = avoid_r.shape[0]
        # An enemy circle's arcs can only meet terrain when the terrain comes that close.
        near_terrain = np.zeros(k, dtype=np.bool_)
        if k and not self._union.is_empty:
            gap = shapely.distance(self._union, shapely.points(avoid_c))
            outer = avoid_r / np.cos(0.5 * arc_steps(avoid_r))
            near_terrain = gap < outer + self.radius + 1e-6
        return _Scene(
            centres=np.concatenate([c.centres, avoid_c]),
            radii=np.concatenate([c.radii, avoid_r]),
            start=np.concatenate([c.start, np.zeros(k)]),
            span=np.concatenate([c.span, np.full(k, TAU)]),
            needs_test=np.concatenate([~c.simple, near_terrain]),
            avoid_centres=avoid_c,
            avoid_radii=avoid_r,
        )

    def _segments_clear(
        self,
        a: FloatArray,
        b: FloatArray,
        slack: FloatArray,
        avoid_c: FloatArray,
        avoid_r: FloatArray,
    ) -> BoolArray:
        """Whether segments keep the base off enemy bases and terrain (table: convexity)."""
        ok = np.ones(a.shape[0], dtype=np.bool_)
        if avoid_r.size and a.shape[0]:
            d = segment_point_distance(a[:, None, :], b[:, None, :], avoid_c[None, :, :])
            ok &= np.all(d >= avoid_r[None, :] - slack[:, None], axis=1)
        idx = np.flatnonzero(ok)
        ok[idx] = segments_clear(self._union, a[idx], b[idx], self.radius - slack[idx], self._core)
        return ok

    def _arcs_clear(
        self, scene: _Scene, circle: IntArray, phi0: FloatArray, delta: FloatArray
    ) -> BoolArray:
        """Whether arcs, traced by their outside polylines, are legal in this scene."""
        result = np.ones(circle.shape[0], dtype=np.bool_)
        if circle.shape[0] == 0:
            return result
        points, offsets = arc_polylines(scene.centres[circle], scene.radii[circle], phi0, delta)
        inside = in_box(points, self._box, EXACT_SLACK)
        result &= np.logical_and.reduceat(inside, offsets[:-1])
        if scene.avoid_radii.size:
            starts = points[:-1]
            ends = points[1:]
            d = segment_point_distance(
                starts[:, None, :], ends[:, None, :], scene.avoid_centres[None, :, :]
            )
            bad = np.any(d < scene.avoid_radii[None, :] - EXACT_SLACK, axis=1)
            # segment s belongs to arc i when offsets[i] <= s < offsets[i + 1] - 1
            seg_arc = np.searchsorted(offsets, np.arange(points.shape[0] - 1), side="right") - 1
            real = np.arange(points.shape[0] - 1) < offsets[seg_arc + 1] - 1
            blocked = np.zeros(circle.shape[0], dtype=np.bool_)
            np.logical_or.at(blocked, seg_arc[real & bad], True)
            result &= ~blocked
        test = np.flatnonzero(result & scene.needs_test[circle])
        if test.size:
            pts, offs = select_polylines(points, offsets, test)
            result[test] = polylines_clear(
                self._union, pts, offs, self.radius - EXACT_SLACK, self._core
            )
        return result

    def _query_graph(
        self, points: FloatArray, slacks: FloatArray, avoid_c: FloatArray, avoid_r: FloatArray
    ) -> _QueryGraph:
        """Add free points (start, goal) and enemy circles to the static graph."""
        g = self._graph
        scene = self._scene(avoid_c, avoid_r)
        n_static = g.circles.count
        n_all = scene.radii.shape[0]
        k = avoid_r.shape[0]

        # Candidate tangents: enemy circle x any other circle, free point x any circle.
        pair_c1: list[IntArray] = []
        pair_c2: list[IntArray] = []
        if k:
            enemy = np.arange(n_static, n_all)
            c1, c2 = np.meshgrid(enemy, np.arange(n_all), indexing="ij")
            mask = c2 < c1  # each enemy with every corner and every earlier enemy
            pair_c1.append(c1[mask])
            pair_c2.append(c2[mask])
        c1 = np.concatenate(pair_c1) if pair_c1 else np.zeros(0, dtype=np.intp)
        c2 = np.concatenate(pair_c2) if pair_c2 else np.zeros(0, dtype=np.intp)
        phi1, phi2, ok = tangent_lines(
            scene.centres[c1], scene.radii[c1], scene.centres[c2], scene.radii[c2]
        )
        seg_c1 = np.broadcast_to(c1, ok.shape)[ok]
        seg_c2 = np.broadcast_to(c2, ok.shape)[ok]
        seg_p1, seg_p2 = phi1[ok], phi2[ok]
        seg_slack = np.full(seg_c1.shape[0], EXACT_SLACK)
        seg_point = np.full(seg_c1.shape[0], -1, dtype=np.intp)

        all_circles = np.arange(n_all)
        for i, p in enumerate(points):
            centres = np.broadcast_to(p, (n_all, 2))
            ph1, _, okp = tangent_lines(
                scene.centres, scene.radii, centres, np.zeros(n_all), slack=float(slacks[i])
            )
            ph1, okp = ph1[:2], okp[:2]
            sel = okp
            seg_c1 = np.concatenate([seg_c1, np.broadcast_to(all_circles, sel.shape)[sel]])
            seg_c2 = np.concatenate([seg_c2, np.full(int(sel.sum()), -1, dtype=np.intp)])
            seg_p1 = np.concatenate([seg_p1, ph1[sel]])
            seg_p2 = np.concatenate([seg_p2, np.zeros(int(sel.sum()))])
            seg_slack = np.concatenate([seg_slack, np.full(int(sel.sum()), slacks[i])])
            seg_point = np.concatenate([seg_point, np.full(int(sel.sum()), i, dtype=np.intp)])

        # Tangent points must lie on usable arcs and on the table.
        keep = in_cone(seg_p1, scene.start[seg_c1], scene.span[seg_c1])
        is_circle2 = seg_c2 >= 0
        c2_safe = np.where(is_circle2, seg_c2, 0)
        keep &= ~is_circle2 | in_cone(seg_p2, scene.start[c2_safe], scene.span[c2_safe])
        t1 = scene.centres[seg_c1] + scene.radii[seg_c1, None] * unit(seg_p1)
        t2 = np.where(
            is_circle2[:, None],
            scene.centres[c2_safe] + scene.radii[c2_safe, None] * unit(seg_p2),
            points[np.maximum(seg_point, 0)] if points.size else np.zeros_like(t1),
        )
        keep &= in_box(t1, self._box, EXACT_SLACK)
        keep &= ~is_circle2 | in_box(t2, self._box, EXACT_SLACK)
        idx = np.flatnonzero(keep)
        clear = self._segments_clear(t1[idx], t2[idx], seg_slack[idx], avoid_c, avoid_r)
        idx = idx[clear]
        seg_c1, seg_c2, seg_p1, seg_p2 = seg_c1[idx], seg_c2[idx], seg_p1[idx], seg_p2[idx]
        t1, t2, seg_point, is_circle2 = t1[idx], t2[idx], seg_point[idx], is_circle2[idx]

        # New nodes: both tangent points of circle-circle segments, the circle end of the others.
        n0 = g.node_count
        m = seg_c1.shape[0]
        c2_nodes = np.flatnonzero(is_circle2)
        new_circle = np.concatenate([seg_c1, seg_c2[c2_nodes]])
        new_phi = np.concatenate([seg_p1, seg_p2[c2_nodes]])
        new_xy = np.concatenate([t1, t2[c2_nodes]])
        new_offset = np.clip(
            cone_offset(new_phi, scene.start[new_circle]), 0.0, scene.span[new_circle]
        )
        point_ids = n0 + new_circle.shape[0] + np.arange(points.shape[0])
        node_a = n0 + np.arange(m)
        node_b = np.empty(m, dtype=np.intp)
        node_b[c2_nodes] = n0 + m + np.arange(c2_nodes.shape[0])
        free_end = np.flatnonzero(~is_circle2)
        node_b[free_end] = point_ids[seg_point[free_end]]

        xy = np.concatenate([g.node_xy, new_xy, points])
        circle = np.concatenate([g.node_circle, new_circle, np.full(points.shape[0], -1)])
        phi = np.concatenate([g.node_phi, new_phi, np.zeros(points.shape[0])])
        offset = np.concatenate([g.node_offset, new_offset, np.zeros(points.shape[0])])

        edges_a: list[IntArray] = [node_a]
        edges_b: list[IntArray] = [node_b]
        weights: list[FloatArray] = [np.hypot(*(t2 - t1).T)]
        if points.shape[0] == 2:  # start to goal directly, when these enemies allow it
            direct = self._segments_clear(
                points[:1], points[1:], np.array([slacks.max()]), avoid_c, avoid_r
            )
            if direct[0]:
                edges_a.append(point_ids[:1])
                edges_b.append(point_ids[1:])
                weights.append(np.array([math.dist(points[0], points[1])]))

        # Static edges that survive the enemy bases.
        sa, sb = g.seg_a, g.seg_b
        if k and sa.size:
            ok_s = self._segments_clear_of_enemies(g.node_xy[sa], g.node_xy[sb], avoid_c, avoid_r)
            sa, sb = sa[ok_s], sb[ok_s]
        edges_a.append(sa)
        edges_b.append(sb)
        weights.append(np.hypot(*(g.node_xy[sb] - g.node_xy[sa]).T))
        aa = g.arc_a
        if k and aa.size:
            aa = aa[self._static_arcs_clear(scene, aa)]
        edges_a.append(aa)
        edges_b.append(aa + 1)
        arc_circle = g.node_circle[aa]
        weights.append(g.circles.radii[arc_circle] * (g.node_offset[aa + 1] - g.node_offset[aa]))

        # Arcs from new nodes to their neighbours on the same circle.
        arc_delta: dict[tuple[int, int], float] = {}
        a_new, b_new, w_new = self._new_arcs(scene, circle, phi, offset, n0, arc_delta)
        edges_a.append(a_new)
        edges_b.append(b_new)
        weights.append(w_new)
        return _QueryGraph(
            xy=xy,
            circle=circle,
            phi=phi,
            offset=offset,
            edge_a=np.concatenate(edges_a),
            edge_b=np.concatenate(edges_b),
            edge_w=np.concatenate(weights),
            arc_delta=arc_delta,
            point_ids=point_ids,
        )

    def _segments_clear_of_enemies(
        self, a: FloatArray, b: FloatArray, avoid_c: FloatArray, avoid_r: FloatArray
    ) -> BoolArray:
        d = segment_point_distance(a[:, None, :], b[:, None, :], avoid_c[None, :, :])
        return np.asarray(np.all(d >= avoid_r[None, :] - EXACT_SLACK, axis=1), dtype=np.bool_)

    def _static_arcs_clear(self, scene: _Scene, arc_a: IntArray) -> BoolArray:
        """Static arcs that no enemy base comes near are kept without tracing them."""
        g = self._graph
        circle = g.node_circle[arc_a]
        centres = g.circles.centres[circle]
        outer = g.circles.radii[circle] / math.cos(0.5 * arc_step(self.radius))
        gap = np.hypot(
            centres[:, None, 0] - scene.avoid_centres[None, :, 0],
            centres[:, None, 1] - scene.avoid_centres[None, :, 1],
        )
        near = np.any(gap < scene.avoid_radii[None, :] + outer[:, None] + 1e-6, axis=1)
        ok = np.ones(arc_a.shape[0], dtype=np.bool_)
        idx = np.flatnonzero(near)
        if idx.size:
            sweep = g.node_offset[arc_a[idx] + 1] - g.node_offset[arc_a[idx]]
            ok[idx] = self._arcs_clear(scene, circle[idx], g.node_phi[arc_a[idx]], sweep)
        return ok

    def _new_arcs(
        self,
        scene: _Scene,
        circle: IntArray,
        phi: FloatArray,
        offset: FloatArray,
        n0: int,
        arc_delta: dict[tuple[int, int], float],
    ) -> tuple[IntArray, IntArray, FloatArray]:
        """Arcs between each new tangent point and its neighbours along its circle."""
        g = self._graph
        n_static = g.circles.count
        new_ids = np.flatnonzero(circle[n0:] >= 0) + n0
        touched = np.unique(circle[new_ids])
        static_ids = [
            np.arange(g.circle_ptr[c], g.circle_ptr[c + 1]) for c in touched if c < n_static
        ]
        ids = np.concatenate([*static_ids, new_ids]) if static_ids else new_ids
        order = np.lexsort((offset[ids], circle[ids]))
        ids = ids[order]
        circ = circle[ids]
        first = np.r_[True, circ[1:] != circ[:-1]]
        last = np.r_[circ[1:] != circ[:-1], True]
        same = ~last
        a = ids[:-1][same[:-1]]
        b = ids[1:][same[:-1]]
        delta = offset[b] - offset[a]
        # Enemy circles are whole: also join the last point back round to the first.
        full = scene.span[circ] >= TAU
        wrap_a, wrap_b = ids[last & full], ids[first & full]
        several = wrap_a != wrap_b
        wrap_a, wrap_b = wrap_a[several], wrap_b[several]
        a = np.concatenate([a, wrap_a])
        b = np.concatenate([b, wrap_b])
        delta = np.concatenate([delta, offset[wrap_b] + TAU - offset[wrap_a]])
        fresh = (a >= n0) | (b >= n0)
        a, b, delta = a[fresh], b[fresh], delta[fresh]
        ok = self._arcs_clear(scene, circle[a], phi[a], delta)
        a, b, delta = a[ok], b[ok], delta[ok]
        w = scene.radii[circle[a]] * delta
        if a.size == 0:
            return a, b, w
        # Two points on an enemy circle are joined both ways round: keep the shorter arc.
        key_lo, key_hi = np.minimum(a, b), np.maximum(a, b)
        order = np.lexsort((w, key_hi, key_lo))
        a, b, delta, w = a[order], b[order], delta[order], w[order]
        first = np.r_[True, (key_lo[order][1:] != key_lo[order][:-1])]
        first |= np.r_[True, (key_hi[order][1:] != key_hi[order][:-1])]
        a, b, delta, w = a[first], b[first], delta[first], w[first]
        enemy = np.flatnonzero(circle[a] >= n_static)
        for ai, bi, di in zip(
            a[enemy].tolist(), b[enemy].tolist(), delta[enemy].tolist(), strict=True
        ):
            arc_delta[(ai, bi)] = di
            arc_delta[(bi, ai)] = -di
        return a, b, w

    @staticmethod
    def _matrix(query: _QueryGraph, n: int) -> csr_matrix:
        """The undirected graph as a symmetric sparse matrix (edges are all distinct)."""
        from scipy.sparse import csr_matrix

        a = np.concatenate([query.edge_a, query.edge_b])
        b = np.concatenate([query.edge_b, query.edge_a])
        w = np.concatenate([query.edge_w, query.edge_w])
        return csr_matrix((w, (a, b)), shape=(n, n))

    def _waypoints(
        self, query: _QueryGraph, chain: list[int], avoid_c: FloatArray, avoid_r: FloatArray
    ) -> tuple[XY, ...]:
        """Trace the node chain: straight between circles, outside polylines along arcs.

        Consecutive arcs on one circle are traced as one, so the small length the polyline
        adds depends on the turn alone, not on where graph nodes happen to split it (mirror
        images then get equal lengths); the merged polyline is tested like any arc.
        """
        g = self._graph
        scene = self._scene(avoid_c, avoid_r)
        runs: list[list[tuple[int, int, float]]] = []  # arcs (a, b, sweep), grouped by circle
        for a, b in zip(chain, chain[1:], strict=False):
            ca, cb = int(query.circle[a]), int(query.circle[b])
            if ca < 0 or ca != cb:
                continue
            if ca < g.circles.count:
                delta = float(query.offset[b] - query.offset[a])
            else:
                delta = query.arc_delta[(a, b)]
            if runs and runs[-1][-1][1] == a and int(query.circle[runs[-1][0][0]]) == ca:
                runs[-1].append((a, b, delta))
            else:
                runs.append([(a, b, delta)])
        merged = [run for run in runs if len(run) > 1]
        if merged:
            circle = np.array([query.circle[run[0][0]] for run in merged], dtype=np.intp)
            phi0 = np.array([query.phi[run[0][0]] for run in merged])
            sweep = np.array([sum(d for _, _, d in run) for run in merged])
            ok = self._arcs_clear(scene, circle, phi0, sweep)
            keep = {id(run) for run, good in zip(merged, ok, strict=True) if good}
        else:
            keep = set()
        arcs: dict[int, tuple[int, int, float]] = {}  # first node -> (circle, last node, sweep)
        for run in runs:
            if id(run) in keep:
                arcs[run[0][0]] = (
                    int(query.circle[run[0][0]]),
                    run[-1][1],
                    sum(d for *_, d in run),
                )
            else:
                for a, b, d in run:
                    arcs[a] = (int(query.circle[a]), b, d)

        out: list[XY] = []
        i = 0
        while i < len(chain):
            node = chain[i]
            out.append((float(query.xy[node, 0]), float(query.xy[node, 1])))
            if node in arcs and i + 1 < len(chain):
                circle_id, last, delta = arcs[node]
                pts, _ = arc_polylines(
                    scene.centres[circle_id : circle_id + 1],
                    scene.radii[circle_id : circle_id + 1],
                    query.phi[node : node + 1],
                    np.array([delta]),
                )
                out.extend((float(x), float(y)) for x, y in pts[1:-1])
                i = chain.index(last, i + 1)
                continue
            i += 1
        deduped = [out[0]]
        for p in out[1:]:
            if p != deduped[-1]:
                deduped.append(p)
        if len(deduped) == 1:
            deduped.append(deduped[0])
        return tuple(deduped)

    # ----------------------------------------------------------------- reach

    def _reach_free_space(self, avoid_c: FloatArray, avoid_r: FloatArray) -> shapely.Geometry:
        """Free space as a polygon just inside the true one (obstacles grown from outside)."""
        grow = REACH_GROW
        if self._reach_obstacles is None:
            self._reach_obstacles = shapely.buffer(
                self._union, self.radius * grow, quad_segs=REACH_QUAD_SEGS
            )
        obstacles = [self._reach_obstacles]
        if avoid_r.size:
            discs = shapely.buffer(
                shapely.points(avoid_c), avoid_r * grow, quad_segs=REACH_QUAD_SEGS
            )
            obstacles.extend(discs)
        free = box(*self._box).difference(shapely.union_all(obstacles))
        shapely.prepare(free)
        return free

    def _reach_sources(
        self,
        query: _QueryGraph,
        dist: FloatArray,
        free: shapely.Geometry,
        avoid_c: FloatArray,
        avoid_r: FloatArray,
    ) -> list[tuple[FloatArray, float, float, float]]:
        """Reflex vertices of the free polygon with their path distance and tangent wedge.

        Each such vertex sits just outside a circle of the exact graph; its distance is the
        distance along that circle from the nearest graph node either side, plus the step out.
        """
        scene = self._scene(avoid_c, avoid_r)
        grow = REACH_GROW
        verts, w0, span = _reflex_vertices(free)
        if verts.shape[0] == 0:
            return []
        rel = verts[:, None, :] - scene.centres[None, :, :]
        radial = np.hypot(rel[..., 0], rel[..., 1])
        angle = np.arctan2(rel[..., 1], rel[..., 0])
        on = np.abs(radial - scene.radii[None, :] * grow) < 1e-6
        on &= in_cone(angle, scene.start[None, :], scene.span[None, :] + 1e-6)
        vi, ci = np.nonzero(on)
        if vi.size == 0:
            return []
        phi = angle[vi, ci]
        u = np.clip(cone_offset(phi, scene.start[ci]), 0.0, scene.span[ci])
        best = np.full(verts.shape[0], math.inf)
        # Graph nodes on each circle in angle order, with their distances.
        node_ids = np.flatnonzero(query.circle >= 0)
        order = np.lexsort((query.offset[node_ids], query.circle[node_ids]))
        node_ids = node_ids[order]
        ncirc = query.circle[node_ids]
        noff = query.offset[node_ids]
        lo = np.searchsorted(ncirc, ci, side="left")
        hi = np.searchsorted(ncirc, ci, side="right")
        key = ci.astype(np.float64) * 16.0 + u  # offsets < 2 pi < 16 keep circles apart
        pos = np.searchsorted(ncirc.astype(np.float64) * 16.0 + noff, key)
        cand_v: list[IntArray] = []
        cand_node: list[IntArray] = []
        has = hi > lo
        full = scene.span[ci] >= TAU
        below = np.where(pos > lo, pos - 1, np.where(full, hi - 1, -1))
        above = np.where(pos < hi, pos, np.where(full, lo, -1))
        for side in (below, above):
            sel = has & (side >= 0)
            cand_v.append(np.flatnonzero(sel))
            cand_node.append(node_ids[side[sel]])
        pair_v = np.concatenate(cand_v)
        pair_node = np.concatenate(cand_node)
        d_node = dist[pair_node]
        live = np.isfinite(d_node)
        pair_v, pair_node, d_node = pair_v[live], pair_node[live], d_node[live]
        if pair_v.size:
            c = ci[pair_v]
            sweep = u[pair_v] - query.offset[pair_node]
            if np.any(full[pair_v]):
                f = full[pair_v]
                sweep[f] = np.mod(sweep[f] + math.pi, TAU) - math.pi
            ok = self._arcs_clear(scene, c, query.phi[pair_node], sweep)
            total = d_node + scene.radii[c] * (np.abs(sweep) + (grow - 1.0))
            total[~ok] = math.inf
            np.minimum.at(best, vi[pair_v], total)
        sources = []
        for i in np.flatnonzero(np.isfinite(best)):
            sources.append((verts[i], float(w0[i]), float(span[i]), float(best[i])))
        return sources

    def _start_fan(
        self,
        free: shapely.Geometry,
        edges: tuple[FloatArray, FloatArray],
        p: FloatArray,
        rem: float,
    ) -> shapely.Geometry | None:
        """The start's visible disc; a start in contact sits on or just outside `free`,
        so it is first moved a hair into the free polygon (the move counts against `rem`)."""
        origin, cost = _into_free(free, p)
        if origin is None:
            return None
        return _fan(edges, origin, 0.0, TAU, rem - cost)


def _polyline_meets(
    waypoints: Sequence[XY], centres: FloatArray, radii: FloatArray, slack: float
) -> BoolArray:
    """Which circles (centre, radius) the polyline enters deeper than `slack`."""
    if radii.shape[0] == 0 or len(waypoints) < 2:
        return np.zeros(radii.shape[0], dtype=np.bool_)
    pts = np.asarray(waypoints, dtype=np.float64)
    d = segment_point_distance(pts[:-1, None, :], pts[1:, None, :], centres[None, :, :])
    return np.asarray(np.any(d < radii[None, :] - slack, axis=0), dtype=np.bool_)


def _ring_edges(free: shapely.Geometry) -> tuple[FloatArray, FloatArray]:
    """All boundary edges of the free polygon as (starts, ends)."""
    starts: list[FloatArray] = []
    ends: list[FloatArray] = []
    for ring in shapely.get_rings(shapely.get_parts(free)).tolist():
        xy = np.asarray(ring.coords, dtype=np.float64)
        starts.append(xy[:-1])
        ends.append(xy[1:])
    if not starts:
        return np.zeros((0, 2)), np.zeros((0, 2))
    return np.concatenate(starts), np.concatenate(ends)


def _reflex_vertices(free: shapely.Geometry) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Reflex vertices of the free polygon and the wedge of tangent directions at each.

    With the free space on the left of every ring, a reflex vertex is a right turn; a path
    bending there leaves along a direction between the outgoing and the incoming edge.
    """
    verts: list[FloatArray] = []
    w0: list[FloatArray] = []
    span: list[FloatArray] = []
    for part in shapely.get_parts(free).tolist():
        ccw = orient(part, sign=1.0)
        for ring in (ccw.exterior, *ccw.interiors):
            xy = np.asarray(ring.coords, dtype=np.float64)[:-1]
            if xy.shape[0] < 3:
                continue
            d_in = xy - np.roll(xy, 1, axis=0)
            d_out = np.roll(xy, -1, axis=0) - xy
            cross = d_in[:, 0] * d_out[:, 1] - d_in[:, 1] * d_out[:, 0]
            dot = np.einsum("ij,ij->i", d_in, d_out)
            turn = np.arctan2(cross, dot)
            reflex = turn < -1e-12
            verts.append(xy[reflex])
            w0.append(np.arctan2(d_out[reflex, 1], d_out[reflex, 0]))
            span.append(-turn[reflex])
    if not verts:
        return np.zeros((0, 2)), np.zeros(0), np.zeros(0)
    return np.concatenate(verts), np.concatenate(w0), np.concatenate(span)


def _into_free(free: shapely.Geometry, p: FloatArray) -> tuple[FloatArray | None, float]:
    """p itself when strictly inside `free`, else the nearest point a hair inside it."""
    point = Point(p[0], p[1])
    if shapely.contains(free, point) and shapely.distance(free.boundary, point) > 1e-7:
        return p, 0.0
    near = np.asarray(shapely.get_coordinates(shapely.shortest_line(point, free))[-1])
    for step in (1e-6, 1e-5, 1e-4, 1e-3):
        ring = near + step * unit(np.linspace(0.0, TAU, 16, endpoint=False))
        inside = shapely.contains(free, shapely.points(ring))
        if np.any(inside):
            q = ring[int(np.argmax(inside))]
            return q, float(math.dist(p, q))
    return None, 0.0


def _circle_crossings(
    a: FloatArray, b: FloatArray, origin: FloatArray, radius: float
) -> list[FloatArray]:
    """Points where the segments a-b cross the circle (origin, radius)."""
    d = b - a
    f = a - origin
    qa = np.einsum("ij,ij->i", d, d)
    qb = 2.0 * np.einsum("ij,ij->i", f, d)
    qc = np.einsum("ij,ij->i", f, f) - radius * radius
    disc = qb * qb - 4.0 * qa * qc
    ok = (disc >= 0.0) & (qa > 0.0)
    root = np.sqrt(np.where(ok, disc, 0.0))
    out = []
    for sign in (-1.0, 1.0):
        t = (-qb + sign * root) / np.where(ok, 2.0 * qa, 1.0)
        keep = ok & (t >= 0.0) & (t <= 1.0)
        out.append(a[keep] + t[keep, None] * d[keep])
    return out


def _fan(
    edges: tuple[FloatArray, FloatArray], origin: FloatArray, w0: float, span: float, rem: float
) -> shapely.Geometry | None:
    """The part of the disc (origin, rem) seen from origin within the angles w0 .. w0 + span.

    Rays go at every edge end in the wedge (either side of it, to catch silhouettes) and every
    RAY_STEP; each ray stops at the first edge or at rem. Between rays the boundary is one
    edge or a chord of the disc, so the fan lies inside the true region.
    """
    if rem <= 0.0 or span <= 0.0:
        return None
    a, b = edges
    if a.shape[0]:
        near = segment_point_distance(a, b, origin[None, :]) < rem
        a, b = a[near], b[near]
    lo, width = w0, span
    count = max(2, math.ceil(width / RAY_STEP) + 1)
    angles = [lo + np.linspace(0.0, width, count)]
    if a.shape[0]:
        # Rays at every edge end and where each edge leaves the disc, so that the corner
        # between an edge and the disc's rim is a vertex of the fan, not cut by a chord.
        ends = np.concatenate([a, b, *_circle_crossings(a, b, origin, rem)]) - origin
        theta = np.arctan2(ends[:, 1], ends[:, 0])
        off = np.mod(theta - lo, TAU)
        for eps in (-1e-7, 1e-7):
            o = off + eps
            angles.append(lo + o[(o > 0.0) & (o < width)])
    angle = np.unique(np.concatenate(angles))
    direction = unit(angle)
    t = np.full(angle.shape[0], min(rem, 1e6))  # the table's edges stop every ray anyway
    if a.shape[0]:
        ab = b - a
        ao = a - origin
        den = direction[:, None, 0] * ab[None, :, 1] - direction[:, None, 1] * ab[None, :, 0]
        safe = np.where(np.abs(den) > 1e-15, den, np.inf)
        t_hit = (ao[None, :, 0] * ab[None, :, 1] - ao[None, :, 1] * ab[None, :, 0]) / safe
        s_hit = (
            ao[None, :, 0] * direction[:, None, 1] - ao[None, :, 1] * direction[:, None, 0]
        ) / safe
        hit = (t_hit > 1e-9) & (s_hit >= -1e-12) & (s_hit <= 1.0 + 1e-12)
        t = np.minimum(t, np.min(np.where(hit, t_hit, np.inf), axis=1))
    ring = origin + t[:, None] * direction
    if span < TAU - 1e-6:
        ring = np.concatenate([origin[None, :], ring])
    shape = Polygon(ring)
    if not shape.is_valid:
        shape = shapely.make_valid(shape)
    return shape if shape.area > 0.0 else None


# The cache is bounded by count and by memory: a graph's size grows with the square of its
# terrain's corners (tens of MB for a few thousand), so a few odd terrains must not hold on to
# the memory of a server process. A finder over `CACHE_BYTES` alone is not kept. Each finder
# counts the most its answer caches may hold (`RESULT_CACHE_BYTES`), so answers fit too.
_CACHE: OrderedDict[tuple[Hashable, tuple[float, float], float], PathFinder] = OrderedDict()
_CACHE_SIZE = 32
CACHE_BYTES = 256 * 1024 * 1024
_CACHE_LOCK = threading.Lock()
_CACHED_BYTES: dict[tuple[Hashable, tuple[float, float], float], int] = {}


def cache_bytes() -> int:
    """What the finders in the cache keep, as `PathFinder.nbytes` counts it (when cached)."""
    with _CACHE_LOCK:
        return sum(_CACHED_BYTES.values())


def pathfinder(
    blockers_key: Hashable,
    blockers: Sequence[tuple[str, Polygon]],
    table: tuple[float, float],
    radius: float,
) -> PathFinder:
    """A cached PathFinder: the graph of one terrain and base size is built only once.

    `blockers_key` must identify `blockers` (e.g. a scene's terrain hash); the caller promises
    equal keys mean equal blockers.
    """
    key = (blockers_key, (float(table[0]), float(table[1])), float(radius))
    with _CACHE_LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
    built = PathFinder(blockers, table, radius)
    size = built.nbytes
    if size > CACHE_BYTES:
        return built
    with _CACHE_LOCK:
        _CACHE[key] = built
        _CACHE.move_to_end(key)
        _CACHED_BYTES[key] = size
        while len(_CACHE) > _CACHE_SIZE or sum(_CACHED_BYTES.values()) > CACHE_BYTES:
            old, _ = _CACHE.popitem(last=False)
            _CACHED_BYTES.pop(old, None)
    return built
