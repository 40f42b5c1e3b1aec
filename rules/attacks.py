"""Attacks and what they lead to: the dice of one attack with every modifier, wounds, falls
and deaths, violent replies, shooting targets and ammunition, contamination.

The mechanics the action rules (`rules.action_rules`) and the moves (a free attack on
leaving a melee) share: they roll through `GameState.roll` and open windows
(`rules.windows`: a contamination, the Molotov's second cocktail, extrémiste's charge).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from geometry.space import Sight
from i18n import Message
from rules import inventory, panic, words
from rules.actions import Melee
from rules.arbitration import THREAT_INCHES, shooting_targets
from rules.catalog import Catalog
from rules.combat import AttackDie, Mode, attack_die, current_defence
from rules.dice import Roll, RollKind, drive, succeeds
from rules.errors import IllegalActionError
from rules.settings import Settings
from rules.windows import Contamination, Extremiste, ThrowAgain

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = [
    "REACH_INCHES", "weapon_of", "weapon_rate", "dice_cap", "most_melee_ap", "melee_dice",
    "defence_of", "attack_spec", "die_for", "attack", "finished_off", "wound", "hit_back",
    "die", "free_weapon", "shooting_answer", "shooting_legal", "has_ammo", "shot_dice", "fire",
    "spend", "resist_bonus", "contamination_chance", "contaminate",
]

REACH_INCHES = 1.0
ALONE_INCHES = 5.0  # rien à perdre
_WRONG_WEAPON = (Message("refusal.not_shooting_weapon"), Message("refusal.not_melee_weapon"))


def _fail(message: Message, where: str = "action") -> IllegalActionError:
    return IllegalActionError(message, where)


# --- melee dice --------------------------------------------------------------------------


def weapon_of(game: GameState, fig: Fig, weapon: str | None, kinds: tuple[str, ...]) -> str | None:
    if weapon is None:
        return None
    if fig.items.get(weapon, 0) < 1:
        raise _fail(Message("refusal.carries_no", {"who": words.who(game, fig),
                                                   "item": words.item(game, weapon)}),
                    "action.weapon")
    if game.catalog.equipment[weapon].kind not in kinds:
        said = _WRONG_WEAPON["melee" in kinds]
        raise _fail(Message(said.code, {"item": words.item(game, weapon)}), "action.weapon")
    return weapon


def weapon_rate(game: GameState, fig: Fig, weapon: str | None) -> tuple[int, int]:
    """(attack dice per step, AP per step) of a melee weapon: a katana gives 2 dice for 1 AP,
    a barre de fer 1 die for 2 AP, bare hands 1 die for 1 AP."""
    if weapon is None or fig.is_zombie:
        return 1, 1
    item = game.catalog.equipment[weapon]
    return item.attacks_per_ap, max(item.ap_cost, 1)


def dice_cap(game: GameState, fig: Fig, weapon: str | None) -> int:
    """Most attack dice in one melee action: A, except that a weapon making two attacks
    for 1 AP always makes them (R2: dice = min(2 x AP, max(A, 2)))."""
    per_ap, _ = weapon_rate(game, fig, weapon)
    if per_ap > 1 and game.settings.two_attacks_per_ap == "always":
        return max(fig.attack, per_ap)
    return max(fig.attack, 1)


def most_melee_ap(game: GameState, fig: Fig, weapon: str | None) -> int:
    """Most AP one melee action with `weapon` may take: each AP must add a die (D5, R2)."""
    per_ap, step = weapon_rate(game, fig, weapon)
    if per_ap > 1 and game.settings.two_attacks_per_ap == "always":
        return -(-dice_cap(game, fig, weapon) // per_ap) * step
    return max(fig.attack // per_ap, 1) * step


def melee_dice(game: GameState, fig: Fig, act: Melee) -> int:
    """Attack dice for `act.ap` AP with the weapon used (D5), at most the cap (R2)."""
    per_ap, ap_per_die = weapon_rate(game, fig, act.weapon)
    if act.ap % ap_per_die:
        raise _fail(Message("refusal.ap_multiple", {"weapon": words.item(game, act.weapon),
                                                    "step": ap_per_die}), "action.ap")
    dice = (act.ap // ap_per_die) * per_ap
    if per_ap > 1 and game.settings.two_attacks_per_ap == "always":
        return min(dice, dice_cap(game, fig, act.weapon))
    return dice



# --- one attack --------------------------------------------------------------------------


def defence_of(fig: Fig, settings: Settings | None = None) -> int:
    """Current D: printed, +1 with body armour (D3), lowered by extra moves and panic (D11)."""
    armour = fig.items.get("protection") and (
        settings is None or settings.protection_effects == "standard")
    printed = min(fig.defense + (1 if armour else 0), 6)
    return current_defence(printed, max(fig.moves - 2, 0) + fig.panic_malus)


def _alone(game: GameState, fig: Fig) -> bool:
    """Rien à perdre: no friend (standing, same band) is less than 5 in away (D14)."""
    return not any(f.id != fig.id and f.side == "survivors" and f.band == fig.band
                   and f.standing and game.distance(fig.id, f.id) < ALONE_INCHES - 1e-9
                   for f in game.figures.values())


def attack_spec(game: GameState, attacker: Fig, target: Fig, mode: Mode, weapon: str | None,
                malus: int = 0) -> AttackDie:
    alone = attacker.has("rien_a_perdre") and _alone(game, attacker)
    return die_for(attacker, target, mode, weapon, catalog=game.catalog,
                   settings=game.settings, alone=alone, malus=malus)


def die_for(attacker: Fig, target: Fig, mode: Mode, weapon: str | None, *, catalog: Catalog,
            settings: Settings, alone: bool = False, malus: int = 0) -> AttackDie:
    """One attack die of `attacker` on `target` with every modifier that applies (D26)."""
    bonus = -malus
    if weapon is not None and not attacker.is_zombie:
        bonus += catalog.equipment[weapon].roll_bonus
    if mode == "shoot" and (attacker.has("bon_viseur") or attacker.has("tireur_emerite")):
        bonus += 1
    if mode == "melee" and attacker.has("cogneur"):
        bonus += 1
    if alone and attacker.has("rien_a_perdre"):
        bonus += 1
    save: int | None
    save_bonus, reroll = 0, False
    if target.is_zombie:
        save = 5 if mode == "shoot" else 6
    elif target.side == "survivors" and mode == "melee":
        save = 5
        standard = settings.protection_effects == "standard"
        save_bonus = 1 if standard and target.items.get("couvercle_de_poubelle") else 0
        reroll = target.has("combattant")
    elif target.side == "survivors":
        rule = settings.variant_survivor_shooting_save
        save = None if rule == "none" else int(rule)
        reroll = target.has("insensible")
    else:
        save = None
    return AttackDie(mode=mode, to_hit=defence_of(target, settings), bonus=bonus, save=save,
                     save_bonus=save_bonus, reroll_save=reroll,
                     retry_on_save=mode == "melee" and attacker.has("vengeur")
                     and target.is_zombie, attacker=attacker.id, target=target.id)


def attack(game: GameState, attacker: Fig, target: Fig, dice: int, mode: Mode,
           weapon: str | None, *, free: bool = False, malus: int = 0) -> None:
    """Roll `dice` attack dice one by one; each unsaved hit is a wound (D5).

    The dice stop when the target or the attacker is gone, or the target is out of action
    (R4): the dice left are lost. Only where a fallen figure can be finished off
    (`finished_off`) does one put down by one die take the next hits as wounds (D17).
    `free` marks a free attack (leaving a melee, violent): it earns no contamination and
    no violent reply.
    """
    for _ in range(dice):
        if not attacker.on_table:
            return
        if not target.standing and not (
                target.status == "down" and attacker.is_zombie and finished_off(game, target)):
            return
        spec = attack_spec(game, attacker, target, mode, weapon, malus)
        first = game.rolls_made()
        outcome = drive(attack_die(spec), game)
        if outcome == "miss" and mode == "shoot" and game.natural(first) == 1:
            _friendly_fire(game, attacker, target)
        elif outcome == "miss":
            game.note(Message("engine.misses", {"who": words.who(game, attacker),
                                                "target": words.who(game, target)}))
        elif outcome == "saved":
            game.note(Message("engine.saves", {"who": words.who(game, target)}))
        else:
            wound(game, attacker, target, mode, free=free)


def _friendly_fire(game: GameState, shooter: Fig, target: Fig) -> None:
    """friendly_fire = "on_natural_1" (D26): a natural 1 shooting at a zombie in base contact
    with a survivor wounds that survivor instead, who saves on 5+ as in melee."""
    friends = [f for f in game.figures.values()
               if f.side == "survivors" and f.standing and not shooter.enemy_of(f)
               and game.in_contact(f.id, target.id)]
    if game.settings.friendly_fire != "on_natural_1" or not target.is_zombie or not friends:
        game.note(Message("engine.misses", {"who": words.who(game, shooter),
                                            "target": words.who(game, target)}))
        return
    victim = min(friends, key=lambda f: (game.distance(shooter.id, f.id), f.id))
    game.note(Message("engine.friendly_fire", {"victim": words.who(game, victim)}))
    if succeeds(game.roll(Roll("save 5+ (friendly fire)", victim.id, Message(
            "engine.purpose.save_friendly_fire", {"n": 5}), kind=RollKind.SAVE, need=5)), 5):
        game.note(Message("engine.saves", {"who": words.who(game, victim)}))
        return
    wound(game, shooter, victim, "shoot", free=True)


def finished_off(game: GameState, fig: Fig) -> bool:
    """May a down figure be attacked, and die of an unsaved wound? A band's survivor only
    with `down_survivor_death = unsaved_wound` (R4: out of action is not death); a civilian
    (escorted, helpless, an ally), who is none of the rulebook's survivors, always."""
    return fig.side != "survivors" or game.settings.down_survivor_death == "unsaved_wound"


