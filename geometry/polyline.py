"""Walking along a route: the point a given distance along a polyline."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["length", "point_along"]

Point = tuple[float, float]


def length(points: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:], strict=False))


def point_along(points: Sequence[Point], distance: float) -> Point:
    """The point `distance` along the polyline (its end if it is shorter)."""
    if not points:
        raise ValueError("empty route")
    left = max(distance, 0.0)
    for a, b in zip(points, points[1:], strict=False):
        step = math.dist(a, b)
        if step >= left and step > 0:
            t = left / step
            return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
        left -= step
    return points[-1]
