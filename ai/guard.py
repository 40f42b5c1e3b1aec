"""Where the card lets the zombies win by standing still: the places a tactician guards.

A zombie on the landing zone keeps the helicopter away (`helico`); a zombie on the square
the survivors must hold stops the hold (`nettoyage`); zombies on a narrow exit (the camp
gate of `refuge`, a few inches of edge) bar it with their bases. Each such place is a
`Guard`: its area, its name in French and English and why it matters (a message) for the
explanations, and how many zombies it wants on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import shapely
import shapely.ops
from shapely.geometry import Point, Polygon, box

from i18n import Message, Name

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.game import Game
    from scenarios.cards import Card

__all__ = ["Guard", "guards", "guard_spot", "NARROW_EXIT"]

NARROW_EXIT = 8.0  # inches of edge: an exit this short can be barred by a few bases
EXIT_DEPTH = 2.5  # how deep into the table an exit's guards stand


@dataclass(frozen=True)
class Guard:
    """A place worth standing on: its area, its name, how many zombies it wants, why."""

    name: Name
    area: Polygon
    keep: int
    why: Message
    end_of_turn: bool = False  # judged at the end of each turn (a landing, a hold)
    exit: bool = False  # a narrow exit (a gate)

    def holds(self, fig: Fig) -> bool:
        return bool(shapely.intersects_xy(self.area, fig.x, fig.y))

    def count(self, game: Game) -> int:
        return sum(1 for f in game.figures.values()
                   if f.is_zombie and f.on_table and self.holds(f))


def guards(game: Game) -> tuple[Guard, ...]:
    """The card's places to guard (none outside a scenario)."""
    from scenarios.play import ScenarioReferee

    ref = game.referee
    if not isinstance(ref, ScenarioReferee):
        return ()
    key = (ref.card.id, game.table.width, game.table.depth)
    if key not in _CACHE:
        _CACHE[key] = _card_guards(ref.card, game.table.width, game.table.depth)
    return _CACHE[key]


_CACHE: dict[tuple[str, float, float], tuple[Guard, ...]] = {}


def _card_guards(card: Card, width: float, depth: float) -> tuple[Guard, ...]:
    from scenarios.objectives import Escort, Exit, HoldZone, Reach
    from scenarios.setup import exit_segment
    from scenarios.special_rules import Helicopter

    out: dict[str, Guard] = {}
    for rule in card.special_rules:
        if isinstance(rule, Helicopter):
            zone = card.zone(rule.zone)
            out[zone.id] = Guard(_name(zone), Polygon(zone.polygon), 3,
                                 Message("ai.guard.landing"), end_of_turn=True)
    for cond in card.objectives.survivors.conditions:
        if isinstance(cond, HoldZone | Reach) and cond.zone not in out:
            zone = card.zone(cond.zone)
            out[zone.id] = Guard(_name(zone), Polygon(zone.polygon), 2,
                                 Message("ai.guard.hold") if isinstance(cond, HoldZone)
                                 else Message("ai.guard.reach"),
                                 end_of_turn=isinstance(cond, HoldZone))
        exit_id = cond.exit if isinstance(cond, Exit | Escort) else None
        if exit_id is None or exit_id in out:
            continue
        e = card.exit(exit_id)
        (ax, ay), (bx, by) = exit_segment(e.edge, e.from_, e.to, width, depth)
        if max(abs(bx - ax), abs(by - ay)) > NARROW_EXIT:
            continue
        d = EXIT_DEPTH
        lo_x, hi_x, lo_y, hi_y = min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)
        area = {"far": box(lo_x, depth - d, hi_x, depth),
                "near": box(lo_x, 0, hi_x, d),
                "left": box(0, lo_y, d, hi_y),
                "right": box(width - d, lo_y, width, hi_y)}[e.edge]
        out[exit_id] = Guard(_name(e), area, 3, Message("ai.guard.exit"), exit=True)
    return tuple(out.values())


def _name(place: Any) -> Name:
    """A zone's or an exit's name on the card, in French and English."""
    return {"fr": place.name.fr, "en": place.name.en}


def guard_spot(guard: Guard, fig: Fig) -> tuple[float, float]:
    """The point well inside the guarded area nearest the figure."""
    inner = guard.area.buffer(-min(0.6, fig.radius))
    if inner.is_empty:
        inner = guard.area
    _, near = shapely.ops.nearest_points(Point(fig.x, fig.y), inner)
    return (round(float(near.x), 3), round(float(near.y), 3))
