"""Exact line of sight: hand-made golden cases and hypothesis properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.affinity import rotate
from shapely.geometry import Polygon, box

from geometry.sight import SightField
from geometry.terrain import wall_footprint

R = 12.5 / 25.4  # a 25 mm base
W = 31.4961


def sight(footprints: list[Polygon], observer: tuple[float, float],
          target: tuple[float, float], radius: float = R) -> tuple[bool, float]:
    field = SightField(footprints, W, W)
    vis, frac = field.matrix(np.array([observer]), np.array([target]), np.array([radius]))
    return bool(vis[0, 0]), float(frac[0, 0])


def offset_from_line(a: tuple[float, float], b: tuple[float, float], along: float,
                     off: float) -> tuple[float, float]:
    """The point `along` in beyond b on the line a->b, shifted `off` in to its left."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    ux, uy = dx / n, dy / n
    return (b[0] + along * ux - off * uy, b[1] + along * uy + off * ux)


OBS = (5.0, 5.0)
BLOCK = box(8, 3, 9, 7)  # its top-left corner (8, 7) casts the shadow edge
CORNER = (8.0, 7.0)


def test_open_table_sees_everything() -> None:
    assert sight([], OBS, (25.0, 25.0)) == (True, 1.0)


def test_target_wholly_behind_a_block_is_hidden() -> None:
    assert sight([BLOCK], OBS, (12.0, 5.0)) == (False, 0.0)


def test_base_centred_on_the_shadow_edge_is_half_visible() -> None:
    visible, fraction = sight([BLOCK], OBS, offset_from_line(OBS, CORNER, 5.0, 0.0))
    assert visible
    assert fraction == pytest.approx(0.5, abs=1e-12)


@pytest.mark.parametrize("off", [0.1, 0.25, 0.4, -0.1, -0.3])
def test_partial_visibility_behind_a_corner_matches_the_chord(off: float) -> None:
    """The visible arc is cut by the shadow line at distance `off` from the centre."""
    visible, fraction = sight([BLOCK], OBS, offset_from_line(OBS, CORNER, 5.0, off))
    # The shadow edge is a straight line through the corner: the hidden part is the circle
    # on the block's side of it, an arc of 2*acos(off/R) when the centre is `off` clear.
    expected = 1.0 - math.acos(off / R) / math.pi
    assert visible
    assert fraction == pytest.approx(expected, abs=1e-9)


def test_grazing_the_corner_from_the_hidden_side_is_visible_with_no_arc() -> None:
    """Only the tangent point can be seen, along a line grazing the corner: visible."""
    visible, fraction = sight([BLOCK], OBS, offset_from_line(OBS, CORNER, 5.0, -R))
    assert visible
    # A tangency is a double root: float rounding of 1e-16 opens a chord of ~sqrt(1e-16).
    assert fraction == pytest.approx(0.0, abs=1e-6)


def test_just_past_the_graze_is_hidden() -> None:
    assert sight([BLOCK], OBS, offset_from_line(OBS, CORNER, 5.0, -R - 1e-4)) == (False, 0.0)


def test_sight_line_running_along_a_wall_face_is_not_blocked() -> None:
    face = box(6, 4, 10, 5)  # top face on y = 5, the observer's own height
    visible, fraction = sight([face], OBS, (12.0, 5.0 - R))
    assert visible and fraction == pytest.approx(0.0, abs=1e-9)
    visible, fraction = sight([face], OBS, (12.0, 5.0 - R - 0.01))
    assert not visible


def test_zero_width_gap_between_touching_corners_lets_sight_through() -> None:
    pinch = [box(6, 4, 8, 6), box(8, 6, 10, 8)]  # they touch at (8, 6)
    visible, fraction = sight(pinch, (5.0, 9.0), (12.0, 2.0))
    assert visible and fraction == pytest.approx(0.0, abs=1e-9)


def test_observer_inside_sight_blocking_terrain_sees_nothing() -> None:
    smoke = box(0, 0, 10, 10)
    assert sight([smoke], (5.0, 5.0), (20.0, 20.0)) == (False, 0.0)


def test_target_partly_inside_sight_blocking_terrain() -> None:
    """Half the base stands in a hedge of rubble: the part inside cannot be seen."""
    rubble = box(15, 0, 25, 10)
    visible, fraction = sight([rubble], (5.0, 5.0), (15.0, 5.0))
    assert visible
    # Visible: the arc left of x = 15 (the half outside the rubble), exactly.
    assert fraction == pytest.approx(0.5, abs=1e-9)


