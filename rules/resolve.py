"""Carrying out actions: moves, attacks, wounds, healing, doors; each one's own rules.

`plan_move` and the `check_*` functions refuse what a rule forbids (used by `rules.legal`);
`carry_out` then changes the game, rolling dice through `GameState.roll`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import shapely

from geometry.polyline import point_along
from geometry.space import Sight
from geometry.units import CONTACT_INCHES as CONTACT
from i18n import Message
from rules import inventory, panic, routes, words
from rules.actions import (
    Action,
    Carry,
    Contaminate,
    Decline,
    Door,
    EndActivations,
    Exit,
    Give,
    Heal,
    Interact,
    Melee,
    Move,
    Pass,
    Revive,
    Shoot,
    Special,
    Take,
    UseSkill,
    actor,
)
from rules.arbitration import THREAT_INCHES, shooting_targets
from rules.catalog import Catalog
from rules.combat import AttackDie, Mode, attack_die, current_defence
from rules.dice import Roll, drive, succeeds
from rules.errors import IllegalActionError
from rules.legal import (
    REACH_INCHES,
    cost,
    dice_cap,
    is_hold,
    melee_dice,
    most_melee_ap,
    weapon_of,
    weapon_rate,
)
from rules.settings import Settings

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["carry_out", "plan_move", "attack", "defence_of", "has_ammo", "shooting_answer"]

Point = tuple[float, float]
CONTACT_GAP = 0.01  # moving "toward" a figure stops this far from its base: in contact
DISCRETE_INCHES = 3.0
ALONE_INCHES = 5.0  # rien à perdre
HEAL_PV = 2
# one die or several: the words differ (False, True)
_SHOOTS = (Message("engine.shoots_one"), Message("engine.shoots"))
_THROWS = (Message("engine.throws_one"), Message("engine.throws"))
_ATTACKS = (Message("engine.attacks_one"), Message("engine.attacks"))
_ATTACKS_WITH = (Message("engine.attacks_with_one"), Message("engine.attacks_with"))
_DOOR_NOTES = (Message("engine.closes_door"), Message("engine.opens_door"))  # by open
_NO_HEALS = (Message("refusal.no_heals_contact"), Message("refusal.no_heals_any"))  # anywhere
_ENDS = {"survivors": Message("engine.end_activations.survivors"),
         "zombies": Message("engine.end_activations.zombies"),
         "band": Message("engine.end_activations.band")}
_PASSES = {"survivors": Message("engine.passes.survivors"),
           "zombies": Message("engine.passes.zombies"),
           "band": Message("engine.passes.band")}


def _fail(message: Message, where: str = "action") -> IllegalActionError:
    return IllegalActionError(message, where)


def _missing(game: GameState, figure_id: str, where: str) -> IllegalActionError:
    """A figure named in an action that is not there to act on: gone from the table, or
    unknown to the game (the id is kept in the parameters, for programs)."""
    if figure_id in game.figures:
        return _fail(Message("refusal.not_on_table", {"who": words.who(game, figure_id)}),
                     where)
    return _fail(Message("refusal.unknown_figure", {"id": figure_id}), where)


# --- movement ----------------------------------------------------------------------------


def _overlaps_friend(game: GameState, fig: Fig, p: Point, ignore: tuple[str, ...] = ()) -> str:
    for other in game.figures.values():
        if other.id == fig.id or other.id in ignore or not other.on_table:
            continue
        gap = math.dist(p, other.centre) - (fig.radius + other.radius)
        if gap < -1e-9:
            return other.id
    return ""


def _discrete_blocks(game: GameState, fig: Fig, target: Fig) -> bool:
    """Discrète: a zombie may enter her base contact only from less than 3 in (D14)."""
    return (fig.is_zombie and target.has("discrete")
            and game.distance(fig.id, target.id) >= DISCRETE_INCHES - 1e-9)


def plan_move(game: GameState, fig: Fig, to: Point | None, toward: str | Point | None,
              max_len: float, ignore: tuple[str, ...] = ()) -> tuple[Point, float]:
    """Where a move ends and how long it is; refuses an impossible move with the reason."""
    key = (fig.id, fig.x, fig.y, to, toward, max_len, ignore, game.version())
    cached: tuple[Point, float] | None = game.plans.get(key)
    if cached is not None:
        return cached
    result = _plan(game, fig, to, toward, max_len, ignore)
    game.plans[key] = result
    return result


def _plan(game: GameState, fig: Fig, to: Point | None, toward: str | Point | None,
          max_len: float, ignore: tuple[str, ...]) -> tuple[Point, float]:
    space = game.space()
    if (to is None) == (toward is None):
        raise _fail(Message("refusal.move_needs_goal"))
    if to is not None and (float(to[0]), float(to[1])) == fig.centre:
        return fig.centre, 0.0  # standing still (R1): no route to find
    if to is not None:
        goal = (float(to[0]), float(to[1]))
        path = space.path(fig.id, goal)
        if not path.reachable:
            raise routes.unreachable(game, fig, goal, path,
                                     max_len if max_len > 0 else float(fig.move))
        if path.length > max_len + 1e-6:
            if max_len <= 0:
                raise _fail(Message("refusal.cannot_move", {"who": words.who(game, fig)}),
                            "action.to")
            raise routes.too_far(game, fig, path, max_len)
        limit = _limit(game, fig, path.waypoints)
        if limit is not None and path.length > limit[0] + 1e-6:
            raise _fail(Message("refusal.must_stop", {
                "who": words.who(game, fig), "d": float(limit[0]), "why": limit[1]}),
                "action.to")
        blocker = _overlaps_friend(game, fig, goal, ignore)
        if blocker:
            raise _fail(Message("refusal.on_a_base", {
                "who": words.who(game, fig), "other": words.who(game, blocker)}), "action.to")
        for other in game.figures.values():
            near = math.dist(goal, other.centre) - fig.radius - other.radius <= CONTACT
            if near and other.on_table and fig.enemy_of(other) and _discrete_blocks(
                    game, fig, other):
                raise _fail(Message("refusal.discrete", {
                    "who": words.who(game, fig), "target": words.who(game, other),
                    "skill": words.skill(game, "discrete")}), "action.to")
        return goal, path.length
    goals = goals_toward(game, fig, toward)
    check_toward(game, fig, toward, goals)
    for goal in goals:
        path = space.path(fig.id, goal)
        if path.reachable:
            limit = _limit(game, fig, path.waypoints)
            return _walk(game, fig, path.waypoints,
                         max_len if limit is None else min(max_len, limit[0]), ignore)
    # Only figures bar the way: go along the terrain route until an enemy base is in the way.
    finder = space.pathfinder(fig.radius)
    for goal in goals:
        path = finder.shortest(fig.centre, goal)
        if path.reachable:
            limit = _limit(game, fig, path.waypoints)
            return _walk(game, fig, path.waypoints,
                         max_len if limit is None else min(max_len, limit[0]), ignore,
                         stop_at_enemies=True)
    return fig.centre, 0.0


def _limit(game: GameState, fig: Fig, route: tuple[Point, ...]
           ) -> tuple[float, str | Message] | None:
    """The scenario's limit on a move along `route` (a dark or taken-over building)."""
    return None if game.referee is None else game.referee.move_limit(game, fig, route)


