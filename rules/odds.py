"""Exact chances of attacks, from the rules code that resolves them.

`attack_odds` answers `survive-us odds`: one attack die between two profiles (archetype or
zombie ids), with skills, protective items, extra moves and panic of the target given as on
the table. `action_odds` answers for a legal action of a game in play (the page's attack
buttons): the dice it rolls, the number each needs, and the chance to wound and to put the
target down, from the same `attack_spec` the engine resolves the attack with.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from i18n import Message
from rules.actions import Action, Contaminate, Melee, Shoot
from rules.attacks import (
    attack_spec,
    contamination_chance,
    defence_of,
    die_for,
    finished_off,
    melee_dice,
    resist_bonus,
    shot_dice,
)
from rules.catalog import Catalog, load_catalog
from rules.combat import AttackDie, Mode, odds
from rules.dice import face_needed
from rules.errors import InvalidActionError
from rules.figures import Fig, zombie_of
from rules.settings import Settings

if TYPE_CHECKING:
    from rules.game import Game

__all__ = ["OddsQuestion", "attack_odds", "action_odds"]

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


def _at_least(p: Fraction, dice: int, need: int) -> Fraction:
    """P(at least `need` of `dice` independent tries of chance `p` succeed)."""
    if need <= 0:
        return Fraction(1)
    return sum((math.comb(dice, k) * p ** k * (1 - p) ** (dice - k)
                for k in range(need, dice + 1)), Fraction(0))


def _attack_answer(game: Game, fig: Fig, target: Fig, die: AttackDie, dice: int
                   ) -> dict[str, Any]:
    """The dice of an attack and its chances. The dice stop once the target is out, which
    changes no chance of reaching `need` unsaved wounds."""
    if target.is_zombie:
        need, ends = 1, "removed"
    elif not target.standing:
        need, ends = (1, "dies") if finished_off(game, target) else (dice + 1, "none")
    else:
        robust = 1 if target.has("robuste") and target.wounds_ignored == 0 else 0
        need, ends = target.pv + robust, "down"
    chances = odds(die)
    unsaved = chances["unsaved"]
    return {
        "kind": "attack", "mode": die.mode, "dice": dice,
        "hits_on": face_needed(die.to_hit, die.bonus), "defence": die.to_hit, "bonus": die.bonus,
        "save_on": None if die.save is None else face_needed(die.save, die.save_bonus),
        "reroll_save": die.reroll_save, "retry_on_save": die.retry_on_save,
        "hit": float(chances["hit"]), "per_die": float(unsaved),
        "wound": float(_at_least(unsaved, dice, 1)), "need": need, "ends": ends,
        "down": float(_at_least(unsaved, dice, need)),
    }


def action_odds(game: Game, act: Action) -> dict[str, Any] | None:
    """What rolling a legal action means, for a button: None for an action without dice.

    An attack: its `dice`, the face each needs to hit (`hits_on`, the target's current D
    with the modifiers) and the save's (`save_on`, None without one), the chance one die
    wounds (`per_die`), and for the whole action the chance of at least one wound (`wound`)
    and of putting the target out (`down`: `ends` says how: a zombie removed, a survivor
    down, a fallen civilian dead). A contamination: the faces of the bite and of the
    resistance, and the chance it works.
    """
    if isinstance(act, Melee | Shoot):
        fig, target = game.figures[act.figure], game.figures[act.target]
        if isinstance(act, Melee):
            die = attack_spec(game, fig, target, "melee", act.weapon)
            return _attack_answer(game, fig, target, die, melee_dice(game, fig, act))
        die = attack_spec(game, fig, target, "shoot", act.weapon)
        return _attack_answer(game, fig, target, die, shot_dice(game, fig, act.weapon))
    if isinstance(act, Contaminate):
        target = game.figures[act.target]
        return {"kind": "contaminate", "bite_on": face_needed(defence_of(target, game.settings)),
                "resist_on": face_needed(4, resist_bonus(game, target)),
                "chance": contamination_chance(game, target)}
    return None
