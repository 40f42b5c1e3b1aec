"""The scenario card's actions: leaving the table by one of its exits, and its own special
actions (treat the sick, free a prisoner, cross a barricade...), refereed by the card
(`rules.referee.Referee`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from i18n import Message
from rules import words
from rules.action_rules.base import ActionRule, Listing, refuse
from rules.actions import Action, Exit, Special

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["ExitRule", "SpecialRule"]


class ExitRule(ActionRule[Exit]):
    """Leave the table by one of the scenario's exits, base touching its edge (1 AP)."""

    action = Exit
    kind: ClassVar[str] = "scenario"

    def check(self, game: GameState, fig: Fig, act: Exit) -> None:
        if game.referee is None or act.exit not in game.referee.exits(game, fig):
            raise refuse(Message("refusal.cannot_exit", {
                "who": words.who(game, fig), "exit": words.exit_name(game, act.exit)}),
                "action.exit")

    def candidates(self, game: GameState, fig: Fig, listing: Listing) -> Iterable[Exit]:
        if fig.is_zombie or game.referee is None or not fig.standing:
            return []
        return [Exit(fig.id, e) for e in game.referee.exits(game, fig)]

    def resolve(self, game: GameState, fig: Fig, act: Exit) -> None:
        fig.status = "evacuated"
        fig.exit = act.exit
        game.moved()
        game.note(Message("engine.leaves_table", {"who": words.who(game, fig),
                                                  "exit": words.exit_name(game, act.exit)}))

    def words(self, game: GameState, act: Exit) -> Message:
        return Message("ai.act.exit", {"figure": words.who(game, act.figure),
                                       "exit": words.place(game, act.exit)})



class SpecialRule(ActionRule[Special]):
    """An action the scenario card (or a rule module) adds, named by `rule`: its cost, its
    check and its resolution are the referee's."""

    action = Special
    kind: ClassVar[str] = "scenario"
    zombies = True  # crossing a barricade...

    def cost(self, game: GameState, act: Special) -> int:
        return game.referee.special_cost(game, act) if game.referee is not None else 0

    def check(self, game: GameState, fig: Fig, act: Special) -> None:
        if game.referee is None:
            raise refuse(Message("refusal.no_scenario_rule", {"rule": act.rule}), "action.rule")
        game.referee.check_special(game, fig, act)

    def candidates(self, game: GameState, fig: Fig, listing: Listing) -> Iterable[Action]:
        if game.referee is None or not fig.standing:
            return []
        return game.referee.special_actions(game, fig)

    def resolve(self, game: GameState, fig: Fig, act: Special) -> None:
        assert game.referee is not None
        game.referee.do_special(game, fig, act)

    def words(self, game: GameState, act: Special) -> Message:
        """A scenario card's own action, by its rule (the page's `act.special.*` words)."""
        p: dict[str, Any] = {}
        if act.target is not None:
            p["target"] = words.place(game, act.target)
        if act.marker is not None:
            p["marker"] = words.place(game, act.marker)
        known = {"treat": Message("act.special.treat", p),
                 "deliver": Message("act.special.deliver", p),
                 "escort": Message("act.special.escort", p),
                 "exit_with": Message("act.special.exit_with", p),
                 "cross": Message("act.special.cross", p),
                 "barricade": Message("act.special.barricade", p),
                 "sewer": Message("act.special.sewer", p),
                 "collect": Message("act.special.collect", p),
                 "lead": Message("act.special.lead", p),
                 "ally": Message("act.special.ally", p)}
        what = known.get(act.rule) or Message("act.special", {
            "what": p.get("target") or p.get("marker") or ""})
        return Message("act.by", {"who": words.who(game, act.figure), "what": what})
