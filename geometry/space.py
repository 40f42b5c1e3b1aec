"""A scene made ready for measuring: distances, sight, views, paths, with caches.

`Space` is what arbitration, the rules engine and the page query. It keeps one sight field
per table and one view per figure, so asking again is cheap and moving one figure only
recomputes what that figure changes.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Polygon, box

from geometry.distance import edge_distances, in_contact
from geometry.lru import LRU
from geometry.paths import Path, PathFinder, pathfinder
from geometry.scene import Figure, Scene
from geometry.sight import SightField, View
from geometry.terrain import TerrainPiece
from i18n import Message

__all__ = ["Sight", "Space", "enemies", "path_words"]

FloatArray = npt.NDArray[np.float64]
EDGE_NOISE = 1e-6  # inches: a base touching terrain exactly may lie this far outside its region
ANSWERED = 1 << 16  # sight pairs a terrain's field keeps (about 200 bytes each)
# Points whose regions are remembered, per terrain and radius (`_Regions`): about 250 bytes
# each (measured), so 1.3 MB at most for each of the `REGION_SETS` kept. A game asks
# `same_region` of a few thousand distinct goals (the spots round every target, the exits),
# most many times, from far fewer starts (where figures stand).
REGION_POINTS = 4096
REGION_STARTS = 1024
REGION_SETS = 16


@dataclass(frozen=True)
class Sight:
    """Line of sight from one figure to another: the rule's answer and the visible share."""

    visible: bool
    fraction: float


_SELF = Sight(True, 1.0)  # a figure sees itself wholly