def may_go_toward(game: GameState, fig: Fig, goals: list[Point]) -> bool:
    """Whether the terrain leaves a way to one of `goals` (figures aside)."""
    return game.space().same_region(fig.radius, fig.centre, goals)


def check_toward(game: GameState, fig: Fig, toward: str | Point | None, goals: list[Point]) -> None:
    """A move toward something must at least be possible round the terrain."""
    if not may_go_toward(game, fig, goals):
        assert toward is not None
        raise routes.no_way_toward(game, fig, toward, goals[0] if goals else None, fig.move)


def _walk(game: GameState, fig: Fig, route: tuple[Point, ...], max_len: float,
          ignore: tuple[str, ...], stop_at_enemies: bool = False) -> tuple[Point, float]:
    """The furthest legal spot at most `max_len` along `route` (never on another base)."""
    walk = min(max_len, sum(math.dist(a, b) for a, b in zip(route, route[1:], strict=False)))
    if stop_at_enemies:
        step, free = 0.0, 0.0
        while step <= walk:
            if _overlaps_friend(game, fig, point_along(route, step), ignore):
                break
            free, step = step, step + 0.1
        walk = free
    end = point_along(route, walk)
    while walk > 0 and _overlaps_friend(game, fig, end, ignore):
        walk = max(walk - 0.25, 0.0)
        end = point_along(route, walk)
    if walk <= 0:
        return fig.centre, 0.0
    return (float(end[0]), float(end[1])), walk


