"""Edge-to-edge distance and contact."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.spatial.distance import cdist

from geometry.distance import edge_distance, edge_distances, in_contact, within
from geometry.units import base_radius

R = base_radius(25)


def test_design_example_distance() -> None:
    expected = math.hypot(17.0, 4.5) - 2 * R
    assert edge_distance((3.0, 8.0), R, (20.0, 12.5), R) == pytest.approx(expected)
    assert expected == pytest.approx(16.6013, abs=1e-4)


def test_touching_bases_are_zero_apart_and_in_contact() -> None:
    d = edge_distances(np.array([[0.0, 0.0]]), np.array([R]), np.array([[2 * R, 0.0]]),
                       np.array([R]))
    assert d[0, 0] == 0.0 and in_contact(d)[0, 0]


@pytest.mark.parametrize(("gap", "touching"), [(0.0, True), (0.05, True), (0.0501, False)])
def test_contact_threshold(gap: float, touching: bool) -> None:
    d = edge_distances(np.array([[0.0, 0.0]]), np.array([R]),
                       np.array([[2 * R + gap, 0.0]]), np.array([R]))
    assert bool(in_contact(d)[0, 0]) is touching


def test_within_is_inclusive() -> None:
    assert within(np.array([20.0, 20.0000001]), 20.0).tolist() == [True, False]


xy = st.tuples(st.floats(0, 31.5), st.floats(0, 31.5))
mm = st.sampled_from([25.0, 30.0, 40.0, 50.0])


@given(xy, mm, xy, mm)
def test_distance_is_symmetric(a: tuple[float, float], ma: float, b: tuple[float, float],
                               mb: float) -> None:
    ra, rb = base_radius(ma), base_radius(mb)
    assert edge_distance(a, ra, b, rb) == edge_distance(b, rb, a, ra)
    m = edge_distances(np.array([a, b]), np.array([ra, rb]), np.array([a, b]),
                       np.array([ra, rb]))
    assert m[0, 1] == pytest.approx(m[1, 0]) and m[0, 1] >= 0


@given(xy, xy, st.floats(-5, 5), st.floats(-5, 5))
def test_distance_ignores_translation(a: tuple[float, float], b: tuple[float, float],
                                      dx: float, dy: float) -> None:
    moved = edge_distance((a[0] + dx, a[1] + dy), R, (b[0] + dx, b[1] + dy), R)
    assert moved == pytest.approx(edge_distance(a, R, b, R), abs=1e-9)


@given(st.lists(st.tuples(st.floats(-100, 100), st.floats(-100, 100)), min_size=1, max_size=30),
       st.lists(st.tuples(st.floats(-100, 100), st.floats(-100, 100)), min_size=1, max_size=30))
def test_edge_distances_are_cdists_to_the_bit(a: list[tuple[float, float]],
                                              b: list[tuple[float, float]]) -> None:
    """`edge_distances` measures centres without scipy; the bits are scipy's all the same."""
    ca, cb = np.array(a), np.array(b)
    ra, rb = np.full(len(a), R), np.full(len(b), base_radius(40))
    want = np.maximum(cdist(ca, cb) - (ra[:, None] + rb[None, :]), 0.0)
    got = edge_distances(ca, ra, cb, rb)
    assert got.shape == want.shape and got.tobytes() == want.tobytes()


def test_edge_distances_of_random_tables_are_cdists_to_the_bit() -> None:
    rng = np.random.default_rng(24)
    for scale in (1e-3, 1.0, 31.5, 1e4):
        ca, cb = rng.uniform(0, scale, (300, 2)), rng.uniform(0, scale, (200, 2))
        ra, rb = rng.uniform(0, scale / 50, 300), rng.uniform(0, scale / 50, 200)
        want = np.maximum(cdist(ca, cb) - (ra[:, None] + rb[None, :]), 0.0)
        assert edge_distances(ca, ra, cb, rb).tobytes() == want.tobytes()
