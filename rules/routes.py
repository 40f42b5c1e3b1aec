"""Why a move cannot be made, and the way it can: the refusals of `rules.movement.plan_move`.

A player who drags a figure through a wall, past its M or onto a piece of terrain is told
what is in the way by name and what to do instead: the way round with its length and the AP
it takes (one move, 1 AP, covers M inches), the nearest spot where the base fits, or the
doors to open first. The refusal itself is cheap (the engine and the AI try many moves that
fail); what to do instead is its `advice`, worked out only for a person (`legal.check`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import shapely
from shapely.geometry import LineString

from geometry.paths import Path, pathfinder
from geometry.space import enemies, terrain_key
from i18n import Message
from rules import words
from rules.errors import IllegalActionError

if TYPE_CHECKING:
    from geometry.terrain import TerrainPiece
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["moves_needed", "route_terrain", "too_far", "unreachable", "no_way_toward"]

Point = tuple[float, float]
TOUCH_SLACK = 0.02  # inches: a route's corner this close to a piece's edge goes round it
SPOT_RINGS = np.arange(0.1, 3.05, 0.1)  # where to look for a free spot near a bad goal
SPOT_ANGLES = 32
SPOT_BAND = 0.25  # inches: free spots this much further than the nearest are weighed too
SPOT_TRIES = 12  # free spots, nearest first, whose route is looked for


def moves_needed(length: float, per_move: float) -> int:
    """How many moves (1 AP each) a route of `length` takes at `per_move` inches a move."""
    if length <= 1e-9:
        return 0
    if per_move <= 0:
        return 0
    return max(math.ceil(length / per_move - 1e-6), 1)


def _blockers(game: GameState) -> list[TerrainPiece]:
    return [t for t in game.terrain if t.movement_blocking]


def _add(found: list[words.Words], name: words.Words) -> None:
    if name not in found:
        found.append(name)


def route_terrain(game: GameState, fig: Fig, route: tuple[Point, ...]
                  ) -> tuple[list[words.Words], list[words.Words]]:
    """The terrain a route goes round (pieces its corners touch) and the open doors it goes
    through, by name, in the order met."""
    around: list[words.Words] = []
    through: list[words.Words] = []
    if len(route) < 2:
        return around, through
    r = fig.radius
    pieces = _blockers(game)
    if pieces and len(route) > 2:
        footprints = np.array([p.footprint for p in pieces], dtype=object)
        corners = shapely.points(np.asarray(route[1:-1], dtype=np.float64))
        gaps = shapely.distance(footprints[:, None], corners[None, :])
        touched = np.abs(gaps - r) <= TOUCH_SLACK
        for k in range(touched.shape[1]):
            for i in np.flatnonzero(touched[:, k]):
                _add(around, pieces[int(i)].words)
    line = LineString(route)
    for door in game.terrain:
        if door.kind == "door" and door.open and shapely.distance(door.footprint, line) < r:
            _add(through, door.words)
    return around, through


def _refusal(message: Message, where: str, advice: Callable[[], Message]) -> IllegalActionError:
    error = IllegalActionError(message, where)
    error.advice = advice
    return error


def too_far(game: GameState, fig: Fig, path: Path, per_move: float) -> IllegalActionError:
    """The spot is further along the shortest route than one move: say the route's length
    and the AP it takes; the advice names what it goes round or through."""
    params = {"who": words.who(game, fig), "d": path.length, "m": float(per_move),
              "ap": moves_needed(path.length, per_move)}

    def advice() -> Message:
        around, through = route_terrain(game, fig, path.waypoints)
        if through:
            return Message("refusal.too_far_through", {**params, "doors": through})
        if around:
            return Message("refusal.too_far_around", {**params, "around": around})
        return Message("refusal.too_far", params)

    return _refusal(Message("refusal.too_far", params), "action.to", advice)


def unreachable(game: GameState, fig: Fig, goal: Point, path: Path,
                per_move: float) -> IllegalActionError:
    """No route to `goal`: the base does not fit there (the advice: the nearest spot where
    it does), or the terrain closes the way (the advice: the doors to open, if that opens
    it)."""
    who = words.who(game, fig)
    why = path.words or Message("scene.path.no_route")
    if path.at == "start":
        return IllegalActionError(Message("refusal.bad_start", {"who": who, "why": why}),
                                  "action.to")
    if path.problem == "no_route":
        return _refusal(Message("refusal.no_way", {"who": who}), "action.to",
                        lambda: _closed_off(game, fig, goal, per_move))
    plain = Message("refusal.cannot_stand_there", {"who": who, "why": why})

    def advice() -> Message:
        spot = _nearest_spot(game, fig, goal)
        if spot is None:
            return plain
        free, route = spot
        return Message("refusal.cannot_stand_there_try", {
            "who": who, "why": why, "gap": math.dist(free, goal), "d": route.length,
            "ap": moves_needed(route.length, per_move)})

    return _refusal(plain, "action.to", advice)


def no_way_toward(game: GameState, fig: Fig, toward: str | Point, goal: Point | None,
                  per_move: float) -> IllegalActionError:
    """A move toward something the terrain walls off (the advice: the doors to open)."""
    who = words.who(game, fig)
    target = toward if isinstance(toward, str) else None
    plain = Message("refusal.no_way", {"who": who}) if target is None else Message(
        "refusal.no_way_to", {"who": who, "target": words.who(game, target)})
    if goal is None:
        return IllegalActionError(plain, "action.toward")
    return _refusal(plain, "action.toward",
                    lambda: _closed_off(game, fig, goal, per_move, target=target))


def _closed_off(game: GameState, fig: Fig, goal: Point, per_move: float,
                target: str | None = None) -> Message:
    who = words.who(game, fig)
    doors = _doors_to_open(game, fig, goal)
    if doors is not None:
        names, length = doors
        params = {"who": who, "doors": names, "d": length,
                  "ap": moves_needed(length, per_move) + len(names)}
        if target is not None:
            return Message("refusal.no_way_to_doors", {**params, "target": words.who(
                game, target)})
        return Message("refusal.no_way_doors", params)
    if target is not None:
        return Message("refusal.no_way_to", {"who": who, "target": words.who(game, target)})
    return Message("refusal.no_way", {"who": who})


def _doors_to_open(game: GameState, fig: Fig, goal: Point
                   ) -> tuple[list[words.Words], float] | None:
    """The closed doors the route to `goal` would pass with every door open, and that
    route's length; None when opening doors would not open the way."""
    closed = [t for t in game.terrain if t.kind == "door" and t.movement_blocking]
    if not closed:
        return None
    kept = tuple(t for t in game.terrain if t.movement_blocking and t.kind != "door")
    table = (game.table.width, game.table.depth)
    finder = pathfinder(("every door open", terrain_key(kept)),
                        [(t.id, t.footprint) for t in kept], table, fig.radius)
    space = game.space()
    me = space.scene.figure(fig.id)
    avoid = [(g.x, g.y, g.radius) for g in space.scene.figures if enemies(me, g)]
    path = finder.shortest(fig.centre, goal, avoid)
    if not path.reachable:
        return None
    line = LineString(path.waypoints)
    names: list[words.Words] = []
    for door in closed:
        if shapely.distance(door.footprint, line) < fig.radius:
            _add(names, door.words)
    return (names, path.length) if names else None


