"""Set-ups leave the camera's corner markers visible (issue 16, docs/rules.md D41): the four
keep-out squares (the marker and its white paper, 2.95 in from both edges) hold no base, no
crate or item, and no terrain standing on the table, on every card, the random town and the
zombies arriving during play; older records keep their set-ups (`camera_corners_clear`)."""

from __future__ import annotations

import random
from typing import Any

import pytest
import shapely
from shapely.geometry import LineString, Point

from ai.policy import make_policy
from geometry.corners import QUIET_ZONE, keep_out, keep_out_squares, marker_squares
from geometry.scene import load_scene
from geometry.units import TABLE_INCHES, base_radius
from rules.game import ZOMBIES, Game
from rules.settings import LEGACY, Settings
from scenarios import play_arrivals as arrivals
from scenarios.cards import load_cards
from scenarios.corners import clear_corners, footprint, is_solid
from scenarios.play import start_scenario
from scenarios.setup import setup_scenario
from scenarios.tables import table_data
from scenarios.town import TILE_INCHES, generate_town, load_tiles, road_area

W = D = TABLE_INCHES
KEEP = keep_out(W, D)
SEEDS = (0, 1, 2)


def intruders(scene: dict[str, Any]) -> list[str]:
    """What of a set-up's scene reaches into a keep-out square: bases, markers (crates and
    items are square tokens) and solid terrain. Touching the square's edge is allowed."""
    out = []
    for f in scene["figures"]:
        r = base_radius(float(f.get("base_mm", 25)))
        if KEEP.distance(Point(f["x"], f["y"])) < r - 1e-9:
            out.append(f"figure {f['id']} at ({f['x']}, {f['y']})")
    for piece in scene["terrain"]:
        if (is_solid(piece) or piece.get("role") == "marker") and footprint(piece).intersection(
                KEEP).area > 1e-9:
            out.append(f"piece {piece['id']}")
    return out


def test_the_keep_out_squares_follow_the_marker_contract() -> None:
    """DESIGN.md: 2.0 in squares centred 1.5 in from both edges; the keep-out adds the sheet's
    white margin round each and reaches the table's edges."""
    squares = keep_out_squares(W, D)
    bounds = [v for s in squares for v in s.bounds]
    assert bounds == pytest.approx([0, 0, 2.95, 2.95, W - 2.95, 0, W, 2.95,
                                    W - 2.95, D - 2.95, W, D, 0, D - 2.95, 2.95, D])
    for marker, square in zip(marker_squares(W, D), squares, strict=True):
        assert marker.area == pytest.approx(4.0)
        assert square.contains(marker.buffer(QUIET_ZONE, join_style="mitre"))
    wide = keep_out_squares(48, 36)  # a function of the table's size
    assert wide[2].bounds == pytest.approx((45.05, 33.05, 48, 36))


@pytest.mark.parametrize("card", sorted(load_cards()))
def test_every_card_set_up_leaves_the_corners_clear(card: str) -> None:
    for seed in SEEDS:
        setup = setup_scenario(card, seed)
        assert intruders(setup["scene"]) == [], (card, seed)
        assert setup["layout"]["corners"]["kept_clear"] is True
        figures = setup["scene"]["figures"]
        assert setup["zombies"]["placed"] == setup["zombies"]["figures"]  # all found room
        assert sum(f["side"] == "survivors" for f in figures) == setup["band"]["members"]


def test_the_random_town_on_other_cards_and_seeds() -> None:
    """Cards played on a random town (`table="town"`): more towns, more corner tiles."""
    for card, seed in (("nettoyage", 3), ("convoi", 5), ("sauvetage", 6)):
        setup = setup_scenario(card, seed, table="town")
        assert intruders(setup["scene"]) == [], (card, seed)


