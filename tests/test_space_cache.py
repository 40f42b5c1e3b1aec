"""The geometry's answer caches change no answer, stay within their bounds and may be shared
by threads.

Paths and reach regions are kept per finder by their exact inputs, free regions by point per
terrain and radius, distances read from Python lists: each cached answer is compared, bit for
bit, with one computed afresh (without any cache, or by the code as it was before the caches)
on the street demo table, whose terrain splits the free space into several regions.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from geometry import paths as paths_module
from geometry import space as space_module
from geometry.errors import SceneError
from geometry.lru import LRU
from geometry.paths import Path, PathFinder, _avoid_array, _query_key
from geometry.scene import Scene
from geometry.space import EDGE_NOISE, Space
from geometry.units import base_radius
from scenarios.tables import load_table

STREET: Scene = load_table("street")
W, D = STREET.table.width, STREET.table.depth
RADII = (base_radius(25), base_radius(40), base_radius(60))
R = RADII[0]
BLOCKERS = [(t.id, t.footprint) for t in STREET.movement_blockers]
BASES = [(f.x, f.y, f.radius) for f in STREET.figures]
SLOW = settings(max_examples=80, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _bits(path: Path) -> tuple[Any, ...]:
    """Everything a path says, its floats by their bits."""
    return (path.reachable, path.length.hex(), tuple((x.hex(), y.hex()) for x, y in
            path.waypoints), path.reason, path.problem, path.at, path.pieces)


def _fresh(finder: PathFinder, start: tuple[float, float], goal: tuple[float, float],
           avoid: list[tuple[float, float, float]]) -> Path:
    """The path computed now, past the cache."""
    with finder._lock:
        return finder._shortest((float(start[0]), float(start[1])),
                                (float(goal[0]), float(goal[1])), _avoid_array(avoid))


CACHED = PathFinder(BLOCKERS, (W, D), R)
REFERENCE = PathFinder(BLOCKERS, (W, D), R)

coordinate = st.floats(0.0, W, allow_nan=False)
inside = st.floats(1.0, W - 1.0)
# starts and goals where figures stand (legal, interesting), anywhere on the table (often on
# terrain), now and then off it
spot = st.one_of(st.sampled_from([(f.x, f.y) for f in STREET.figures]),
                 st.tuples(inside, inside), st.tuples(coordinate, coordinate))
bases = st.lists(st.sampled_from(BASES), max_size=8, unique=True)


# --- paths ------------------------------------------------------------------------------

@SLOW
@given(start=spot, goal=spot, avoid=bases)
def test_a_cached_path_is_the_path_computed_afresh(
        start: tuple[float, float], goal: tuple[float, float],
        avoid: list[tuple[float, float, float]]) -> None:
    avoid = [b for b in avoid if math.dist(b[:2], start) > 1e-9]  # not the mover itself
    first = CACHED.shortest(start, goal, avoid)
    again = CACHED.shortest(start, goal, list(avoid))  # an equal list, not the same one
    assert again is first
    assert _bits(first) == _bits(_fresh(REFERENCE, start, goal, avoid))
    event("round terrain or bases" if len(first.waypoints) > 2 else
          "straight" if first.reachable else first.problem)


def test_routes_between_the_figures_are_the_routes_computed_afresh() -> None:
    """Every figure to every other, round the others as enemies: searches, not shortcuts."""
    finder = PathFinder(BLOCKERS, (W, D), R)
    spots = [(f.x, f.y) for f in STREET.figures]
    searched = 0
    for i, start in enumerate(spots):
        for j, goal in enumerate(spots[:12]):
            if i != j:
                avoid = [b for k, b in enumerate(BASES) if k not in (i, j) and (k + i) % 3]
                first = finder.shortest(start, goal, avoid)
                assert finder.shortest(start, goal, avoid) is first
                assert _bits(first) == _bits(_fresh(REFERENCE, start, goal, avoid))
                searched += len(first.waypoints) > 2
    assert searched > 20


def test_the_key_is_the_inputs_bit_for_bit() -> None:
    """Equal numbers meet whatever their type; 0.0 and -0.0 do not, nor the bases' order."""
    empty = _avoid_array(())
    assert _query_key((1.0, 2.0), _avoid_array([(3, 4, 0.5)])) == _query_key(
        (1.0, 2.0), _avoid_array([(3.0, np.float64(4.0), 0.5)]))
    assert _query_key((0.0, 2.0), empty) != _query_key((-0.0, 2.0), empty)
    one, two = (5.0, 5.0, 0.5), (9.0, 9.0, 0.5)
    assert _query_key((), _avoid_array([one, two])) != _query_key((), _avoid_array([two, one]))
    # a negative zero is said as such in the reason: it must not be answered from 0.0's
    assert CACHED.shortest((0.0, 5.0), (9.0, 9.0)).reason != CACHED.shortest(
        (-0.0, 5.0), (9.0, 9.0)).reason


