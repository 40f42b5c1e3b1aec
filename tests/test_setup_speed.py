"""The fast set-up gives the answers the plain loops gave, to the last bit.

`scenarios.placement` measures spots in numpy, against a grid of distances to the terrain
kept per table, and `scenarios.corners` tries shifts and door slides in blocks; both fall
back on the exact measure where numpy's is within a hair of a limit. Here the plain
algorithm the set-up used before (written out again, loop by loop) is the oracle: the same
spots in the same order, the same corners cleared, on demo tables and random towns.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
import shapely
from shapely.affinity import translate
from shapely.geometry import LineString, Polygon, box
from shapely.geometry.base import BaseGeometry

from geometry.corners import keep_out
from geometry.errors import SceneError
from geometry.scene import Scene, load_scene
from geometry.units import TABLE_INCHES, base_radius
from scenarios import corners, placement
from scenarios.cards import load_cards
from scenarios.placement import CLEARANCE, GRID_STEP, Placer, Spot, far_from
from scenarios.tables import table_data
from scenarios.town import TILE_INCHES, generate_town

W = D = TABLE_INCHES
R = base_radius(25)


class PlainPlacer:
    """The placer as it was: every spot measured with shapely, every gap with Spot.gap."""

    def __init__(self, scene: Scene, keep: BaseGeometry | None = None,
                 order_scene: Scene | None = None) -> None:
        self.taken: list[Spot] = []
        self.keep_out = keep
        self.order_scene = order_scene
        self.blocked = _union(scene)
        self.order_blocked = self.blocked if order_scene is None else _union(order_scene)
        self.table = box(0, 0, scene.table.width, scene.table.depth)

    def pool(self, region: BaseGeometry, r: float) -> list[tuple[float, float]]:
        inner = region.intersection(self.table).buffer(-r)
        if inner.is_empty:
            return []
        x0, y0, x1, y1 = inner.bounds
        xs = np.arange(math.floor(x0 / GRID_STEP) * GRID_STEP, x1 + 1e-9, GRID_STEP)
        ys = np.arange(math.floor(y0 / GRID_STEP) * GRID_STEP, y1 + 1e-9, GRID_STEP)
        gx, gy = np.meshgrid(xs, ys)
        px, py = gx.ravel(), gy.ravel()
        keep = shapely.intersects_xy(inner, px, py)
        px, py = px[keep], py[keep]
        if self.order_blocked is not None and px.size:
            clear = shapely.distance(self.order_blocked, shapely.points(px, py)) >= r + CLEARANCE
            px, py = px[clear], py[clear]
        return [(round(float(x), 4), round(float(y), 4)) for x, y in zip(px, py, strict=True)]

    def allowed(self, spot: tuple[float, float], r: float, reach: float | None) -> bool:
        point = shapely.Point(spot)
        if self.order_scene is not None and self.blocked is not None and shapely.distance(
                self.blocked, point) < r + CLEARANCE - 1e-4:
            return False
        return self.keep_out is None or bool(far_from(
            self.keep_out, np.array([spot[0]]), np.array([spot[1]]),
            (r if reach is None else reach) + CLEARANCE)[0])

    def place_slots(self, region: BaseGeometry, count: int, r: float, *, gap: float = 0.05,
                    rng: random.Random | None = None,
                    anchor: tuple[float, float] | None = None,
                    away: Sequence[tuple[Spot, float]] = (), avoid: BaseGeometry | None = None,
                    spacing: float = 0.0, reach: float | None = None) -> list[Spot | None]:
        spots = self.pool(region, r)
        if avoid is not None:
            spots = [s for s in spots if not avoid.intersects(shapely.Point(s))]
        if rng is not None:
            rng.shuffle(spots)
        else:
            ax, ay = anchor or (region.centroid.x, region.centroid.y)
            spots.sort(key=lambda p: (round(math.hypot(p[0] - ax, p[1] - ay), 6), p))

        def fits(x: float, y: float, chosen: Sequence[Spot]) -> bool:
            if any(s.gap(x, y, r) < gap for s in self.taken) or any(
                    s.gap(x, y, r) < max(gap, spacing) for s in chosen):
                return False
            return not any(s.gap(x, y, r) <= d for s, d in away)

        chosen: list[Spot] = []
        for x, y in spots:
            if len(chosen) == count:
                break
            if fits(x, y, chosen):
                chosen.append(Spot(x, y, r))
        checked = self.keep_out is not None or self.order_scene is not None
        good = {(s.x, s.y): not checked or self.allowed((s.x, s.y), r, reach) for s in chosen}
        kept = [s for s in chosen if good[(s.x, s.y)]]
        spare: list[Spot] = []
        if len(kept) < len(chosen):
            for x, y in spots:
                if len(kept) + len(spare) == count:
                    break
                if ((x, y) not in good and fits(x, y, [*kept, *spare])
                        and self.allowed((x, y), r, reach)):
                    spare.append(Spot(x, y, r))
        out: list[Spot | None] = [s if good[(s.x, s.y)] else spare.pop(0) if spare else None
                                  for s in chosen]
        out += spare
        self.taken.extend(s for s in out if s is not None)
        return out


def _union(scene: Scene) -> BaseGeometry | None:
    blockers = [t.footprint for t in scene.movement_blockers]
    return shapely.union_all(blockers) if blockers else None


def _scene(terrain: list[dict[str, Any]]) -> Scene:
    return load_scene({"table": {"width": W, "depth": D}, "terrain": terrain, "figures": []})


def _tables() -> list[tuple[str, list[dict[str, Any]], float | None]]:
    towns = [(f"town {seed}", generate_town(random.Random(seed)).terrain(), TILE_INCHES)
             for seed in (3, 11)]
    return [(name, list(table_data(name)["terrain"]), None)
            for name in ("street", "junction", "ruined_block")] + towns


TABLES = _tables()


@pytest.mark.parametrize(("name", "terrain", "tile"), TABLES, ids=[t[0] for t in TABLES])
def test_placing_gives_the_plain_loops_spots(name: str, terrain: list[dict[str, Any]],
                                             tile: float | None) -> None:
    """Markers, a group nearest a zone's centre, spread zombies kept away from them, and
    zombies spilling into rings: the same spots, in the same order, from the same draws."""
    cleared, _ = corners.clear_corners(terrain, W, D, tile_size=tile)
    scene, order = _scene(cleared), _scene(terrain)
    keep = keep_out(W, D)
    fast = Placer(scene, keep_out=keep, order_scene=order)
    plain = PlainPlacer(scene, keep, order)
    rng_fast, rng_plain = random.Random(name), random.Random(name)
    zones = [box(1, 1, 10, 8), box(20, 22, 31, 31), Polygon([(2, 20), (12, 31), (2, 31)])]
    for zone in zones:  # crates: one at a time, spread, with the token's reach
        for _ in range(3):
            args: dict[str, Any] = {"spacing": 3.0, "gap": 3.0, "reach": 0.64}
            assert fast.place_slots(zone, 1, 0.45, rng=rng_fast, **args) == \
                plain.place_slots(zone, 1, 0.45, rng=rng_plain, **args)
    home = box(8, 0, 24, 6)
    group = fast.place_slots(home, 9, R, gap=0.3)
    assert group == plain.place_slots(home, 9, R, gap=0.3)
    away = [(s, 4.0) for s in group if s is not None]
    avoid = box(0, 0, 6, 6)
    area = box(0, D - 6, W, D)
    assert fast.place_slots(area, 40, R, rng=rng_fast, gap=0.1, away=away, avoid=avoid) == \
        plain.place_slots(area, 40, R, rng=rng_plain, gap=0.1, away=away, avoid=avoid)
    for grow in (1.5, 5.0, 40.0):  # rings round a full area
        ring = area.buffer(grow)
        assert fast.place_slots(ring, 25, R, rng=rng_fast, gap=0.1, away=away) == \
            plain.place_slots(ring, 25, R, rng=rng_plain, gap=0.1, away=away)
    assert rng_fast.random() == rng_plain.random()  # the same draws were made
    assert fast.taken == plain.taken


def test_a_placer_without_keep_out_or_order_scene_and_a_wide_base() -> None:
    """The plain placer with nothing to check, and a radius beyond the grid's usual reach."""
    scene = _scene(list(table_data("street")["terrain"]))
    fast, plain = Placer(scene), PlainPlacer(scene)
    whole = box(0, 0, W, D)
    assert fast.candidates(whole, 1.5) == plain.pool(whole, 1.5)
    assert fast.place_slots(whole, 12, 1.5, gap=0.5) == plain.place_slots(whole, 12, 1.5,
                                                                           gap=0.5)
    anchor = (3.0, 29.0)
    assert fast.place_slots(whole, 5, R, anchor=anchor) == plain.place_slots(whole, 5, R,
                                                                             anchor=anchor)


