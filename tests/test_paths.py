"""Shortest paths and reach of a round base: golden cases by hand, properties, a reference.

The reference is an independent brute-force visibility graph on polygons: the blockers grown
by r with chords inside the true rounded shape (free space a little too big: a lower bound
on the true length) and grown from outside (free space a little too small: an upper bound).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box

from geometry.paths import Path, PathFinder, pathfinder

W = 800.0 / 25.4  # the 80 cm table
TABLE = (W, W)
R = 25.0 / 25.4 / 2.0  # a 25 mm base
Blockers = list[tuple[str, Polygon]]


def wall(points: list[tuple[float, float]], thickness: float = 0.25) -> Polygon:
    """A wall footprint as the scene format makes it: flat ends, mitred joins."""
    shape = LineString(points).buffer(thickness / 2, cap_style="flat", join_style="mitre")
    assert isinstance(shape, Polygon)
    return shape


def reference_length(
    blockers: Blockers,
    start: tuple[float, float],
    goal: tuple[float, float],
    outer: bool,
    radius: float = R,
    quad_segs: int = 16,
) -> float:
    """Shortest centre path among blockers grown into polygons, by brute force."""
    union = shapely.union_all([p for _, p in blockers])
    grow = radius / math.cos(1.5 * math.pi / (4 * quad_segs)) if outer else radius
    grown = shapely.buffer(union, grow, quad_segs=quad_segs)
    interior = shapely.buffer(grown, -1e-7)
    shapely.prepare(interior)
    verts = [np.asarray(r.coords)[:-1] for r in shapely.get_rings(shapely.get_parts(grown))]
    nodes = np.concatenate([*verts, np.array([start, goal])])
    inside = (nodes >= radius - 1e-9).all(axis=1) & (nodes <= W - radius + 1e-9).all(axis=1)
    nodes = nodes[inside]
    if shapely.intersects(interior, shapely.points(nodes[-2:])).any():
        return math.inf  # start or goal inside the grown polygon (a contact case)
    i, j = np.triu_indices(nodes.shape[0], k=1)
    lines = shapely.linestrings(np.stack([nodes[i], nodes[j]], axis=1))
    ok = ~shapely.intersects(interior, lines)
    w = np.hypot(*(nodes[j[ok]] - nodes[i[ok]]).T)
    n = nodes.shape[0]
    graph = csr_matrix((w, (i[ok], j[ok])), shape=(n, n))
    return float(dijkstra(graph, directed=False, indices=n - 2)[n - 1])


def assert_legal(path: Path, blockers: Blockers, avoid=(), radius: float = R) -> None:
    """Every waypoint segment keeps the whole base on the table, off terrain and enemies."""
    assert path.reachable
    pts = np.asarray(path.waypoints)
    assert pts.shape[0] >= 2
    assert (pts >= radius - 1e-6).all() and (pts <= W - radius + 1e-6).all()
    segments = shapely.linestrings(np.stack([pts[:-1], pts[1:]], axis=1))
    if blockers:
        union = shapely.union_all([p for _, p in blockers])
        assert shapely.distance(union, segments).min() >= radius - 1e-6
    for x, y, r in avoid:
        assert shapely.distance(Point(x, y), segments).min() >= radius + r - 1e-6
    total = sum(math.dist(a, b) for a, b in zip(path.waypoints, path.waypoints[1:], strict=False))
    assert path.length == pytest.approx(total, abs=1e-9)


def around_box_length(h: float, a: float, r: float) -> float:
    """Exact length from (-h - a, 0) to (h + a, 0) round the box [-h, h]^2: two tangents,
    two arcs of radius r round the top corners, and the offset top edge."""
    d = math.hypot(a, h)
    tangent = math.sqrt(d * d - r * r)
    psi = math.atan2(-h, -a) + 2 * math.pi  # direction from the corner to the start
    arc = psi - math.acos(r / d) - math.pi / 2  # from the tangent point up to the top normal
    return 2 * (tangent + r * arc) + 2 * h


# ----------------------------------------------------------------- golden cases


@pytest.mark.parametrize(("h", "a"), [(1.0, 1.0), (2.0, 0.6), (0.5, 3.0), (3.0, 4.0)])
def test_around_a_square_box(h: float, a: float) -> None:
    cx = cy = 15.0
    blockers = [("box", box(cx - h, cy - h, cx + h, cy + h))]
    finder = PathFinder(blockers, TABLE, R)
    path = finder.shortest((cx - h - a, cy), (cx + h + a, cy))
    exact = around_box_length(h, a, R)
    assert exact - 1e-9 <= path.length <= exact + 0.002
    assert_legal(path, blockers)


def test_straight_line_when_clear() -> None:
    finder = PathFinder([("box", box(10, 10, 12, 12))], TABLE, R)
    path = finder.shortest((2.0, 2.0), (20.0, 5.0))
    assert path.waypoints == ((2.0, 2.0), (20.0, 5.0))
    assert path.length == pytest.approx(math.dist((2, 2), (20, 5)))


def test_zero_length_path() -> None:
    finder = PathFinder([], TABLE, R)
    path = finder.shortest((3.0, 4.0), (3.0, 4.0))
    assert path.reachable and path.length == 0.0


def house(door_open: bool) -> Blockers:
    """A walled room [10, 20] x [10, 20] with a 2 in door in its west wall."""
    pieces: Blockers = [
        ("north", wall([(10, 20), (20, 20)])),
        ("east", wall([(20, 20), (20, 10)])),
        ("south", wall([(20, 10), (10, 10)])),
        ("west-low", wall([(10, 10), (10, 14)])),
        ("west-high", wall([(10, 16), (10, 20)])),
    ]
    if not door_open:
        pieces.append(("door", wall([(10, 14), (10, 16)])))
    return pieces


def test_through_an_open_door_and_round_a_closed_one() -> None:
    start, goal = (6.0, 15.0), (14.0, 15.0)
    opened = PathFinder(house(True), TABLE, R).shortest(start, goal)
    assert opened.length == pytest.approx(8.0, abs=1e-9)  # straight through the doorway
    closed = PathFinder(house(False), TABLE, R).shortest(start, goal)
    assert not closed.reachable and closed.reason == "no route"  # the room is enclosed

    outside = (24.0, 15.0)  # round the house instead of into it
    finder = PathFinder(house(False), TABLE, R)
    path = finder.shortest(start, outside)
    assert_legal(path, house(False))
    low = reference_length(house(False), start, outside, outer=False)
    high = reference_length(house(False), start, outside, outer=True)
    assert low - 1e-9 <= path.length <= high + 1e-3
    assert path.length - low < 0.01


def test_door_route_matches_reference() -> None:
    blockers = house(True)
    start, goal = (6.0, 8.0), (18.0, 18.0)
    path = PathFinder(blockers, TABLE, R).shortest(start, goal)
    assert_legal(path, blockers)
    low = reference_length(blockers, start, goal, outer=False)
    high = reference_length(blockers, start, goal, outer=True)
    assert low - 1e-9 <= path.length <= high + 1e-3
    assert path.length < math.dist(start, goal) + 3.0  # through the door, not round the house


def test_enclosed_room_is_unreachable() -> None:
    finder = PathFinder(house(False), TABLE, R)
    path = finder.shortest((15.0, 15.0), (2.0, 2.0))
    assert path == Path(False, math.inf, (), "no route", "no_route")
    assert finder.shortest((15.0, 15.0), (18.0, 18.0)).reachable  # inside the room is fine


def test_goal_overlapping_terrain_names_it() -> None:
    finder = PathFinder([("house", box(10, 2, 14, 5))], TABLE, R)
    path = finder.shortest((2.0, 2.0), (12.0, 3.0))
    assert not path.reachable and math.isinf(path.length) and path.waypoints == ()
    assert path.reason == "goal (12.0, 3.0): base would overlap terrain 'house'"
    near = finder.shortest((2.0, 2.0), (12.0, 5.0 + R / 2))  # the base edge would overlap
    assert "'house'" in near.reason


def test_start_overlapping_terrain_is_refused() -> None:
    finder = PathFinder([("crate", box(10, 2, 14, 5))], TABLE, R)
    path = finder.shortest((12.0, 5.2), (2.0, 2.0))
    assert not path.reachable and path.reason.startswith("start (12.0, 5.2)")
    assert "'crate'" in path.reason


@pytest.mark.parametrize("goal", [(W + 1, 3.0), (3.0, -1.0), (R / 2, 10.0), (10.0, W - R / 3)])
def test_goal_off_the_table(goal: tuple[float, float]) -> None:
    path = PathFinder([], TABLE, R).shortest((5.0, 5.0), goal)
    assert not path.reachable and "off the table" in path.reason


def test_base_may_touch_the_table_edge() -> None:
    path = PathFinder([], TABLE, R).shortest((R, R), (W - R, W - R))
    assert path.reachable and path.length == pytest.approx(math.hypot(W - 2 * R, W - 2 * R))


def test_enemy_base_forces_a_detour() -> None:
    enemy = (10.0, 15.0, R)
    finder = PathFinder([], TABLE, R)
    path = finder.shortest((5.0, 15.0), (15.0, 15.0), avoid=[enemy])
    big = 2 * R
    exact = 2 * math.sqrt(25 - big * big) + big * (math.pi - 2 * math.acos(big / 5))
    assert exact - 1e-9 <= path.length <= exact + 1e-3
    assert_legal(path, [], avoid=[enemy])


def test_ending_in_base_contact_with_an_enemy() -> None:
    enemy = (10.0, 15.0, R)
    finder = PathFinder([], TABLE, R)
    contact = (10.0 - 2 * R, 15.0)
    path = finder.shortest((5.0, 15.0), contact, avoid=[enemy])
    assert path.reachable and path.length == pytest.approx(5.0 - 2 * R)
    overlap = finder.shortest((5.0, 15.0), (10.0 - 1.5 * R, 15.0), avoid=[enemy])
    assert not overlap.reachable and "enemy" in overlap.reason
    # leaving from contact: round the enemy's circle (radius 2R), then the tangent to the goal
    away = finder.shortest(contact, (15.0, 15.0), avoid=[enemy])
    big = 2 * R
    exact = big * (math.pi - math.acos(big / 5)) + math.sqrt(25 - big * big)
    assert exact - 1e-9 <= away.length <= exact + 1e-3
    assert_legal(away, [], avoid=[enemy])


def test_enemies_and_terrain_together_match_reference() -> None:
    blockers = [("box", box(12, 12, 16, 16)), ("wall", wall([(8, 18), (8, 24), (14, 24)]))]
    enemies = [(10.0, 14.0, R), (17.0, 19.0, 0.8), (11.0, 20.5, R)]
    start, goal = (6.0, 13.0), (19.0, 22.0)
    path = PathFinder(blockers, TABLE, R).shortest(start, goal, avoid=enemies)
    assert_legal(path, blockers, avoid=enemies)
    discs = [(f"e{i}", Point(x, y).buffer(r, quad_segs=64)) for i, (x, y, r) in enumerate(enemies)]
    low = reference_length([*blockers, *discs], start, goal, outer=False)
    assert low - 1e-6 <= path.length <= low + 0.01


def test_start_in_contact_with_a_wall_is_accepted() -> None:
    blockers = [("wall", box(10, 5, 10.25, 25))]
    finder = PathFinder(blockers, TABLE, R)
    for start in [
        (10 - R, 15.0),
        (10.25 + R, 15.0),
        (10 - R * math.sqrt(0.5), 5 - R * math.sqrt(0.5)),
    ]:
        path = finder.shortest(start, (5.0, 20.0) if start[0] < 10 else (14.0, 3.0))
        assert path.reachable, path.reason
        assert_legal(path, blockers)
    # touching the far corner and going round it to the other side
    corner = (10.25 + R * math.sqrt(0.5), 25 + R * math.sqrt(0.5))
    path = finder.shortest(corner, (8.0, 26.0))
    assert_legal(path, blockers)
    low = reference_length(blockers, corner, (8.0, 26.0), outer=False)
    assert low - 1e-9 <= path.length <= low + 0.01
    inside = finder.shortest((10 - R + 5e-7, 15.0), (5.0, 20.0))  # float dust is contact
    assert inside.reachable
    assert not finder.shortest((10 - R + 1e-4, 15.0), (5.0, 20.0)).reachable


@pytest.mark.parametrize(("gap", "passes"), [(2 * R - 0.05, False), (2 * R + 0.01, True)])
def test_corridor_narrower_than_the_base(gap: float, passes: bool) -> None:
    """Two walls across the table leave one slit; only a slit wider than the base passes."""
    y0 = 15.0
    blockers = [
        ("left", box(-1, y0, 10, y0 + 0.5)),
        ("right", box(10 + gap, y0, W + 1, y0 + 0.5)),
    ]
    path = PathFinder(blockers, TABLE, R).shortest((10 + gap / 2, 10.0), (10 + gap / 2, 20.0))
    assert path.reachable is passes
    if passes:
        assert path.length == pytest.approx(10.0)
    else:
        assert path.reason == "no route"


def test_pathfinder_is_cached() -> None:
    blockers = [("box", box(10, 10, 12, 12))]
    first = pathfinder("scene-1", blockers, TABLE, R)
    assert pathfinder("scene-1", blockers, TABLE, R) is first
    assert pathfinder("scene-1", blockers, TABLE, 0.8) is not first


# ----------------------------------------------------------------- properties

coord = st.floats(min_value=2.0, max_value=W - 2.0)


@st.composite
def scenes(draw: st.DrawFn) -> Blockers:
    """One to four rotated boxes and L-shaped walls, possibly touching or overlapping."""
    blockers: Blockers = []
    for i in range(draw(st.integers(1, 4))):
        cx, cy = draw(coord), draw(coord)
        angle = draw(st.floats(0, 180))
        if draw(st.booleans()):
            w, h = draw(st.floats(0.3, 5)), draw(st.floats(0.3, 5))
            shape = box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        else:
            a, b = draw(st.floats(1, 6)), draw(st.floats(1, 6))
            shape = wall([(cx + a, cy), (cx, cy), (cx, cy + b)])
        blockers.append((f"t{i}", affinity.rotate(shape, angle, origin=(cx, cy))))
    return blockers


def legal(blockers: Blockers, p: tuple[float, float]) -> bool:
    union = shapely.union_all([b for _, b in blockers])
    return bool(union.distance(Point(p)) >= R)


points = st.tuples(st.floats(min_value=R, max_value=W - R), st.floats(min_value=R, max_value=W - R))
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


@SETTINGS
@given(scenes(), points, points)
def test_paths_are_legal_and_no_shorter_than_the_line(
    blockers: Blockers, start: tuple[float, float], goal: tuple[float, float]
) -> None:
    assume(legal(blockers, start) and legal(blockers, goal))
    path = PathFinder(blockers, TABLE, R).shortest(start, goal)
    if not path.reachable:
        assert path.reason == "no route" and path.waypoints == ()
        return
    assert path.length >= math.dist(start, goal) - 1e-9
    assert path.waypoints[0] == start and path.waypoints[-1] == goal
    assert_legal(path, blockers)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(scenes(), points, points)
def test_length_is_within_the_reference_bounds(
    blockers: Blockers, start: tuple[float, float], goal: tuple[float, float]
) -> None:
    assume(legal(blockers, start) and legal(blockers, goal))
    path = PathFinder(blockers, TABLE, R).shortest(start, goal)
    low = reference_length(blockers, start, goal, outer=False)
    high = reference_length(blockers, start, goal, outer=True)
    if not path.reachable:
        assert math.isinf(high)
        return
    assert low - 1e-9 <= path.length <= high + 2e-3
    assert path.length - low < 0.01


@SETTINGS
@given(scenes(), points, points)
def test_mirror_symmetry(
    blockers: Blockers, start: tuple[float, float], goal: tuple[float, float]
) -> None:
    assume(legal(blockers, start) and legal(blockers, goal))

    def mirror(p: tuple[float, float]) -> tuple[float, float]:
        return (W - p[0], p[1])

    mirrored = [(k, affinity.scale(b, -1, 1, origin=(W / 2, 0))) for k, b in blockers]
    a = PathFinder(blockers, TABLE, R).shortest(start, goal)
    b = PathFinder(mirrored, TABLE, R).shortest(mirror(start), mirror(goal))
    assert a.reachable == b.reachable
    if a.reachable:
        assert a.length == pytest.approx(b.length, abs=1e-6)


@SETTINGS
@given(scenes(), points, points, st.lists(points, min_size=1, max_size=4))
def test_paths_keep_clear_of_enemies(
    blockers: Blockers,
    start: tuple[float, float],
    goal: tuple[float, float],
    enemy_at: list[tuple[float, float]],
) -> None:
    enemies = [(x, y, R) for x, y in enemy_at]
    for p in (start, goal):
        assume(legal(blockers, p))
        assume(all(math.dist(p, e[:2]) >= 2 * R for e in enemies))
    finder = PathFinder(blockers, TABLE, R)
    path = finder.shortest(start, goal, avoid=enemies)
    if path.reachable:
        assert_legal(path, blockers, avoid=enemies)
        # enemies only lengthen the true path; the arc polylines may differ by < 1e-3
        assert path.length >= finder.shortest(start, goal).length - 1e-3


# ----------------------------------------------------------------- reach


def test_reach_without_obstacles_is_a_disc() -> None:
    finder = PathFinder([], TABLE, R)
    region = finder.reach((15.0, 15.0), 6.0)
    assert region.area == pytest.approx(math.pi * 36, rel=1e-3)
    assert region.area <= math.pi * 36
    corner = finder.reach((2.0, 2.0), 5.0)
    clipped = Point(2, 2).buffer(5, quad_segs=256).intersection(box(R, R, W - R, W - R))
    assert corner.area == pytest.approx(clipped.area, rel=2e-3)


def test_reach_behind_a_wall_needs_the_detour() -> None:
    blockers = [("wall", box(14, 10, 14.25, 20))]
    finder = PathFinder(blockers, TABLE, R)
    start, behind = (13.0, 15.0), (15.5, 15.0)
    detour = finder.shortest(start, behind).length
    assert detour > 11.0
    assert not finder.reach(start, detour - 0.05).contains(Point(behind))
    assert finder.reach(start, detour + 0.05).contains(Point(behind))
    assert finder.reach(start, 3.0).contains(Point(10.5, 15.0))


def test_reach_from_contact_and_around_enemies() -> None:
    blockers = [("wall", box(14, 10, 14.25, 20))]
    finder = PathFinder(blockers, TABLE, R)
    start = (14 - R, 15.0)  # touching the wall
    enemy = (12.0, 15.0, R)
    region = finder.reach(start, 4.0, avoid=[enemy])
    assert region.area > 0
    assert not region.contains(Point(12.0 + R, 15.0))  # overlapping the enemy
    assert region.contains(Point(12.0, 15.0 + 2 * R + 0.05))


def test_illegal_start_reaches_nothing() -> None:
    finder = PathFinder([("box", box(10, 10, 12, 12))], TABLE, R)
    assert finder.reach((11.0, 11.0), 5.0).is_empty


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(scenes(), points, st.floats(2.0, 8.0), st.lists(points, min_size=30, max_size=30))
def test_reach_agrees_with_shortest(
    blockers: Blockers,
    start: tuple[float, float],
    distance: float,
    probes: list[tuple[float, float]],
) -> None:
    assume(legal(blockers, start))
    finder = PathFinder(blockers, TABLE, R)
    region = finder.reach(start, distance)
    union = shapely.union_all([b for _, b in blockers])
    for probe in probes:
        p = (
            start[0] + (probe[0] - W / 2) * distance / W * 2,
            start[1] + (probe[1] - W / 2) * distance / W * 2,
        )
        if not (R <= p[0] <= W - R and R <= p[1] <= W - R):
            continue
        clearance = union.distance(Point(p))
        if clearance < R:
            continue
        length = finder.shortest(start, p).length
        if region.contains(Point(p)):
            assert length <= distance + 1e-6
        elif clearance > R + 0.01 and min(p[0], p[1], W - p[0], W - p[1]) > R + 0.01:
            assert length > distance - 0.01
