"""Geometry benchmarks: sight matrix, moving figure, activation query, paths."""

from __future__ import annotations

import math
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import shapely

from bench.tables import R, bench_figures, bench_terrain
from bench.timing import measure
from geometry.distance import edge_distances, within
from geometry.paths import PathFinder
from geometry.sight import SightField
from geometry.sightmatrix import SightMatrix
from geometry.units import TABLE_INCHES


@dataclass(frozen=True)
class Row:
    what: str
    target: str
    ours: str
    peer_name: str
    peer: str
    note: str = ""


def sampled_matrix(
    union: shapely.Geometry, observers: np.ndarray, targets: np.ndarray, rays: int = 17
) -> tuple[np.ndarray, np.ndarray]:
    """The peer: `rays` sight lines per pair to evenly spaced rim points, shapely predicates."""
    phi = np.linspace(0.0, 2 * math.pi, rays, endpoint=False)
    rim = targets[:, None, :] + R * np.stack((np.cos(phi), np.sin(phi)), axis=1)[None]
    m, n = len(observers), len(targets)
    starts = np.broadcast_to(observers[:, None, None, :], (m, n, rays, 2))
    ends = np.broadcast_to(rim[None], (m, n, rays, 2))
    lines = shapely.linestrings(np.stack((starts, ends), axis=3).reshape(-1, 2, 2))
    blocked = shapely.intersects(union, lines).reshape(m, n, rays)
    clear = ~blocked
    return clear.any(axis=2), clear.mean(axis=2)


def naive_graph(terrain: list[shapely.Geometry], radius: float) -> int:
    """The peer: grow each piece by the radius as a polygon (8 segments a quarter circle),
    then test every pair of vertices for a clear sight line, as textbooks build it."""
    grown = shapely.union_all([shapely.buffer(p, radius, quad_segs=8) for p in terrain])
    core = shapely.buffer(grown, -1e-6)
    shapely.prepare(core)
    rings = [np.asarray(r.coords)[:-1] for g in getattr(grown, "geoms", [grown])
             for r in (g.exterior, *g.interiors)]
    nodes = np.concatenate(rings)
    i, j = np.triu_indices(len(nodes), k=1)
    lines = shapely.linestrings(np.stack((nodes[i], nodes[j]), axis=1))
    return int(np.count_nonzero(~shapely.intersects(core, lines)))


def peak_kib(fn: Callable[[], object]) -> float:
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024


def run() -> list[Row]:
    terrain = bench_terrain()
    figures = bench_figures(terrain, 110)
    survivors, zombies = figures[:10], figures[10:]
    radii = np.full(100, R)
    field = SightField(terrain, TABLE_INCHES, TABLE_INCHES)
    union = shapely.union_all(terrain)
    shapely.prepare(union)
    rows: list[Row] = []

    def exact() -> tuple[np.ndarray, np.ndarray]:
        return field.matrix(survivors, zombies, radii)

    def peer() -> tuple[np.ndarray, np.ndarray]:
        return sampled_matrix(union, survivors, zombies)

    ours_t, peer_t = measure(exact, runs=40), measure(peer, runs=15)
    vis, frac = exact()
    pvis, pfrac = peer()
    missed = int(np.sum(vis & ~pvis))
    wrong_frac = float(np.max(np.abs(frac - pfrac)))
    rows.append(Row(
        "10 x 100 line-of-sight matrix with visible fractions", "< 10 ms", ours_t.ms(),
        "17-ray sampling, shapely prepared predicates", peer_t.ms(),
        f"{peer_t.median_s / ours_t.median_s:.1f}x faster; sampling missed {missed} visible "
        f"pair(s) of {int(vis.sum())}, fraction off by up to {wrong_frac:.2f}; "
        f"peak memory {peak_kib(exact):.0f} KiB vs {peak_kib(peer):.0f} KiB",
    ))

    live = SightMatrix(field, survivors, zombies, radii)
    rng = np.random.default_rng(3)
    spots = bench_figures(terrain, 40, seed=5)

    def move_survivor() -> None:
        x, y = spots[rng.integers(len(spots))]
        live.move_observer(int(rng.integers(10)), float(x), float(y))

    def move_zombie() -> None:
        x, y = spots[rng.integers(len(spots))]
        live.move_target(int(rng.integers(100)), float(x), float(y))

    t_s, t_z = measure(move_survivor, runs=60), measure(move_zombie, runs=60)
    rows.append(Row(
        "one figure moves, its row and column re-answered", "< 1.5 ms",
        f"{t_s.ms()} (survivor: view + row of 100), {t_z.ms()} (zombie: column of 10)",
        "recompute the whole matrix", ours_t.ms(),
    ))

    humans = np.concatenate((survivors[:9], zombies[:1]))
    human_r = np.full(len(humans), R)

    def activation() -> np.ndarray:
        return within(edge_distances(zombies, radii, humans, human_r).min(axis=1), 20.0)

    points_h = shapely.points(humans)

    def activation_peer() -> list[bool]:
        return [
            bool(np.any(shapely.distance(shapely.Point(z).buffer(R, 16), points_h) - R <= 20))
            for z in zombies
        ]

    a_t, a_p = measure(activation, runs=200), measure(activation_peer, runs=10)
    rows.append(Row(
        "20 in activation query (100 zombies, 10 humans)", "< 50 µs", a_t.us(),
        "per-zombie shapely distance loop", a_p.us(),
        f"{a_p.median_s / a_t.median_s:.0f}x faster",
    ))

    blockers = [(f"t{i}", p) for i, p in enumerate(terrain)]
    table = (TABLE_INCHES, TABLE_INCHES)
    build = measure(lambda: PathFinder(blockers, table, R), runs=10, warmup=1)
    naive = measure(lambda: naive_graph(terrain, R), runs=3, warmup=1)
    finder = PathFinder(blockers, table, R)
    pairs = [(spots[i], spots[-1 - i]) for i in range(20)]
    k = iter(range(10**9))

    def query() -> object:
        a, b = pairs[next(k) % len(pairs)]
        return finder.shortest(tuple(a), tuple(b))

    def query_uncached() -> object:
        a, b = pairs[next(k) % len(pairs)]
        return PathFinder(blockers, table, R).shortest(tuple(a), tuple(b))

    q_t, q_p = measure(query, runs=60), measure(query_uncached, runs=10, warmup=1)
    rows.append(Row(
        "visibility-graph build (25 pieces, 25 mm base)", "< 25 ms", build.ms(),
        "all vertex pairs of polygon-grown terrain, shapely prepared", naive.ms(),
        f"{naive.median_s / build.median_s:.0f}x faster; exact arcs instead of polygon "
        "corners",
    ))
    rows.append(Row(
        "path query on the cached graph", "< 2 ms", q_t.ms(),
        "build the graph for every query", q_p.ms(),
        f"{q_p.median_s / q_t.median_s:.0f}x faster",
    ))
    return rows
