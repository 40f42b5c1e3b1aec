"""`group`: a second survivor player, built apart from the bot, to test the zombie AI
against another way of playing.

Where the bot sends each figure at its own objective as fast as it can and shoots what is
near, the group:

- *keeps together*: a figure more than `AHEAD` inches nearer its goal than the band's
  middle does not walk on where a zombie could reach it (it shoots, or stands); the
  figures furthest behind get more from a move;
- *uses cover*: a walk ends at the spot along its route (the whole move, three quarters or
  half of it) that the fewest zombies could reach on their next activation, progress
  against danger, and never alone (more than `ALONE` in from every friend) when a spot
  beside a friend is on offer;
- *shoots the threat*: the zombie that could reach the most survivors next, with the best
  chance to kill, and before moving when a zombie is that close;
- *fights back* when engaged (2 AP a strike at most), revives and heals like the bot, and takes the
  card's own actions (leave, escort, treat, deliver, take, open) first.

It reads the card as the scenario bots do (`scenarios.play_policy`): where each survivor
is sent; how it gets there and when is its own.
"""

from __future__ import annotations

import math
import random
import statistics
from typing import TYPE_CHECKING

from ai.features import goal_point
from ai.policy import Choice, action_message, explained, register
from ai.survivors import SurvivorBot
from ai.zombies import unsaved_chance
from geometry.polyline import point_along
from geometry.units import CONTACT_INCHES
from i18n import Message
from rules import legal
from rules.actions import (
    Action,
    EndActivations,
    Exit,
    Heal,
    Interact,
    Melee,
    Move,
    Revive,
    Shoot,
    Special,
    Take,
)
from rules.activity import activatable
from rules.game import SURVIVORS
from scenarios.play_policy import engaged

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.game import Game

__all__ = ["GroupSurvivors"]

AHEAD = 6.0
ALONE = 5.0
DANGER = 2.5  # inches of progress a zombie able to reach the spot is worth