def test_a_bad_avoid_still_raises() -> None:
    with pytest.raises(ValueError):
        CACHED.shortest((5.0, 5.0), (9.0, 9.0), [(1.0, 2.0, 3.0, 4.0)])  # type: ignore[list-item]


def test_the_path_cache_stays_within_its_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paths_module, "PATH_CACHE_ITEMS", 5)
    small = PathFinder(BLOCKERS, (W, D), R)
    spots = [(f.x, f.y) for f in STREET.figures]
    for goal in spots:
        small.shortest(spots[0], goal)
    assert len(small._paths) == 5
    monkeypatch.setattr(paths_module, "PATH_CACHE_BYTES", 4000)
    tight = PathFinder(BLOCKERS, (W, D), R)
    for goal in spots:
        tight.shortest(spots[0], goal, BASES[10:])
        assert tight._paths.nbytes <= 4000
    assert 0 < len(tight._paths) < len(spots)
    # the finder counts what its answers may hold in the memory the finder cache budgets
    assert small.nbytes >= paths_module.RESULT_CACHE_BYTES


def test_a_cached_reach_is_the_region_computed_afresh() -> None:
    start, avoid = (STREET.figures[0].x, STREET.figures[0].y), BASES[5:9]
    first = CACHED.reach(start, 4.0, avoid)
    assert CACHED.reach(start, 4.0, list(avoid)) is first
    with REFERENCE._lock:
        fresh = REFERENCE._reach(start, 4.0, _avoid_array(avoid))
    assert shapely.to_wkb(first) == shapely.to_wkb(fresh) and first.area > 0
    assert CACHED.reach(start, 4.5, avoid) is not first
    assert len(CACHED._reaches) <= paths_module.REACH_CACHE_ITEMS


