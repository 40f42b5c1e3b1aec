"""Small bots for playing a scenario card end to end: random, idle and greedy.

A policy picks the next action of the side that decides now (`Game.current_side`). The
greedy ones are simple on purpose (the real AI is `ai/`): the zombies strike what they touch
(one die, to contaminate) and otherwise walk to the nearest human; the survivors work at the
card's objective (leave by the exit, lead civilians out, open crates, fetch and deliver,
care for the sick, free the prisoner, hold or reach a zone), shooting and fighting what
threatens them on the way (each figure's first move of a turn before shots at zombies that
threaten no one; a move the engine's walk toward a point stops short of becomes a move to
the furthest free spot on the route, `route_move`). Every action they return is checked by
`rules.legal` first.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from shapely.geometry import Polygon

from geometry.polyline import point_along
from geometry.units import CONTACT_INCHES
from rules import legal
from rules.actions import (
    Action,
    Contaminate,
    Decline,
    EndActivations,
    Exit,
    Interact,
    Melee,
    Move,
    Pass,
    Shoot,
    Special,
    Take,
)
from rules.activity import activatable
from rules.errors import IllegalActionError
from rules.game import SURVIVORS, ZOMBIES
from rules.inventory import marker_gap, room_for
from rules.movement import plan_move
from rules.rulebook import check_action
from scenarios.objectives import (
    Carry,
    Escort,
    Free,
    Heal,
    HoldZone,
    KillAll,
    OpenCrates,
    Reach,
)
from scenarios.objectives import (
    Exit as ExitCondition,
)
from scenarios.placement import Placer
from scenarios.play import ScenarioReferee
from scenarios.play_conditions import in_zone
from scenarios.play_specials import exit_point
from scenarios.special_rules import Treat

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.game import Game

__all__ = ["Policy", "RandomPolicy", "IdlePolicy", "GreedyZombies", "GreedySurvivors",
           "POLICIES", "policy", "play", "route_move", "protected_civilians",
           "survivor_goal", "Goal", "ZONE", "FETCH"]

Point = tuple[float, float]
CONTACT = CONTACT_INCHES
CLOSE = 6.0  # survivors shoot zombies this near (or threatening a friend) before moving on


class Policy(Protocol):
    def choose(self, game: Game) -> Action: ...


def _window(game: Game, prefer: Callable[[Action], bool]) -> Action:
    """In a window: the first offered action `prefer` likes, else decline (if allowed)."""
    offered = game.legal_actions()
    liked = [a for a in offered if prefer(a)]
    if liked:
        return liked[0]
    return next((a for a in offered if isinstance(a, Decline)), offered[0])


class RandomPolicy:
    """Any legal action, uniformly."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def choose(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())


class IdlePolicy:
    """Gives up every turn and lets every window pass: the side that should lose."""

    def choose(self, game: Game) -> Action:
        if game.pending:
            return _window(game, lambda a: False)
        return legal.give_up(game, EndActivations())


