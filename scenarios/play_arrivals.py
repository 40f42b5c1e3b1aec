"""Zombies arriving during a scenario: reinforcements, a crate's trap, the noise of a crate.

Where they go is the zombie player's choice within the card's rule; by default it is
deterministic (no dice beyond the card's), so a recorded game replays exactly:

- on an edge, the bases go wholly within 1 in of it, the first as near the edge's anchor as
  possible (the middle of the far edge, the far two thirds of a side edge, the point nearest
  a noisy crate), then outward; more than 6 in from every survivor when possible, else
  anywhere on that edge, else in deeper rows;
- in the card's zones, nearest the zone's centre first;
- a crate's zombie in base contact with the figure that opened it.

Under `camera_corners_clear` (docs/rules.md D41) no newcomer goes on the square at a table
corner where the camera's marker lies (`geometry.corners`): edge and zone spots skip it, and a
crate's zombie takes a spot in contact off it when there is one.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from geometry.corners import keep_out
from geometry.units import DEFAULT_BASE_MM, base_radius
from rules.figures import Fig, zombie_of
from rules.movement import legal_spot
from scenarios.placement import Placer, Spot

if TYPE_CHECKING:
    from rules.state import GameState

__all__ = ["EDGES", "edge_spots", "zone_spots", "contact_spot", "add_zombie", "nearest_edge",
           "corners_kept"]

EDGES = ("near", "far", "left", "right")
EDGE_DEPTH = 1.0  # reinforcements arrive wholly within 1 in of their edge
KEEP_AWAY = 6.0  # ...and more than 6 in from every survivor when possible
GAP = 0.05
STEP = 0.1
CLEARANCE = 0.02


def nearest_edge(game: GameState, x: float, y: float) -> tuple[str, float]:
    """The table edge nearest a point, and where along it the point is."""
    w, d = game.table.width, game.table.depth
    options = [(y, "near", x), (d - y, "far", x), (x, "left", y), (w - x, "right", y)]
    _, edge, along = min(options)
    return edge, along


def default_anchor(game: GameState, edge: str) -> float:
    """The middle of the near and far edges; the far two thirds of the side edges."""
    if edge in ("near", "far"):
        return game.table.width / 2
    return game.table.depth * 2 / 3


def corners_kept(game: GameState) -> BaseGeometry | None:
    """The camera's corner squares when the game keeps them clear, else None."""
    if not game.settings.camera_corners_clear:
        return None
    return keep_out(game.table.width, game.table.depth)


def _occupied(game: GameState) -> list[tuple[float, float, float]]:
    return [(f.x, f.y, f.radius) for f in game.figures.values() if f.on_table]


def _survivors(game: GameState) -> list[tuple[float, float, float]]:
    return [(f.x, f.y, f.radius) for f in game.figures.values()
            if f.on_table and f.side == "survivors"]


def edge_spots(game: GameState, edge: str, count: int, anchor: float | None = None,
               base_mm: float = DEFAULT_BASE_MM) -> list[tuple[float, float]]:
    """Up to `count` free spots for zombie bases along `edge` (see the module docstring)."""
    r = base_radius(base_mm)
    w, d = game.table.width, game.table.depth
    length = w if edge in ("near", "far") else d
    anchor = default_anchor(game, edge) if anchor is None else anchor
    ts = np.arange(r, length - r + 1e-9, STEP)
    ts = ts[np.argsort(np.abs(ts - anchor), kind="stable")]
    blockers = [t.footprint for t in game.terrain if t.movement_blocking]
    blocked = shapely.union_all(blockers) if blockers else None
    corners = corners_kept(game)
    taken = _occupied(game)
    chosen: list[tuple[float, float]] = []
    passes = [(r + 0.01, KEEP_AWAY), (r + 0.01, 0.0)] + [
        (r + 0.01 + k * EDGE_DEPTH, 0.0) for k in range(1, 6)]
    for depth, keep in passes:
        if len(chosen) == count:
            break
        xs, ys = _line(edge, ts, depth, w, d)
        clear = np.ones(len(ts), dtype=bool)
        if blocked is not None:
            clear = shapely.distance(blocked, shapely.points(xs, ys)) >= r + CLEARANCE
        if corners is not None:
            clear &= shapely.distance(corners, shapely.points(xs, ys)) >= r + CLEARANCE
        for x, y, ok in zip(xs, ys, clear, strict=True):
            if len(chosen) == count:
                break
            if not ok:
                continue
            x, y = round(float(x), 4), round(float(y), 4)
            if any(math.hypot(x - ox, y - oy) < r + orad + GAP for ox, oy, orad in taken):
                continue
            if keep and any(math.hypot(x - sx, y - sy) - r - srad <= keep
                            for sx, sy, srad in _survivors(game)):
                continue
            chosen.append((x, y))
            taken.append((x, y, r))
    return chosen


def _line(edge: str, ts: Any, depth: float, w: float, d: float) -> tuple[Any, Any]:
    if edge == "near":
        return ts, np.full(len(ts), depth)
    if edge == "far":
        return ts, np.full(len(ts), d - depth)
    if edge == "left":
        return np.full(len(ts), depth), ts
    return np.full(len(ts), w - depth), ts


def zone_spots(game: GameState, polygon: Any, count: int,
               base_mm: float = DEFAULT_BASE_MM) -> list[tuple[float, float]]:
    """Up to `count` spots in a zone, nearest its centre first, away from survivors when
    possible."""
    r = base_radius(base_mm)
    placer = Placer(game.scene(), keep_out=corners_kept(game))
    placer.taken = [Spot(x, y, rad) for x, y, rad in _occupied(game)]
    away = [(Spot(x, y, rad), KEEP_AWAY) for x, y, rad in _survivors(game)]
    spots = placer.place(polygon, count, r, gap=GAP, away=away)
    if len(spots) < count:
        spots += placer.place_near(polygon, count - len(spots), r, gap=GAP,
                                   steps=(1.5, 3.0, 5.0, 8.0))
    return [(s.x, s.y) for s in spots]


def contact_spot(game: GameState, fig: Fig, newcomer: Fig,
                 toward: tuple[float, float] | None = None) -> tuple[float, float] | None:
    """A legal spot for `newcomer` in base contact with `fig`, first on the side of
    `toward` (where it comes from); off the camera's corner squares when one is (they are
    kept clear)."""
    reach = fig.radius + newcomer.radius + 0.01
    start = math.atan2(toward[1] - fig.y, toward[0] - fig.x) if toward else 0.0
    corners = corners_kept(game)
    fallback = None
    for k in (0, 1, -1, 2, -2, 3, -3, 4, 5, -5, 6, -6, 7, -7, 8):
        a = start + k * math.pi / 8
        p = (round(fig.x + reach * math.cos(a), 4), round(fig.y + reach * math.sin(a), 4))
        if not legal_spot(game, newcomer, p):
            continue
        if corners is None or corners.distance(shapely.Point(p)) >= newcomer.radius + CLEARANCE:
            return p
        fallback = fallback or p
    return fallback


def next_zombie_id(game: GameState, state: dict[str, Any]) -> str:
    n = int(state.get("next_zombie", 1))
    while f"z{n}" in game.figures:
        n += 1
    state["next_zombie"] = n + 1
    return f"z{n}"


def add_zombie(game: GameState, state: dict[str, Any], kind: str,
               spot: tuple[float, float]) -> Fig:
    """A zombie of `kind` put on the table at `spot`."""
    zombie = zombie_of(kind, next_zombie_id(game, state), game.catalog, spot[0], spot[1])
    game.figures[zombie.id] = zombie
    game.moved()
    return zombie