def _in_threads(work: Callable[[int], list[Any]], threads: int = 4) -> list[list[Any]]:
    got: list[list[Any]] = [[] for _ in range(threads)]
    errors: list[BaseException] = []
    barrier = threading.Barrier(threads)

    def run(k: int) -> None:
        try:
            barrier.wait()
            got[k] = work(k)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    workers = [threading.Thread(target=run, args=(k,)) for k in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
    assert not errors and not any(w.is_alive() for w in workers)
    return got


def test_threads_sharing_a_finder_get_the_answers_of_one() -> None:
    shared = PathFinder(BLOCKERS, (W, D), R)
    spots = [(f.x, f.y) for f in STREET.figures][:8]
    queries = [(a, b, BASES[12:16] if (i + j) % 2 else []) for i, a in enumerate(spots[:4])
               for j, b in enumerate(spots[4:])]
    want = [_bits(_fresh(REFERENCE, *q)) for q in queries]

    def work(k: int) -> list[Any]:  # each thread its own order, every query twice
        order = queries[k:] + queries[:k]
        return [(q, _bits(shared.shortest(*q))) for q in order + order[::-1]]

    for answers in _in_threads(work):
        for q, bits in answers:
            assert bits == want[queries.index(q)]


# --- the terrain prefilter of a query's points --------------------------------------------

def _terrain_answers_as_before(finder: PathFinder, p: tuple[float, float]
                               ) -> tuple[tuple[str, ...], float]:
    """The pieces a base at p overlaps and its slack, measured as before the prefilter."""
    dist = shapely.distance(finder._polygons, shapely.Point(p))
    hit = tuple(finder._ids[i] for i in np.flatnonzero(dist < finder.radius - 1e-6))
    deficit = finder.radius - float(shapely.distance(finder._union, shapely.Point(p)))
    return hit, max(deficit, 0.0) + 1e-9


OUTLINE = np.concatenate([shapely.get_coordinates(t.footprint) for t in STREET.movement_blockers])


@settings(max_examples=400, deadline=None)
@given(st.integers(0, len(OUTLINE) - 1), st.floats(0.0, 2 * math.pi),
       st.one_of(st.floats(-3e-6, 3e-6), st.floats(-0.2, 0.2), st.just(0.0)))
def test_points_near_terrain_are_measured_as_before(corner: int, angle: float,
                                                    off: float) -> None:
    """Points round the pieces' corners at the radius, give or take a hair: the prefilter
    (`_clear_of_terrain`) leaves which pieces they overlap, and their slack, unchanged."""
    x, y = OUTLINE[corner]
    p = (float(x + (R + off) * math.cos(angle)), float(y + (R + off) * math.sin(angle)))
    assume(R + 1e-3 < p[0] < W - R - 1e-3 and R + 1e-3 < p[1] < D - R - 1e-3)
    hit, slack = _terrain_answers_as_before(REFERENCE, p)
    none = np.zeros((0, 2)), np.zeros(0)
    with CACHED._lock:
        problem = CACHED._problem("start", p, *none)
        if hit:
            assert problem is not None and problem.pieces == hit
        else:
            assert problem is None
            assert CACHED._slack(np.array(p), *none).hex() == slack.hex()
    event("overlaps" if hit else "in contact" if slack > 1e-9 else "clear")


# --- regions by point -------------------------------------------------------------------

def _same_region_as_before(radius: float, a: tuple[float, float],
                           points: list[tuple[float, float]]) -> bool:
    """`Space.same_region` as it was before its cache (over the same regions)."""
    with space_module._REGIONS_LOCK:
        regions = space_module._free_regions(Space(STREET)._terrain_key, STREET, radius).parts
        region = next((r for r in regions if shapely.intersects_xy(r, *a)), None)
        if region is None:
            here = shapely.Point(a)
            region = next((r for r in regions if shapely.distance(r, here) <= EDGE_NOISE),
                          None)
        if region is None or not points:
            return False
        xy = np.asarray(points, dtype=np.float64)
        return bool(np.any(shapely.intersects_xy(region, xy[:, 0], xy[:, 1])))


def _edge_points(radius: float) -> list[tuple[float, float]]:
    """Points on the regions' boundaries and a hair outside them (the EDGE_NOISE case)."""
    with space_module._REGIONS_LOCK:
        parts = space_module._free_regions(Space(STREET)._terrain_key, STREET, radius).parts
        coords = np.concatenate([shapely.get_coordinates(p) for p in parts])
    out: list[tuple[float, float]] = []
    for x, y in coords[:: max(1, len(coords) // 40)].tolist():
        out += [(x, y), (x + 5e-7, y), (x - 5e-7, y), (x, y + 2e-6)]
    return out


EDGES = {r: _edge_points(r) for r in RADII}


@st.composite
def region_query(draw: st.DrawFn) -> tuple[float, tuple[float, float], list[tuple[float, float]]]:
    radius = draw(st.sampled_from(RADII))
    near = st.sampled_from(EDGES[radius])
    point = st.one_of(near, st.tuples(coordinate, coordinate),
                      st.sampled_from([(f.x, f.y) for f in STREET.figures]))
    return radius, draw(point), draw(st.lists(point, max_size=6))


@settings(max_examples=300, deadline=None)
@given(query=region_query())
def test_same_region_answers_as_before(
        query: tuple[float, tuple[float, float], list[tuple[float, float]]]) -> None:
    radius, a, points = query
    space = Space(STREET)
    want = _same_region_as_before(radius, a, points)
    assert space.same_region(radius, a, points) is want
    assert space.same_region(radius, a, points) is want  # answered from the cache
    assert Space(STREET).same_region(radius, a, list(points)) is want  # another space
    event(f"same region: {want}")


def test_several_regions_and_the_edge_case_are_exercised() -> None:
    radius = RADII[1]
    with space_module._REGIONS_LOCK:
        regions = space_module._free_regions(Space(STREET)._terrain_key, STREET, radius)
        assert len(regions.parts) > 2
        outside = [p for p in EDGES[radius]
                   if not any(shapely.intersects_xy(r, *p) for r in regions.parts)]
        noise = [(p, regions.start_of(*p)) for p in outside]
        noise = [(p, i) for p, i in noise if i >= 0]
        inner = [shapely.get_coordinates(shapely.point_on_surface(r))[0] for r in regions.parts]
    assert noise  # starts a hair outside their region, found within EDGE_NOISE
    for p, i in noise[:10]:
        goal = (float(inner[i][0]), float(inner[i][1]))
        assert _same_region_as_before(radius, p, [goal])
        assert Space(STREET).same_region(radius, p, [goal])


def test_the_region_caches_stay_within_their_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(space_module, "REGION_POINTS", 10)
    monkeypatch.setattr(space_module, "REGION_STARTS", 3)
    monkeypatch.setattr(space_module, "_REGIONS", LRU(2))
    space = Space(STREET)
    rng = np.random.default_rng(3)
    for x, y in rng.uniform(1.0, W - 1.0, (50, 2)).tolist():
        space.same_region(R, (x, y), [(y, x), (x, x)])
    regions = space._regions[R]
    assert len(regions._touched) == 10 and len(regions._starts) == 3
    for r in RADII:
        Space(STREET).same_region(r, (5.0, 5.0), [(6.0, 6.0)])
    assert len(space_module._REGIONS) == 2


def test_threads_asking_regions_get_the_answers_of_one() -> None:
    rng = np.random.default_rng(5)
    queries = [(RADII[k % 3], (x, y), [(y, x)]) for k, (x, y) in
               enumerate(rng.uniform(1.0, W - 1.0, (60, 2)).tolist())]
    want = [_same_region_as_before(*q) for q in queries]

    def work(k: int) -> list[Any]:
        space = Space(STREET)
        return [space.same_region(*q) for q in queries[k:] + queries[:k]]

    for k, answers in enumerate(_in_threads(work)):
        assert answers == want[k:] + want[:k]


# --- distances --------------------------------------------------------------------------

def test_distance_reads_the_matrix_bit_for_bit() -> None:
    space = Space(STREET)
    ids = [f.id for f in STREET.figures]
    for i, a in enumerate(ids):
        for j, b in enumerate(ids):
            got = space.distance(a, b)
            assert type(got) is float
            assert got.hex() == float(space.distances[i, j]).hex()
    with pytest.raises(SceneError):
        space.distance("nobody", ids[0])
    with pytest.raises(SceneError):
        space.distance(ids[0], "nobody")


# --- the LRU itself ---------------------------------------------------------------------

def test_the_lru_evicts_the_least_recently_used_by_count_and_bytes() -> None:
    lru: LRU[str, int] = LRU(3, 100, lambda key, value: value)
    for key, size in (("a", 10), ("b", 20), ("c", 30)):
        lru.put(key, size)
    assert lru.get("a") == 10  # now the most recent: "b" goes first
    lru.put("d", 5)
    assert lru.get("b") is None and len(lru) == 3 and lru.nbytes == 45
    heavy: LRU[str, int] = LRU(10, 100, lambda key, value: value)
    for key, size in (("a", 40), ("b", 40), ("c", 30)):  # 110 bytes: "a" goes
        heavy.put(key, size)
    assert heavy.get("a") is None and heavy.nbytes == 70 and len(heavy) == 2
    heavy.put("huge", 101)  # heavier than the whole budget: not kept, nothing evicted
    assert heavy.get("huge") is None and len(heavy) == 2
    heavy.put("b", 1)  # replacing an entry counts it once
    assert heavy.nbytes == 31 and heavy.get("b") == 1
    assert (lru.hits, lru.misses, heavy.hits, heavy.misses) == (1, 1, 1, 2)
    with pytest.raises(ValueError):
        LRU(0)


def test_distances_need_no_scipy() -> None:
    """A command line's distance question is answered without importing scipy.spatial."""
    import subprocess
    import sys

    code = ("import sys; from geometry.space import Space; from scenarios.tables import "
            "load_table; s = Space(load_table('street')); s.distance('s1', 'z1'); "
            "assert 'scipy.spatial' not in sys.modules, 'scipy.spatial imported'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr


def _fresh_sight(scene: Scene, observers: list[str], targets: list[str]) -> dict[
        str, dict[str, Any]]:
    """The sight table of a space with nothing kept: a new field, every pair in one batch."""
    return Space(scene).sight_table(observers, targets)


@SLOW
@given(st.lists(st.tuples(st.integers(0, len(STREET.figures) - 1),
                          st.floats(-1.5, 1.5), st.floats(-1.5, 1.5)), min_size=1, max_size=6))
def test_sight_pairs_kept_by_spot_answer_as_a_fresh_batch(moves: list[Any]) -> None:
    """Sight depends only on where the two bases stand: a pair measured before is read back
    when neither moved, and each answer equals, bit for bit, a fresh field's whole batch."""
    figures = list(STREET.figures)
    field = Space(STREET).sight_field
    for i, dx, dy in moves:
        f = figures[i]
        x = min(max(f.x + dx, f.radius), W - f.radius)
        y = min(max(f.y + dy, f.radius), D - f.radius)
        figures[i] = type(f)(f.id, f.side, x, y, f.base_mm)
        scene = Scene(STREET.table, STREET.terrain, tuple(figures))
        ids = [g.id for g in figures]
        kept = Space(scene, field).sight_table(ids, ids)
        fresh = _fresh_sight(scene, ids, ids)
        for o in ids:
            assert list(kept[o]) == list(fresh[o])
            for t in ids:
                a, b = kept[o][t], fresh[o][t]
                assert a.visible == b.visible and a.fraction.hex() == b.fraction.hex(), (o, t)
    assert len(field.answered) <= space_module.ANSWERED
