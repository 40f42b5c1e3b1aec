"""Cover from shooters: where a zombie ending its move could be shot, and a covered spot.

A survivor may shoot only the nearest zombie it sees within range, or one within 2 in of a
survivor (the shooting-target priority, `rules.arbitration.shooting_targets`). So a zombie
that ends a walk short of contact is in danger only where, for some loaded shooter, it
would be seen, in range, and the nearest zombie seen (or a threat). Elsewhere it is in
cover, even in the open: behind terrain, beyond range, beyond the night's sight, or behind
a nearer zombie. The tactician asks this of the spot its walk toward a human would end at,
and when that spot is exposed looks for a covered one that still gets most of the way.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from rules.arbitration import THREAT_INCHES, TIE_INCHES
from rules.attacks import has_ammo, shooting_answer
from rules.errors import IllegalActionError
from rules.movement import plan_move

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.game import Game

__all__ = ["Shooter", "shooters", "exposed", "covered_spot"]

Point = tuple[float, float]
# where a covered spot is looked for: fractions of the walk, and sideways offsets (inches)
ALONG = (1.0, 0.8, 0.6, 0.4)
ASIDE = (0.0, -1.5, 1.5, -3.0, 3.0)
KEEP = 0.5  # a covered spot must keep this share of the exposed walk's progress


@dataclasses.dataclass(frozen=True)
class Shooter:
    """A standing survivor with a loaded ranged weapon, and how far its longest one
    reaches."""

    fig: Fig
    reach: float  # inches, the weather's range factor applied
    base: float  # the weapon's own range, as `rules.attacks.shooting_answer` takes it


def shooters(game: Game) -> list[Shooter]:
    """Standing survivors who could shoot this turn, with their longest reach."""
    if game.mode == "zombie_war":
        return []  # two bands shoot each other too: the priority rule is another one
    factor = game.referee.range_factor(game) if game.referee is not None else 1.0
    out = []
    for f in game.figures.values():
        if not (f.side == "survivors" and f.standing and f.on_table):
            continue
        base = 0.0
        for w, n in f.items.items():
            item = game.catalog.equipment.get(w)
            if (n > 0 and item is not None and item.kind in ("shooting", "throwing")
                    and item.range and has_ammo(game, f, w)):
                base = max(base, float(item.range))
        if base > 0:
            out.append(Shooter(f, base * factor, base))
    return out


def exposed(game: Game, z: Fig, points: Sequence[Point], who: Sequence[Shooter]
            ) -> list[list[str]]:
    """For each point, the shooters who could shoot `z` standing there (ids)."""
    if not who or not points:
        return [[] for _ in points]
    space = game.space()
    views = [space.view(s.fig.id) for s in who]
    pts = np.asarray(points, dtype=np.float64)
    n, m = len(points), len(who)
    observer = np.tile(np.arange(m), n)
    centres = np.repeat(pts, m, axis=0)
    radii = np.full(n * m, z.radius)
    seen = space.sight_field.answers(views, observer, centres, radii).visible.reshape(n, m)
    others = [_nearest_other(game, s, z) for s in who]
    humans = [f for f in game.figures.values() if f.side == "survivors" and f.on_table]
    out: list[list[str]] = []
    for i, (x, y) in enumerate(points):
        threat = any(math.dist((x, y), h.centre) - h.radius - z.radius
                     <= THREAT_INCHES + 1e-9 for h in humans)
        hit = []
        for j, s in enumerate(who):
            d = math.dist((x, y), s.fig.centre) - s.fig.radius - z.radius
            if not seen[i, j] or d > s.reach + 1e-9:
                continue
            if game.referee is not None and game.referee.sight_veto(
                    game, s.fig, dataclasses.replace(z, x=x, y=y), d) is not None:
                continue
            if threat or d <= others[j] + TIE_INCHES:
                hit.append(s.fig.id)
        out.append(hit)
    return out


def _nearest_other(game: Game, s: Shooter, z: Fig) -> float:
    """How far the nearest zombie `s` may shoot now is, `z` left aside (inf: none)."""
    for target in shooting_answer(game, s.fig, s.base)["candidates"]:
        if target != z.id:
            return game.distance(s.fig.id, target)
    return math.inf


def covered_spot(game: Game, z: Fig, goal: Fig, end: Point, who: Sequence[Shooter]
                 ) -> tuple[Point, float] | None:
    """A spot within the zombie's move, out of every shooter's reach as `exposed` reads
    it, that keeps at least KEEP of the progress toward `goal` the walk to `end` makes;
    the one closest to `goal`, with its distance to it (edge to edge). None: no such spot."""
    start = z.centre
    gap0 = math.dist(start, goal.centre)
    progress = gap0 - math.dist(end, goal.centre)
    if progress <= 0:
        return None
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    spots = [(start[0] + dx * f - uy * a, start[1] + dy * f + ux * a)
             for f in ALONG for a in ASIDE]
    spots = [(round(x, 3), round(y, 3)) for x, y in spots
             if gap0 - math.dist((x, y), goal.centre) >= KEEP * progress]
    hits = exposed(game, z, spots, who)
    safe = sorted((math.dist(p, goal.centre), p) for p, h in zip(spots, hits, strict=True)
                  if not h)
    for gap, p in safe:
        try:
            plan_move(game, z, p, None, z.move)
        except IllegalActionError:
            continue
        return p, gap - z.radius - goal.radius
    return None