def _nearest_spot(game: GameState, fig: Fig, goal: Point) -> tuple[Point, Path] | None:
    """The spot nearest `goal` where the base fits and that the figure can reach."""
    r = fig.radius
    angles = np.linspace(0.0, 2 * math.pi, SPOT_ANGLES, endpoint=False)
    rings = np.repeat(SPOT_RINGS, SPOT_ANGLES)
    turn = np.tile(angles, SPOT_RINGS.size)
    xy = np.column_stack([goal[0] + rings * np.cos(turn), goal[1] + rings * np.sin(turn)])
    ok = ((xy[:, 0] >= r) & (xy[:, 0] <= game.table.width - r)
          & (xy[:, 1] >= r) & (xy[:, 1] <= game.table.depth - r))
    near = shapely.Point(goal).buffer(float(SPOT_RINGS[-1]) + r + 0.1)
    pieces = [t.footprint for t in _blockers(game) if t.footprint.intersects(near)]
    if pieces and ok.any():
        points = shapely.points(xy[ok])
        gaps = shapely.distance(np.array(pieces, dtype=object)[:, None], points[None, :])
        keep = np.flatnonzero(ok)
        ok[keep[(gaps.min(axis=0) < r - 1e-6)]] = False
    for other in game.figures.values():
        if other.id == fig.id or not other.on_table:
            continue
        gap = np.hypot(xy[:, 0] - other.x, xy[:, 1] - other.y) - r - other.radius
        ok &= gap >= -1e-9
    free = np.flatnonzero(ok)
    if free.size == 0:
        return None
    # the free spots about as near the goal as the nearest (both sides of a wall), those
    # nearest the figure first: the shortest way is among them
    near = free[rings[free] <= rings[free[0]] + SPOT_BAND]
    near = near[np.argsort(np.hypot(xy[near, 0] - fig.x, xy[near, 1] - fig.y),
                           kind="stable")][:SPOT_TRIES]
    best: tuple[Point, Path] | None = None
    for i in near:
        spot = (float(xy[i, 0]), float(xy[i, 1]))
        path = game.space().path(fig.id, spot)
        if path.reachable and (best is None or path.length < best[1].length):
            best = spot, path
    return best