def wound(game: GameState, attacker: Fig, target: Fig, mode: Mode, *, free: bool = False) -> None:
    if target.is_zombie:
        target.status = "removed"
        target.downed_by = attacker.id
        game.moved()
        game.note(Message("engine.kills", {"who": words.who(game, attacker),
                                           "target": words.who(game, target)}))
        if attacker.has("extremiste") and any(
                f.is_zombie and f.on_table for f in game.figures.values()):
            game.offer(Extremiste(game.side_of(attacker), attacker.id))
        return
    if target.status == "down":
        if finished_off(game, target):
            die(game, target, attacker)
        return
    if target.has("robuste") and target.wounds_ignored == 0:
        target.wounds_ignored = 1
        game.note(Message("engine.shrugs_off", {"who": words.who(game, target),
                                                "skill": words.skill(game, "robuste")}))
        return
    target.pv -= 1
    game.note(Message("engine.loses_pv", {"who": words.who(game, target),
                                          "left": max(target.pv, 0)}))
    if target.pv <= 0:
        target.pv = 0
        target.status = "down"
        target.downed_by = attacker.id
        game.moved()
        game.note(Message("engine.down", {"who": words.who(game, target)}))
        panic.after_fall(game, target, "down")
        war = game.mode == "zombie_war"
        if attacker.is_zombie and not free and (war or game.pools["zombies"] >= 1) and (
                game.referee is None or game.referee.may_contaminate(game, attacker, target)):
            game.offer(Contamination(game.controller if war and game.controller else "zombies",
                                     attacker.id, target.id))
        return
    panic.check_half_pv(game, target, target.pv + 1)
    if mode == "melee" and attacker.is_zombie and target.has("violent") and not free:
        game.replies.append((target.id, attacker.id))


