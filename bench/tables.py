"""A seeded benchmark table: 25 terrain pieces, 10 survivors and 100 zombies."""

from __future__ import annotations

import numpy as np
import shapely
from shapely.affinity import rotate
from shapely.geometry import Polygon, box

from geometry.terrain import wall_footprint
from geometry.units import TABLE_INCHES, base_radius

R = base_radius(25)


def bench_terrain(seed: int = 7, pieces: int = 25) -> list[Polygon]:
    """Buildings (rotated boxes) and L-shaped walls, as on a busy club table."""
    rng = np.random.default_rng(seed)
    out: list[Polygon] = []
    while len(out) < pieces:
        x, y = rng.uniform(3.0, TABLE_INCHES - 3.0, 2)
        if rng.random() < 0.5:
            w, h = rng.uniform(1.0, 4.5, 2)
            shape = rotate(box(x - w / 2, y - h / 2, x + w / 2, y + h / 2), rng.uniform(0, 90))
        else:
            a, b = rng.uniform(1.5, 5.0, 2)
            shape = wall_footprint([(x + a, y), (x, y), (x, y + b)], 0.25)
            shape = rotate(shape, rng.uniform(0, 360), origin=(x, y))
        if all(shape.distance(p) > 0.2 for p in out) and shapely.within(
            shape, box(0, 0, TABLE_INCHES, TABLE_INCHES)
        ):
            out.append(shape)
    return out


def bench_figures(terrain: list[Polygon], count: int, seed: int = 11) -> np.ndarray:
    """`count` base centres clear of the terrain and of each other."""
    rng = np.random.default_rng(seed)
    union = shapely.union_all(terrain)
    shapely.prepare(union)
    placed: list[tuple[float, float]] = []
    while len(placed) < count:
        p = rng.uniform(R, TABLE_INCHES - R, 2)
        if shapely.distance(union, shapely.Point(p)) <= R + 0.05:
            continue
        if any((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 < (2 * R + 0.1) ** 2 for q in placed):
            continue
        placed.append((float(p[0]), float(p[1])))
    return np.array(placed)