def _tile_terrain(tile_id: str, turns: int) -> list[dict[str, Any]]:
    """One tile laid in the bottom-left corner cell, its road surface and pieces, as the town
    lays them (every other corner is this one turned with the whole table)."""
    from scenarios.town import _place  # the town's own turning

    tile = load_tiles()[tile_id]
    out: list[dict[str, Any]] = []
    surface = road_area(tile.exits_turned(turns))
    if tile.surface == "road" and not surface.is_empty:
        out.append({"id": "road", "kind": "polygon", "surface": "road",
                    "blocks_sight": False, "blocks_movement": False,
                    "polygon": [list(p) for p in surface.exterior.coords[:-1]]})
    for piece in tile.terrain:
        key = "polygon" if piece["kind"] == "polygon" else "line"
        out.append({**piece, key: [_place(p, turns, 0.0, 0.0) for p in piece[key]],
                    "tile": "0,0"})
    return out


@pytest.mark.parametrize("tile_id", sorted(load_tiles()))
def test_every_tile_in_a_corner(tile_id: str) -> None:
    """Each tile, turned every way, in a corner: its pieces leave the square, stay on their
    tile and off the road, keep a door where a building had one, and the same every time."""
    tile = box_of_tile()
    for turns in range(4):
        terrain = _tile_terrain(tile_id, turns)
        cleared, changes = clear_corners(terrain, W, D, tile_size=TILE_INCHES)
        if turns == 0:  # the same every time
            assert clear_corners(terrain, W, D, tile_size=TILE_INCHES) == (cleared, changes)
        load_scene({"table": {"width": W, "depth": D}, "terrain": cleared, "figures": []})
        road = next((footprint(p) for p in terrain if p.get("surface") == "road"), None)
        for piece in cleared:
            if not is_solid(piece):
                continue
            shape = footprint(piece)
            assert shape.intersection(KEEP).area < 1e-9, (turns, piece["id"])
            assert tile.buffer(1e-6).covers(shape), (turns, piece["id"])
            if road is not None and piece.get("blocks_movement", True):
                assert shape.intersection(road).area < 1e-6, (turns, piece["id"])
        if not any(c["change"] == "left_off" for c in changes):  # nothing torn apart
            assert joined_parts(cleared) == joined_parts(terrain), turns
        had = {p["id"] for p in terrain if p["kind"] == "door"}
        has = {p["id"] for p in cleared if p["kind"] == "door"}
        assert had == has, turns
        moved = [c for c in changes if c["change"] == "moved"]
        assert all(max(abs(v) for v in c["by"]) <= 3.0 for c in moved)


def box_of_tile() -> shapely.Polygon:
    return shapely.box(0, 0, TILE_INCHES, TILE_INCHES)


def joined_parts(terrain: list[dict[str, Any]], prefix: str = "") -> int:
    """How many separate networks the walls and doors (ids starting with prefix) make."""
    lines = [LineString(p["line"]).buffer(1e-3) for p in terrain
             if p["kind"] in ("wall", "door") and str(p["id"]).startswith(prefix)]
    return len(shapely.get_parts(shapely.union_all(lines)))


def test_a_notched_building_stays_joined() -> None:
    """The street's bar: its north wall reached the top-left square; it now goes round it,
    so the bar's walls still make one piece with its door, as before."""
    data = table_data("street")
    cleared, changes = clear_corners(data["terrain"], W, D)
    assert {c["piece"] for c in changes if c["change"] == "cut"} == {
        "bar_wall_north", "house_wall_north"}
    assert joined_parts(cleared, "bar_") == joined_parts(data["terrain"], "bar_") == 1
    assert joined_parts(cleared, "house_") == joined_parts(data["terrain"], "house_")


@pytest.mark.parametrize(("table", "changed"), [
    ("junction", {"flats": "cut", "bank": "cut"}),
    ("ruined_block", {"chapel_west": "cut", "office_ne": "moved"}),
    ("street", {"bar_wall_north": "cut", "house_wall_north": "cut"}),
])
def test_the_demo_tables_change_only_their_corner_pieces(table: str,
                                                         changed: dict[str, str]) -> None:
    data = table_data(table)
    cleared, changes = clear_corners(data["terrain"], W, D)
    first = {c["piece"]: c["change"] for c in changes if c["change"] != "added"}
    assert first == changed
    before = {p["id"]: p for p in data["terrain"]}
    untouched = [p for p in cleared if p["id"] in before and p["id"] not in changed]
    assert all(p == before[p["id"]] for p in untouched)
    assert len(untouched) == len(before) - len(changed)