def test_the_grid_of_distances_is_the_distance_to_the_terrain() -> None:
    """Within the reach it is kept for, each grid spot's distance to the nearest footprint
    is shapely's distance to their union, to rounding (far below the re-measured margin)."""
    for seed in (3, 5):
        scene = _scene(generate_town(random.Random(seed)).terrain())
        footprints = [t.footprint for t in scene.movement_blockers]
        n = math.floor(W / GRID_STEP) + 1
        grid = placement._edge_distances(footprints, n, n, 0.6)
        xs = np.arange(n) * GRID_STEP
        gx, gy = np.meshgrid(xs, xs)
        exact = shapely.distance(shapely.union_all(footprints),
                                 shapely.points(gx.ravel(), gy.ravel())).reshape(n, n)
        assert np.abs(np.minimum(grid, 0.6) - np.minimum(exact, 0.6)).max() < 1e-12
        again = placement._edge_distances(footprints, n, n, 0.6)  # from the kept shares
        assert np.array_equal(grid, again)


def _plain_door_shift(line: LineString, ux: float, uy: float, zone: BaseGeometry,
                      band: BaseGeometry) -> float | None:
    for k in range(1, 1001):
        for t in (k * 0.01, -k * 0.01):
            slid = translate(line, ux * t, uy * t)
            if slid.intersection(zone).length <= 1e-9 and slid.difference(band).length <= 1e-3:
                return t
    return None


