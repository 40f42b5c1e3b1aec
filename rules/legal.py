"""What may be done now: legality checks with a player's reason, and the legal actions.

`check` refuses an action with a message that names the rule and what to do instead
(`refusal.*` codes: "Rôdeur 3 est à 23,4 ps de l'humain le plus proche : un zombie n'agit qu'à
20 ps ou moins d'un humain"). `legal_actions` lists a finite set of legal
actions for bots and tests: moves are listed as "toward" a figure (the game finds the route),
while players may also move to any exact point, which `check` verifies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from geometry.units import CONTACT_INCHES as CONTACT
from i18n import Message
from rules import words
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
from rules.arbitration import ACTIVATION_INCHES, activatable_zombies
from rules.errors import IllegalActionError

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["activatable", "can_activate", "check", "legal_actions", "cost", "why_not_active",
           "dice_cap", "melee_dice", "most_melee_ap", "weapon_rate", "hold", "holds", "is_hold",
           "may_pass", "give_up"]

REACH_INCHES = 1.0
MOVE_TARGETS = 3  # "toward" moves listed per figure: the nearest enemies (and fallen friends)


def _fail(message: Message, where: str = "action") -> IllegalActionError:
    return IllegalActionError(message, where)


# sentences whose words agree with the side (see `words.by_side`)
_MUST_ACTIVATE = {"survivors": Message("refusal.must_activate.survivors"),
                  "zombies": Message("refusal.must_activate.zombies"),
                  "band": Message("refusal.must_activate.band")}
_NOT_YOURS = {"survivors": Message("refusal.not_your_turn.survivors"),
              "zombies": Message("refusal.not_your_turn.zombies"),
              "band": Message("refusal.not_your_turn.band")}
_WRONG_WEAPON = (Message("refusal.not_shooting_weapon"), Message("refusal.not_melee_weapon"))
_GONE = {"dead": Message("refusal.is_dead"), "evacuated": Message("refusal.evacuated"),
         "contaminated": Message("refusal.is_contaminated")}


def nearest_human(game: GameState, zombie: Fig) -> tuple[str, float] | None:
    """The human nearest a zombie on the table and its distance: the arbitration's own
    answer (`activatable_zombies`), measured once for every zombie until something moves."""
    key = ("nearest human", game.version())
    nearest: dict[str, tuple[str, float] | None] | None = game.plans.get(key)
    if nearest is None:
        nearest = activatable_zombies(game.space())[1]
        game.plans[key] = nearest
    return nearest.get(zombie.id)


def why_not_active(game: GameState, fig: Fig) -> Message | None:
    """None when the figure may be activated now, else why not."""
    if fig.is_zombie:
        if not fig.on_table:
            return Message("refusal.not_on_table", {"who": words.who(game, fig)})
        near = nearest_human(game, fig)
        if near is None:
            return Message("refusal.no_human", {"who": words.who(game, fig)})
        if near[1] > ACTIVATION_INCHES + 1e-9:
            return Message("refusal.zombie_too_far", {"who": words.who(game, fig),
                                                      "d": float(near[1])})
        return None
    if fig.side != "survivors":
        return Message("refusal.civilian", {"who": words.who(game, fig)})
    if fig.status == "down":
        if fig.has("heroique") and not fig.used_turn.get("heroique"):
            return None
        return Message("refusal.is_down", {"who": words.who(game, fig)})
    if not fig.standing:
        gone = _GONE.get(fig.status, Message("refusal.not_on_table"))
        return Message(gone.code, {"who": words.who(game, fig)})
    if fig.panicked:
        return Message("refusal.panicked", {"who": words.who(game, fig)})
    if fig.resting:
        return Message("refusal.resting", {"who": words.who(game, fig)})
    return None


def activatable(game: GameState, side: str) -> list[Fig]:
    """Figures `side` may activate now (in zombie_war, a band's own survivors)."""
    return [f for f in game.figures.values()
            if game.side_of(f) == side and why_not_active(game, f) is None]


def can_activate(game: GameState, side: str) -> bool:
    """May `side` activate someone now? With an empty pool only a sprint can be made (D14)."""
    if side in game.ended:
        return False
    if side == "zombies" and game.mode == "zombie_war":
        return False  # zombies only move when a band makes them (D23)
    figs = activatable(game, side)
    if game.pools.get(side, 0) > 0:
        return bool(figs)
    return any(f.standing and f.has("sprinter") and not f.used_game.get("sprinter")
               for f in figs)


# --- costs -------------------------------------------------------------------------------


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


def _free_zombie(game: GameState, fig: Fig) -> bool:
    """In zombie_war a band moves zombies at no AP cost (D23)."""
    return fig.is_zombie and game.mode == "zombie_war"


def cost(game: GameState, act: Action) -> int:
    """AP the action takes from its side's pool."""
    if isinstance(act, Melee):
        return act.ap
    if isinstance(act, Shoot):
        weapon = game.catalog.equipment.get(act.weapon)
        if weapon is None:
            raise _fail(Message("refusal.unknown_weapon", {"id": act.weapon}), "action.weapon")
        return weapon.ap_cost
    if isinstance(act, Revive):
        return 2
    if isinstance(act, UseSkill):
        return 1 if act.skill == "chanceux" else 0
    if isinstance(act, Interact):
        marker = game.markers.get(act.marker, {})
        return int(marker.get("cost", 1))
    if isinstance(act, Special):
        return game.referee.special_cost(game, act) if game.referee is not None else 0
    if isinstance(act, Exit):
        return 1
    if isinstance(act, Move | Heal | Carry | Door | Contaminate | Take | Give):
        return 1
    return 0


# --- checks ------------------------------------------------------------------------------


def _fig(game: GameState, figure_id: str, field: str = "figure") -> Fig:
    fig = game.figures.get(figure_id)
    if fig is None:
        raise _fail(Message("refusal.unknown_figure", {"id": figure_id}), f"action.{field}")
    return fig


def check(game: GameState, act: Action) -> None:
    """Refuse `act` with the rule it breaks and, for a move, what to do instead (the way
    round, the nearest spot where the base fits: `IllegalActionError.advice`), or return
    quietly."""
    try:
        _check(game, act)
    except IllegalActionError as error:
        if error.advice is None:
            raise
        raise error.advised() from None


def _check(game: GameState, act: Action) -> None:
    """`check` without the advice: the rule broken, quickly."""
    from rules import windows

    if game.pending:
        windows.check(game, game.pending[0], act)
        return
    if isinstance(act, Decline):
        raise _fail(Message("refusal.nothing_to_decline"), "action.type")
    side = game.to_act
    if isinstance(act, Pass | EndActivations):
        if not may_pass(game, side):
            raise _fail(words.by_side(side, _MUST_ACTIVATE), "action.type")
        return
    if isinstance(act, Contaminate):
        raise _fail(Message("refusal.contaminate_when"), "action.type")
    fig = _fig(game, actor(act))
    if game.side_of(fig) != side:
        raise _fail(words.by_side(side, _NOT_YOURS, who=words.who(game, fig)),
                    "action.figure")
    reason = why_not_active(game, fig)
    if reason is not None:
        raise _fail(reason, "action.figure")
    check_action(game, fig, act)


def is_legal(game: GameState, act: Action) -> bool:
    """Whether the rules accept `act` now (`check` without the reason): the bots ask it of
    actions the listing leaves out, moves to a point."""
    try:
        _check(game, act)
    except IllegalActionError:
        return False
    return True


def check_action(game: GameState, fig: Fig, act: Action, *, free: bool = False) -> None:
    """The rules of the action itself (shared by normal activations and windows)."""
    from rules import resolve

    ap = 0 if free or _free_zombie(game, fig) else cost(game, act)
    pool = game.pools.get(game.side_of(fig), 0)
    if ap > pool:
        raise _fail(Message("refusal.not_enough_ap", {"ap": ap, "left": pool}), "action")
    if fig.is_zombie and not isinstance(act, Move | Melee | Contaminate | Special):
        raise _fail(Message("refusal.zombie_actions"), "action.type")
    if fig.status == "down" and (ap > 1 or isinstance(act, Carry | Revive)):
        raise _fail(Message("refusal.heroic_one_ap", {
            "who": words.who(game, fig), "skill": words.skill(game, "heroique")}),
            "action.type")
    if isinstance(act, Move):
        resolve.plan_move(game, fig, act.to, act.toward, fig.move)
    elif isinstance(act, Melee):
        resolve.check_melee(game, fig, act)
    elif isinstance(act, Shoot):
        resolve.check_shoot(game, fig, act)
    elif isinstance(act, Heal):
        resolve.check_heal(game, fig, act)
    elif isinstance(act, Revive):
        resolve.check_revive(game, fig, act)
    elif isinstance(act, Carry):
        resolve.check_carry(game, fig, act)
    elif isinstance(act, Door):
        resolve.check_door(game, fig, act)
    elif isinstance(act, Interact | Take | Give):
        resolve.check_exchange(game, fig, act)
    elif isinstance(act, Exit):
        if game.referee is None or act.exit not in game.referee.exits(game, fig):
            raise _fail(Message("refusal.cannot_exit", {
                "who": words.who(game, fig), "exit": words.exit_name(game, act.exit)}),
                "action.exit")
    elif isinstance(act, Special):
        if game.referee is None:
            raise _fail(Message("refusal.no_scenario_rule", {"rule": act.rule}),
                        "action.rule")
        game.referee.check_special(game, fig, act)
    elif isinstance(act, UseSkill):
        from rules import skills

        skills.check_use(game, fig, act)


# --- listing -----------------------------------------------------------------------------


def _enemies_by_distance(game: GameState, fig: Fig) -> list[tuple[float, Fig]]:
    out = [(game.distance(fig.id, f.id), f) for f in game.figures.values()
           if f.on_table and fig.enemy_of(f)]
    out.sort(key=lambda p: p[0])
    return out


def figure_actions(game: GameState, fig: Fig, *, kinds: tuple[str, ...] = (), free: bool = False,
                   max_ap: int | None = None) -> list[Action]:
    """Legal actions of one figure (optionally only some kinds), each checked."""
    pool = fig.attack if _free_zombie(game, fig) else game.pools.get(game.side_of(fig), 0)
    budget = pool if max_ap is None else min(pool, max_ap)
    candidates: list[Action] = []
    quick: list[Action] = []  # already known legal
    enemies = _enemies_by_distance(game, fig)

    def want(kind: str) -> bool:
        return not kinds or kind in kinds

    if want("move") and fig.on_table:
        targets = [f.id for _, f in enemies[:MOVE_TARGETS]]
        if not fig.is_zombie:
            targets += [f.id for f in game.figures.values()
                        if f.side == "survivors" and f.band == fig.band and f.status == "down"]
        from rules.resolve import goals_toward, may_go_toward

        for t in targets:
            if game.in_contact(fig.id, t) or pool < 1:
                continue
            # the route itself is found when the move is made
            if may_go_toward(game, fig, goals_toward(game, fig, t)):
                quick.append(Move(fig.id, toward=t))
    if want("melee"):
        weapons = [None] + ([w for w in fig.items if game.catalog.equipment[w].kind == "melee"]
                            if not fig.is_zombie else [])
        for d, enemy in enemies:
            if d > REACH_INCHES + 1e-9:
                break
            for w in weapons:
                step = weapon_rate(game, fig, w)[1]
                most = min(budget, most_melee_ap(game, fig, w))
                for ap in range(step, most + 1, step):
                    candidates.append(Melee(fig.id, enemy.id, ap, w))
    if fig.is_zombie and want("scenario") and game.referee is not None and fig.standing:
        candidates += game.referee.special_actions(game, fig)  # crossing a barricade...
    if not fig.is_zombie:
        if want("shoot"):
            for w, n in fig.items.items():
                item = game.catalog.equipment[w]
                if n > 0 and item.kind in ("shooting", "throwing"):
                    from rules import resolve

                    for target in resolve.shooting_legal(game, fig, w):
                        candidates.append(Shoot(fig.id, target, w))
        friends = [f for f in game.figures.values()
                   if f.side == "survivors" and f.band == fig.band and f.on_table]
        for friend in friends:
            if friend.id != fig.id and not game.in_contact(fig.id, friend.id):
                continue
            if want("heal"):
                candidates.append(Heal(fig.id, friend.id))
            if want("revive") and friend.status == "down":
                candidates.append(Revive(fig.id, friend.id))
            if want("carry") and friend.status == "down" and fig.standing:
                candidates.append(Carry(fig.id, friend.id, toward=_home(game)))
        if want("door"):
            candidates += [Door(fig.id, t.id) for t in game.terrain
                           if t.kind == "door" and _near_bounds(t.footprint.bounds, fig)]
        if want("interact") and game.markers:
            candidates += _exchanges(game, fig)
        if want("scenario") and game.referee is not None and fig.standing:
            candidates += [Exit(fig.id, e) for e in game.referee.exits(game, fig)]
            candidates += game.referee.special_actions(game, fig)
        if want("skill"):
            from rules import skills

            candidates += skills.skill_actions(game, fig)
    out: list[Action] = quick
    for act in candidates:
        try:
            check_action(game, fig, act, free=free)
        except IllegalActionError:
            continue
        out.append(act)
    return out


def _exchanges(game: GameState, fig: Fig) -> list[Action]:
    """Crates to open and items to take from the markers the figure touches."""
    from rules.inventory import marker_gap

    out: list[Action] = []
    for marker in game.markers.values():
        if marker_gap(fig, marker) > CONTACT + 1e-9:
            continue
        if marker["kind"] == "crate":
            out.append(Interact(fig.id, marker["id"]))
        else:
            out += [Take(fig.id, marker["id"], item) for item in marker.get("items", {})]
    return out


def _near_bounds(bounds: tuple[float, float, float, float], fig: Fig) -> bool:
    """A quick test before the exact one: the base is near the piece's bounding box."""
    reach = fig.radius + CONTACT + 0.01
    x0, y0, x1, y1 = bounds
    return x0 - reach <= fig.x <= x1 + reach and y0 - reach <= fig.y <= y1 + reach


def _home(game: GameState) -> tuple[float, float]:
    """The survivors' own table edge, for carrying the fallen back."""
    return (game.table.width / 2, 0.6)


def _activations(game: GameState, side: str) -> list[Action]:
    out: list[Action] = []
    for fig in activatable(game, side):
        out += figure_actions(game, fig)
    return out


def legal_actions(game: GameState) -> list[Action]:
    from rules import windows

    if game.outcome is not None:
        return []
    if game.pending:
        return windows.actions(game, game.pending[0])
    out = _activations(game, game.to_act)
    if may_pass(game, game.to_act, out):
        out += [Pass(), EndActivations()]
    else:
        out += holds(game, game.to_act)
    return out


def may_pass(game: GameState, side: str, activations: list[Action] | None = None) -> bool:
    """May `side` pass (or end its activations) now? With `allow_pass`, always; by default
    only with no AP or no legal activation (R1, L74). `activations`: the side's legal
    activations, when the caller has listed them already."""
    if game.settings.allow_pass or game.pools.get(side, 0) <= 0:
        return True
    return not (activations if activations is not None else _activations(game, side))


def hold(fig: Fig) -> Move:
    """The least an activation can do: the figure spends 1 AP standing where it is (a move
    of 0 in, counted as a move). Under R1 it is how a side that may not pass waits."""
    return Move(fig.id, to=(fig.x, fig.y))


def is_hold(game: GameState, act: Action) -> bool:
    """Is `act` a figure standing still (`hold`)?"""
    if not isinstance(act, Move) or act.toward is not None or act.to is None:
        return False
    fig = game.figures.get(act.figure)
    return fig is not None and act.to == fig.centre


def holds(game: GameState, side: str) -> list[Action]:
    """A hold for each figure `side` may activate, the least moved first."""
    out: list[Action] = []
    for fig in sorted(activatable(game, side), key=lambda f: f.moves):
        act = hold(fig)
        try:
            check_action(game, fig, act)
        except IllegalActionError:
            continue
        out.append(act)
    return out


def give_up(game: GameState, wanted: Pass | EndActivations) -> Action:
    """What a bot plays when it wants nothing: `wanted` (a pass or the end of its
    activations) where the rules allow it, else the hold of the least moved figure (R1:
    AP cannot be kept)."""
    side = game.to_act
    if may_pass(game, side):
        return wanted
    return next(iter(holds(game, side)), wanted)