class Space:
    """Measuring queries on one scene."""

    def __init__(self, scene: Scene, sight_field: SightField | None = None,
                 views_by_spot: dict[tuple[float, float], View] | None = None) -> None:
        """`views_by_spot` may be shared by successive spaces on the same terrain: a view
        depends only on where the observer stands, so figures that did not move keep theirs."""
        self.scene = scene
        self._field = sight_field
        self._views: dict[str, View] = {}
        self._known: dict[tuple[str, str], Sight] = {}
        self._by_spot = views_by_spot if views_by_spot is not None else {}
        self._finders: dict[float, PathFinder] = {}
        self._regions: dict[float, _Regions] = {}

    # --- distances ----------------------------------------------------------------------

    @cached_property
    def distances(self) -> FloatArray:
        """Edge-to-edge distances between every pair of figures, in scene order."""
        s = self.scene
        return edge_distances(s.centres, s.radii, s.centres, s.radii)

    @cached_property
    def distance_rows(self) -> list[list[float]]:
        """`distances` as Python floats, read once: the rules ask for one pair at a time,
        tens of thousands of times a game, where indexing the array is several times slower
        than a list (`tolist` gives the very same float64 values)."""
        rows: list[list[float]] = self.distances.tolist()
        return rows

    def distance(self, a: str, b: str) -> float:
        """Edge-to-edge distance between two figures (`distances[i, j]` as a float)."""
        index = self.scene.index
        if a in index and b in index:
            return self.distance_rows[index[a]][index[b]]
        i, j = self._index(a), self._index(b)  # raises the scene's unknown-id error
        return self.distance_rows[i][j]

    def in_contact(self, figure: str, among: Sequence[str]) -> list[str]:
        i = self._index(figure)
        cols = [self._index(x) for x in among]
        touching = in_contact(self.distances[i, cols])
        return [x for x, ok in zip(among, touching, strict=True) if ok and x != figure]

    # --- sight --------------------------------------------------------------------------

    @property
    def sight_field(self) -> SightField:
        if self._field is None:
            s = self.scene
            footprints = [t.footprint for t in s.sight_blockers]
            self._field = SightField(footprints, s.table.width, s.table.depth)
        return self._field

    def view(self, figure: str) -> View:
        if figure not in self._views:
            spot = self.scene.figure(figure).centre
            if spot not in self._by_spot:
                if len(self._by_spot) > 4096:
                    self._by_spot.clear()
                self._by_spot[spot] = self.sight_field.view(spot)
            self._views[figure] = self._by_spot[spot]
        return self._views[figure]

    def sight(self, observer: str, target: str) -> Sight:
        known = self._known.get((observer, target))
        return known if known is not None else self.sights(observer, [target])[0]

    def prefetch_sight(self, pairs: Sequence[tuple[str, str]]) -> None:
        """Answer these (observer, target) pairs in one vectorised batch now, so that later
        `sight` calls for them only read the result (a 10 x 100 sight table asked one
        question at a time would otherwise compute each pair on its own)."""
        index = self.scene.index
        pairs = [(a, b) for a, b in pairs if a in index and b in index]
        observers = list(dict.fromkeys(a for a, _ in pairs))
        targets = list(dict.fromkeys(b for _, b in pairs))
        for o, row in self.sight_table(observers, targets).items():
            for t, got in row.items():
                self._known[(o, t)] = got

    def sights(self, observer: str, targets: Sequence[str]) -> list[Sight]:
        """Line of sight from one figure to many, answered together, in `targets` order."""
        row = self.sight_table([observer], targets)[observer]
        return [row[t] for t in targets]

    def sight_table(self, observers: Sequence[str], targets: Sequence[str]) -> dict[
            str, dict[str, Sight]]:
        """Sight from each observer to each target, answered in one batch (`sight_pairs`)."""
        pairs = [(o, t) for o in observers for t in targets]
        got = self.sight_pairs(pairs)
        table: dict[str, dict[str, Sight]] = {o: {} for o in observers}
        for (o, t), sight in zip(pairs, got, strict=True):
            table[o][t] = sight
        return table

    def sight_pairs(self, pairs: Sequence[tuple[str, str]]) -> list[Sight]:
        """Sight for each (observer, target) pair, in order, the pairs not known answered in
        one batch.

        Sight between two bases depends only on where they stand (figures never block it):
        the terrain's field keeps each pair's answer (`SightField.answered`), so a figure
        that moves is measured again against the others, and the pairs that did not move
        are read back (each pair's answer is the same, bit for bit, in any batch)."""
        field = self.sight_field
        known = field.answered
        spot = {f: self.scene.figure(f) for f in dict.fromkeys(x for pair in pairs for x in pair)}
        out: list[Sight] = []
        todo: list[tuple[int, str, str, tuple[float, float, float, float, float]]] = []
        for o, t in pairs:
            if o == t:
                out.append(_SELF)
                continue
            seer, seen = spot[o], spot[t]
            key = (seer.x, seer.y, seen.x, seen.y, seen.radius)
            got = known.get(key)
            if got is None:
                todo.append((len(out), o, t, key))
                got = _SELF  # a place kept in order, answered below
            out.append(got)
        if todo:
            who = list(dict.fromkeys(o for _, o, _, _ in todo))
            at = {o: i for i, o in enumerate(who)}
            views = [self.view(o) for o in who]
            centres = np.array([spot[t].centre for _, _, t, _ in todo], dtype=np.float64)
            radii = np.array([spot[t].radius for _, _, t, _ in todo], dtype=np.float64)
            answers = field.answers(views, np.array([at[o] for _, o, _, _ in todo]), centres,
                                    radii)
            # Plain Python bools and floats read once (indexing numpy arrays one element at
            # a time was a third of a 10 x 100 table's time).
            visible: list[bool] = answers.visible.tolist()
            fraction: list[float] = answers.fraction.tolist()
            if len(known) + len(todo) > ANSWERED:
                known.clear()
            for (i, _, _, pair), v, f in zip(todo, visible, fraction, strict=True):
                out[i] = known[pair] = Sight(v, f)
        return out

    def visibility_polygon(self, figure: str) -> Polygon:
        """What `figure` sees, clipped to the table: for drawing."""
        t = self.scene.table
        clipped = shapely.intersection(self.view(figure).polygon, box(0, 0, t.width, t.depth))
        return clipped

    # --- movement -----------------------------------------------------------------------

    @cached_property
    def _terrain_key(self) -> object:
        return terrain_key(self.scene.terrain)

    def pathfinder(self, radius: float) -> PathFinder:
        """The shared finder of this terrain for `radius` (looked up once per space)."""
        found = self._finders.get(radius)
        if found is None:
            s = self.scene
            blockers = [(t.id, t.footprint) for t in s.movement_blockers]
            found = pathfinder(self._terrain_key, blockers, (s.table.width, s.table.depth),
                               radius)
            self._finders[radius] = found
        return found

    def same_region(self, radius: float, a: tuple[float, float],
                    points: Sequence[tuple[float, float]]) -> bool:
        """Whether a base at `a` could reach any of `points` if no figure stood in the way.

        The region of `a` is the first free region containing it, else the first within
        EDGE_NOISE of it (a base exactly touching terrain can fall outside by noise); a
        point counts when it intersects that region. Which regions each point meets is
        remembered per terrain and radius, so each is measured once.
        """
        with _REGIONS_LOCK:  # the prepared regions are shared by every game on this terrain
            regions = self._regions.get(radius)
            if regions is None:
                regions = _free_regions(self._terrain_key, self.scene, radius)
                self._regions[radius] = regions
            start = regions.start_of(float(a[0]), float(a[1]))
            if start < 0 or not points:
                return False
            bit = 1 << start
            return any(regions.touched(float(p[0]), float(p[1])) & bit for p in points)

    def path(self, figure: str, to: tuple[float, float]) -> Path:
        """Shortest legal route of `figure`'s base centre to `to`, around enemy bases too;
        when there is none, with the reason in words (`Path.words`)."""
        f = self.scene.figure(figure)
        path = self.pathfinder(f.radius).shortest(f.centre, to, self._enemy_bases(f))
        if path.reachable:
            return path
        return replace(path, words=path_words(path, self.scene.terrain))

    def reach(self, figure: str, inches: float) -> shapely.Geometry:
        f = self.scene.figure(figure)
        return self.pathfinder(f.radius).reach(f.centre, inches, self._enemy_bases(f))

    def _enemy_bases(self, mover: Figure) -> list[tuple[float, float, float]]:
        return [(g.x, g.y, g.radius) for g in self.scene.figures if enemies(mover, g)]

    def _index(self, figure: str) -> int:
        self.scene.figure(figure)  # raises the scene's unknown-id error
        return self.scene.index[figure]