def test_a_door_slides_where_the_plain_loop_slid_it() -> None:
    zone = shapely.union_all([box(0, 0, 3.1, 3.1), box(W - 3.1, 0, W, 3.1)])
    band = LineString([(0.5, 4.0), (0.5, 0.5), (12.0, 0.5)]).buffer(1e-3, cap_style="flat")
    for line in (LineString([(0.5, 2.0), (0.5, 3.2)]), LineString([(1.0, 0.5), (2.5, 0.5)]),
                 LineString([(0.5, 3.0), (0.5, 3.9)]), LineString([(40.0, 40.0), (41, 41)])):
        (ax, ay), (bx, by) = line.coords[0], line.coords[-1]
        ux, uy = (bx - ax) / line.length, (by - ay) / line.length
        assert corners._door_shift(line, ux, uy, zone, band) == _plain_door_shift(
            line, ux, uy, zone, band)


def test_a_cleared_table_is_handed_out_afresh() -> None:
    """The kept answer for a card's table is a copy each time: changing one changes no
    other, and it equals the answer worked out anew."""
    card = load_cards()["escorte"]
    terrain = list(table_data(card.layout.table)["terrain"]) + list(card.extra_terrain)
    first, changes = corners.clear_corners(terrain, W, D)
    assert changes  # the junction reaches into a corner
    first[0]["id"] = "changed"
    changes.clear()
    again, changes_again = corners.clear_corners(terrain, W, D)
    assert again[0]["id"] != "changed" and changes_again
    assert (again, changes_again) == corners._clear_corners(copy.deepcopy(terrain), W, D, None)


