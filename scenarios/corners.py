"""Terrain kept off the camera's corner markers (docs/rules.md D41).

A set-up under `camera_corners_clear` keeps the keep-out square at each table corner
(`geometry.corners`: the marker and its white paper, 2.95 in from both edges) clear of
terrain. A piece reaching into one is changed as little as it can be, the same way every time
for the same table:

- a piece standing alone (touching no other piece) is **moved** by the shortest shift, in
  steps of 0.1 in and at most 3 in, that takes it out of every keep-out square while keeping
  it on its town tile (or the table), off the roads, and no nearer any other piece than it was
  (nor nearer than 1 in, a base's width, when it was further);
- a piece that cannot be moved so, and each piece of a building of several pieces (walls,
  doors and what touches them), is **cut** at the square: a polygon loses the part inside; a
  wall stops at the square and, where the building went on inside, follows the square's edge
  round to where it comes out, so a closed building stays closed; a door left narrower than it
  was slides along its wall out of the square and the wall opens where it now stands;
- a piece with nothing left outside the square is **left off**.

`clear_corners` returns the new terrain and what it changed, piece by piece.
"""

from __future__ import annotations

import copy
import functools
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely
from shapely import ops
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from geometry.corners import keep_out_squares
from geometry.scene import footprint_of

__all__ = ["clear_corners", "is_solid", "footprint", "MAX_MOVE", "PASSAGE"]

STEP = 0.1  # inches between the shifts tried
MAX_MOVE = 3.0  # the longest shift: further is no longer the same table
PASSAGE = 1.0  # a gap a 25 mm base walks through: a move never closes one
EDGE_GAP = 0.01  # what is changed stays this far outside the square
AREA_EPS = 1e-6  # less overlap than this (in square inches) is touching
SLIVER_AREA = 0.05  # smaller parts of a cut polygon are left off
SLIVER_LENGTH = 0.1  # shorter parts of a cut wall are left off
CHUNK = 256  # shifts tried at once
TABLES_KEPT = 32  # tables whose cleared terrain is kept
FIRST_CHUNK = 64  # the first few shifts tried: most pieces fit near where they stood
DOOR_CHUNK = 64  # places along its wall tried at once for a door
DOOR_STEPS = 1000  # a door slides at most 10 in, in steps of 0.01 in

Raw = dict[str, Any]


def is_solid(raw: Raw) -> bool:
    """A piece standing on the table (not a zone, a token, a road or a plaza drawn on it)."""
    if raw.get("role") in ("zone", "marker") or raw.get("surface"):
        return False
    return raw.get("kind") != "polygon" or bool(raw.get("blocks_sight", True)) or bool(
        raw.get("blocks_movement", True))


def footprint(raw: Raw) -> Polygon:
    """A piece's footprint, as the scene loader makes it (and from its cache: a town's
    pieces are looked at again when the scene is loaded)."""
    if raw["kind"] == "polygon":
        return footprint_of("polygon", [(float(x), float(y)) for x, y in raw["polygon"]])
    return footprint_of(raw["kind"], [(float(x), float(y)) for x, y in raw["line"]],
                        float(raw["thickness"]))


_CLEARED: OrderedDict[str, tuple[list[Raw], list[dict[str, Any]]]] = OrderedDict()
_CLEARED_LOCK = threading.Lock()


