"""One activation's life: a side's action paid for and resolved by its rule
(`rules.rulebook`), and the windows it opens (`rules.windows`): the zombies' reaction to a
2-AP action (D6), entraîné's and tireur rapide's second go, Savoir's veto on a zombie
activation, Didactique's re-roll of the AP die, a band setting a zombie on its rival.

The windows' own rules (what each allows, how it resolves) are `rules.window_rules`; an
action taken while none is open comes here (`carry_out`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from i18n import Message
from rules import panic, words
from rules.action_rules import TurnRule
from rules.actions import Action, Melee, Revive, Shoot, actor
from rules.activity import activatable
from rules.arbitration import ACTIVATION_INCHES
from rules.rulebook import cost, figure_actions, resolve_action, rule_for
from rules.windows import Didactique, Reaction, Reactivation, Savoir, Window, ZombieControl

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["carry_out", "activate", "offer_reaction", "offer_reaction_before", "offer_savoir",
           "offer_reactivation", "offer_didactique", "offer_zombie_control", "controllable"]

_DOING = {"move": Message("engine.doing.move"), "melee": Message("engine.doing.melee"),
          "contaminate": Message("engine.doing.contaminate"),
          "other": Message("engine.doing.other")}


def carry_out(game: GameState, act: Action) -> None:
    """Carry out an action of the side to act (no window open): a side's own action, or a
    figure's activation, unless a window comes first (Savoir's veto, a reaction before)."""
    rule = rule_for(act)
    if isinstance(rule, TurnRule):
        rule.resolve_turn(game, act)
        return
    fig = game.figures[actor(act)]
    if fig.is_zombie and offer_savoir(game, fig, act):
        return
    if not fig.is_zombie and offer_reaction_before(game, act):
        return
    activate(game, fig, act)


def activate(game: GameState, fig: Fig, act: Action, *, paid: bool = False,
             again: bool = False) -> None:
    """Pay for and resolve one activation of `fig`, then open any windows it earns.

    `paid`: the AP were taken already (a held-back action); `again`: a reactivation
    (entraîné, tireur rapide), which cannot itself be followed by another (D14).
    """
    ap = cost(game, act)
    side = game.side_of(fig)
    if not paid and not (fig.is_zombie and game.mode == "zombie_war"):
        game.pools[side] -= ap
    if fig.status == "down":
        fig.used_turn = fig.counted("used_turn", "heroique", 1)
    resolve_action(game, fig, act)
    if fig.is_human and fig.standing and not again:
        offer_reactivation(game, fig, act)
    panic.check_surrounded(game)
    if side == "survivors" and not paid:
        offer_reaction(game, act)


# --- the zombies' reaction (D6) ----------------------------------------------------------


def _listed_cost(game: GameState, act: Action) -> int:
    """The AP an action is listed at: the weapon's cost, 2 to revive, else 1."""
    if isinstance(act, Shoot | Melee) and act.weapon is not None:
        return game.catalog.equipment[act.weapon].ap_cost
    return cost(game, act) if isinstance(act, Revive) else 1


def _reacts(game: GameState, act: Action, when: str) -> bool:
    """Does this survivor activation let a zombie react (D6, two_ap_reaction[_scope])?"""
    if game.settings.two_ap_reaction != when or game.outcome is not None:
        return False
    if game.mode == "zombie_war":
        return False  # D23: the bands move the zombies; there is no reaction
    if game.settings.two_ap_reaction_scope == "fixed_cost":
        big = _listed_cost(game, act) >= 2
    else:
        big = cost(game, act) >= 2
    return big and game.pools["zombies"] >= 1 and bool(activatable(game, "zombies"))


def offer_reaction(game: GameState, act: Action) -> None:
    """A survivor action of 2 AP or more lets one zombie act at once for 1 AP (D6)."""
    if _reacts(game, act, "after"):
        game.note(Message("engine.reaction_after"))
        game.offer(Reaction("zombies"))


def offer_reaction_before(game: GameState, act: Action, *, again: bool = False) -> bool:
    """With two_ap_reaction = "before": the zombie reacts first, then the action resolves.

    `again` marks a reactivation (entraîné, tireur rapide), which earns no further go."""
    if not _reacts(game, act, "before"):
        return False
    game.pools[game.side_of(game.figures[actor(act)])] -= cost(game, act)
    game.note(Message("engine.reaction_before"))
    game.offer(Reaction("zombies", deferred=act, again=again))
    return True


# --- skills' moments -----------------------------------------------------------------------


def _holder(game: GameState, skill: str, *, per: str, band: str | None = None) -> Fig | None:
    for f in game.figures.values():
        if f.side == "survivors" and f.standing and f.has(skill) and (
                band is None or f.band == band):
            used = f.used_game if per == "game" else f.used_turn
            if not used.get(skill):
                return f
    return None


def offer_didactique(game: GameState, die: int, band: str | None = None) -> None:
    """The scientist may re-roll the AP die just rolled for its side (its band's)."""
    sci = _holder(game, "didactique", per="game", band=band)
    if sci is not None:
        game.offer(Didactique(game.side_of(sci), sci.id, die))


def offer_savoir(game: GameState, zombie: Fig, act: Action, then: Window | None = None) -> bool:
    """Before a zombie activation resolves (normal, reaction or contamination), the
    scientist may cancel it, once per turn; its AP is spent either way (D14).

    `then` is the window the activation answered, to carry on with afterwards."""
    if game.mode == "zombie_war":
        return False  # zombies are moved by the bands there: no one to out-think
    sci = _holder(game, "savoir", per="turn")
    if sci is None:
        return False
    game.pools["zombies"] -= cost(game, act)
    game.note(Message("engine.savoir_offer", {
        "zombie": words.who(game, zombie), "doing": _DOING.get(act.type, _DOING["other"]),
        "who": words.who(game, sci),
        "skill": words.skill(game, "savoir")}))
    game.pending.insert(0, Savoir("survivors", sci.id, act, then))
    return True


def offer_reactivation(game: GameState, fig: Fig, act: Action) -> None:
    """Entraîné after melee, tireur rapide after shooting: one more go, AP paid as normal."""
    kind = "melee" if isinstance(act, Melee) and fig.has("entraine") else (
        "shoot" if isinstance(act, Shoot) and fig.has("tireur_rapide") else "")
    if not kind or game.pools[game.side_of(fig)] < 1 or game.outcome is not None:
        return
    if figure_actions(game, fig, kinds=(kind,)):
        game.offer(Reactivation(game.side_of(fig), fig.id, kind))


# --- zombie_war: the bands move the zombies (D23) -------------------------------------------


def controllable(game: GameState, enemy: str) -> list[Fig]:
    """Zombies a band may set on band `enemy`: within 20 in of one of its figures (D23)."""
    targets = [f for f in game.figures.values()
               if f.side == "survivors" and f.band == enemy and f.on_table]
    return [z for z in game.figures.values() if z.is_zombie and z.standing and any(
        game.distance(z.id, t.id) <= ACTIVATION_INCHES + 1e-9 for t in targets)]


def offer_zombie_control(game: GameState, band: str) -> bool:
    """After each of its activations a band moves one zombie near the other band, if any."""
    enemy = game.other(band)
    if not any(figure_actions(game, z, kinds=("move", "melee"))
               for z in controllable(game, enemy)):
        return False
    game.offer(ZombieControl(band, enemy))
    return True
