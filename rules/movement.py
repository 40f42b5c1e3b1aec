"""Moves: where a move ends and how long it is (round terrain and enemy bases, the card's
limits, Discrète), walking there (with the free attacks of leaving a melee), and placing a
carried friend.

`plan_move` refuses an impossible move with the reason (and, for a person, the way round:
`rules.routes`); it is kept for the state it was planned on (`GameState.plans`), so the
check of a move and its resolution find the route once.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

import shapely

from geometry.polyline import point_along
from geometry.units import CONTACT_INCHES as CONTACT
from i18n import Message
from rules import routes, words
from rules.actions import Action, Carry, Move
from rules.attacks import attack, defence_of, free_weapon
from rules.errors import IllegalActionError, missing_figure

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["CONTACT_GAP", "plan_move", "may_go_toward", "check_toward", "goals_toward",
           "do_move", "place_carried", "legal_spot", "overlaps_base", "carry_length", "hold",
           "is_hold"]

Point = tuple[float, float]
CONTACT_GAP = 0.01  # moving "toward" a figure stops this far from its base: in contact
DISCRETE_INCHES = 3.0


def _fail(message: Message, where: str = "action") -> IllegalActionError:
    return IllegalActionError(message, where)


def overlaps_base(game: GameState, fig: Fig, p: Point, ignore: tuple[str, ...] = ()) -> str:
    for other in game.figures.values():
        if other.id == fig.id or other.id in ignore or not other.on_table:
            continue
        gap = math.dist(p, other.centre) - (fig.radius + other.radius)
        if gap < -1e-9:
            return other.id
    return ""


def _discrete_blocks(game: GameState, fig: Fig, target: Fig) -> bool:
    """Discrète: a zombie may enter her base contact only from less than 3 in (D14)."""
    return (fig.is_zombie and target.has("discrete")
            and game.distance(fig.id, target.id) >= DISCRETE_INCHES - 1e-9)


def plan_move(game: GameState, fig: Fig, to: Point | None, toward: str | Point | None,
              max_len: float, ignore: tuple[str, ...] = ()) -> tuple[Point, float]:
    """Where a move ends and how long it is; refuses an impossible move with the reason."""
    key = (fig.id, fig.x, fig.y, to, toward, max_len, ignore, game.version())
    cached: tuple[Point, float] | None = game.plans.get(key)
    if cached is not None:
        return cached
    result = _plan(game, fig, to, toward, max_len, ignore)
    game.plans[key] = result
    return result


def _plan(game: GameState, fig: Fig, to: Point | None, toward: str | Point | None,
          max_len: float, ignore: tuple[str, ...]) -> tuple[Point, float]:
    space = game.space()
    if (to is None) == (toward is None):
        raise _fail(Message("refusal.move_needs_goal"))
    if to is not None and (float(to[0]), float(to[1])) == fig.centre:
        return fig.centre, 0.0  # standing still (R1): no route to find
    if to is not None:
        goal = (float(to[0]), float(to[1]))
        path = space.path(fig.id, goal)
        if not path.reachable:
            raise routes.unreachable(game, fig, goal, path,
                                     max_len if max_len > 0 else float(fig.move))
        if path.length > max_len + 1e-6:
            if max_len <= 0:
                raise _fail(Message("refusal.cannot_move", {"who": words.who(game, fig)}),
                            "action.to")
            raise routes.too_far(game, fig, path, max_len)
        limit = _limit(game, fig, path.waypoints)
        if limit is not None and path.length > limit[0] + 1e-6:
            raise _fail(Message("refusal.must_stop", {
                "who": words.who(game, fig), "d": float(limit[0]), "why": limit[1]}),
                "action.to")
        blocker = overlaps_base(game, fig, goal, ignore)
        if blocker:
            raise _fail(Message("refusal.on_a_base", {
                "who": words.who(game, fig), "other": words.who(game, blocker)}), "action.to")
        for other in game.figures.values():
            near = math.dist(goal, other.centre) - fig.radius - other.radius <= CONTACT
            if near and other.on_table and fig.enemy_of(other) and _discrete_blocks(
                    game, fig, other):
                raise _fail(Message("refusal.discrete", {
                    "who": words.who(game, fig), "target": words.who(game, other),
                    "skill": words.skill(game, "discrete")}), "action.to")
        return goal, path.length
    goals = goals_toward(game, fig, toward)
    check_toward(game, fig, toward, goals)
    for goal in goals:
        path = space.path(fig.id, goal)
        if path.reachable:
            limit = _limit(game, fig, path.waypoints)
            return _walk(game, fig, path.waypoints,
                         max_len if limit is None else min(max_len, limit[0]), ignore)
    # Only figures bar the way: go along the terrain route until an enemy base is in the way.
    finder = space.pathfinder(fig.radius)
    for goal in goals:
        path = finder.shortest(fig.centre, goal)
        if path.reachable:
            limit = _limit(game, fig, path.waypoints)
            return _walk(game, fig, path.waypoints,
                         max_len if limit is None else min(max_len, limit[0]), ignore,
                         stop_at_enemies=True)
    return fig.centre, 0.0


def _limit(game: GameState, fig: Fig, route: tuple[Point, ...]
           ) -> tuple[float, str | Message] | None:
    """The scenario's limit on a move along `route` (a dark or taken-over building)."""
    return None if game.referee is None else game.referee.move_limit(game, fig, route)