def clear_corners(terrain: Sequence[Raw], width: float, depth: float, *,
                  tile_size: float | None = None) -> tuple[list[Raw], list[dict[str, Any]]]:
    """The terrain with every solid piece out of the four keep-out squares (module docstring),
    and the changes, `{"piece": id, "change": ..., "by": [dx, dy]}`: "moved" and "slid" (a
    door along its wall) with their shift, "cut", "added" (a part of a cut piece, a wall
    built round a corner), "opened" (a wall a door now stands in), "left_off". A piece with
    a `tile` ("column,row") stays on that tile of `tile_size` inches when moved. Terrain
    already clear comes back as it was.

    A table without tiles (a card's own table) is cleared the same way every game, so the
    answer is kept for the same terrain (its `repr`: the same pieces, keys in order, numbers
    to the type and the bit) and handed out as a copy; a town's tiles are laid afresh each
    game, so it is cleared each time."""
    if tile_size is not None:
        return _clear_corners(terrain, width, depth, tile_size)
    key = repr((list(terrain), width, depth))
    with _CLEARED_LOCK:
        kept = _CLEARED.get(key)
        if kept is not None:
            _CLEARED.move_to_end(key)
    if kept is None:
        kept = copy.deepcopy(_clear_corners(terrain, width, depth, None))
        with _CLEARED_LOCK:
            _CLEARED[key] = kept
            while len(_CLEARED) > TABLES_KEPT:
                _CLEARED.popitem(last=False)
    return copy.deepcopy(kept)


def _clear_corners(terrain: Sequence[Raw], width: float, depth: float,
                   tile_size: float | None) -> tuple[list[Raw], list[dict[str, Any]]]:
    squares = keep_out_squares(width, depth)
    work = _Work([dict(raw) for raw in terrain], squares, width, depth, tile_size)
    hit = work.hits()
    if not hit:
        return [dict(raw) for raw in terrain], []
    groups: list[list[int]] = []
    alone: list[int] = []
    touching = work.touching()  # nothing changes before the buildings are found
    for i in hit:
        if any(i in g for g in groups):
            continue
        group = work.building(i, touching)
        if len(group) > 1:
            groups.append(group)
        else:
            alone.append(i)
    for group in groups:  # buildings first: a moved piece keeps clear of their new walls
        work.notch(group)
    for i in alone:
        if not work.move(i):
            work.cut(i)
    return work.result()