_KEYS: dict[int, tuple[object, object]] = {}


def terrain_key(terrain: tuple[TerrainPiece, ...]) -> object:
    """A hashable identity of the movement-blocking terrain (cached per terrain tuple)."""
    known = _KEYS.get(id(terrain))
    if known is not None and known[0] is terrain:
        return known[1]
    key = tuple((t.id, t.footprint.wkb) for t in terrain if t.movement_blocking)
    if len(_KEYS) > 256:
        _KEYS.clear()
    _KEYS[id(terrain)] = (terrain, key)
    return key


class _Regions:
    """The connected free regions of one terrain for one radius, and for points asked about,
    which regions they touch: measured once per point, then read (bounded: `REGION_POINTS`
    goals, `REGION_STARTS` starts).

    Callers hold `_REGIONS_LOCK`: the regions are prepared GEOS geometries, shared by every
    game on the terrain, and those are not thread-safe.
    """

    def __init__(self, parts: list[shapely.Geometry]) -> None:
        for part in parts:
            shapely.prepare(part)
        self.parts = parts
        self._array = np.array(parts, dtype=object)
        self._touched: LRU[tuple[float, float], int] = LRU(REGION_POINTS)
        self._starts: LRU[tuple[float, float], int] = LRU(REGION_STARTS)

    def touched(self, x: float, y: float) -> int:
        """The regions the point (x, y) intersects, as a bit mask (bit i: `parts[i]`)."""
        if x == 0.0 or y == 0.0:  # 0.0 and -0.0 are one key: measure these (off-table) anew
            return self._measure(x, y)
        key = (x, y)
        mask = self._touched.get(key)
        if mask is None:
            mask = self._measure(x, y)
            self._touched.put(key, mask)
        return mask

    def _measure(self, x: float, y: float) -> int:
        hit: list[bool] = shapely.intersects_xy(self._array, x, y).tolist()
        return sum(1 << i for i, yes in enumerate(hit) if yes)

    def start_of(self, x: float, y: float) -> int:
        """The region a base at (x, y) stands in: the first that contains it, else the first
        within EDGE_NOISE of it; -1 for none."""
        if x == 0.0 or y == 0.0:
            return self._find_start(x, y)
        key = (x, y)
        found = self._starts.get(key)
        if found is None:
            found = self._find_start(x, y)
            self._starts.put(key, found)
        return found

    def _find_start(self, x: float, y: float) -> int:
        mask = self.touched(x, y)
        if mask:
            return (mask & -mask).bit_length() - 1  # the lowest bit: the first region
        here = shapely.Point(x, y)
        return next((i for i, r in enumerate(self.parts)
                     if shapely.distance(r, here) <= EDGE_NOISE), -1)


_REGIONS: LRU[tuple[object, float], _Regions] = LRU(REGION_SETS)
# Prepared GEOS geometries are not thread-safe (libgeos issue 825) and these are shared by
# the server's threads: one query at a time.
_REGIONS_LOCK = threading.RLock()


def _free_regions(key: object, scene: Scene, radius: float) -> _Regions:
    """Connected parts of where a base centre may stand, cached per terrain and radius.

    Slightly generous (obstacles grown by a polygon inside the true circle), which is what a
    quick "could it get there at all" answer wants; routes themselves come from paths.
    """
    cache_key = (key, radius)
    found = _REGIONS.get(cache_key)
    if found is None:
        t = scene.table
        free = box(radius, radius, t.width - radius, t.depth - radius)
        grown = [shapely.buffer(p.footprint, radius, quad_segs=4)
                 for p in scene.movement_blockers]
        if grown:
            free = shapely.difference(free, shapely.union_all(grown))
        found = _Regions(list(getattr(free, "geoms", [free])))
        _REGIONS.put(cache_key, found)
    return found


_PATH_WORDS = {
    ("goal", "off_table"): Message("scene.path.goal_off_table"),
    ("goal", "terrain"): Message("scene.path.goal_on_terrain"),
    ("goal", "enemy"): Message("scene.path.goal_on_enemy"),
    ("start", "off_table"): Message("scene.path.start_off_table"),
    ("start", "terrain"): Message("scene.path.start_on_terrain"),
    ("start", "enemy"): Message("scene.path.start_on_enemy"),
}


def path_words(path: Path, terrain: Sequence[TerrainPiece]) -> Message:
    """Why `path` cannot be taken, for a person: the pieces by their names."""
    if path.problem == "terrain":
        by_id = {t.id: t for t in terrain}
        pieces = [by_id[i].words if i in by_id else Message("scene.piece.other")
                  for i in path.pieces]
        return Message(_PATH_WORDS[(path.at, "terrain")].code, {"pieces": pieces})
    known = _PATH_WORDS.get((path.at, path.problem))
    return known if known is not None else Message("scene.path.no_route")


def enemies(a: Figure, b: Figure) -> bool:
    """Zombies are the enemies of humans; survivors and civilians are on the same side."""
    return a.id != b.id and (a.side == "zombies") != (b.side == "zombies")