class GreedyZombies:
    """Strike a human in contact with one die (so as to contaminate), contaminate when
    offered, otherwise walk a zombie toward the nearest human: the one activated least this
    turn (two moves each before the next), then the nearest."""

    def __init__(self) -> None:
        self._used: dict[str, int] = {}
        self._turn = 0

    def choose(self, game: Game) -> Action:
        if game.pending:
            return _window(game, lambda a: isinstance(a, Contaminate | Melee))
        if game.turn != self._turn:
            self._turn, self._used = game.turn, {}
        options: list[tuple[tuple[int, int, float], str, Action]] = []
        for z in activatable(game, ZOMBIES):
            used = self._used.get(z.id, 0)
            humans = sorted((game.distance(z.id, f.id), f.status != "standing", f.id)
                            for f in game.figures.values() if f.is_human and f.on_table)
            if not humans:
                continue
            d, _, target = humans[0]
            if d <= CONTACT + 1e-9:
                standing = [h for h in humans if h[0] <= CONTACT + 1e-9 and not h[1]]
                options.append(((0, used, 0.0), z.id, Melee(z.id, (standing or humans)[0][2], 1)))
            else:
                options.append(((1, used // 2, d), z.id, Move(z.id, toward=target)))
        for _, zid, act in sorted(options, key=lambda o: (o[0], o[1])):
            if legal.is_legal(game, act):
                self._used[zid] = self._used.get(zid, 0) + 1
                return act
        return legal.give_up(game, Pass())


class GreedySurvivors:
    """Work at the card's objective; see the module docstring."""

    def __init__(self) -> None:
        self._zone_spots: dict[tuple[str, str, int], list[Point]] = {}

    def choose(self, game: Game) -> Action:
        if game.pending:
            return _window(game, lambda a: isinstance(a, Shoot | Melee))
        ref = game.referee
        ranked: list[tuple[float, int, Action]] = []
        for n, fig in enumerate(activatable(game, SURVIVORS)):
            ranked += [(score, n, act) for score, act in self._options(game, ref, fig)
                       if score > 0]
        # Best first (the earlier figure on ties); a move's route is planned only when it is
        # the best option left, since planning every figure's route each time is slow.
        ranked.sort(key=lambda r: (-r[0], r[1]))
        for _, _, act in ranked:
            if not isinstance(act, Move):
                return act
            move = self._worth_moving(game, act)
            if move is not None:
                return move
        return legal.give_up(game, EndActivations())

    @staticmethod
    def _worth_moving(game: Game, move: Move) -> Move | None:
        """The move to play for this goal (None: it gets the figure nowhere). A move toward
        a point that the engine's walk stops short of (a friend in the way, the spot itself
        taken by a zombie) becomes a move to the furthest free spot along the route."""
        fig = game.figures[move.figure]
        goal = move.toward
        try:
            check_action(game, fig, move)
            _, length = plan_move(game, fig, None, goal, fig.move)
        except IllegalActionError:
            length = 0.0
        if isinstance(goal, str):
            ok = length > 0.05 and not game.in_contact(fig.id, goal)
            return move if ok else None
        if goal is None or length >= min(fig.move, math.dist(fig.centre, goal)) - 0.5:
            return move if length > 0.05 else None
        routed = route_move(game, fig, (float(goal[0]), float(goal[1])))
        if routed is not None:
            return routed
        return move if length > 0.05 else None

    def _options(self, game: Game, ref: object, fig: Fig) -> list[tuple[float, Action]]:
        if not fig.standing:
            return []
        acts = legal.figure_actions(game, fig, kinds=("melee", "shoot", "interact",
                                                      "scenario"))
        goal = survivor_goal(game, ref, fig) if isinstance(ref, ScenarioReferee) else None
        urgency = 45
        if isinstance(goal, tuple) and goal[0] == FETCH:
            goal, urgency = goal[1], 40
        if isinstance(goal, tuple) and goal[0] == ZONE:
            goal = self._zone_point(game, ref, fig, goal[1])
        wanted = _wanted_items(ref) if isinstance(ref, ScenarioReferee) else set()
        fights = isinstance(ref, ScenarioReferee) and _fights(ref)
        protected = protected_civilians(game, ref) if isinstance(ref, ScenarioReferee) else []
        out: list[tuple[float, Action]] = []
        for act in acts:
            if isinstance(act, Special):
                out.append(({"exit_with": 100, "treat": 95, "deliver": 95,
                             "escort": 70}.get(act.rule, 10), act))
            elif isinstance(act, Exit):
                out.append((90 if _leaves(ref) else 0, act))
            elif isinstance(act, Take):
                out.append((85 if act.item in wanted else 0, act))
            elif isinstance(act, Interact):
                out.append((80, act))
            elif isinstance(act, Melee):  # two dice a time: the rest of the pool moves on
                out.append((60 + min(act.ap, 2) - 3 * max(act.ap - 2, 0), act))
            elif isinstance(act, Shoot):
                threat = any(game.distance(act.target, f.id) <= 2.0
                             for f in game.figures.values()
                             if f.side == SURVIVORS and f.on_table)
                near = game.distance(fig.id, act.target) <= CLOSE
                rescue = any(game.distance(act.target, f) <= 2.0 for f in protected)
                # with somewhere to go, a zombie not yet threatening anyone waits: the
                # AP go to the objective first (a figure that moved twice shoots)
                out.append((65 if rescue else 55 if threat or fights else
                            (38 if goal is not None else 55) if near else 30, act))
        out += [(85, t) for t in _takes_with_drop(game, fig, wanted)]
        if goal is not None:  # checked only if chosen (see `choose`)
            # a figure's first move of the turn comes before shots at zombies that threaten
            # no one (the band advances together instead of the front figure alone)
            first = 13 if fig.moves == 0 and not engaged(game, fig) else 0
            out.append((urgency + first - 5 * max(fig.moves - 1, 0),
                        Move(fig.id, toward=goal)))
        return out

    def _zone_point(self, game: Game, ref: object, fig: Fig, zone: str) -> Point | None:
        """The free spot of the zone nearest the figure, clear of terrain."""
        assert isinstance(ref, ScenarioReferee)
        key = (ref.card.id, zone, round(fig.base_mm))
        if key not in self._zone_spots:
            placer = Placer(game.scene())
            self._zone_spots[key] = placer.candidates(Polygon(ref.card.zone(zone).polygon),
                                                      fig.radius)
        taken = [f.centre for f in game.figures.values() if f.on_table and f.id != fig.id]
        return _nearest(game, fig, _clear_of(self._zone_spots[key], taken, 2 * fig.radius + 0.1))


def _clear_of(spots: list[Point], taken: list[Point], gap: float) -> list[Point]:
    """The spots farther than `gap` from every taken one (`math.dist`, as a tape would say):
    measured all at once, and again one by one only where the two ways of measuring could
    disagree (within a billionth of an inch of `gap`)."""
    if not spots or not taken:
        return list(spots)
    p, q = np.asarray(spots, dtype=np.float64), np.asarray(taken, dtype=np.float64)
    d = np.hypot(p[:, None, 0] - q[None, :, 0], p[:, None, 1] - q[None, :, 1])
    clear: list[bool] = np.all(d > gap + 1e-9, axis=1).tolist()
    blocked: list[bool] = np.any(d <= gap - 1e-9, axis=1).tolist()
    return [s for s, sure, out in zip(spots, clear, blocked, strict=True) if sure or (
        not out and all(math.dist(s, t) > gap for t in taken))]


def engaged(game: Game, fig: Fig) -> bool:
    """In base contact with a standing enemy."""
    return any(f.on_table and f.standing and fig.enemy_of(f) and game.in_contact(fig.id, f.id)
               for f in game.figures.values())


def route_move(game: Game, fig: Fig, goal: Point) -> Move | None:
    """A move to the furthest spot along the route to `goal` that the figure may end on:
    round the enemy bases when they leave a way, else along the terrain route up to them
    (friends are walked past, never ended on). None when it gains less than 0.5 in."""
    space = game.space()
    finder = space.pathfinder(fig.radius)
    enemies = [(f.x, f.y, f.radius) for f in game.figures.values()
               if f.on_table and fig.enemy_of(f)]
    path = finder.shortest(fig.centre, goal, enemies)
    if not path.reachable:
        path = finder.shortest(fig.centre, goal)
    if not path.reachable or len(path.waypoints) < 2:
        return None
    here = math.dist(fig.centre, goal)
    step = min(fig.move, path.length) - 0.05
    while step >= 0.5:
        end = point_along(path.waypoints, step)
        spot = (round(float(end[0]), 3), round(float(end[1]), 3))
        act = Move(fig.id, to=spot)
        if math.dist(spot, goal) < here - 0.4 and legal.is_legal(game, act):
            return act
        step -= 0.4
    return None


def protected_civilians(game: Game, ref: ScenarioReferee) -> list[str]:
    """Civilians on the table whom the survivors' objective needs alive."""
    groups = set()
    for cond in ref.card.objectives.survivors.conditions:
        group = getattr(cond, "civilians", None) or getattr(cond, "figure", None) or getattr(
            cond, "targets", None)
        if group:
            groups.add(group)
    return [i for g in groups for i in ref.state["civilians"].get(g, [])
            if game.figures[i].on_table and game.figures[i].side == "civilians"]


def _fights(ref: ScenarioReferee) -> bool:
    """Cards won by fighting (clearing, holding, surviving): shoot whatever is legal."""
    conds = ref.card.objectives.survivors.conditions
    return any(isinstance(c, KillAll | HoldZone) or c.type == "survive_turns" for c in conds)


def _leaves(ref: object) -> bool:
    if not isinstance(ref, ScenarioReferee):
        return False
    return any(isinstance(c, ExitCondition | Escort) for c in ref.card.objectives.survivors
               .conditions)


def _wanted_items(ref: ScenarioReferee) -> set[str]:
    out: set[str] = set()
    for cond in ref.card.objectives.survivors.conditions:
        if isinstance(cond, Carry):
            out.add(cond.item)
    for rule in ref.card.special_rules:
        if isinstance(rule, Treat):
            out.update((*rule.items, *rule.equipment))
    return out


def _nearest(game: Game, fig: Fig, points: list[Point]) -> Point | None:
    """The nearest of the points the figure could walk to round the terrain."""
    space, r = game.space(), fig.radius
    for p in sorted(points, key=lambda p: math.dist(fig.centre, p)):
        if space.same_region(r, fig.centre, [p]):
            return p
    return None


Goal = Any  # a point, a figure id, (ZONE, zone id) or (FETCH, point), or None
ZONE = "zone"
FETCH = "fetch"  # going for an item, not yet for the objective itself: less urgent


def _fetch(point: Point | None) -> Goal:
    return None if point is None else (FETCH, point)


def survivor_goal(game: Game, ref: ScenarioReferee, fig: Fig) -> Goal:
    """Where this survivor should head for the card's objective, if anywhere."""
    card, state = ref.card, ref.state
    for cond in card.objectives.survivors.conditions:
        if isinstance(cond, Free):
            trapped = [game.figures[i] for i in state["civilians"].get(cond.figure, [])
                       if i not in state["freed"] and game.figures[i].on_table]
            if trapped:
                return min(trapped, key=lambda t: game.distance(fig.id, t.id)).id
        if isinstance(cond, ExitCondition) and cond.who == "survivors":
            return exit_point(game, ref, fig, cond.exit)
        if isinstance(cond, Escort):
            group = [game.figures[i] for i in state["civilians"].get(cond.civilians, [])]
            if fig.id in state["civilians"].get(cond.civilians, []) or any(
                    f.side == SURVIVORS and f.on_table and f.id != fig.id for f in group):
                return exit_point(game, ref, fig, cond.exit)
            waiting = [c for c in group if c.side == "civilians" and c.standing
                       and not any(game.in_contact(c.id, s.id) for s in game.figures.values()
                                   if s.side == SURVIVORS and s.on_table and s.id != fig.id)]
            if waiting:
                return min(waiting, key=lambda c: game.distance(fig.id, c.id)).id
        if isinstance(cond, Reach | HoldZone):
            if in_zone(card, cond.zone, fig):
                return None
            return (ZONE, cond.zone)
        if isinstance(cond, KillAll):
            zombies = [z.centre for z in game.figures.values() if z.is_zombie and z.on_table]
            return _nearest(game, fig, zombies)
        if isinstance(cond, Carry):
            if fig.items.get(cond.item):
                return (ZONE, cond.to)
            return _fetch(_marker_with(game, fig, {cond.item}, _wanted_items(ref)))
        if isinstance(cond, Heal):
            rules = [r for r in card.special_rules
                     if isinstance(r, Treat) and r.civilians == cond.targets]
            items = {i for r in rules for i in (*r.items, *r.equipment)}
            if any(fig.units.get(i, 0) > 0 for i in items):
                sick = [game.figures[i] for i in state["civilians"].get(cond.targets, [])
                        if i not in state["treated"] and game.figures[i].side == "civilians"
                        and game.figures[i].on_table]
                if sick:
                    return min(sick, key=lambda c: game.distance(fig.id, c.id)).id
                return None
            return _fetch(_marker_with(game, fig, items, _wanted_items(ref)))
        if isinstance(cond, OpenCrates):
            closed = [(m["x"], m["y"]) for m in game.markers.values() if m["kind"] == "crate"]
            return _nearest(game, fig, closed)
    return None


def _marker_with(game: Game, fig: Fig, items: set[str], wanted: set[str]) -> Point | None:
    """The nearest marker holding one of `items` the figure can carry (dropping something
    it does not need if it must)."""
    spots = [(m["x"], m["y"]) for m in game.markers.values()
             if m["kind"] == "items" and marker_gap(fig, m) > CONTACT
             and any(_drop_for(game, fig, i, wanted) is not False
                     for i in items & set(m.get("items", {})))]
    return _nearest(game, fig, spots)


def _drop_for(game: Game, fig: Fig, item: str, wanted: set[str]) -> str | None | bool:
    """None: room for `item`; an item id: drop it to make room; False: no room at all."""
    if room_for(game, fig, item):
        return None
    for other in sorted(fig.items, key=lambda i: -game.catalog.equipment[i].encumbrance):
        if other not in wanted and room_for(game, fig, item, other):
            return other
    return False


def _takes_with_drop(game: Game, fig: Fig, wanted: set[str]) -> list[Action]:
    """Taking a wanted item from a marker in contact, dropping a useless one to make room."""
    out: list[Action] = []
    for m in game.markers.values():
        if m["kind"] != "items" or marker_gap(fig, m) > CONTACT:
            continue
        for item in wanted & set(m.get("items", {})):
            drop = _drop_for(game, fig, item, wanted)
            if isinstance(drop, str):
                take = Take(fig.id, m["id"], item, drop)
                if legal.is_legal(game, take):
                    out.append(take)
    return out


POLICIES: dict[str, Callable[[str, random.Random], Policy]] = {
    "random": lambda side, rng: RandomPolicy(rng),
    "idle": lambda side, rng: IdlePolicy(),
    "greedy": lambda side, rng: GreedySurvivors() if side == SURVIVORS else GreedyZombies(),
}


def policy(name: str, side: str, rng: random.Random) -> Policy:
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})")
    return POLICIES[name](side, rng)


def play(game: Game, survivors: Policy, zombies: Policy, max_actions: int = 5000) -> Game:
    """Play until the game ends (or `max_actions`), each side's policy deciding in turn."""
    for _ in range(max_actions):
        if game.is_terminal:
            break
        side = game.current_side()
        game.apply((survivors if side == SURVIVORS else zombies).choose(game))
    return game
