"""Caring: healing a friend's wounds (or one's own) and reviving a friend who is down."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from i18n import Message
from rules import words
from rules.action_rules.base import ActionRule, friend, refuse
from rules.actions import Heal, Revive
from rules.attacks import spend

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["HealRule", "ReviveRule", "HEAL_PV"]

HEAL_PV = 2
_NO_HEALS = (Message("refusal.no_heals_contact"), Message("refusal.no_heals_any"))  # anywhere


def _heal_source(game: GameState, fig: Fig, target: Fig) -> Fig | None:
    """Who pays the healing item (None: a skill heals without one).

    Chirurgien healing a down friend may use a healing item of any friendly character
    (L183, R3): its own first, then the down friend's, then the nearest friend's on the
    table, wherever it stands; `chirurgien_items = in_contact` keeps to friends in base
    contact with the Médecin (D14)."""
    if fig.has("premiers_soins") and target.standing:
        return None
    if fig.units.get("soins", 0) > 0:
        return fig
    if fig.has("chirurgien") and target.status == "down" and target.id != fig.id:
        anywhere = game.settings.chirurgien_items == "any_friend"
        others = sorted((f for f in game.figures.values()
                         if f.side == "survivors" and f.band == fig.band and f.on_table
                         and f.id not in (fig.id, target.id)
                         and (anywhere or f.standing and game.in_contact(fig.id, f.id))),
                        key=lambda f: game.distance(fig.id, f.id))
        for friend in [target, *others]:
            if friend.units.get("soins", 0) > 0:
                return friend
        said = _NO_HEALS[anywhere]
        raise refuse(Message(said.code, {"who": words.who(game, fig),
                                        "target": words.who(game, target)}), "action")
    raise refuse(Message("refusal.no_heals", {"who": words.who(game, fig)}), "action")


def _raises_itself(fig: Fig, target: Fig) -> bool:
    """Héroïque: a down figure may heal itself with its own item (D14)."""
    return target.id == fig.id and fig.has("heroique")


def _revive_source(game: GameState, fig: Fig, target: Fig) -> Fig:
    """With revive_needs_healing_item: the reviver's item, else the down friend's (D29)."""
    for owner in (fig, target):
        if owner.units.get("soins", 0) > 0:
            return owner
    raise refuse(Message("refusal.revive_needs_heals", {"who": words.who(game, fig),
                                                       "target": words.who(game, target)}),
                "action")



class HealRule(ActionRule[Heal]):
    """Heal a friend in base contact (or oneself, with `self_heal`) with a healing item
    (premiers soins heal a standing friend without one, chirurgien a down one): 2 PV."""

    action = Heal
    kind: ClassVar[str] = "heal"

    def check(self, game: GameState, fig: Fig, act: Heal) -> None:
        target = friend(game, fig, act.target)
        if (target.status == "down" and not fig.has("chirurgien")
                and not _raises_itself(fig, target)):
            raise refuse(Message("refusal.heal_down", {"target": words.who(game, target)}),
                         "action.target")
        if target.id == fig.id and not game.settings.self_heal:
            raise refuse(Message("refusal.no_self_heal", {"who": words.who(game, fig)}),
                         "action.target")
        if target.standing and target.pv >= target.wounds:
            raise refuse(Message("refusal.heal_full", {"target": words.who(game, target),
                                                      "pv": target.wounds}), "action.target")
        _heal_source(game, fig, target)

    def for_friend(self, game: GameState, fig: Fig, other: Fig) -> Heal | None:
        """The heal the listing offers for `other` (the check decides whether it helps)."""
        return Heal(fig.id, other.id)

    def resolve(self, game: GameState, fig: Fig, act: Heal) -> None:
        target = game.figures[act.target]
        source = _heal_source(game, fig, target)
        if source is not None:
            spend(game, source, "soins")
        target.pv = min(target.pv + HEAL_PV, target.wounds)
        if target.status == "down":
            target.status, target.resting = "standing", True
            game.moved()
        params = {"who": words.who(game, fig), "target": words.who(game, target),
                  "pv": target.pv}
        if source is not None and source is not fig:
            game.note(Message("engine.heals_lent", {**params,
                                                    "lender": words.who(game, source)}))
        elif target is fig:
            game.note(Message("engine.heals_self", params))
        else:
            game.note(Message("engine.heals", params))

    def words(self, game: GameState, act: Heal) -> Message:
        name = words.who(game, act.figure)
        if act.target == act.figure:
            return Message("ai.act.heal_self", {"figure": name})
        return Message("ai.act.heal", {"figure": name, "target": words.who(game, act.target)})


class ReviveRule(ActionRule[Revive]):
    """Revive a friend who is down, in base contact (2 AP): back on their feet with 2 PV,
    resting for the rest of the turn (with `revive_needs_healing_item`, using up a heal)."""

    action = Revive
    kind: ClassVar[str] = "revive"
    heroic = False

    def cost(self, game: GameState, act: Revive) -> int:
        return 2

    def check(self, game: GameState, fig: Fig, act: Revive) -> None:
        target = friend(game, fig, act.target)
        if target.id == fig.id:
            raise refuse(Message("refusal.revive_self", {"who": words.who(game, fig)}),
                         "action.target")
        if target.status != "down":
            raise refuse(Message("refusal.not_down", {"target": words.who(game, target)}),
                         "action.target")
        if game.settings.revive_needs_healing_item:
            _revive_source(game, fig, target)


    def for_friend(self, game: GameState, fig: Fig, other: Fig) -> Revive | None:
        """The revival the listing offers, if `other` is down."""
        return Revive(fig.id, other.id) if other.status == "down" else None

    def resolve(self, game: GameState, fig: Fig, act: Revive) -> None:
        target = game.figures[act.target]
        if game.settings.revive_needs_healing_item:
            spend(game, _revive_source(game, fig, target), "soins")
        target.pv = min(target.pv + HEAL_PV, target.wounds)
        target.status, target.resting = "standing", True
        game.moved()
        game.note(Message("engine.revives", {"who": words.who(game, fig),
                                             "target": words.who(game, target),
                                             "pv": target.pv}))

    def words(self, game: GameState, act: Revive) -> Message:
        return Message("ai.act.revive", {"figure": words.who(game, act.figure),
                                         "target": words.who(game, act.target)})
