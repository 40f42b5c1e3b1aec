"""The rules of the figures' actions, one object per action type (`rules.rulebook` finds
them by the action's class). See `rules.action_rules.base` for what a rule holds."""

from rules.action_rules.base import ActionRule, Listing, TurnRule, friend, refuse
from rules.action_rules.caring import HEAL_PV, HealRule, ReviveRule
from rules.action_rules.fighting import ContaminateRule, MeleeRule, ShootRule
from rules.action_rules.moving import MOVE_TARGETS, CarryRule, MoveRule, home
from rules.action_rules.scenario import ExitRule, SpecialRule
from rules.action_rules.skill import ONCE_PER_GAME, UseSkillRule, lucky_split
from rules.action_rules.things import DoorRule, GiveRule, InteractRule, TakeRule

__all__ = [
    "ActionRule", "TurnRule", "Listing", "friend", "refuse",
    "MoveRule", "CarryRule", "MeleeRule", "ShootRule", "ContaminateRule", "HealRule",
    "ReviveRule", "DoorRule", "InteractRule", "TakeRule", "GiveRule", "ExitRule",
    "SpecialRule", "UseSkillRule",
    "HEAL_PV", "MOVE_TARGETS", "ONCE_PER_GAME", "home", "lucky_split",
]
