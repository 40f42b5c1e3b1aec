"""`survive-us odds`: one attack die's exact chances, from the rules code that resolves it.

The attacker and target are profiles (archetype or zombie ids); skills, protective items,
extra moves and panic of the target can be given, as on the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from i18n import Message
from rules.catalog import Catalog, load_catalog
from rules.combat import Mode, odds
from rules.errors import InvalidActionError
from rules.figures import Fig, zombie_of
from rules.resolve import die_for
from rules.settings import Settings

__all__ = ["OddsQuestion", "attack_odds"]

_ROLE = {"attacker": Message("refusal.odds.unknown_attacker"),
         "target": Message("refusal.odds.unknown_target")}
_WRONG_MODE = {"melee": Message("refusal.odds.melee_weapon_shoots"),
               "shoot": Message("refusal.odds.shooting_weapon_melee")}


@dataclass(frozen=True)
class OddsQuestion:
    attacker: str
    target: str
    weapon: str | None = None
    mode: Mode | None = None
    attacker_skills: tuple[str, ...] = ()
    target_skills: tuple[str, ...] = ()
    target_items: tuple[str, ...] = ()
    target_moves: int = 0  # moves made this turn: each beyond the second lowers D by 1
    target_panicked: bool = False
    alone: bool = False  # rien à perdre: no friend within 5 in


def _profile(catalog: Catalog, figure_id: str, where: str, skills: Sequence[str],
             items: Sequence[str]) -> Fig:
    if figure_id in catalog.zombies:
        fig = zombie_of(figure_id, where, catalog, 0.0, 0.0)
    elif figure_id in catalog.archetypes:
        a = catalog.archetypes[figure_id]
        fig = Fig(id=where, side="survivors", kind=a.id, name=a.label, x=0.0, y=0.0,
                  cls=a.class_, move=a.move, wounds=a.wounds, attack=a.attack,
                  defense=a.defense, panic=a.panic, pv=a.wounds, name_en=a.label_en)
    else:
        raise InvalidActionError(Message(_ROLE[where].code, {
            "value": figure_id, "known": [*catalog.archetypes, *catalog.zombies]}), where)
    for skill in skills:
        if skill not in catalog.skills:
            raise InvalidActionError(Message("refusal.odds.unknown_skill", {"value": skill}),
                                     f"{where}_skill")
    for item in items:
        if item not in catalog.equipment:
            raise InvalidActionError(Message("refusal.odds.unknown_item", {"value": item}),
                                     f"{where}_item")
    fig.skills = list(skills)
    fig.items = {item: 1 for item in items}
    return fig


def attack_odds(q: OddsQuestion, catalog: Catalog | None = None,
                settings: Settings | None = None) -> dict[str, Any]:
    """{"hit", "saved", "unsaved"} as floats, plus the exact fractions and the die used."""
    catalog = catalog or load_catalog()
    settings = settings or Settings()
    attacker = _profile(catalog, q.attacker, "attacker", q.attacker_skills, ())
    target = _profile(catalog, q.target, "target", q.target_skills, q.target_items)
    if attacker.is_zombie == target.is_zombie and attacker.is_zombie:
        raise InvalidActionError(Message("refusal.odds.zombie_on_zombie"), "target")
    mode: Mode = q.mode or "melee"
    if q.weapon is not None:
        item = catalog.equipment.get(q.weapon)
        if item is None or not item.is_weapon:
            raise InvalidActionError(Message("refusal.odds.not_a_weapon", {"value": q.weapon}),
                                     "weapon")
        if attacker.is_zombie:
            raise InvalidActionError(Message("refusal.odds.zombie_weapon"), "weapon")
        natural: Mode = "melee" if item.kind == "melee" else "shoot"
        if q.mode is not None and q.mode != natural:
            said = _WRONG_MODE[natural]
            raise InvalidActionError(Message(said.code, {
                "weapon": item.names}), "mode")
        mode = natural
    elif mode == "shoot":
        raise InvalidActionError(Message("refusal.odds.shoot_needs_weapon"), "weapon")
    if attacker.is_zombie and mode == "shoot":
        raise InvalidActionError(Message("refusal.odds.zombie_shoots"), "mode")
    target.moves = q.target_moves
    target.panic_malus = 1 if q.target_panicked else 0
    die = die_for(attacker, target, mode, q.weapon, catalog=catalog, settings=settings,
                  alone=q.alone)
    chances = odds(die)
    return {
        **{k: float(v) for k, v in chances.items()},
        "exact": {k: _text(v) for k, v in chances.items()},
        "die": {"mode": die.mode, "to_hit": die.to_hit, "bonus": die.bonus, "save": die.save,
                "save_bonus": die.save_bonus, "reroll_save": die.reroll_save,
                "retry_on_save": die.retry_on_save},
    }


def _text(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"