class _Work:
    """The pieces being changed: `pieces[i]` is None once left off; new pieces (split parts,
    walls round a corner) go in `after[i]`, after piece i."""

    def __init__(self, pieces: list[Raw], squares: Sequence[Polygon], width: float,
                 depth: float, tile_size: float | None) -> None:
        self.pieces: list[Raw | None] = list(pieces)
        self.original: tuple[Raw, ...] = tuple(pieces)
        self.after: dict[int, list[Raw]] = {}
        self.squares = list(squares)
        self.keep = shapely.union_all(self.squares)
        self.square_boxes = [s.bounds for s in self.squares]
        self.table = box(0, 0, width, depth)
        self.tile_size = tile_size
        self.changes: list[dict[str, Any]] = []
        self.added: set[str] = set()  # walls built round a corner
        self.shapes: dict[int, tuple[Raw, Polygon]] = {}
        self.solidity: dict[int, tuple[Raw, bool]] = {}
        self.ids = {str(p.get("id")) for p in pieces}
        roads = [footprint(p) for p in pieces if p.get("surface") == "road"]
        self.roads: BaseGeometry | None = shapely.union_all(roads) if roads else None
        if self.roads is not None:
            shapely.prepare(self.roads)  # (asked whether each shift of a piece meets them)

    # -- queries

    def shape(self, raw: Raw) -> Polygon:
        """The piece's footprint, made once (pieces are replaced, never changed in place)."""
        known = self.shapes.get(id(raw))
        if known is None or known[0] is not raw:
            known = (raw, footprint(raw))
            self.shapes[id(raw)] = known
        return known[1]

    def solid(self) -> list[tuple[int, Raw]]:
        """Every solid piece still on the table, new ones too, with the index it follows."""
        out: list[tuple[int, Raw]] = []
        for i, raw in enumerate(self.pieces):
            if raw is not None and self.is_solid(raw):
                out.append((i, raw))
            if i in self.after:
                out += [(i, extra) for extra in self.after[i] if self.is_solid(extra)]
        return out

    def is_solid(self, raw: Raw) -> bool:
        """`is_solid`, worked out once a piece (pieces are replaced, never changed)."""
        known = self.solidity.get(id(raw))
        if known is None or known[0] is not raw:
            known = (raw, is_solid(raw))
            self.solidity[id(raw)] = known
        return known[1]

    def overlaps_keep(self, i: int) -> bool:
        raw = self.pieces[i]
        if raw is None or not is_solid(raw):
            return False
        shape = self.shape(raw)
        x0, y0, x1, y1 = shape.bounds  # a piece whose box misses the squares misses them
        if not any(x0 < a1 and x1 > a0 and y0 < b1 and y1 > b0
                   for a0, b0, a1, b1 in self.square_boxes):
            return False
        return bool(shape.intersection(self.keep).area > AREA_EPS)

    def hits(self) -> list[int]:
        """The pieces `overlaps_keep` finds, all asked at once."""
        solid = [(i, self.shape(raw)) for i, raw in enumerate(self.pieces)
                 if raw is not None and is_solid(raw)]
        if not solid:
            return []
        shapes = np.array([shape for _, shape in solid], dtype=object)
        x0, y0, x1, y1 = shapely.bounds(shapes).T
        near = np.zeros(len(solid), dtype=bool)  # a box missing the squares misses them
        for a0, b0, a1, b1 in self.square_boxes:
            near |= (x0 < a1) & (x1 > a0) & (y0 < b1) & (y1 > b0)
        overlap = shapely.area(shapely.intersection(shapes[near], self.keep)) > AREA_EPS
        indices = [i for (i, _), close in zip(solid, near, strict=True) if close]
        return [i for i, hit in zip(indices, overlap, strict=True) if hit]

    def touching(self) -> dict[int, list[int]]:
        """For each solid piece standing, the solid pieces whose footprints touch or overlap
        its own (itself too), by index: pairs found through a tree of their boxes."""
        solid = [(j, self.shape(raw)) for j, raw in enumerate(self.pieces)
                 if raw is not None and is_solid(raw)]
        shapes = np.array([s for _, s in solid], dtype=object)
        pairs = shapely.STRtree(shapes).query(shapes, predicate="intersects")
        out: dict[int, list[int]] = {j: [] for j, _ in solid}
        for a, b in zip(*pairs, strict=True):
            out[solid[int(a)][0]].append(solid[int(b)][0])
        return out

    def building(self, i: int, touching: dict[int, list[int]] | None = None) -> list[int]:
        """Piece i and every solid piece joined to it through touching footprints
        (`touching` as `touching()` gives it for the pieces as they stand)."""
        joined = self.touching() if touching is None else touching
        seen = {i}
        todo = [i]
        while todo:
            for other in joined[todo.pop()]:
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        return sorted(seen)

    def new_id(self, base: str) -> str:
        n = 1
        while f"{base}_{n}" in self.ids:
            n += 1
        self.ids.add(f"{base}_{n}")
        return f"{base}_{n}"

    # -- moving a piece standing alone

    def move(self, i: int) -> bool:
        raw = self.pieces[i]
        assert raw is not None
        shape = self.shape(raw)
        reach = _grow(box(*shape.bounds), MAX_MOVE + PASSAGE)  # all a move can come near
        others = _meeting([self.shape(r) for _, r in self.solid() if r is not raw], reach)
        near = shapely.union_all(others) if others else None
        if near is not None:
            shapely.prepare(near)  # (asked whether each shift comes too near it)
        before = _meeting([self.shape(r) for r in self.original
                           if self.is_solid(r) and r.get("id") != raw.get("id")], reach)
        need = min([PASSAGE, *shapely.distance(shape, np.array(before, dtype=object))])
        shifts = _shifts()
        area = self.area_of(raw)
        shapely.prepare(area)
        x0, y0, x1, y1 = shape.bounds
        a0, b0, a1, b1 = area.bounds  # what cannot fit its area's box goes first
        shifts = shifts[(shifts[:, 0] + x0 >= a0) & (shifts[:, 0] + x1 <= a1)
                        & (shifts[:, 1] + y0 >= b0) & (shifts[:, 1] + y1 <= b1)]
        found = None
        clear, inside = _off_squares(shape, shifts, self.square_boxes)
        covered = ((shifts[:, 0] + x0 >= a0 + 2e-6) & (shifts[:, 0] + x1 <= a1 - 2e-6)
                   & (shifts[:, 1] + y0 >= b0 + 2e-6) & (shifts[:, 1] + y1 <= b1 - 2e-6))
        tried = np.flatnonzero(~inside)  # a shift leaving a corner inside a square fails
        start, size = 0, FIRST_CHUNK
        while start < len(tried):  # nearest first: stop at the first fit
            rows = tried[start:start + size]
            start, size = start + size, CHUNK
            chunk = shifts[rows]
            moved = _translated(shape, chunk)
            ok = clear[rows]  # each test only on what passed the ones before
            ok[~ok] = shapely.distance(moved[~ok], self.keep) >= EDGE_GAP
            unsure = ok & ~covered[rows]  # (inside the area's box before it grew: covered)
            ok[unsure] = shapely.covers(area, moved[unsure])
            if near is not None:  # a prepared `dwithin` finds the surely too near at the
                limit = max(need, EDGE_GAP) - 1e-9  # first close edge; the rest measured
                ok[ok] = ~shapely.dwithin(near, moved[ok], limit - 1e-9)
                ok[ok] = shapely.distance(moved[ok], near) >= limit
            if self.roads is not None:  # no inside of the piece on a road (a piece that
                meets = ok.copy()  # does not meet them has none: asked first, prepared)
                meets[ok] = shapely.intersects(self.roads, moved[ok])
                ok[meets] = ~shapely.relate_pattern(moved[meets], self.roads, "T********")
            good = np.flatnonzero(ok)
            if good.size:
                found = chunk[good[0]]
                break
        if found is None:
            return False
        dx, dy = (float(v) for v in found)
        self.pieces[i] = _shifted(raw, dx, dy)
        self.changes.append({"piece": raw["id"], "change": "moved", "by": [dx, dy]})
        return True

    def area_of(self, raw: Raw) -> BaseGeometry:
        """Where a moved piece must stay: its tile, else the table."""
        tile = raw.get("tile")
        if isinstance(tile, str) and self.tile_size:
            col, row = (int(v) for v in tile.split(","))
            s = self.tile_size
            return box(col * s, row * s, (col + 1) * s, (row + 1) * s).buffer(1e-6)
        return self.table.buffer(1e-6)

    # -- cutting

    def cut(self, i: int) -> None:
        """A piece alone that cannot move: the part outside the squares, in as many pieces as
        it falls into; left off when nothing is left."""
        raw = self.pieces[i]
        assert raw is not None
        walls = [self.shape(r) for _, r in self.solid() if r.get("id") in self.added]
        if raw["kind"] == "polygon":  # nor into a wall just built round a corner
            parts = self.polygon_parts(raw, [w.buffer(EDGE_GAP) for w in walls])
        else:
            h = float(raw["thickness"]) / 2 + EDGE_GAP
            outside = _line_minus(raw["line"], shapely.union_all(
                [self.grown(raw)] + [w.buffer(h) for w in walls]))
            parts = [_with_line(raw, p) for p in outside]
        self.replace(i, raw, parts)

    def replace(self, i: int, raw: Raw, parts: list[Raw]) -> None:
        if not parts:
            self.pieces[i] = None
            self.changes.append({"piece": raw["id"], "change": "left_off"})
            return
        self.pieces[i] = parts[0]
        self.changes.append({"piece": raw["id"], "change": "cut"})
        for extra in parts[1:]:
            extra["id"] = self.new_id(str(raw["id"]))
            self.after.setdefault(i, []).append(extra)
            self.changes.append({"piece": extra["id"], "change": "added"})

    @functools.cached_property
    def keep_grown(self) -> BaseGeometry:
        """The squares grown by EDGE_GAP, mitred: rounding never lands inside."""
        return self.keep.buffer(EDGE_GAP, join_style="mitre")

    @functools.cached_property
    def keep_grown_alone(self) -> BaseGeometry:
        return shapely.union_all([self.keep_grown])

    def polygon_parts(self, raw: Raw, also: Sequence[BaseGeometry] = ()) -> list[Raw]:
        cutter = (shapely.union_all([self.keep_grown, *also]) if also
                  else self.keep_grown_alone)
        left = self.shape(raw).difference(cutter)
        polygons = [g for g in getattr(left, "geoms", [left]) if isinstance(g, Polygon)
                    and g.area >= SLIVER_AREA]
        polygons.sort(key=lambda g: (-g.area, g.bounds))
        out = []
        for polygon in polygons:
            points = [[round(x, 4), round(y, 4)] for x, y in
                      shapely.set_precision(polygon, 1e-4).exterior.coords[:-1]]
            out.append({**raw, "polygon": points})
        return out

    def grown(self, raw: Raw) -> BaseGeometry:
        """The squares grown by half the wall's thickness and a little: a wall's centre line
        outside them keeps the whole wall out."""
        h = float(raw.get("thickness", 0.0)) / 2 + EDGE_GAP
        return shapely.union_all([_grow(s, h).intersection(self.table) for s in self.squares])

    # -- a building of several pieces

    def notch(self, group: list[int]) -> None:
        """Cut a building at every square it reaches: polygons lose the part inside, walls
        follow the square's edge round it, doors slide out along their wall."""
        raws = {i: self.pieces[i] for i in group}
        lines = {i: r for i, r in raws.items() if r is not None and r["kind"] != "polygon"}
        h = max((float(r["thickness"]) for r in lines.values()), default=0.0) / 2 + EDGE_GAP
        squares = [s for s in self.squares
                   if any(r is not None and self.shape(r).intersection(s).area > AREA_EPS
                          for r in raws.values())]
        grown = [_grow(s, h).intersection(self.table) for s in squares]
        zone = shapely.union_all(grown) if grown else Polygon()
        for i, raw in raws.items():  # polygons: the part outside
            if raw is not None and raw["kind"] == "polygon" and self.overlaps_keep(i):
                self.replace(i, raw, self.polygon_parts(raw))
        if not lines:
            return
        rounds = self.round_the_corner(lines, grown)
        doors: list[tuple[int, Raw]] = []
        for i, raw in lines.items():
            if LineString(raw["line"]).intersection(zone).length <= 1e-9:
                continue
            if raw["kind"] == "door":
                doors.append((i, raw))
                continue
            self.replace(i, raw, [_with_line(raw, p) for p in _line_minus(raw["line"], zone)])
        for anchor, wall in rounds:
            wall["id"] = self.new_id(str(wall["id"]))
            self.added.add(wall["id"])
            self.after.setdefault(anchor, []).append(wall)
            self.changes.append({"piece": wall["id"], "change": "added"})
        for i, door in doors:
            self.place_door(i, door, zone)

    def round_the_corner(self, lines: dict[int, Raw],
                         grown: Sequence[BaseGeometry]) -> list[tuple[int, Raw]]:
        """New walls along the grown squares' edges, joining the building's lines where they
        went in to where they come out (walls and doors end to end make one line)."""
        merged = ops.linemerge([LineString(r["line"]) for r in lines.values()])
        chains = list(getattr(merged, "geoms", [merged]))
        out: list[tuple[int, Raw]] = []
        for square in grown:
            for chain in chains:
                if chain.intersection(square).length <= 1e-9:
                    continue
                parts = _parts(chain.difference(square))
                parts.sort(key=lambda p: chain.project(Point(p.coords[0])))
                pairs = list(zip(parts, parts[1:], strict=False))
                if chain.is_closed and parts:
                    pairs.append((parts[-1], parts[0]))
                for a, b in pairs:
                    p, q = Point(a.coords[-1]), Point(b.coords[0])
                    if p.distance(q) <= 1e-6:
                        continue
                    path = _along(square, p, q, self.table)
                    owner = _owner(lines, _between(chain, p, q))
                    out.append((owner, _with_line(lines[owner], path)))
        return out

    def place_door(self, i: int, door: Raw, zone: BaseGeometry) -> None:
        """A door the squares reach: kept as cut if as wide as it was (or a base's width),
        else slid along its line out of them, the walls under it opened."""
        line = LineString(door["line"])
        kept = _line_minus(door["line"], zone)
        wide = min(line.length, PASSAGE) - 1e-6
        if len(kept) == 1 and LineString(kept[0]).length >= wide:
            self.replace(i, door, [_with_line(door, kept[0])])
            return
        (ax, ay), (bx, by) = door["line"][0], door["line"][-1]
        ux, uy = (bx - ax) / line.length, (by - ay) / line.length
        walls = [LineString(r["line"]) for _, r in self.solid() if r["kind"] == "wall"]
        band = shapely.union_all(walls).buffer(1e-3, cap_style="flat") if walls else Polygon()
        shapely.prepare(band)
        shift = _door_shift(line, ux, uy, zone, band)
        if shift is None:
            self.replace(i, door, [])
            return
        dx, dy = round(ux * shift, 4), round(uy * shift, 4)
        slid = _shifted(door, dx, dy)
        gap = LineString(slid["line"]).buffer(1e-4, cap_style="flat")
        for j, raw in self.solid():
            if raw["kind"] != "wall" or LineString(raw["line"]).intersection(gap).length < 1e-4:
                continue
            parts = [_with_line(raw, p) for p in _line_minus(raw["line"], gap)]
            for extra in parts[1:]:
                extra["id"] = self.new_id(str(raw["id"]))
            if raw is self.pieces[j]:
                self.pieces[j] = parts[0] if parts else None
                self.after.setdefault(j, [])[:0] = parts[1:]
            else:
                siblings = self.after[j]
                at = next(k for k, s in enumerate(siblings) if s is raw)
                siblings[at:at + 1] = parts
            self.changes.append({"piece": raw["id"], "change": "opened"})
        self.pieces[i] = slid
        self.changes.append({"piece": door["id"], "change": "slid", "by": [dx, dy]})

    def result(self) -> tuple[list[Raw], list[dict[str, Any]]]:
        out: list[Raw] = []
        for i, raw in enumerate(self.pieces):
            if raw is not None:
                out.append(raw)
            out += self.after.get(i, [])
        return out, self.changes


