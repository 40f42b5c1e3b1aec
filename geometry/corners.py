"""The camera's corner markers on the table, and the square kept clear round each.

DESIGN.md (camera markers): ArUco markers 0-3, black squares 2.0 in wide, centred 1.5 in from
both table edges at the corners (0 bottom-left, 1 bottom-right, 2 top-right, 3 top-left). The
marker sheet prints each on white paper cut 0.45 in outside the black square: that white is
the marker's quiet zone, which the detector needs to see the square's border against.

A set-up keeps a **keep-out square** at each corner clear of every base, marker and terrain
piece: from the table's corner to 0.45 in beyond the black square, that is 2.95 in from both
edges on the 80 cm table. It reaches the table edges because the marker's paper does (it
stops 0.05 in short of them), and because nothing fits between the paper and the edges.
docs/rules.md D41 says why this size.

>>> keep_out_squares(31.4961, 31.4961)[0].bounds
(0.0, 0.0, 2.95, 2.95)
"""

from __future__ import annotations

import shapely
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

__all__ = ["MARKER_SIZE", "MARKER_INSET", "QUIET_ZONE", "marker_centres", "marker_squares",
           "keep_out_squares", "keep_out"]

MARKER_SIZE = 2.0  # the black square, inches
MARKER_INSET = 1.5  # its centre from both edges at its corner
QUIET_ZONE = 0.45  # white round the black square: the marker sheet's cut line


def marker_centres(width: float, depth: float,
                   inset: float = MARKER_INSET) -> tuple[tuple[float, float], ...]:
    """The centres of markers 0-3: bottom-left, bottom-right, top-right, top-left."""
    return ((inset, inset), (width - inset, inset), (width - inset, depth - inset),
            (inset, depth - inset))


def marker_squares(width: float, depth: float, size: float = MARKER_SIZE,
                   inset: float = MARKER_INSET) -> tuple[Polygon, ...]:
    """The black squares of markers 0-3."""
    h = size / 2
    return tuple(box(x - h, y - h, x + h, y + h) for x, y in marker_centres(width, depth, inset))


def keep_out_squares(width: float, depth: float, size: float = MARKER_SIZE,
                     inset: float = MARKER_INSET,
                     margin: float = QUIET_ZONE) -> tuple[Polygon, ...]:
    """The square kept clear at each corner, markers 0-3 in order: from the table's corner
    to `margin` beyond the marker's black square, along both edges."""
    k = inset + size / 2 + margin
    return (box(0, 0, k, k), box(width - k, 0, width, k), box(width - k, depth - k, width, depth),
            box(0, depth - k, k, depth))


def keep_out(width: float, depth: float) -> BaseGeometry:
    """The four keep-out squares as one geometry (prepared, for many queries)."""
    shape = shapely.union_all(keep_out_squares(width, depth))
    shapely.prepare(shape)
    return shape