def test_the_town_alone_for_several_seeds() -> None:
    for seed in range(6):
        town = generate_town(random.Random(seed))
        terrain = town.scene_json()["terrain"]
        cleared, _ = clear_corners(terrain, W, D, tile_size=TILE_INCHES)
        assert intruders({"terrain": cleared, "figures": []}) == [], seed
        load_scene({"table": {"width": W, "depth": D}, "terrain": cleared, "figures": []})


def test_old_records_keep_their_set_ups() -> None:
    """A record saved before the setting existed is set up as it was then: the corners were
    not kept, and a set-up of its time put zombies there."""
    assert LEGACY["camera_corners_clear"] is False
    assert Settings().camera_corners_clear is True
    old = setup_scenario("remede", 0, settings=Settings(camera_corners_clear=False))
    assert "corners" not in old["layout"]
    assert intruders(old["scene"])  # the issue: the table was not found at all
    assert intruders(setup_scenario("remede", 0)["scene"]) == []


def test_edge_and_zone_spots_skip_the_corners() -> None:
    """Reinforcements fill a whole edge, row after row, and a zone along an edge, without a
    base in a corner square."""
    game = start_scenario("remede", seed=1)
    r = base_radius(25)
    for edge in arrivals.EDGES:
        spots = arrivals.edge_spots(game, edge, 60)
        assert len(spots) >= 30
        assert all(KEEP.distance(Point(p)) >= r for p in spots), edge
    strips = {"far": shapely.box(0, D - 3, W, D), "left": shapely.box(0, 0, 3, D)}
    for name, strip in strips.items():  # as the night's edge zones
        spots = arrivals.zone_spots(game, strip, 40)
        assert spots and all(KEEP.distance(Point(p)) >= r for p in spots), name
    old = start_scenario("remede", seed=1, settings=Settings(camera_corners_clear=False))
    near = arrivals.edge_spots(old, "near", 60)
    assert any(KEEP.distance(Point(p)) < r for p in near)  # as it was


def test_a_crates_zombie_in_contact_keeps_off_a_corner() -> None:
    game = start_scenario("convoi", seed=1)
    opener = next(f for f in game.figures.values() if f.side == "survivors")
    opener.x, opener.y = 3.6, 3.6  # beside the bottom-left square
    game.moved()
    probe = next(f for f in game.figures.values() if f.side == ZOMBIES)
    spot = arrivals.contact_spot(game, opener, probe, (0.0, 0.0))  # it comes from the corner
    assert spot is not None and KEEP.distance(Point(spot)) >= probe.radius


def _check_arrivals(game: Game, seen: int) -> int:
    log = game.referee.state["arrivals"]  # type: ignore[attr-defined]
    for arrival in log[seen:]:
        for zid in arrival["zombies"]:
            f = game.figures[zid]
            assert KEEP.distance(Point(f.x, f.y)) >= f.radius - 1e-9, arrival
    return len(log)


@pytest.mark.parametrize(("card", "seed"), [("nuit", 2), ("refuge", 1), ("evacuation", 3)])
def test_arrivals_during_play_keep_the_corners_clear(card: str, seed: int) -> None:
    """Four turns played by the AI (zombies that stay put, the survivors' bot): every zombie
    arriving on an edge lands off the corner squares."""
    game = start_scenario(card, seed=seed)
    zombies = make_policy("idle", ZOMBIES, seed)
    survivors = make_policy("bot", "survivors", seed)
    seen = n = 0
    while not game.is_terminal and game.turn <= 4 and n < 2000:
        player = zombies if game.current_side() == ZOMBIES else survivors
        game.apply(player.choose(game).action)
        seen = _check_arrivals(game, seen)
        n += 1
    assert seen >= 2, "reinforcements arrived"