def _meeting(shapes: Sequence[Polygon], area: BaseGeometry) -> list[Polygon]:
    """The shapes (in their order) that intersect the area."""
    if not shapes:
        return []
    hits = shapely.intersects(np.array(shapes, dtype=object), area)
    return [s for s, hit in zip(shapes, hits, strict=True) if hit]


def _off_squares(shape: Polygon, shifts: Any,
                 squares: Sequence[tuple[float, float, float, float]]) -> tuple[Any, Any]:
    """For each shift of the shape, whether it surely ends at least EDGE_GAP from every
    square (its box is further from each square's), and whether it surely overlaps one (a
    corner of the shape lies well inside a square); `shapely.distance` decides the rest."""
    x0, y0, x1, y1 = shape.bounds
    corners = shapely.get_coordinates(shape)
    dx, dy = shifts[:, 0], shifts[:, 1]
    clear = np.ones(len(shifts), dtype=bool)
    inside = np.zeros(len(shifts), dtype=bool)
    margin = 1e-9
    for a0, b0, a1, b1 in squares:
        if max(a0 - x1, x0 - a1, b0 - y1, y0 - b1) > MAX_MOVE + 0.5:
            continue  # no shift brings the piece near this square
        gx = np.maximum(np.maximum(a0 - (x1 + dx), (x0 + dx) - a1), 0.0)
        gy = np.maximum(np.maximum(b0 - (y1 + dy), (y0 + dy) - b1), 0.0)
        clear &= np.hypot(gx, gy) > EDGE_GAP + margin
        px = corners[None, :, 0] + dx[:, None]
        py = corners[None, :, 1] + dy[:, None]
        inside |= ((px > a0 + margin) & (px < a1 - margin) & (py > b0 + margin)
                   & (py < b1 - margin)).any(axis=1)
    return clear, inside