class GroupSurvivors:
    """The band moves as a group and from cover; see the module docstring."""

    def __init__(self, level: str = "", rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)
        self._windows = SurvivorBot(level, self.rng)

    def choose(self, game: Game) -> Choice:
        if game.pending:
            return self._windows.choose(game)
        options: list[tuple[float, float, float, Action, Message]] = []
        figs = sorted(activatable(game, SURVIVORS), key=lambda f: (f.x, f.y, f.id))
        goals = {f.id: goal_point(game, f) for f in game.figures.values()
                 if f.side == SURVIVORS and f.standing}
        middle = statistics.median([math.dist(game.figures[i].centre, g)
                                    for i, g in goals.items() if g is not None] or [0.0])
        for fig in figs:
            for score, act, why in self._options(game, fig, goals.get(fig.id), middle):
                options.append((score, fig.x, fig.y, act, why))
        options.sort(key=lambda o: (-o[0], o[1], o[2]))
        for _score, _x, _y, act, why in options:
            if legal.is_legal(game, act):
                return explained(act, why)
        act = legal.give_up(game, EndActivations())
        return explained(act, Message("ai.why.nothing_left", {
            "action": action_message(game, act)}))

    def _options(self, game: Game, fig: Fig, goal: tuple[float, float] | None,
                 middle: float) -> list[tuple[float, Action, Message]]:
        out: list[tuple[float, Action, Message]] = []
        acts = legal.figure_actions(game, fig, kinds=("melee", "shoot", "interact",
                                                      "scenario", "heal", "revive"))
        threat = _threats(game)
        for act in acts:
            text = action_message(game, act)
            if isinstance(act, Special):
                out.append(({"exit_with": 100, "treat": 95, "deliver": 95, "escort": 70}
                            .get(act.rule, 10), act, Message("ai.why.objective",
                                                             {"action": text})))
            elif isinstance(act, Exit):
                out.append((90, act, Message("ai.why.objective", {"action": text})))
            elif isinstance(act, Take | Interact):
                out.append((60, act, Message("ai.why.objective", {"action": text})))
            elif isinstance(act, Revive):
                out.append((80, act, Message("ai.why.revive", {"action": text})))
            elif isinstance(act, Heal):
                t = game.figures[act.target]
                if t.pv < t.wounds:
                    out.append((50 + 5 * (t.wounds - t.pv), act,
                                Message("ai.why.heal", {"action": text, "pv": t.pv + 1})))
            elif isinstance(act, Melee):
                p = unsaved_chance(game, fig, game.figures[act.target])
                # at most 2 AP a strike: the pool must still move the band
                out.append((70 + min(act.ap, 2) - 5 * max(act.ap - 2, 0) + 10 * p, act,
                            Message("ai.why.engaged", {"action": text, "p": p})))
            elif isinstance(act, Shoot):
                z = game.figures[act.target]
                p = unsaved_chance(game, fig, z, "shoot", act.weapon)
                n = threat.get(z.id, 0)
                out.append((30 + 8 * n + 15 * p, act,
                            Message("ai.why.threat", {"action": text, "n": n, "p": p})))
        if goal is not None and not engaged(game, fig):
            gap = math.dist(fig.centre, goal)
            spot = self._covered_step(game, fig, goal)
            if spot is not None:
                (x, y), danger, gain = spot
                if danger and gap < middle - AHEAD:
                    return out  # ahead of the band where zombies wait: not alone
                behind = max(gap - middle, 0.0)
                score = 45 + gain + 0.5 * behind - DANGER * danger
                step = Move(fig.id, to=(x, y))
                out.append((score, step, Message("ai.why.step", {
                    "action": action_message(game, step), "gain": round(gain, 1),
                    "n": danger})))
        return out

    def _covered_step(self, game: Game, fig: Fig, goal: tuple[float, float]
                      ) -> tuple[tuple[float, float], int, float] | None:
        """The best spot along the route: progress against the zombies able to reach it
        and against being alone."""
        finder = game.space().pathfinder(fig.radius)
        enemies = [(f.x, f.y, f.radius) for f in game.figures.values()
                   if f.on_table and fig.enemy_of(f)]
        path = finder.shortest(fig.centre, goal, enemies)
        if not path.reachable:  # zombies bar the way: the terrain's route, up to them
            path = finder.shortest(fig.centre, goal)
        if not path.reachable or len(path.waypoints) < 2:
            return None
        here = math.dist(fig.centre, goal)
        friends = [f.centre for f in game.figures.values() if f.side == SURVIVORS
                   and f.standing and f.id != fig.id]
        best: tuple[float, tuple[float, float], int, float] | None = None
        for frac in (1.0, 0.75, 0.5):
            step = min(fig.move * frac, path.length) - 0.05
            if step < 0.5:
                continue
            end = point_along(path.waypoints, step)
            spot = (round(float(end[0]), 3), round(float(end[1]), 3))
            gain = here - math.dist(spot, goal)
            if gain < 0.4:
                continue
            danger = _reachable_by(game, fig, spot)
            lonely = bool(friends) and all(math.dist(spot, q) > ALONE + 2 * fig.radius
                                           for q in friends)
            value = gain - DANGER * danger - (2.0 if lonely else 0.0)
            if (best is None or value > best[0]) and legal.is_legal(game, Move(fig.id, to=spot)):
                best = (value, spot, danger, gain)
        return None if best is None else (best[1], best[2], best[3])


def _reachable_by(game: Game, fig: Fig, spot: tuple[float, float]) -> int:
    """Zombies whose next walk (straight) could bring them into contact at `spot`."""
    return sum(1 for z in game.figures.values() if z.is_zombie and z.on_table
               and math.dist(z.centre, spot) - z.radius - fig.radius
               <= z.move + CONTACT_INCHES)


def _threats(game: Game) -> dict[str, int]:
    """For each zombie, how many standing survivors it could reach on its next walk."""
    out: dict[str, int] = {}
    humans = [f for f in game.figures.values() if f.side == SURVIVORS and f.standing]
    for z in game.figures.values():
        if z.is_zombie and z.on_table:
            out[z.id] = sum(1 for h in humans
                            if game.distance(z.id, h.id) <= z.move + CONTACT_INCHES)
    return out


register("survivors", "group", lambda level, rng: GroupSurvivors(level, rng))
