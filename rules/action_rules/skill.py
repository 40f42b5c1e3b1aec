"""Skills used as an action: chanceux (the two nearest zombies are removed, once a game)
and sprinter (a free move, once a game, even with no AP left). Skills used at a moment the
game offers are windows (`rules.window_rules`); skills that only change a roll live where
the roll is made (`rules.attacks.die_for`, `rules.panic`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from geometry.units import CONTACT_INCHES
from i18n import Message
from rules import words
from rules.action_rules.base import ActionRule, Listing, refuse
from rules.actions import Move, UseSkill
from rules.movement import do_move, plan_move

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["UseSkillRule", "ONCE_PER_GAME", "lucky_split"]

ONCE_PER_GAME = ("chanceux", "sprinter", "didactique")
LUCKY_VICTIMS = 2


def lucky_split(game: GameState, fig: Fig) -> tuple[list[str], list[str], int]:
    """Chanceuse's victims: (the zombies surely among the two nearest, the zombies tied at
    the cut, how many of those are taken). Distances count as equal within 0.01 in, and
    every zombie in base contact is at 0 in; the survivors player breaks a tie at the cut
    by naming the zombie taken first (D14); the rest of the tie goes by exact distance (as
    the tape would split it), then by the order the figures are listed."""
    exact = sorted((game.distance(fig.id, z.id), z.id) for z in game.figures.values()
                   if z.is_zombie and z.on_table)
    ranked = [(round(max(d - CONTACT_INCHES, 0.0), 2), z) for d, z in exact]
    if len(ranked) <= LUCKY_VICTIMS:
        return [z for _, z in ranked], [], 0
    cut = ranked[LUCKY_VICTIMS - 1][0]
    sure = [z for d, z in ranked if d < cut]
    tied = [z for d, z in ranked if d == cut]
    return sure, tied, LUCKY_VICTIMS - len(sure)


class UseSkillRule(ActionRule[UseSkill]):
    """A skill used as an activation: chanceux (1 AP) or sprinter (free)."""

    action = UseSkill
    kind: ClassVar[str] = "skill"

    def cost(self, game: GameState, act: UseSkill) -> int:
        return 1 if act.skill == "chanceux" else 0

    def check(self, game: GameState, fig: Fig, act: UseSkill) -> None:
        who, skill = words.who(game, fig), words.skill(game, act.skill)
        if not fig.has(act.skill):
            raise refuse(Message("refusal.no_skill", {"who": who, "skill": skill}),
                         "action.skill")
        if act.skill in ONCE_PER_GAME and fig.used_game.get(act.skill):
            raise refuse(Message("refusal.skill_used", {"who": who, "skill": skill}),
                         "action.skill")
        if act.skill == "chanceux":
            if not any(z.is_zombie and z.on_table for z in game.figures.values()):
                raise refuse(Message("refusal.no_zombie"), "action.skill")
            _, tied, slots = lucky_split(game, fig)
            if act.target is not None and (act.target not in tied or len(tied) <= slots):
                if len(tied) > slots:
                    raise refuse(Message("refusal.lucky_tie", {
                        "tied": [words.who(game, z) for z in tied]}), "action.target")
                raise refuse(Message("refusal.lucky_no_tie"), "action.target")
        elif act.skill == "sprinter":
            plan_move(game, fig, act.to, act.target, fig.move)
        else:
            raise refuse(Message("refusal.skill_not_action", {"skill": skill}), "action.skill")

    def candidates(self, game: GameState, fig: Fig, listing: Listing) -> Iterable[UseSkill]:
        if fig.is_zombie:
            return []
        out: list[UseSkill] = []
        if fig.has("chanceux"):
            out.append(UseSkill(fig.id, "chanceux"))
            _, tied, slots = lucky_split(game, fig)
            if len(tied) > slots:
                out += [UseSkill(fig.id, "chanceux", target=z) for z in tied]
        if fig.has("sprinter"):
            zombies = sorted((game.distance(fig.id, z.id), z.id) for z in game.figures.values()
                             if z.is_zombie and z.on_table)
            out += [UseSkill(fig.id, "sprinter", target=z) for _, z in zombies[:2]]
        return out

    def resolve(self, game: GameState, fig: Fig, act: UseSkill) -> None:
        fig.used_game = fig.counted("used_game", act.skill, 1)
        if act.skill == "chanceux":
            sure, tied, slots = lucky_split(game, fig)
            if act.target is not None:
                tied = [act.target] + [z for z in tied if z != act.target]
            for zid in sure + tied[:slots]:
                z = game.figures[zid]
                z.status, z.downed_by = "removed", fig.id
                game.note(Message("engine.lucky", {"zombie": words.who(game, z),
                                                   "skill": words.skill(game, "chanceux")}))
            game.moved()
        elif act.skill == "sprinter":
            game.note(Message("engine.sprints", {"who": words.who(game, fig),
                                                 "skill": words.skill(game, "sprinter")}))
            do_move(game, fig, Move(fig.id, to=act.to, toward=act.target), fig.move)

    def words(self, game: GameState, act: UseSkill) -> Message:
        return Message("act.by", {"who": words.who(game, act.figure), "what": Message(
            "act.skill", {"skill": words.thing(game, act.skill)})})
