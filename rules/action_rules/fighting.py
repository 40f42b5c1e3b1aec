"""Fighting: melee, shooting and throwing, and a zombie's contamination of a down survivor."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from geometry.units import CONTACT_INCHES as CONTACT
from i18n import Message
from rules import words
from rules.action_rules.base import ActionRule, Listing, refuse
from rules.actions import Contaminate, Melee, Shoot
from rules.attacks import (
    REACH_INCHES,
    attack,
    contaminate,
    dice_cap,
    finished_off,
    fire,
    has_ammo,
    melee_dice,
    most_melee_ap,
    shooting_answer,
    shooting_legal,
    shot_dice,
    weapon_of,
    weapon_rate,
)
from rules.errors import missing_figure

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["MeleeRule", "ShootRule", "ContaminateRule"]

# one die or several: the words differ (False, True)
_SHOOTS = (Message("engine.shoots_one"), Message("engine.shoots"))
_THROWS = (Message("engine.throws_one"), Message("engine.throws"))
_ATTACKS = (Message("engine.attacks_one"), Message("engine.attacks"))
_ATTACKS_WITH = (Message("engine.attacks_with_one"), Message("engine.attacks_with"))


class MeleeRule(ActionRule[Melee]):
    """Attack an enemy in base contact (or at the weapon's reach) with `ap` AP: the dice
    the weapon gives for them (D5), at most the cap (R2). Listed for every enemy within
    reach, every melee weapon carried and every AP the figure may spend."""

    action = Melee
    kind: ClassVar[str] = "melee"
    zombies = True

    def cost(self, game: GameState, act: Melee) -> int:
        return act.ap

    def check(self, game: GameState, fig: Fig, act: Melee) -> None:
        target = game.figures.get(act.target)
        if target is None or not target.on_table:
            raise missing_figure(game, act.target, "action.target")
        if not fig.enemy_of(target):
            raise refuse(Message("refusal.not_an_enemy", {"who": words.who(game, fig),
                                                        "target": words.who(game, target)}),
                       "action.target")
        if target.status == "down" and not finished_off(game, target):
            raise refuse(Message("refusal.down_not_attacked", {"target": words.who(game, target)}),
                         "action.target")
        weapon = weapon_of(game, fig, act.weapon, ("melee",))
        reach = CONTACT
        if weapon is not None and (game.catalog.equipment[weapon].reach or 0) > 0:
            reach = REACH_INCHES
        d = game.distance(fig.id, target.id)
        if d > reach + 1e-9:
            params = {"who": words.who(game, fig), "target": words.who(game, target), "d": d}
            if reach == CONTACT:
                raise refuse(Message("refusal.melee_not_in_contact", params), "action.target")
            raise refuse(Message("refusal.melee_out_of_reach", {
                **params, "weapon": words.item(game, weapon), "reach": float(reach)}),
                "action.target")
        dice = melee_dice(game, fig, act)
        if game.settings.melee_ap_cap == "one":
            wanted = 1 if weapon is None else game.catalog.equipment[weapon].ap_cost
            if act.ap != wanted:
                raise refuse(Message("refusal.one_attack", {"ap": wanted}), "action.ap")
            return
        too_many = Message("refusal.too_many_dice", {
            "who": words.who(game, fig), "a": fig.attack, "ap": act.ap, "dice": dice})
        if game.settings.two_attacks_per_ap == "within_attack" and dice > max(fig.attack, 1):
            raise refuse(too_many, "action.ap")
        most = most_melee_ap(game, fig, weapon)
        if act.ap > most:
            if weapon_rate(game, fig, weapon)[0] == 1:
                raise refuse(too_many, "action.ap")
            raise refuse(Message("refusal.too_many_dice_weapon", {
                "who": words.who(game, fig), "cap": dice_cap(game, fig, weapon),
                "weapon": words.item(game, weapon), "a": fig.attack, "most": most, "ap": act.ap}),
                "action.ap")

    def candidates(self, game: GameState, fig: Fig, listing: Listing) -> Iterable[Melee]:
        weapons = [None] + ([w for w in fig.items if game.catalog.equipment[w].kind == "melee"]
                            if not fig.is_zombie else [])
        out = []
        for d, enemy in listing.enemies:
            if d > REACH_INCHES + 1e-9:
                break
            for w in weapons:
                step = weapon_rate(game, fig, w)[1]
                most = min(listing.budget, most_melee_ap(game, fig, w))
                for ap in range(step, most + 1, step):
                    out.append(Melee(fig.id, enemy.id, ap, w))
        return out

    def resolve(self, game: GameState, fig: Fig, act: Melee) -> None:
        target = game.figures[act.target]
        dice = melee_dice(game, fig, act)
        params = {"who": words.who(game, fig), "target": words.who(game, target), "n": dice}
        if act.weapon is None:
            game.note(Message(_ATTACKS[dice > 1].code, params))
        else:
            game.note(Message(_ATTACKS_WITH[dice > 1].code, {
                **params, "weapon": words.item(game, act.weapon)}))
        attack(game, fig, target, dice, "melee", act.weapon)

    def words(self, game: GameState, act: Melee) -> Message:
        params = {"figure": words.who(game, act.figure), "target": words.who(game, act.target),
                  "ap": act.ap}
        if act.weapon:
            return Message("ai.act.melee_weapon", {**params,
                                                   "weapon": words.thing(game, act.weapon)})
        return Message("ai.act.melee", params)


class ShootRule(ActionRule[Shoot]):
    """Shoot or throw at a legal target (the nearest in sight and range, or one threatening
    a survivor: `rules.arbitration.shooting_targets`), at the weapon's AP cost."""

    action = Shoot
    kind: ClassVar[str] = "shoot"

    def cost(self, game: GameState, act: Shoot) -> int:
        weapon = game.catalog.equipment.get(act.weapon)
        if weapon is None:
            raise refuse(Message("refusal.unknown_weapon", {"id": act.weapon}), "action.weapon")
        return weapon.ap_cost

    def check(self, game: GameState, fig: Fig, act: Shoot) -> None:
        weapon_of(game, fig, act.weapon, ("shooting", "throwing"))
        if not has_ammo(game, fig, act.weapon):
            raise refuse(Message("refusal.no_ammo", {"who": words.who(game, fig),
                                                    "weapon": words.item(game, act.weapon)}),
                        "action.weapon")
        item = game.catalog.equipment[act.weapon]
        answer = shooting_answer(game, fig, float(item.range or 0))
        if act.target not in answer["legal"]:
            target = game.figures.get(act.target)
            if target is None or not target.on_table:
                raise missing_figure(game, act.target, "action.target")
            who, aim = words.who(game, fig), words.who(game, target)
            if act.target in answer["candidates"]:
                why = answer["why"]
                nearest = [words.who(game, z) for z in answer["legal"]
                           if why[z].startswith("nearest")]
                threats = [words.who(game, z) for z in answer["legal"]
                           if not why[z].startswith("nearest")]
                if threats:
                    raise refuse(Message("refusal.shoot_priority", {
                        "target": aim, "nearest": nearest, "threats": threats}), "action.target")
                raise refuse(Message("refusal.shoot_priority_nearest", {
                    "target": aim, "nearest": nearest}), "action.target")
            reach = float(item.range or 0)
            if game.referee is not None:
                reach *= game.referee.range_factor(game)
            d = game.distance(fig.id, target.id)
            if not fig.enemy_of(target):
                raise refuse(Message("refusal.not_an_enemy", {"who": who, "target": aim}),
                             "action.target")
            if d > reach + 1e-9:
                raise refuse(Message("refusal.shoot_out_of_range", {
                    "who": who, "target": aim, "d": d, "range": reach,
                    "weapon": words.item(game, act.weapon)}), "action.target")
            raise refuse(Message("refusal.shoot_not_seen", {"who": who, "target": aim}),
                         "action.target")

    def candidates(self, game: GameState, fig: Fig, listing: Listing) -> Iterable[Shoot]:
        if fig.is_zombie:
            return []
        out = []
        for w, n in fig.items.items():
            item = game.catalog.equipment[w]
            if n > 0 and item.kind in ("shooting", "throwing"):
                for target in shooting_legal(game, fig, w):
                    out.append(Shoot(fig.id, target, w))
        return out

    def resolve(self, game: GameState, fig: Fig, act: Shoot) -> None:
        target = game.figures[act.target]
        shots = shot_dice(game, fig, act.weapon)
        throws = game.catalog.equipment[act.weapon].kind == "throwing"
        code = (_THROWS if throws else _SHOOTS)[shots > 1]
        game.note(Message(code.code, {"who": words.who(game, fig),
                                      "target": words.who(game, target),
                                      "weapon": words.item(game, act.weapon), "n": shots}))
        fire(game, fig, target, act.weapon, shots)


    def words(self, game: GameState, act: Shoot) -> Message:
        fa, fb = game.figures.get(act.figure), game.figures.get(act.target)
        far = game.distance(act.figure, act.target) if (
            fa is not None and fb is not None and fa.on_table and fb.on_table) else None
        params = {"figure": words.who(game, act.figure), "target": words.who(game, act.target),
                  "weapon": words.thing(game, act.weapon)}
        if far:
            return Message("ai.act.shoot_at", {**params, "d": round(far, 1)})
        return Message("ai.act.shoot", params)


class ContaminateRule(ActionRule[Contaminate]):
    """A zombie that put a survivor down contaminates it: only in the window the fall
    opened (`rules.windows.Contamination`), 1 AP."""

    action = Contaminate
    zombies = True

    def check_turn(self, game: GameState, act: Contaminate) -> None:
        raise refuse(Message("refusal.contaminate_when"), "action.type")

    def resolve(self, game: GameState, fig: Fig, act: Contaminate) -> None:
        contaminate(game, fig, game.figures[act.target])

    def words(self, game: GameState, act: Contaminate) -> Message:
        return Message("ai.act.contaminate", {"figure": words.who(game, act.figure),
                                              "target": words.who(game, act.target)})