def _door_shift(line: LineString, ux: float, uy: float, zone: BaseGeometry,
                band: BaseGeometry) -> float | None:
    """The nearest place along its line (0.01, -0.01, 0.02, -0.02... in along (ux, uy)) where
    a door is off the squares' `zone` and in a wall's `band`: a block of places at a time,
    each moved as `shapely.affinity.translate` moves it."""
    steps = np.arange(1, DOOR_STEPS + 1)
    shifts = np.empty(2 * DOOR_STEPS)
    shifts[0::2], shifts[1::2] = steps * 0.01, -steps * 0.01
    coords = shapely.get_coordinates(line)
    boxes = [part.bounds for part in getattr(zone, "geoms", [zone])
             if _is_box(part)] if not zone.is_empty else []
    for start in range(0, len(shifts), DOOR_CHUNK):
        ts = shifts[start:start + DOOR_CHUNK]
        xoff, yoff = ux * ts, uy * ts
        xs = coords[None, :, 0] * 1.0 + coords[None, :, 1] * 0.0 + xoff[:, None]
        ys = coords[None, :, 0] * 0.0 + coords[None, :, 1] * 1.0 + yoff[:, None]
        slid = shapely.linestrings(np.stack([xs, ys], axis=-1))
        off, on = _off_boxes(xs, ys, boxes) if len(boxes) == len(getattr(
            zone, "geoms", [zone])) else (np.zeros(len(ts), dtype=bool),) * 2
        ok = off.copy()  # off every box of the zone: nothing in it; a corner well inside one:
        unsure = ~off & ~on  # some length in it; else measured
        ok[unsure] = shapely.length(shapely.intersection(slid[unsure], zone)) <= 1e-9
        ok[ok] = shapely.length(shapely.difference(slid[ok], band)) <= 1e-3
        good = np.flatnonzero(ok)
        if good.size:
            return float(ts[good[0]])
    return None