def test_closed_and_open_door() -> None:
    wall = wall_footprint([(10, 0), (10, 14)], 0.25)
    wall2 = wall_footprint([(10, 16), (10, 31)], 0.25)
    door = wall_footprint([(10, 14), (10, 16)], 0.25)
    closed = [wall, wall2, door]
    assert sight(closed, (5.0, 15.0), (15.0, 15.0)) == (False, 0.0)
    visible, fraction = sight([wall, wall2], (5.0, 15.0), (15.0, 15.0))
    assert visible and 0.0 < fraction <= 1.0


# --- properties -------------------------------------------------------------------------

coords = st.floats(min_value=2.0, max_value=W - 2.0, allow_nan=False)
rects = st.builds(
    lambda x, y, w, h, a: rotate(box(x, y, x + w, y + h), a),
    coords, coords, st.floats(0.3, 5.0), st.floats(0.3, 5.0), st.floats(0.0, 180.0),
)
walls = st.builds(
    lambda pts, t: wall_footprint(pts, t),
    st.lists(st.tuples(coords, coords), min_size=2, max_size=4, unique=True).filter(
        lambda p: all(math.dist(a, b) > 0.2 for a, b in zip(p, p[1:], strict=False))
    ),
    st.floats(0.1, 0.5),
)
terrain = st.lists(st.one_of(rects, walls), min_size=0, max_size=6)
points = st.tuples(coords, coords)


def clear_of(footprints: list[Polygon], p: tuple[float, float]) -> bool:
    if not footprints:
        return True
    return bool(shapely.union_all(footprints).distance(shapely.Point(p)) > R + 1e-6)


PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(points, points)
def test_nothing_hides_on_an_open_table(o: tuple[float, float], t: tuple[float, float]) -> None:
    if math.dist(o, t) < 2 * R:
        return
    assert sight([], o, t) == (True, 1.0)


@PROPS
@given(terrain, st.data(), points, points)
def test_removing_terrain_never_hides_a_target(
    pieces: list[Polygon], data: st.DataObject, o: tuple[float, float], t: tuple[float, float]
) -> None:
    pieces = [p for p in pieces if p.is_valid and p.area > 0]
    if math.dist(o, t) < 2 * R or not clear_of(pieces, o) or not clear_of(pieces, t):
        return
    keep = [p for p in pieces if data.draw(st.booleans())]
    vis_all, frac_all = sight(pieces, o, t)
    vis_some, frac_some = sight(keep, o, t)
    assert frac_some >= frac_all - 1e-9
    assert vis_some or not vis_all


@PROPS
@given(terrain, points, points, st.floats(-1.5, 1.5), st.floats(-1.5, 1.5))
def test_translating_the_whole_scene_changes_nothing(
    pieces: list[Polygon], o: tuple[float, float], t: tuple[float, float], dx: float, dy: float
) -> None:
    pieces = [p for p in pieces if p.is_valid and p.area > 0]
    if math.dist(o, t) < 2 * R or not clear_of(pieces, o) or not clear_of(pieces, t):
        return
    moved = [shapely.affinity.translate(p, dx, dy) for p in pieces]
    before = sight(pieces, o, t)
    after = sight(moved, (o[0] + dx, o[1] + dy), (t[0] + dx, t[1] + dy))
    assert after[1] == pytest.approx(before[1], abs=1e-7)
    if before[1] > 1e-7:
        assert after[0]


@PROPS
@given(terrain, points, points)
def test_fraction_agrees_with_dense_sampling(
    pieces: list[Polygon], o: tuple[float, float], t: tuple[float, float]
) -> None:
    """An independent check: 2000 sight segments tested by shapely's exact predicates."""
    pieces = [p for p in pieces if p.is_valid and p.area > 0]
    if math.dist(o, t) < 2 * R or not clear_of(pieces, o) or not clear_of(pieces, t):
        return
    _, fraction = sight(pieces, o, t)
    if not pieces:
        return
    union = shapely.union_all(pieces)
    phi = np.linspace(0.0, 2 * math.pi, 2000, endpoint=False)
    rim = np.column_stack((t[0] + R * np.cos(phi), t[1] + R * np.sin(phi)))
    lines = shapely.linestrings([[o, p] for p in rim])
    sampled = 1.0 - shapely.relate_pattern(union, lines, "T********").mean()
    assert fraction == pytest.approx(sampled, abs=0.004)