def hit_back(game: GameState) -> None:
    """Violent: once the enemy's attack activation is resolved, a figure that lost PV in it
    and still stands strikes the zombie that wounded it, once, at -1 (D14)."""
    replies, game.replies = game.replies, []
    for fid, zid in dict.fromkeys(replies):
        fig, zombie = game.figures[fid], game.figures[zid]
        if fig.standing and zombie.on_table:
            game.note(Message("engine.hits_back", {"who": words.who(game, fig),
                                                   "target": words.who(game, zombie),
                                                   "skill": words.skill(game, "violent")}))
            attack(game, fig, zombie, 1, "melee", free_weapon(game, fig), free=True, malus=1)


def die(game: GameState, fig: Fig, killer: Fig | None) -> None:
    """A survivor dies; friends within 4 in, measured now, test panic (D18)."""
    fig.downed_by = killer.id if killer else fig.downed_by
    game.note(Message("engine.dies", {"who": words.who(game, fig)}))
    game.pending = [w for w in game.pending if w.target_id != fig.id]
    panic.after_fall(game, fig, "died")
    fig.status = "dead"
    inventory.drop_all(game, fig, "dead")
    game.moved()


def free_weapon(game: GameState, fig: Fig) -> str | None:
    """The melee weapon a survivor strikes a free attack with: its best "+N" (D1)."""
    if fig.is_zombie:
        return None
    melee = [w for w, n in fig.items.items()
             if n and game.catalog.equipment[w].kind == "melee"]
    return max(melee, key=lambda w: game.catalog.equipment[w].roll_bonus, default=None)



# --- shooting ----------------------------------------------------------------------------