def _is_box(shape: BaseGeometry) -> bool:
    """A polygon that is its own bounding box (no holes)."""
    return isinstance(shape, Polygon) and not shape.interiors and bool(
        shapely.equals(shape, box(*shape.bounds)))


def _off_boxes(xs: Any, ys: Any, boxes: Sequence[tuple[float, float, float, float]],
               margin: float = 1e-6) -> tuple[Any, Any]:
    """For lines given by their points (a row of xs and ys each), whether each surely misses
    every box (its own box is off theirs, with `margin`) and whether a point of it lies
    well inside one (more than `margin` from its sides)."""
    x0, x1, y0, y1 = xs.min(axis=1), xs.max(axis=1), ys.min(axis=1), ys.max(axis=1)
    off = np.ones(len(xs), dtype=bool)
    on = np.zeros(len(xs), dtype=bool)
    for a0, b0, a1, b1 in boxes:
        off &= (x1 < a0 - margin) | (x0 > a1 + margin) | (y1 < b0 - margin) | (y0 > b1 + margin)
        on |= ((xs > a0 + margin) & (xs < a1 - margin) & (ys > b0 + margin)
               & (ys < b1 - margin)).any(axis=1)
    return off, on


def _grow(square: Polygon, h: float) -> Polygon:
    x0, y0, x1, y1 = square.bounds
    return box(x0 - h, y0 - h, x1 + h, y1 + h)