def test_footprints_kept_by_their_points_keep_negative_zeros_apart() -> None:
    """A piece's footprint is made once for the same points, but -0.0 is not taken for 0.0,
    each scene gets a geometry of its own (a path finder prepares them), and a bad piece is
    still named in the error however often it is loaded."""
    square = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
    signed = [[-0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [-0.0, 1.0]]
    a = _scene([{"id": "a", "kind": "polygon", "polygon": square}]).terrain[0].footprint
    b = _scene([{"id": "b", "kind": "polygon", "polygon": signed}]).terrain[0].footprint
    again = _scene([{"id": "a", "kind": "polygon", "polygon": square}]).terrain[0].footprint
    assert again is not a and again.wkb == a.wkb  # each load has its own (never shared)
    assert math.copysign(1.0, shapely.get_coordinates(b)[0][0]) < 0
    assert math.copysign(1.0, shapely.get_coordinates(a)[0][0]) > 0
    crossed = {"id": "x", "kind": "polygon", "name": "Croix",
               "polygon": [[0, 0], [1, 1], [1, 0], [0, 1]]}
    for _ in range(2):
        with pytest.raises(SceneError) as error:
            _scene([crossed])
        assert error.value.where == "terrain[0].polygon"


def test_a_gap_right_at_the_limit_is_measured_as_spot_gap_says() -> None:
    """Where numpy's distance sits on a limit, the spot is measured again the plain way: a
    gap equal to `gap` is allowed, one equal to an `away` distance is not."""
    taken = Spot(1.0, 1.0, 0.5)
    px, py = np.array([2.25, 2.0, 3.0]), np.array([1.0, 1.0, 1.0])
    strict = placement._Near([taken], [0.25], inclusive=False).hit(px, py, 0.5)
    inclusive = placement._Near([taken], [0.25], inclusive=True).hit(px, py, 0.5)
    assert strict.tolist() == [taken.gap(x, 1.0, 0.5) < 0.25 for x in px] == [False, True,
                                                                             False]
    assert inclusive.tolist() == [True, True, False]
    assert placement._ruled_out(taken, px, py, 0.5, 0.25).tolist() == strict.tolist()
    blocked = placement._Blocked([box(0, 0, 1, 1).wkb], W, D)  # a spot exactly d from it
    spots_x, spots_y = np.array([1.5, 1.25, 2.0, 0.5]), np.array([0.5, 0.5, 0.5, 0.5])
    exact = shapely.distance(box(0, 0, 1, 1), shapely.points(spots_x, spots_y)) >= 0.5
    assert blocked.clear(spots_x, spots_y, 0.5).tolist() == exact.tolist() == [True, False,
                                                                              True, False]
    off_grid = blocked.clear(np.array([1.5000001]), np.array([0.5]), 0.5)  # measured exactly
    assert off_grid.tolist() == [True]


def test_a_footprint_with_a_repeated_point_is_measured_like_the_others() -> None:
    """An edge of no length (a polygon repeating a point) is its end point to the grid."""
    terrain = [{"id": "p", "kind": "polygon",
                "polygon": [[10, 10], [14, 10], [14, 10], [14, 13.3], [10, 13]]},
               {"id": "w", "kind": "wall", "line": [[3.1, 20.2], [9.7, 20.2], [9.7, 26]],
                "thickness": 0.25}]
    scene = _scene(terrain)
    whole = box(0, 0, W, D)
    for r in (0.45, R, 1.5):
        assert Placer(scene).candidates(whole, r) == PlainPlacer(scene).pool(whole, r)