def goals_toward(game: GameState, fig: Fig, toward: str | Point | None) -> list[Point]:
    """Where to aim: the point, or spots in base contact around the figure, nearest first."""
    if not isinstance(toward, str):
        assert toward is not None
        return [(float(toward[0]), float(toward[1]))]
    target = game.figures.get(toward)
    if target is None or not target.on_table:
        raise _missing(game, toward, "action.toward")
    gap = CONTACT_GAP
    if fig.enemy_of(target) and _discrete_blocks(game, fig, target):
        gap = 0.3  # stops short of her base
    reach = fig.radius + target.radius + gap
    base = math.atan2(fig.y - target.y, fig.x - target.x)
    out = []
    for k in (0, 1, -1, 2, -2, 3, -3, 4):
        a = base + k * math.pi / 4
        out.append((target.x + reach * math.cos(a), target.y + reach * math.sin(a)))
    return out


def _leave_melee(game: GameState, fig: Fig, end: Point) -> None:
    """Each enemy left behind gets a free attack first (D1), unless the figure is agile."""
    if not game.settings.leave_melee_free_attack or fig.has("agile"):
        return
    for enemy in list(game.figures.values()):
        if not (enemy.standing and fig.enemy_of(enemy) and game.in_contact(fig.id, enemy.id)):
            continue
        after = math.dist(end, enemy.centre) - fig.radius - enemy.radius
        if after <= CONTACT + 1e-9:
            continue
        game.note(Message("engine.leaves_melee", {"who": words.who(game, fig),
                                                  "enemy": words.who(game, enemy)}))
        status = fig.status
        attack(game, enemy, fig, 1, "melee", free_weapon(game, enemy), free=True)
        if fig.status != status:
            return


def do_move(game: GameState, fig: Fig, act: Move | Carry, max_len: float, *,
            ignore: tuple[str, ...] = ()) -> bool:
    """Move `fig` (free moves too: every move counts for D11); False if it fell on the way."""
    end, length = plan_move(game, fig, act.to, act.toward, max_len, ignore)
    if length == 0.0:
        fig.moves += 1
        if is_hold(game, act):
            game.note(Message("engine.stands_still", {"who": words.who(game, fig)}))
        else:
            game.note(Message("engine.way_barred", {"who": words.who(game, fig)}))
        return True
    status = fig.status
    _leave_melee(game, fig, end)
    if fig.status != status:
        return False
    who = words.who(game, fig)
    fig.x, fig.y = end
    fig.moves += 1
    game.moved()
    if fig.moves > 2:
        game.note(Message("engine.moves_tired", {
            "who": who, "d": float(length), "n": fig.moves,
            "defence": defence_of(fig, game.settings)}))
    else:
        game.note(Message("engine.moves", {"who": who, "d": float(length)}))
    return True


# --- attacks -----------------------------------------------------------------------------


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
            "engine.purpose.save_friendly_fire", {"n": 5}))), 5):
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
            game.offer({"kind": "extremiste", "figure": attacker.id,
                        "side": game.side_of(attacker)})
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
            game.offer({"kind": "contaminate", "figure": attacker.id, "target": target.id,
                        "side": game.controller if war and game.controller else "zombies"})
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
    game.pending = [w for w in game.pending if w.get("target") != fig.id]
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