@functools.cache
def _shifts() -> Any:
    """Every shift of at most MAX_MOVE in steps of STEP, shortest first (then by dx, dy)."""
    limit = int(round(MAX_MOVE / STEP))
    grid = np.arange(-limit, limit + 1)
    a, b = (v.ravel() for v in np.meshgrid(grid, grid, indexing="ij"))
    length = a * a + b * b
    keep = (length > 0) & (length <= limit * limit)
    a, b, length = a[keep], b[keep], length[keep]
    order = np.lexsort((b, a, length))
    return np.round(np.column_stack((a[order], b[order])) * STEP, 4)


def _translated(shape: Polygon, shifts: Any) -> Any:
    """The shape moved by each (dx, dy) of `shifts`, as an array of shapes."""
    k = len(shapely.get_coordinates(shape))
    copies = np.full(len(shifts), shape, dtype=object)
    offsets = np.repeat(shifts, k, axis=0)
    return shapely.transform(copies, lambda coords: coords + offsets)


def _shifted(raw: Raw, dx: float, dy: float) -> Raw:
    key = "polygon" if raw["kind"] == "polygon" else "line"
    return {**raw, key: [[round(float(x) + dx, 4), round(float(y) + dy, 4)]
                         for x, y in raw[key]]}


def _with_line(raw: Raw, points: Sequence[Sequence[float]]) -> Raw:
    return {**raw, "line": [[round(float(x), 4), round(float(y), 4)] for x, y in points]}


