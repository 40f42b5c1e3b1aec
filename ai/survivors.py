"""The survivor players for simulation: the `bot` and `random`.

The bot plays the card's objective with the scenario bots' reading of it
(`scenarios.play_policy.GreedySurvivors`: exits, escorts, crates, items, the sick, the
trapped, zones), and adds what a player would: revive and heal the fallen, pick shots by
the exact chance to kill (legal targets only), fight with every die when engaged. With no
objective it shoots and fights what threatens it and ends its activations.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ai.policy import Choice, action_message, explained, legal_now, register
from ai.zombies import random_choice, unsaved_chance
from i18n import Message
from rules import legal
from rules.actions import Action, Decline, EndActivations, Heal, Melee, Revive, Shoot
from rules.errors import IllegalActionError
from rules.game import SURVIVORS
from scenarios.play_policy import GreedySurvivors

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.game import Game

__all__ = ["SurvivorBot", "RandomSurvivors"]


class RandomSurvivors:
    """Any legal action, uniformly."""

    def __init__(self, level: str = "", rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def choose(self, game: Game) -> Choice:
        act = self.rng.choice(legal_now(game))
        return random_choice(game, act)


class _Objective(GreedySurvivors):
    """The scenario bot's options, plus care for the fallen and shots weighed by odds."""

    def _options(self, game: Game, ref: object, fig: Fig) -> list[tuple[float, Action]]:
        out = []
        for score, act in super()._options(game, ref, fig):
            if isinstance(act, Shoot):
                target = game.figures[act.target]
                p = unsaved_chance(game, fig, target, "shoot", act.weapon)
                near = min((game.distance(act.target, f.id) for f in game.figures.values()
                            if f.side == SURVIVORS and f.on_table), default=99.0)
                score = score - 10 + 25 * p + (8 if near <= 2.0 else 0)
            out.append((score, act))
        if fig.standing:
            for act in legal.figure_actions(game, fig, kinds=("heal", "revive")):
                target = game.figures[getattr(act, "target", fig.id)]
                if isinstance(act, Revive):
                    out.append((75.0, act))
                elif isinstance(act, Heal) and target.pv < target.wounds:
                    out.append((50.0 + 5 * (target.wounds - target.pv), act))
        return out


class SurvivorBot:
    """A sensible survivor player; see the module docstring."""

    def __init__(self, level: str = "", rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)
        self._inner = _Objective()

    def choose(self, game: Game) -> Choice:
        if game.pending:
            offered = legal_now(game)
            fights = [a for a in offered if isinstance(a, Shoot | Melee)]
            if fights:
                best = max(fights, key=lambda a: self._kill(game, a))
                return explained(best, Message("ai.why.kill_die", {
                    "action": action_message(game, best), "p": self._kill(game, best)}))
            rest = [a for a in offered if not isinstance(a, Decline)]
            act = rest[0] if rest and self._must(game, offered) else next(
                (a for a in offered if isinstance(a, Decline)), offered[0])
            return explained(act, action_message(game, act))
        act = self._inner.choose(game)
        try:  # moves to points are not listed by legal_actions: check the action itself
            legal.check(game, act)
        except IllegalActionError:
            act = legal.give_up(game, EndActivations())
        return explained(act, self._why(game, act))

    @staticmethod
    def _must(game: Game, offered: list[Action]) -> bool:
        return not any(isinstance(a, Decline) for a in offered)

    @staticmethod
    def _kill(game: Game, act: Shoot | Melee) -> float:
        fig, target = game.figures[act.figure], game.figures[act.target]
        mode = "shoot" if isinstance(act, Shoot) else "melee"
        return unsaved_chance(game, fig, target, mode, act.weapon)

    def _why(self, game: Game, act: Action) -> Message:
        text = action_message(game, act)
        if isinstance(act, Shoot | Melee):
            return Message("ai.why.kill_die", {"action": text, "p": self._kill(game, act)})
        if isinstance(act, Revive):
            return Message("ai.why.revive", {"action": text})
        if isinstance(act, Heal):
            return Message("ai.why.heal", {"action": text,
                                           "pv": game.figures[act.target].pv + 1})
        if isinstance(act, EndActivations) or legal.is_hold(game, act):
            return Message("ai.why.nothing_left", {"action": text})
        return Message("ai.why.objective", {"action": text})


register("survivors", "bot", lambda level, rng: SurvivorBot(level, rng))
register("survivors", "random", lambda level, rng: RandomSurvivors(level, rng))