def check_melee(game: GameState, fig: Fig, act: Melee) -> None:
    target = game.figures.get(act.target)
    if target is None or not target.on_table:
        raise _missing(game, act.target, "action.target")
    if not fig.enemy_of(target):
        raise _fail(Message("refusal.not_an_enemy", {"who": words.who(game, fig),
                                                     "target": words.who(game, target)}),
                    "action.target")
    if target.status == "down" and not finished_off(game, target):
        raise _fail(Message("refusal.down_not_attacked", {"target": words.who(game, target)}),
                    "action.target")
    weapon = weapon_of(game, fig, act.weapon, ("melee",))
    reach = CONTACT
    if weapon is not None and (game.catalog.equipment[weapon].reach or 0) > 0:
        reach = REACH_INCHES
    d = game.distance(fig.id, target.id)
    if d > reach + 1e-9:
        params = {"who": words.who(game, fig), "target": words.who(game, target), "d": d}
        if reach == CONTACT:
            raise _fail(Message("refusal.melee_not_in_contact", params), "action.target")
        raise _fail(Message("refusal.melee_out_of_reach", {
            **params, "weapon": words.item(game, weapon), "reach": float(reach)}),
            "action.target")
    dice = melee_dice(game, fig, act)
    if game.settings.melee_ap_cap == "one":
        wanted = 1 if weapon is None else game.catalog.equipment[weapon].ap_cost
        if act.ap != wanted:
            raise _fail(Message("refusal.one_attack", {"ap": wanted}), "action.ap")
        return
    too_many = Message("refusal.too_many_dice", {
        "who": words.who(game, fig), "a": fig.attack, "ap": act.ap, "dice": dice})
    if game.settings.two_attacks_per_ap == "within_attack" and dice > max(fig.attack, 1):
        raise _fail(too_many, "action.ap")
    most = most_melee_ap(game, fig, weapon)
    if act.ap > most:
        if weapon_rate(game, fig, weapon)[0] == 1:
            raise _fail(too_many, "action.ap")
        raise _fail(Message("refusal.too_many_dice_weapon", {
            "who": words.who(game, fig), "cap": dice_cap(game, fig, weapon),
            "weapon": words.item(game, weapon), "a": fig.attack, "most": most, "ap": act.ap}),
            "action.ap")


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


def _sight_of_zombies(game: GameState) -> dict[str, dict[str, Any]]:
    """What every armed survivor sees of every zombie: one batch until something moves."""
    on = [f for f in game.figures.values() if f.on_table]
    shooters = [f.id for f in on if f.side == "survivors" and any(
        n and game.catalog.equipment[w].kind in ("shooting", "throwing")
        for w, n in f.items.items())]
    # keyed by the shooters too: a survivor who takes up a gun shoots before anything moves
    key = ("sight", game.version(), tuple(shooters))
    table: dict[str, dict[str, Any]] | None = game.plans.get(key)
    if table is None:
        table = game.space().sight_table(shooters, [f.id for f in on if f.is_zombie])
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


def check_shoot(game: GameState, fig: Fig, act: Shoot) -> None:
    weapon_of(game, fig, act.weapon, ("shooting", "throwing"))
    if not has_ammo(game, fig, act.weapon):
        raise _fail(Message("refusal.no_ammo", {"who": words.who(game, fig),
                                                "weapon": words.item(game, act.weapon)}),
                    "action.weapon")
    item = game.catalog.equipment[act.weapon]
    answer = shooting_answer(game, fig, float(item.range or 0))
    if act.target not in answer["legal"]:
        target = game.figures.get(act.target)
        if target is None or not target.on_table:
            raise _missing(game, act.target, "action.target")
        who, aim = words.who(game, fig), words.who(game, target)
        if act.target in answer["candidates"]:
            why = answer["why"]
            nearest = [words.who(game, z) for z in answer["legal"]
                       if why[z].startswith("nearest")]
            threats = [words.who(game, z) for z in answer["legal"]
                       if not why[z].startswith("nearest")]
            if threats:
                raise _fail(Message("refusal.shoot_priority", {
                    "target": aim, "nearest": nearest, "threats": threats}), "action.target")
            raise _fail(Message("refusal.shoot_priority_nearest", {
                "target": aim, "nearest": nearest}), "action.target")
        reach = float(item.range or 0)
        if game.referee is not None:
            reach *= game.referee.range_factor(game)
        d = game.distance(fig.id, target.id)
        if not fig.enemy_of(target):
            raise _fail(Message("refusal.not_an_enemy", {"who": who, "target": aim}),
                        "action.target")
        if d > reach + 1e-9:
            raise _fail(Message("refusal.shoot_out_of_range", {
                "who": who, "target": aim, "d": d, "range": reach,
                "weapon": words.item(game, act.weapon)}), "action.target")
        raise _fail(Message("refusal.shoot_not_seen", {"who": who, "target": aim}),
                    "action.target")


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