def shooting_answer(game: GameState, fig: Fig, reach: float) -> dict[str, Any]:
    """Candidates and legal targets for a shot, kept until something moves."""
    key = ("shoot", fig.id, reach, game.version())
    answer: dict[str, Any] | None = game.plans.get(key)
    if answer is None:
        if game.referee is not None:
            reach *= game.referee.range_factor(game)
        if game.mode == "zombie_war":
            answer = _war_targets(game, fig, reach)
        else:
            answer = shooting_targets(game.space(), fig.id, reach,
                                      _weather(game, fig, _sight_of_zombies(game)[fig.id]))
        game.plans[key] = answer
    return answer


def _weather(game: GameState, fig: Fig, seen: dict[str, Any]) -> dict[str, Any]:
    """Fog and night (the scenario's referee) hide targets the geometry would show."""
    if game.referee is None:
        return seen
    hidden = Sight(False, 0.0)
    return {t: s if not s.visible or game.referee.sight_veto(
        game, fig, game.figures[t], game.distance(fig.id, t)) is None else hidden
        for t, s in seen.items()}


def _war_targets(game: GameState, fig: Fig, reach: float) -> dict[str, Any]:
    """Two bands (D23): the nearest enemy in sight (zombie or rival survivor) may be shot,
    or any zombie in sight within 2 in of one of the shooter's own band."""
    enemies = [f for f in game.figures.values() if f.on_table and fig.enemy_of(f)]
    seen = _weather(game, fig, game.space().sight_table([fig.id], [e.id for e in enemies])[
        fig.id])
    candidates = sorted((game.distance(fig.id, e.id), e.id) for e in enemies
                        if seen[e.id].visible and game.distance(fig.id, e.id) <= reach + 1e-9)
    friends = [f.id for f in game.figures.values()
               if f.side == "survivors" and f.band == fig.band and f.on_table]
    legal: list[str] = []
    why: dict[str, str] = {}
    for d, target in candidates:
        threat = game.figures[target].is_zombie and any(
            game.distance(target, f) <= THREAT_INCHES + 1e-9 for f in friends)
        if d <= candidates[0][0] + 1e-6:
            legal.append(target)
            why[target] = f"nearest enemy in sight and range ({d:.2f} in)"
        elif threat:
            legal.append(target)
            why[target] = "threatens a survivor of the band (within 2 in)"
    return {"candidates": [t for _, t in candidates], "legal": legal, "why": why}


_OUT_OF_REACH = Sight(False, 0.0)  # not measured: no weapon of the shooter reaches it


def _sight_of_zombies(game: GameState) -> dict[str, dict[str, Any]]:
    """What every armed survivor sees of every zombie its weapons reach (the others are
    out of reach, and a shot needs sight and reach): one batch until something moves."""
    on = [f for f in game.figures.values() if f.on_table]
    factor = game.referee.range_factor(game) if game.referee is not None else 1.0
    shooters = [(f.id, max(float(game.catalog.equipment[w].range or 0)
                           for w in guns) * factor)
                for f in on if f.side == "survivors"
                for guns in [[w for w, n in f.items.items() if n and game.catalog.equipment[
                    w].kind in ("shooting", "throwing")]] if guns]
    # keyed by the shooters and their reach too: a survivor who takes up a gun shoots before
    # anything moves
    key = ("sight", game.version(), tuple(shooters))
    table: dict[str, dict[str, Any]] | None = game.plans.get(key)
    if table is None:
        zombies = [f.id for f in on if f.is_zombie]
        pairs = [(s, z) for s, reach in shooters
                 for z, d in zip(zombies, game.distances_from(s, zombies), strict=True)
                 if d <= reach + 1e-9]
        seen = dict(zip(pairs, game.space().sight_pairs(pairs), strict=True))
        table = {s: {z: seen.get((s, z), _OUT_OF_REACH) for z in zombies} for s, _ in shooters}
        game.plans[key] = table
    return table


def shooting_legal(game: GameState, fig: Fig, weapon: str) -> list[str]:
    item = game.catalog.equipment[weapon]
    if item.range is None or not has_ammo(game, fig, weapon):
        return []
    return list(shooting_answer(game, fig, item.range)["legal"])


def _ammo_item(game: GameState, weapon: str) -> str | None:
    item = game.catalog.equipment[weapon]
    if item.kind == "throwing":
        return weapon
    return item.ammo if game.settings.track_ammunition else None


def has_ammo(game: GameState, fig: Fig, weapon: str) -> bool:
    ammo = _ammo_item(game, weapon)
    return ammo is None or fig.units.get(ammo, 0) > 0