def may_go_toward(game: GameState, fig: Fig, goals: list[Point]) -> bool:
    """Whether the terrain leaves a way to one of `goals` (figures aside)."""
    return game.space().same_region(fig.radius, fig.centre, goals)


def check_toward(game: GameState, fig: Fig, toward: str | Point | None, goals: list[Point]) -> None:
    """A move toward something must at least be possible round the terrain."""
    if not may_go_toward(game, fig, goals):
        assert toward is not None
        raise routes.no_way_toward(game, fig, toward, goals[0] if goals else None, fig.move)


def _walk(game: GameState, fig: Fig, route: tuple[Point, ...], max_len: float,
          ignore: tuple[str, ...], stop_at_enemies: bool = False) -> tuple[Point, float]:
    """The furthest legal spot at most `max_len` along `route` (never on another base)."""
    walk = min(max_len, sum(math.dist(a, b) for a, b in zip(route, route[1:], strict=False)))
    if stop_at_enemies:
        step, free = 0.0, 0.0
        while step <= walk:
            if overlaps_base(game, fig, point_along(route, step), ignore):
                break
            free, step = step, step + 0.1
        walk = free
    end = point_along(route, walk)
    while walk > 0 and overlaps_base(game, fig, end, ignore):
        walk = max(walk - 0.25, 0.0)
        end = point_along(route, walk)
    if walk <= 0:
        return fig.centre, 0.0
    return (float(end[0]), float(end[1])), walk


def goals_toward(game: GameState, fig: Fig, toward: str | Point | None) -> list[Point]:
    """Where to aim: the point, or spots in base contact around the figure, nearest first."""
    if not isinstance(toward, str):
        assert toward is not None
        return [(float(toward[0]), float(toward[1]))]
    target = game.figures.get(toward)
    if target is None or not target.on_table:
        raise missing_figure(game, toward, "action.toward")
    gap = CONTACT_GAP
    if fig.enemy_of(target) and _discrete_blocks(game, fig, target):
        gap = 0.3  # stops short of her base
    return list(_around(fig.x, fig.y, target.x, target.y, fig.radius + target.radius + gap))


@functools.lru_cache(maxsize=1 << 16)
def _around(x: float, y: float, tx: float, ty: float, reach: float) -> tuple[Point, ...]:
    """Eight spots `reach` from (tx, ty), the one facing (x, y) first, then turning both
    ways an eighth of a turn at a time (kept: the same figures ask again state after
    state)."""
    base = math.atan2(y - ty, x - tx)
    out = []
    for k in (0, 1, -1, 2, -2, 3, -3, 4):
        a = base + k * math.pi / 4
        out.append((tx + reach * math.cos(a), ty + reach * math.sin(a)))
    return tuple(out)