def do_shoot(game: GameState, fig: Fig, act: Shoot) -> None:
    target = game.figures[act.target]
    shots = shot_dice(game, fig, act.weapon)
    throws = game.catalog.equipment[act.weapon].kind == "throwing"
    code = (_THROWS if throws else _SHOOTS)[shots > 1]
    game.note(Message(code.code, {"who": words.who(game, fig), "target": words.who(game, target),
                                  "weapon": words.item(game, act.weapon), "n": shots}))
    fire(game, fig, target, act.weapon, shots)


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
                game.pending.insert(0, {"kind": "throw_again", "figure": fig.id,
                                        "weapon": weapon, "dice": shots - done,
                                        "side": game.side_of(fig)})
            return
        if ammo is not None:
            spend(game, fig, ammo)
        attack(game, fig, target, 1, "shoot", weapon)


# --- care and the rest -------------------------------------------------------------------


def spend(game: GameState, fig: Fig, item: str, uses: int = 1) -> None:
    """Use up rounds, cocktails or heals; an item with nothing left is discarded (D15)."""
    fig.units[item] = fig.units.get(item, 0) - uses
    per_item = game.catalog.equipment[item].units or 1
    left = -(-fig.units[item] // per_item)
    if left > 0:
        fig.items[item] = left
    else:
        fig.items.pop(item, None)
        fig.units.pop(item, None)


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
        raise _fail(Message(said.code, {"who": words.who(game, fig),
                                        "target": words.who(game, target)}), "action")
    raise _fail(Message("refusal.no_heals", {"who": words.who(game, fig)}), "action")


def _raises_itself(fig: Fig, target: Fig) -> bool:
    """Héroïque: a down figure may heal itself with its own item (D14)."""
    return target.id == fig.id and fig.has("heroique")


def check_heal(game: GameState, fig: Fig, act: Heal) -> None:
    target = _friend(game, fig, act.target)
    if target.status == "down" and not fig.has("chirurgien") and not _raises_itself(fig, target):
        raise _fail(Message("refusal.heal_down", {"target": words.who(game, target)}),
                    "action.target")
    if target.id == fig.id and not game.settings.self_heal:
        raise _fail(Message("refusal.no_self_heal", {"who": words.who(game, fig)}),
                    "action.target")
    if target.standing and target.pv >= target.wounds:
        raise _fail(Message("refusal.heal_full", {"target": words.who(game, target),
                                                  "pv": target.wounds}), "action.target")
    _heal_source(game, fig, target)


def _revive_source(game: GameState, fig: Fig, target: Fig) -> Fig:
    """With revive_needs_healing_item: the reviver's item, else the down friend's (D29)."""
    for owner in (fig, target):
        if owner.units.get("soins", 0) > 0:
            return owner
    raise _fail(Message("refusal.revive_needs_heals", {"who": words.who(game, fig),
                                                       "target": words.who(game, target)}),
                "action")


def check_revive(game: GameState, fig: Fig, act: Revive) -> None:
    target = _friend(game, fig, act.target)
    if target.id == fig.id:
        raise _fail(Message("refusal.revive_self", {"who": words.who(game, fig)}),
                    "action.target")
    if target.status != "down":
        raise _fail(Message("refusal.not_down", {"target": words.who(game, target)}),
                    "action.target")
    if game.settings.revive_needs_healing_item:
        _revive_source(game, fig, target)


def check_carry(game: GameState, fig: Fig, act: Carry) -> None:
    target = _friend(game, fig, act.target)
    if target.status != "down":
        raise _fail(Message("refusal.carry_not_down", {"target": words.who(game, target)}),
                    "action.target")
    plan_move(game, fig, act.to, act.toward, carry_length(game, fig), ignore=(target.id,))


def carry_length(game: GameState, fig: Fig) -> float:
    penalty = game.settings.carry_move_penalty
    return 1.0 if penalty == "per_inch" else max(fig.move - int(penalty), 0)


def _friend(game: GameState, fig: Fig, target_id: str) -> Fig:
    target = game.figures.get(target_id)
    if target is None or not target.on_table:
        raise _missing(game, target_id, "action.target")
    if target.side != "survivors" or target.band != fig.band:
        raise _fail(Message("refusal.not_a_friend", {"who": words.who(game, fig),
                                                     "target": words.who(game, target)}),
                    "action.target")
    if target.id != fig.id and not game.in_contact(fig.id, target.id):
        raise _fail(Message("refusal.not_in_contact", {
            "who": words.who(game, fig), "target": words.who(game, target),
            "d": game.distance(fig.id, target.id)}), "action.target")
    return target


def check_exchange(game: GameState, fig: Fig, act: Interact | Take | Give) -> None:
    """Opening a crate, taking an item from a marker, giving one to a friend (D31)."""
    who = words.who(game, fig)
    if not fig.standing:
        raise _fail(Message("refusal.must_stand", {"who": who}), "action")
    if isinstance(act, Give):
        target = _friend(game, fig, act.target)
        if target.id == fig.id:
            raise _fail(Message("refusal.give_self", {"who": who}), "action.target")
        if not target.standing:
            raise _fail(Message("refusal.cannot_take", {"target": words.who(game, target)}),
                        "action.target")
        if fig.items.get(act.item, 0) < 1:
            raise _fail(Message("refusal.carries_no", {
                "who": who, "item": words.item(game, act.item)}), "action.item")
        if not inventory.room_for(game, target, act.item):
            carried, allowed = inventory.load(game, target)
            raise _fail(Message("refusal.no_room", {
                "target": words.who(game, target), "item": words.item(game, act.item),
                "carried": carried, "allowed": allowed}), "action.item")
        return
    marker = inventory.check_marker(game, fig, act.marker)
    place = words.marker(game, marker)
    if isinstance(act, Interact):
        if marker["kind"] != "crate":
            raise _fail(Message("refusal.nothing_to_open", {"marker": place}),
                        "action.marker")
        return
    if marker["kind"] == "crate":
        raise _fail(Message("refusal.crate_closed", {
            "marker": place, "ap": int(marker.get("cost", 1))}), "action.marker")
    if marker.get("items", {}).get(act.item, 0) < 1:
        raise _fail(Message("refusal.not_on_marker", {
            "item": words.item(game, act.item), "marker": place}), "action.item")
    if act.drop is not None and fig.items.get(act.drop, 0) < 1:
        raise _fail(Message("refusal.carries_no", {
            "who": who, "item": words.item(game, act.drop)}), "action.drop")
    if not inventory.room_for(game, fig, act.item, act.drop):
        carried, allowed = inventory.load(game, fig)
        raise _fail(Message("refusal.too_heavy", {
            "who": who, "carried": carried, "allowed": allowed,
            "item": words.item(game, act.item)}), "action.drop")


def do_take(game: GameState, fig: Fig, act: Take) -> None:
    marker = game.markers[act.marker]
    if act.drop is not None:
        items, units = marker.setdefault("items", {}), marker.setdefault("units", {})
        per_item = game.catalog.equipment[act.drop].units
        if act.drop in fig.units:
            moved = min(fig.units[act.drop], per_item)
            units[act.drop] = units.get(act.drop, 0) + moved
            fig.units[act.drop] -= moved
            if fig.units[act.drop] <= 0:
                fig.units.pop(act.drop)
        fig.items[act.drop] -= 1
        if fig.items[act.drop] <= 0:
            fig.items.pop(act.drop)
        items[act.drop] = items.get(act.drop, 0) + 1
        game.note(Message("engine.drops", {"who": words.who(game, fig),
                                           "item": words.item(game, act.drop),
                                           "marker": words.marker(game, marker)}))
    inventory.move_item(game, marker["items"], marker.setdefault("units", {}), fig, act.item)
    game.note(Message("engine.takes", {"who": words.who(game, fig),
                                       "item": words.item(game, act.item),
                                       "marker": words.marker(game, marker)}))
    if not marker["items"]:
        del game.markers[act.marker]


def check_door(game: GameState, fig: Fig, act: Door) -> None:
    piece = next((t for t in game.terrain if t.id == act.door), None)
    if piece is None:
        raise _fail(Message("refusal.no_such_door", {"id": act.door}), "action.door")
    if piece.kind != "door":
        raise _fail(Message("refusal.not_a_door", {"piece": piece.words}), "action.door")
    gap = shapely.distance(piece.footprint, shapely.Point(fig.centre)) - fig.radius
    if gap > CONTACT + 1e-9:
        raise _fail(Message("refusal.door_too_far", {
            "who": words.who(game, fig), "door": piece.words, "d": float(gap)}), "action.door")
    if piece.open:
        for other in game.figures.values():
            if other.on_table and shapely.distance(
                    piece.footprint, shapely.Point(other.centre)) < other.radius - 1e-9:
                raise _fail(Message("refusal.doorway_blocked", {
                    "who": words.who(game, other), "door": piece.words}), "action.door")


def do_door(game: GameState, fig: Fig, act: Door) -> None:
    door = words.piece(game, act.door)
    for item in game.edit_scene().get("terrain", []):
        if item.get("id") == act.door:
            item["open"] = not item.get("open", False)
            said = _DOOR_NOTES[bool(item["open"])]
            game.note(Message(said.code, {"who": words.who(game, fig), "door": door}))
    game.reload_terrain()


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


def do_contaminate(game: GameState, zombie: Fig, target: Fig) -> None:
    d = defence_of(target, game.settings)
    if not succeeds(game.roll(Roll(f"contaminate vs {d}+", zombie.id, Message(
            "engine.purpose.contaminate", {"n": d}))), d):
        game.note(Message("engine.contamination_fails", {"who": words.who(game, zombie),
                                                         "target": words.who(game, target)}))
        return
    bonus = resist_bonus(game, target)
    if succeeds(game.roll(Roll("resist contamination 4+", target.id, Message(
            "engine.purpose.resist", {"n": 4}))), 4, bonus):
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


# --- dispatch ----------------------------------------------------------------------------


def carry_out(game: GameState, act: Action) -> None:
    from rules import skills, windows

    if game.pending:
        windows.carry_out(game, game.pending[0], act)
        return
    if isinstance(act, EndActivations):
        side = game.to_act
        game.note(words.by_side(side, _ENDS, ap=game.pools[side]))
        game.pools[side] = 0
        game.ended.append(side)
        return
    if isinstance(act, Pass):
        game.note(words.by_side(game.to_act, _PASSES, ap=game.pools[game.to_act]))
        return
    fig = game.figures[actor(act)]
    if fig.is_zombie and skills.offer_savoir(game, fig, act):
        return
    if not fig.is_zombie and windows.offer_reaction_before(game, act):
        return
    activate(game, fig, act)


def activate(game: GameState, fig: Fig, act: Action, *, paid: bool = False,
             again: bool = False) -> None:
    """Pay for and resolve one activation of `fig`, then open any windows it earns.

    `paid`: the AP were taken already (a held-back action); `again`: a reactivation
    (entraîné, tireur rapide), which cannot itself be followed by another (D14).
    """
    from rules import skills, windows

    ap = cost(game, act)
    side = game.side_of(fig)
    if not paid and not (fig.is_zombie and game.mode == "zombie_war"):
        game.pools[side] -= ap
    if fig.status == "down":
        fig.used_turn["heroique"] = 1
    resolve_action(game, fig, act)
    if fig.is_human and fig.standing and not again:
        skills.offer_reactivation(game, fig, act)
    panic.check_surrounded(game)
    if side == "survivors" and not paid:
        windows.offer_reaction(game, act)


def resolve_action(game: GameState, fig: Fig, act: Action) -> None:
    from rules import skills

    if isinstance(act, Move):
        do_move(game, fig, act, fig.move)
    elif isinstance(act, Shoot):
        do_shoot(game, fig, act)
    elif isinstance(act, Melee):
        target = game.figures[act.target]
        dice = melee_dice(game, fig, act)
        params = {"who": words.who(game, fig), "target": words.who(game, target), "n": dice}
        if act.weapon is None:
            game.note(Message(_ATTACKS[dice > 1].code, params))
        else:
            game.note(Message(_ATTACKS_WITH[dice > 1].code, {
                **params, "weapon": words.item(game, act.weapon)}))
        attack(game, fig, target, dice, "melee", act.weapon)
    elif isinstance(act, Heal):
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
    elif isinstance(act, Revive):
        target = game.figures[act.target]
        if game.settings.revive_needs_healing_item:
            spend(game, _revive_source(game, fig, target), "soins")
        target.pv = min(target.pv + HEAL_PV, target.wounds)
        target.status, target.resting = "standing", True
        game.moved()
        game.note(Message("engine.revives", {"who": words.who(game, fig),
                                             "target": words.who(game, target),
                                             "pv": target.pv}))
    elif isinstance(act, Carry):
        target = game.figures[act.target]
        start = fig.centre
        if do_move(game, fig, act, carry_length(game, fig), ignore=(target.id,)):
            _place_carried(game, fig, target, start)
    elif isinstance(act, Door):
        do_door(game, fig, act)
    elif isinstance(act, Interact):
        inventory.open_crate(game, fig, game.markers[act.marker])
    elif isinstance(act, Exit):
        fig.status = "evacuated"
        fig.exit = act.exit
        game.moved()
        game.note(Message("engine.leaves_table", {"who": words.who(game, fig),
                                                  "exit": words.exit_name(game, act.exit)}))
    elif isinstance(act, Special):
        assert game.referee is not None
        game.referee.do_special(game, fig, act)
    elif isinstance(act, Take):
        do_take(game, fig, act)
    elif isinstance(act, Give):
        target = game.figures[act.target]
        inventory.move_item(game, fig.items, fig.units, target, act.item)
        game.note(Message("engine.gives", {"who": words.who(game, fig),
                                           "item": words.item(game, act.item),
                                           "target": words.who(game, target)}))
    elif isinstance(act, Contaminate):
        do_contaminate(game, fig, game.figures[act.target])
    elif isinstance(act, UseSkill):
        skills.use(game, fig, act)
    elif isinstance(act, Decline | Pass | EndActivations):
        pass
    hit_back(game)


def _place_carried(game: GameState, carrier: Fig, carried: Fig, start: Point) -> None:
    """The carried figure ends in base contact, on the side the carrier came from."""
    dx, dy = start[0] - carrier.x, start[1] - carrier.y
    n = math.hypot(dx, dy) or 1.0
    reach = carrier.radius + carried.radius + CONTACT_GAP
    candidates = [(carrier.x + reach * dx / n, carrier.y + reach * dy / n)]
    for k in range(1, 8):
        a = math.atan2(dy, dx) + k * math.pi / 4
        candidates.append((carrier.x + reach * math.cos(a), carrier.y + reach * math.sin(a)))
    for p in candidates:
        if _legal_spot(game, carried, p):
            carried.x, carried.y = p
            game.moved()
            return
    carried.x, carried.y = start
    game.moved()


def _legal_spot(game: GameState, fig: Fig, p: Point) -> bool:
    r = fig.radius
    if not (r <= p[0] <= game.table.width - r and r <= p[1] <= game.table.depth - r):
        return False
    for piece in game.terrain:
        if piece.movement_blocking and shapely.distance(
                piece.footprint, shapely.Point(p)) < r - 1e-9:
            return False
    return not _overlaps_friend(game, fig, p)