def shot_dice(game: GameState, fig: Fig, weapon: str) -> int:
    """Dice one shot action rolls: the weapon's attacks per AP, at most the rounds left."""
    item = game.catalog.equipment[weapon]
    per_ap = item.attacks_per_ap
    if weapon == "cocktail_molotov" and fig.has("molotov"):
        per_ap = 2
    ammo = _ammo_item(game, weapon)
    if ammo is not None:
        per_ap = min(per_ap, fig.units.get(ammo, 0))
    return per_ap


def fire(game: GameState, fig: Fig, target: Fig, weapon: str, shots: int) -> None:
    """Shoot or throw `shots` dice one at a time, each using its round or cocktail.

    Once the target is gone the dice left are not rolled; a second Molotov cocktail may
    then be thrown at another legal target (D14: priority is checked for each cocktail).
    """
    ammo = _ammo_item(game, weapon)
    for done in range(shots):
        if not target.on_table:
            if ammo == weapon and has_ammo(game, fig, weapon) and shooting_legal(
                    game, fig, weapon):
                game.pending.insert(0, ThrowAgain(game.side_of(fig), fig.id, weapon,
                                                  shots - done))
            return
        if ammo is not None:
            spend(game, fig, ammo)
        attack(game, fig, target, 1, "shoot", weapon)


def spend(game: GameState, fig: Fig, item: str, uses: int = 1) -> None:
    """Use up rounds, cocktails or heals; an item with nothing left is discarded (D15)."""
    units = fig.units.get(item, 0) - uses
    per_item = game.catalog.equipment[item].units or 1
    left = -(-units // per_item)
    fig.units = fig.counted("units", item, units if left > 0 else 0)
    fig.items = fig.counted("items", item, left)



# --- contamination -----------------------------------------------------------------------


def resist_bonus(game: GameState, target: Fig) -> int:
    """+1 to resist a contamination with a casque (protection_effects "standard")."""
    return 1 if (target.items.get("casque")
                 and game.settings.protection_effects == "standard") else 0


def contamination_chance(game: GameState, target: Fig) -> float:
    """The exact chance a contamination of the down `target` works (D36): a die against
    their D, then their die to resist on 4+ fails."""
    d, bonus = defence_of(target, game.settings), resist_bonus(game, target)
    bite = sum(succeeds(face, d) for face in range(1, 7)) / 6
    resist = sum(succeeds(face, 4, bonus) for face in range(1, 7)) / 6
    return bite * (1 - resist)


def contaminate(game: GameState, zombie: Fig, target: Fig) -> None:
    """A zombie's contamination of the down `target` (D36): its roll against their D, then
    their roll to resist on 4+; a contaminated survivor rises as a zombie of its class."""
    d = defence_of(target, game.settings)
    if not succeeds(game.roll(Roll(f"contaminate vs {d}+", zombie.id, Message(
            "engine.purpose.contaminate", {"n": d}), kind=RollKind.CONTAMINATION, need=d)), d):
        game.note(Message("engine.contamination_fails", {"who": words.who(game, zombie),
                                                         "target": words.who(game, target)}))
        return
    bonus = resist_bonus(game, target)
    if succeeds(game.roll(Roll("resist contamination 4+", target.id, Message(
            "engine.purpose.resist", {"n": 4}), kind=RollKind.RESIST, need=4, modifier=bonus)),
            4, bonus):
        game.note(Message("engine.resists", {"who": words.who(game, target)}))
        return
    z = next((z for z in game.catalog.zombies.values() if z.from_class == target.cls),
             game.catalog.zombies["rodeur"])
    game.note(Message("engine.rises", {"who": words.who(game, target),
                                       "zombie": words.zombie_kind(game, z.id)}))
    target.downed_by = zombie.id
    if game.settings.contamination_counts_as_death:
        panic.after_fall(game, target, "contaminated")
    target.origin = target.kind
    target.side, target.kind, target.name, target.band = "zombies", z.id, z.name, "zombies"
    target.name_en = z.name_en
    target.move, target.attack, target.defense, target.wounds, target.pv = (
        z.move, z.attack, z.defense, z.wounds, z.wounds)
    if game.settings.contaminated_equipment == "dropped":
        inventory.drop_all(game, target, "contaminated")
    target.skills, target.items, target.units = [], {}, {}
    target.status, target.moves, target.panic_malus, target.panicked = "standing", 0, 0, False
    game.moved()