def _parts(shape: BaseGeometry) -> list[LineString]:
    return [g for g in getattr(shape, "geoms", [shape])
            if isinstance(g, LineString) and not g.is_empty]


def _line_minus(points: Sequence[Sequence[float]],
                area: BaseGeometry) -> list[list[list[float]]]:
    """The stretches of a polyline outside an area, in order along it, as point lists;
    stretches shorter than SLIVER_LENGTH are dropped and repeated points merged."""
    line = LineString(points)
    parts = _parts(line.difference(area))
    parts.sort(key=lambda p: line.project(Point(p.coords[0])))
    out = []
    for part in parts:
        if part.length < SLIVER_LENGTH:
            continue
        coords: list[list[float]] = []
        for x, y in part.coords:
            p = [round(x, 4), round(y, 4)]
            if not coords or coords[-1] != p:
                coords.append(p)
        if len(coords) >= 2:
            out.append(coords)
    return out


def _along(square: BaseGeometry, p: Point, q: Point, table: Polygon) -> list[list[float]]:
    """From p to q along the square's edge, the way that stays off the table's edge."""
    ring = LineString(square.exterior.coords)
    d1, d2 = ring.project(p), ring.project(q)
    total = ring.length
    forward = _arc(ring, d1, d2 if d2 >= d1 else d2 + total)
    backward = _arc(ring, d2, d1 if d1 >= d2 else d1 + total)
    backward = LineString(list(backward.coords)[::-1])
    border = table.exterior

    def cost(path: LineString) -> tuple[float, float]:
        return (round(path.intersection(border).length, 6), round(path.length, 6))

    best = min((forward, backward), key=cost)
    return [[x, y] for x, y in best.coords]


def _arc(ring: LineString, start: float, end: float) -> LineString:
    """The ring from `start` to `end` (both as lengths along it; end may pass once round)."""
    total = ring.length
    if end <= total:
        return _substring(ring, start, end)
    first = _substring(ring, start, total)
    second = _substring(ring, 0.0, end - total)
    return LineString(list(first.coords) + list(second.coords)[1:])


def _substring(ring: LineString, start: float, end: float) -> LineString:
    part = ops.substring(ring, start, end)
    if isinstance(part, Point):
        return LineString([part.coords[0], part.coords[0]])
    assert isinstance(part, LineString)
    return part


def _between(chain: LineString, p: Point, q: Point) -> LineString:
    """The stretch of the chain from p to q (going round a closed chain's start if need be)."""
    a, b = chain.project(p), chain.project(q)
    if b >= a:
        return _substring(chain, a, b)
    return _arc(chain, a, b + chain.length) if chain.is_closed else _substring(chain, b, a)


def _owner(lines: dict[int, Raw], stretch: LineString) -> int:
    """The piece most of a stretch of wall was (a wall before a door): the wall built in its
    place is made like it."""
    band = stretch.buffer(1e-4, cap_style="flat")
    return min(lines, key=lambda i: (lines[i]["kind"] != "wall",
                                     -round(LineString(lines[i]["line"]).intersection(
                                         band).length, 4), i))