def _leave_melee(game: GameState, fig: Fig, end: Point) -> None:
    """Each enemy left behind gets a free attack first (D1), unless the figure is agile."""
    if not game.settings.leave_melee_free_attack or fig.has("agile"):
        return
    for enemy in list(game.figures.values()):
        if not (enemy.standing and fig.enemy_of(enemy) and game.in_contact(fig.id, enemy.id)):
            continue
        after = math.dist(end, enemy.centre) - fig.radius - enemy.radius
        if after <= CONTACT + 1e-9:
            continue
        game.note(Message("engine.leaves_melee", {"who": words.who(game, fig),
                                                  "enemy": words.who(game, enemy)}))
        status = fig.status
        attack(game, enemy, fig, 1, "melee", free_weapon(game, enemy), free=True)
        if fig.status != status:
            return


def do_move(game: GameState, fig: Fig, act: Move | Carry, max_len: float, *,
            ignore: tuple[str, ...] = ()) -> bool:
    """Move `fig` (free moves too: every move counts for D11); False if it fell on the way."""
    end, length = plan_move(game, fig, act.to, act.toward, max_len, ignore)
    if length == 0.0:
        fig.moves += 1
        if is_hold(game, act):
            game.note(Message("engine.stands_still", {"who": words.who(game, fig)}))
        else:
            game.note(Message("engine.way_barred", {"who": words.who(game, fig)}))
        return True
    status = fig.status
    _leave_melee(game, fig, end)
    if fig.status != status:
        return False
    who = words.who(game, fig)
    fig.x, fig.y = end
    fig.moves += 1
    game.moved()
    if fig.moves > 2:
        game.note(Message("engine.moves_tired", {
            "who": who, "d": float(length), "n": fig.moves,
            "defence": defence_of(fig, game.settings)}))
    else:
        game.note(Message("engine.moves", {"who": who, "d": float(length)}))
    return True


def place_carried(game: GameState, carrier: Fig, carried: Fig, start: Point) -> None:
    """The carried figure ends in base contact, on the side the carrier came from."""
    dx, dy = start[0] - carrier.x, start[1] - carrier.y
    n = math.hypot(dx, dy) or 1.0
    reach = carrier.radius + carried.radius + CONTACT_GAP
    candidates = [(carrier.x + reach * dx / n, carrier.y + reach * dy / n)]
    for k in range(1, 8):
        a = math.atan2(dy, dx) + k * math.pi / 4
        candidates.append((carrier.x + reach * math.cos(a), carrier.y + reach * math.sin(a)))
    for p in candidates:
        if legal_spot(game, carried, p):
            carried.x, carried.y = p
            game.moved()
            return
    carried.x, carried.y = start
    game.moved()


def legal_spot(game: GameState, fig: Fig, p: Point) -> bool:
    r = fig.radius
    if not (r <= p[0] <= game.table.width - r and r <= p[1] <= game.table.depth - r):
        return False
    for piece in game.terrain:
        if piece.movement_blocking and shapely.distance(
                piece.footprint, shapely.Point(p)) < r - 1e-9:
            return False
    return not overlaps_base(game, fig, p)


def carry_length(game: GameState, fig: Fig) -> float:
    penalty = game.settings.carry_move_penalty
    return 1.0 if penalty == "per_inch" else max(fig.move - int(penalty), 0)



def hold(fig: Fig) -> Move:
    """The least an activation can do: the figure spends 1 AP standing where it is (a move
    of 0 in, counted as a move). Under R1 it is how a side that may not pass waits."""
    return Move(fig.id, to=(fig.x, fig.y))


def is_hold(game: GameState, act: Action) -> bool:
    """Is `act` a figure standing still (`hold`)?"""
    if not isinstance(act, Move) or act.toward is not None or act.to is None:
        return False
    fig = game.figures.get(act.figure)
    return fig is not None and act.to == fig.centre

