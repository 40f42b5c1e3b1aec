"""The tactician's look-ahead (levels normal and hard): play the likely choices on copies
of the game and keep the one after which the zombies stand best (docs/ai.md).

1. The heuristic tactician (`ai.zombies.Tactician`) scores every legal action; its best
   `top` (and the best way to stand still, so waiting is always weighed) are the
   candidates. Ties go by `ai.zombies.canonical`, never by the order figures are listed in.
2. Each candidate is played on copies of the game (`Game.clone`), by the engine itself:
   a walk goes by the real route round walls and bases, an attack rolls its dice. An attack
   is played over `samples` dice draws, a move once. Every candidate meets the same draws,
   and the turns' AP dice come from a stream of their own (`Streams`), so two choices are
   compared on the same luck (common random numbers).
3. Hard only: when the survivors cannot answer, the zombies' next decision belongs to the
   line (the best of the heuristic's first `FOLLOW_TOP`); and it plays the survivors' answer:
   their next activation by the survivor bot, as a strong player would answer. A
   contamination offered to the zombies is always taken.
4. Each position reached is scored by the learned evaluation (`ai.evaluation`): the
   zombies' log-odds to win from there (a finished game: its result), plus `HARM` for each
   point of harm the line's strikes and bites are expected to do by their exact odds. The
   best mean wins; within `TIE` the heuristic's order decides.

The choice comes with messages (`i18n.Message`) naming the plan and the chances.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from shapely.geometry import Point

from ai.evaluation import evaluation
from ai.features import Goals, goals_of
from ai.guard import guards
from ai.policy import Choice, explained, legal_now, level_error, register, who
from ai.survivors import SurvivorBot
from ai.words import action_message
from ai.zombies import CONTACT, Tactician, unsaved_chance, window_default
from i18n import Message
from rules import legal
from rules.actions import Action, Contaminate, Decline, Melee, Move, actor
from rules.attacks import contamination_chance, melee_dice
from rules.dice import Roll, RollKind

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.game import Game

__all__ = ["Lookahead", "Budget", "BUDGETS", "fall_chance"]


@dataclass(frozen=True)
class Budget:
    top: int  # candidates from the heuristic's ranking
    samples: int  # dice draws for an attack
    reply: bool  # play the survivors' next activation
    follow: int  # the zombies' own next decisions weighed when the survivors cannot act


BUDGETS = {"normal": Budget(top=3, samples=2, reply=False, follow=0),
           "hard": Budget(top=6, samples=3, reply=True, follow=1)}
TIE = 0.001  # scores closer than this (log-odds) are a tie: the heuristic's order decides
# each point of harm a line's strikes are expected to do (a PV 0.1, a survivor down 1) adds
# this to its score (log-odds): little against the chance to win, but it settles a game the
# model already calls decided in favour of the line that costs the survivors most (a
# campaign counts who was wounded, down, contaminated)
HARM = 0.2
FOLLOW_TOP = 2  # the heuristic's first few actions weighed at the zombies' next decision


class Lookahead:
    """The tactician at level normal or hard; see the module docstring."""

    def __init__(self, level: str = "normal", rng: random.Random | None = None) -> None:
        if level not in BUDGETS:
            raise level_error("tactician", level, list(BUDGETS))
        self.level = level
        self.budget = BUDGETS[level]
        self.rng = rng or random.Random(0)
        self.heuristic = Tactician("normal", self.rng)
        self.answer = SurvivorBot("", random.Random(0))  # the survivors' answer (hard)

    def choose(self, game: Game) -> Choice:
        offered = legal_now(game)
        if game.pending and game.pending[0].kind != "reaction":
            return window_default(game, offered)
        if game.pending:  # a reaction: the heuristic weighs it against the AP it costs
            return self.heuristic.choose(game)
        ranked = [r for r in self.heuristic.ranked(game, offered)
                  if Tactician._listed(game, r[2], offered)]
        if len(ranked) == 1:  # nothing to weigh
            plan = plan_message(game, ranked[0][2], self.heuristic)
            return explained(ranked[0][2], plan)
        picks = ranked[:self.budget.top]
        hold = next((r for r in ranked if legal.is_hold(game, r[2])), None)
        if hold is not None and hold not in picks:
            picks.append(hold)
        seeds = [self.rng.getrandbits(32) for _ in range(self.budget.samples)]
        known = goals_of(game)
        lines = [self._line(game, r[2], seeds, known, self.budget.follow) for r in picks]
        order = sorted(range(len(picks)), key=lambda k: (-round(lines[k][0] / TIE), k))
        best, runner_up = order[0], (order[1] if len(order) > 1 else None)
        before = float(evaluation().zombies_win([game], known)[0])
        act = picks[best][2]
        plan = plan_message(game, act, self.heuristic)
        chances = Message("ai.chances", {
            "before": before, "after": lines[best][1],
            "alternative": lines[runner_up][1] if runner_up is not None else lines[best][1]})
        return explained(act, plan, chances)

    # --- looking ahead ------------------------------------------------------------------

    def _line(self, game: Game, act: Action, seeds: list[int], known: Goals,
              depth: int) -> tuple[float, float]:
        """(score, chance) of playing `act`: over the dice draws, the mean of the score of
        the position reached (the zombies' log-odds to win, plus HARM a point of harm done)
        and of the zombies' chance to win."""
        draws = seeds if _rolls(act) else seeds[:1]
        found = []
        for seed in draws:
            # the survivors' answer (hard) is played after the candidate itself, not after
            # each of the zombies' follow-ups: a second answer would cost what a decision
            # may take
            trial, bitten = self._play(game, act, seed, answer=depth == self.budget.follow)
            score, p = self._position(trial, seeds, known, depth)
            found.append((score + HARM * bitten, p))
        score = float(np.mean([f[0] for f in found])) + HARM * expected_harm(game, act)
        return score, float(np.mean([f[1] for f in found]))

    def _position(self, trial: Game, seeds: list[int], known: Goals,
                  depth: int) -> tuple[float, float]:
        """A position's (score, chance). When the survivors cannot answer (no AP, nobody to
        activate), the zombies decide again at once: their best next action among the
        heuristic's first few counts (so a 1-AP strike that keeps an AP to contaminate is
        weighed with the contamination), down to `depth` actions."""
        if depth > 0 and not trial.is_terminal and not trial.pending \
                and trial.current_side() == "zombies":
            offered = legal_now(trial)
            ranked = [r for r in self.heuristic.ranked(trial, offered)
                      if Tactician._listed(trial, r[2], offered)][:FOLLOW_TOP]
            if ranked:
                return max(self._line(trial, r[2], seeds, known, depth - 1)
                           for r in ranked)
        p = float(evaluation().zombies_win([trial], known)[0])
        return _logit(p), p

    def _play(self, game: Game, act: Action, seed: int, answer: bool = True
              ) -> tuple[Game, float]:
        """The position after `act` (and, hard, the survivors' answer), and the expected
        harm of the contaminations the zombies took on the way."""
        trial = game.clone()
        trial.rng = Streams(seed)
        # the copy lists its figures by place: the survivors' answer (whose ties go by the
        # order figures are listed in) is the same however the game lists them
        trial.figures = dict(sorted(trial.figures.items(),
                                    key=lambda kv: (kv[1].side, kv[1].x, kv[1].y, kv[0])))
        legal.check(trial, act)
        # the route planned on the copy holds for the game itself (same version, same
        # places): kept, so playing the choice for real does not plan it again
        game.plans.update(trial.plans)
        trial.apply(act)
        bitten = _settle(trial)
        if self.budget.reply and answer:
            self._reply(trial)
        return trial, bitten

    def _reply(self, trial: Game) -> None:
        """The survivors' next activation (windows included), by the survivor bot."""
        steps = 0
        while (not trial.is_terminal and trial.current_side() == "survivors"
               and steps < 4):
            trial.apply(self.answer.choose(trial).action)
            _settle(trial)
            steps += 1
            if not trial.pending and trial.to_act != "survivors":
                break


class Easy:
    """`tactician:easy`: the heuristic alone, a random legal action one time in three; its
    choices say why as messages too."""

    def __init__(self, rng: random.Random) -> None:
        self.heuristic = Tactician("easy", rng)

    def choose(self, game: Game) -> Choice:
        choice = self.heuristic.choose(game)
        if game.pending and game.pending[0].kind != "reaction":
            return choice
        plan = plan_message(game, choice.action, self.heuristic)
        return explained(choice.action, plan)


def plan_message(game: Game, act: Action, heuristic: Tactician) -> Message:
    """The plan behind a zombie action, as a message: a strike with its odds, several
    zombies closing on one survivor with the chance they put them down this turn, a move
    across a runner's way, a wait out of the guns..."""
    fig = game.figures.get(actor(act))
    if isinstance(act, Decline):
        return Message("ai.decline")
    if fig is None:  # a pass, the end of the activations: the action says it all
        return action_message(game, act)
    name = who(game, fig.id)  # as a person calls it (rules.names: "Rôdeur 4" / "Walker 4")
    if isinstance(act, Contaminate):
        return Message("ai.contaminate", {"zombie": name, "target": who(game, act.target)})
    if isinstance(act, Melee):
        h = game.figures[act.target]
        p = unsaved_chance(game, fig, h)
        need = h.pv + (1 if h.has("robuste") and h.wounds_ignored == 0 else 0)
        return Message("ai.strike", {"zombie": name, "target": who(game, h.id), "ap": act.ap,
                                     "p_die": p, "p_down": _at_least(
                                         [p] * melee_dice(game, fig, act), need)})
    if isinstance(act, Move) and legal.is_hold(game, act):
        return Message("ai.wait", {"zombie": name})
    if isinstance(act, Move) and isinstance(act.toward, str):
        h = game.figures[act.toward]
        d, target = game.distance(fig.id, h.id), who(game, h.id)
        with_it = [z for z in game.figures.values() if z.is_zombie and z.on_table
                   and z.id != fig.id and game.distance(z.id, h.id) <= z.move + CONTACT]
        falls = fall_chance(game, h) if d <= fig.move + CONTACT and with_it else 0.0
        if falls >= 0.05:  # a gang worth the name: they can put the target down this turn
            return Message("ai.gang", {"zombie": name, "target": target,
                                       "zombies": len(with_it) + 1, "p_fall": falls})
        if d <= fig.move + CONTACT:
            return Message("ai.engage", {"zombie": name, "target": target})
        goal = heuristic._to_goal(game, h) if h.standing else None
        if goal is not None and goal < Tactician.RUNNER:
            return Message("ai.block", {"zombie": name, "target": target,
                                        "goal": round(goal, 1)})
        return Message("ai.approach", {"zombie": name, "target": target,
                                       "short": round(max(d - fig.move, 0.0), 1)})
    if isinstance(act, Move) and isinstance(act.toward, tuple):
        spot = Point(act.toward)
        # onto a place to guard, or to the spot just outside it where a lone zombie waits
        near = Tactician.STAGE + 0.5
        place = next((g for g in guards(game) if g.area.distance(spot) <= near), None)
        if place is not None:
            return Message("ai.guard", {"zombie": name, "place": place.name})
    return Message("ai.move", {"zombie": name})


def _logit(p: float) -> float:
    q = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(q / (1 - q))


def expected_harm(game: Game, act: Action) -> float:
    """The harm a zombie's strike or bite is expected to do, by the exact odds (not by the
    dice a look-ahead happened to draw): 0.1 a PV, 1 for a survivor put down, 1 more for
    one contaminated (D36: a roll against their D, then their roll to resist on 4+)."""
    if isinstance(act, Contaminate):
        h = game.figures[act.target]
        return contamination_chance(game, h) if h.side == "survivors" else 0.0
    if not isinstance(act, Melee):
        return 0.0
    z, h = game.figures[act.figure], game.figures[act.target]
    if h.side != "survivors" or not h.standing:
        return 0.0
    p = unsaved_chance(game, z, h)
    dice = melee_dice(game, z, act)
    need = h.pv + (1 if h.has("robuste") and h.wounds_ignored == 0 else 0)
    return _at_least([p] * dice, need) + 0.1 * min(dice * p, float(h.pv))


class Streams(random.Random):
    """The look-ahead's dice: the turns' action point rolls come from a stream of their
    own, so every line compared meets the same AP rolls whatever dice its fights used
    (common random numbers; otherwise a turn's AP roll, which no choice changes, would
    weigh more than the choice)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.pools = random.Random(seed ^ 0x5F3759DF)

    def roll_for(self, request: Roll) -> int:
        stream = self.pools if request.kind is RollKind.ACTION_POINTS else self
        return stream.randint(1, 6)


def _rolls(act: Action) -> bool:
    """Whether playing the action rolls dice (an attack, a contamination)."""
    return isinstance(act, Melee | Contaminate)


def _settle(trial: Game) -> float:
    """The zombies' own windows after an action: a contamination is always taken. The
    expected harm of the contaminations (by their odds, not the dice drawn)."""
    bitten = 0.0
    while not trial.is_terminal and trial.pending and trial.current_side() == "zombies":
        act = window_default(trial, legal_now(trial)).action
        bitten += expected_harm(trial, act)
        trial.apply(act)
    return bitten


def _at_least(chances: list[float], need: int) -> float:
    """P(at least `need` successes) over independent tries with these chances."""
    if need <= 0:
        return 1.0
    dist = [1.0]
    for p in chances:
        dist = [(dist[k] if k < len(dist) else 0.0) * (1 - p)
                + (dist[k - 1] * p if k >= 1 else 0.0) for k in range(len(dist) + 1)]
    return float(sum(dist[need:]))


def fall_chance(game: Game, h: Fig) -> float:
    """The chance the zombies put `h` down this turn if they spend their AP on it: the
    zombies in contact or able to reach it, nearest first, each walking in (1 AP) and
    striking with its dice while the pool lasts."""
    pool = game.pools.get("zombies", 0)
    near = sorted((game.distance(z.id, h.id), z.x, z.y, z) for z in game.figures.values()
                  if z.is_zombie and z.on_table
                  and game.distance(z.id, h.id) <= z.move + CONTACT)
    dice: list[float] = []
    for d, _x, _y, z in near:
        if d > CONTACT + 1e-9:
            pool -= 1
        if pool <= 0:
            break
        n = min(max(z.attack, 1), pool)
        pool -= n
        dice += [unsaved_chance(game, z, h)] * n
    need = h.pv + (1 if h.has("robuste") and h.wounds_ignored == 0 else 0)
    return _at_least(dice, need)


def _tactician(level: str, rng: random.Random) -> Easy | Lookahead:
    """`tactician:easy` is the heuristic alone (a random legal action one time in three);
    `tactician` (normal) and `tactician:hard` look ahead."""
    level = level or "normal"
    if level == "easy":
        return Easy(rng)
    if level not in BUDGETS:
        raise level_error("tactician", level, ["easy", "normal", "hard"])
    return Lookahead(level, rng)


register("zombies", "tactician", _tactician)
