"""Edge-to-edge distances between round bases, vectorised over many figures at once.

This is what players measure with a tape: closest points of the two bases, in a straight
line, terrain ignored. Overlapping bases never happen in a valid scene; the distance is
clamped at 0 so touching bases are exactly 0 apart.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from geometry.units import CONTACT_INCHES

__all__ = ["edge_distances", "edge_distance", "in_contact", "within"]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def edge_distances(
    centres_a: FloatArray, radii_a: FloatArray, centres_b: FloatArray, radii_b: FloatArray
) -> FloatArray:
    """Matrix of edge-to-edge distances, rows for `a`, columns for `b`.

    Centre to centre as sqrt(dx * dx + dy * dy), the very operations (and so the very bits)
    of scipy's `cdist(a, b)` for two columns, without importing scipy.spatial, which takes
    a third of a second and more: a whole command line's question (tests/test_distance.py
    checks the bits against cdist).
    """
    dx = centres_a[:, None, 0] - centres_b[None, :, 0]
    dy = centres_a[:, None, 1] - centres_b[None, :, 1]
    gaps = np.sqrt(dx * dx + dy * dy) - (radii_a[:, None] + radii_b[None, :])
    clamped: FloatArray = np.maximum(gaps, 0.0)
    return clamped


def edge_distance(
    a: tuple[float, float], radius_a: float, b: tuple[float, float], radius_b: float
) -> float:
    """Edge-to-edge distance between two bases."""
    centre_gap = float(np.hypot(a[0] - b[0], a[1] - b[1]))
    return max(centre_gap - (radius_a + radius_b), 0.0)


def in_contact(distances: FloatArray) -> BoolArray:
    """Base contact: edge distance at most 0.05 in."""
    return distances <= CONTACT_INCHES + 1e-9


def within(distances: FloatArray, inches: float) -> BoolArray:
    """'Within N inches', edge to edge, inclusive."""
    return distances <= inches + 1e-9
