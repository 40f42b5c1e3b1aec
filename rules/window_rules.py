"""The rules of the decision windows (`rules.windows`), one object per kind of window: the
actions it allows (decline among them, unless the window must be taken), its check, and how
its action resolves, closing it. `rules.legal` asks here while a window is open.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from i18n import Message
from rules import panic, words
from rules.action_rules import refuse
from rules.actions import Action, Contaminate, Decline, Melee, Move, Shoot, UseSkill, actor
from rules.activation import activate, controllable, offer_reaction_before, offer_savoir
from rules.activity import activatable, why_not_active
from rules.attacks import fire, shooting_legal
from rules.dice import Roll, RollKind
from rules.errors import IllegalActionError
from rules.movement import do_move, plan_move
from rules.rulebook import check_action, figure_actions
from rules.windows import (
    Contamination,
    Didactique,
    Extremiste,
    Hysterique,
    Reaction,
    Reactivation,
    Savoir,
    ThrowAgain,
    Window,
    ZombieControl,
)

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["WINDOW_RULES", "window_actions", "window_actions_of", "check_window",
           "carry_out_window", "resume"]

W = TypeVar("W", bound=Window)

_AGAIN = {"melee": Message("refusal.now_melee_again"), "shoot": Message("refusal.now_shoot_again")}
# what a declined window let pass, for the note (a skill's window: the skill's name)
_WINDOWS = {"reaction": Message("engine.window.reaction"),
            "contaminate": Message("engine.window.contaminate"),
            "reactivate": Message("engine.window.reactivate"),
            "zombie_control": Message("engine.window.zombie_control"),
            "throw_again": Message("engine.window.throw_again")}


def _figure(game: GameState, figure_id: str) -> words.Words:
    """A figure an action names: its name, or "that figure" for an id the game lacks."""
    if figure_id in game.figures:
        return words.who(game, figure_id)
    return Message("engine.figure.unknown")


class WindowRule(Generic[W]):
    """The rule of one kind of window. `mandatory`: the window cannot be let pass while it
    offers something (extrémiste's charge, with `extremiste_move = mandatory`)."""

    window: ClassVar[type[Window]]

    def actions(self, game: GameState, window: W) -> list[Action]:
        """The actions the window allows, decline aside."""
        raise NotImplementedError

    def actions_of(self, game: GameState, window: W, fig: Fig) -> list[Action]:
        """Those of `fig`, in the same order."""
        return [a for a in self.actions(game, window) if actor(a) == fig.id]

    def check(self, game: GameState, window: W, act: Action) -> None:
        """Refuse an action the window does not allow (decline aside)."""
        raise NotImplementedError

    def carry_out(self, game: GameState, window: W, act: Action) -> None:
        """Resolve the window's action (it is closed already)."""
        raise NotImplementedError

    def declined(self, game: GameState, window: W) -> None:
        """What follows when the window is let pass (it is closed already)."""
        resume(game, window)

    def mandatory(self, game: GameState, window: W) -> bool:
        return False


class ReactionRule(WindowRule[Reaction]):
    """One zombie may act at once for 1 AP (a move or a 1-AP strike) after a survivor's
    2-AP action (D6); a survivor action held back for it resolves after."""

    window = Reaction

    KINDS = ("move", "melee")

    def actions(self, game: GameState, window: Reaction) -> list[Action]:
        out: list[Action] = []
        for z in activatable(game, "zombies"):
            out += figure_actions(game, z, kinds=self.KINDS, max_ap=1)
        return out

    def actions_of(self, game: GameState, window: Reaction, fig: Fig) -> list[Action]:
        if not fig.is_zombie or why_not_active(game, fig) is not None:
            return []
        return figure_actions(game, fig, kinds=self.KINDS, max_ap=1)

    def check(self, game: GameState, window: Reaction, act: Action) -> None:
        if not isinstance(act, Move | Melee):
            raise refuse(Message("refusal.reaction_kind"))
        fig = game.figures.get(act.figure)
        if fig is None or not fig.is_zombie:
            raise refuse(Message("refusal.not_a_zombie", {"who": _figure(game, act.figure)}))
        reason = why_not_active(game, fig)
        if reason is not None:
            raise refuse(reason)
        if isinstance(act, Melee) and act.ap != 1:
            raise refuse(Message("refusal.reaction_one_ap"))
        check_action(game, fig, act)

    def carry_out(self, game: GameState, window: Reaction, act: Action) -> None:
        fig = game.figures[actor(act)]
        if offer_savoir(game, fig, act, then=window):
            return
        activate(game, fig, act)
        resume(game, window)


class ContaminationRule(WindowRule[Contamination]):
    """The zombie that put a survivor down may contaminate it (1 AP, D36)."""

    window = Contamination

    def actions(self, game: GameState, window: Contamination) -> list[Action]:
        act = Contaminate(window.figure, window.target)
        try:  # the attack may have spent the last AP: then only decline is left
            self.check(game, window, act)
        except IllegalActionError:
            return []
        return [act]

    def check(self, game: GameState, window: Contamination, act: Action) -> None:
        if not (isinstance(act, Contaminate) and act.figure == window.figure
                and act.target == window.target):
            raise refuse(Message("refusal.now_contaminate", {
                "who": words.who(game, window.figure),
                "target": words.who(game, window.target)}))
        check_action(game, game.figures[act.figure], act)

    def carry_out(self, game: GameState, window: Contamination, act: Action) -> None:
        fig = game.figures[actor(act)]
        if offer_savoir(game, fig, act, then=window):
            return
        activate(game, fig, act)
        resume(game, window)


class ReactivationRule(WindowRule[Reactivation]):
    """Entraîné after melee, tireur rapide after shooting: one more go of that kind, AP
    paid as normal; a separate activation, which may earn its own reaction (D6)."""

    window = Reactivation

    def actions(self, game: GameState, window: Reactivation) -> list[Action]:
        return figure_actions(game, game.figures[window.figure], kinds=(window.action,))

    def check(self, game: GameState, window: Reactivation, act: Action) -> None:
        fig = game.figures[window.figure]
        wanted = Melee if window.action == "melee" else Shoot
        if not isinstance(act, wanted) or act.figure != fig.id:
            raise refuse(Message(_AGAIN[window.action].code, {"who": words.who(game, fig)}))
        check_action(game, fig, act)

    def carry_out(self, game: GameState, window: Reactivation, act: Action) -> None:
        # a separate activation: it may earn its own 2-AP reaction (D6), never another go
        fig = game.figures[actor(act)]
        if not offer_reaction_before(game, act, again=True):
            activate(game, fig, act, again=True)


class ZombieControlRule(WindowRule[ZombieControl]):
    """zombie_war (D23): after its activation a band moves one zombie within 20 in of the
    rival band, for free."""

    window = ZombieControl

    def actions(self, game: GameState, window: ZombieControl) -> list[Action]:
        out: list[Action] = []
        for z in controllable(game, window.enemy):
            out += figure_actions(game, z, kinds=("move", "melee"))
        return out

    def check(self, game: GameState, window: ZombieControl, act: Action) -> None:
        if not isinstance(act, Move | Melee):
            raise refuse(Message("refusal.control_kind", {"band": window.side}))
        fig = game.figures.get(act.figure)
        if fig is None or fig not in controllable(game, window.enemy):
            raise refuse(Message("refusal.not_controllable", {
                "who": _figure(game, act.figure), "band": window.enemy}))
        check_action(game, fig, act)

    def carry_out(self, game: GameState, window: ZombieControl, act: Action) -> None:
        fig = game.figures[actor(act)]
        game.note(Message("engine.sets_on", {"band": window.side, "who": words.who(game, fig),
                                             "enemy": window.enemy}))
        activate(game, fig, act, paid=True)


class ThrowAgainRule(WindowRule[ThrowAgain]):
    """The Molotov's second cocktail, when the first killed its target, at another legal
    target (no AP: it was paid; D14: priority is checked for each cocktail)."""

    window = ThrowAgain

    def actions(self, game: GameState, window: ThrowAgain) -> list[Action]:
        fig = game.figures[window.figure]
        return [Shoot(fig.id, t, window.weapon)
                for t in shooting_legal(game, fig, window.weapon)]

    def check(self, game: GameState, window: ThrowAgain, act: Action) -> None:
        fig = game.figures[window.figure]
        if not (isinstance(act, Shoot) and act.figure == fig.id
                and act.weapon == window.weapon):
            raise refuse(Message("refusal.now_throw_again", {
                "who": words.who(game, fig), "weapon": words.item(game, window.weapon)}))
        check_action(game, fig, act, free=True)

    def carry_out(self, game: GameState, window: ThrowAgain, act: Action) -> None:
        assert isinstance(act, Shoot)
        fig, target = game.figures[act.figure], game.figures[act.target]
        game.note(Message("engine.throws_again", {"who": words.who(game, fig),
                                                  "target": words.who(game, target),
                                                  "weapon": words.item(game, act.weapon)}))
        fire(game, fig, target, act.weapon, window.dice)


# --- skills' windows: the skill used (`UseSkill` named after the window), or let pass ----


def _nearest_zombie(game: GameState, fig: Fig) -> str | None:
    zombies = sorted((game.distance(fig.id, z.id), z.id) for z in game.figures.values()
                     if z.is_zombie and z.on_table)
    return zombies[0][1] if zombies else None


S = TypeVar("S", Savoir, Didactique, Extremiste, Hysterique)


class SkillWindowRule(WindowRule[S]):
    """A skill's moment: the skill used by the figure the window names."""

    def options(self, game: GameState, window: S, fig: Fig) -> list[Action]:
        return [UseSkill(fig.id, window.kind)]

    def actions(self, game: GameState, window: S) -> list[Action]:
        out = []
        for act in self.options(game, window, game.figures[window.figure]):
            try:
                self.check(game, window, act)
            except IllegalActionError:
                continue
            out.append(act)
        return out

    def check(self, game: GameState, window: S, act: Action) -> None:
        kind = window.kind
        if not (isinstance(act, UseSkill) and act.skill == kind
                and act.figure == window.figure):
            raise refuse(Message("refusal.now_skill", {"who": words.who(game, window.figure),
                                                     "skill": words.skill(game, kind)}))
        self.check_use(game, window, act, game.figures[act.figure])

    def check_use(self, game: GameState, window: S, act: UseSkill, fig: Fig) -> None:
        """The skill's own conditions."""

    def carry_out(self, game: GameState, window: S, act: Action) -> None:
        assert isinstance(act, UseSkill)
        self.use(game, window, act, game.figures[act.figure])

    def use(self, game: GameState, window: S, act: UseSkill, fig: Fig) -> None:
        raise NotImplementedError


class SavoirRule(SkillWindowRule[Savoir]):
    """The scientist cancels the zombie activation in `deferred`, once a turn (its AP spent
    either way, D14); let pass, the activation resolves."""

    window = Savoir

    def use(self, game: GameState, window: Savoir, act: UseSkill, fig: Fig) -> None:
        fig.used_turn = fig.counted("used_turn", "savoir", 1)
        game.note(Message("engine.savoir_cancels", {
            "who": words.who(game, fig), "zombie": words.who(game, actor(window.deferred)),
            "skill": words.skill(game, "savoir")}))
        if window.then is not None:
            resume(game, window.then)

    def declined(self, game: GameState, window: Savoir) -> None:
        deferred = window.deferred
        activate(game, game.figures[actor(deferred)], deferred, paid=True)
        if window.then is not None:
            resume(game, window.then)


class DidactiqueRule(SkillWindowRule[Didactique]):
    """The scientist re-rolls the AP die just rolled for its side, once a game."""

    window = Didactique

    def use(self, game: GameState, window: Didactique, act: UseSkill, fig: Fig) -> None:
        fig.used_game = fig.counted("used_game", "didactique", 1)
        side = game.side_of(fig)
        new = game.roll(Roll(f"{side}' action points, re-rolled", fig.id,
                             Message("engine.purpose.ap_again"), kind=RollKind.ACTION_POINTS,
                             again=True))
        game.pools[side] += new - window.die
        game.note(Message("engine.ap_die_again", {
            "skill": words.skill(game, "didactique"), "old": window.die, "new": new,
            "ap": game.pools[side]}))


class ExtremisteRule(SkillWindowRule[Extremiste]):
    """After a kill, a free move toward the nearest zombie (mandatory with
    `extremiste_move = mandatory`)."""

    window = Extremiste

    def check_use(self, game: GameState, window: Extremiste, act: UseSkill, fig: Fig) -> None:
        target = _nearest_zombie(game, fig)
        if target is None:
            raise refuse(Message("refusal.no_zombie_left"), "action.skill")
        plan_move(game, fig, None, target, fig.move)

    def use(self, game: GameState, window: Extremiste, act: UseSkill, fig: Fig) -> None:
        target = _nearest_zombie(game, fig)
        game.note(Message("engine.charges", {"who": words.who(game, fig),
                                             "skill": words.skill(game, "extremiste")}))
        do_move(game, fig, Move(fig.id, toward=target), fig.move)
        panic.check_surrounded(game)

    def mandatory(self, game: GameState, window: Extremiste) -> bool:
        return game.settings.extremiste_move == "mandatory" and bool(
            self.actions(game, window))


class HysteriqueRule(SkillWindowRule[Hysterique]):
    """After a failed panic test, a free move where the player who moves her wants
    (toward a friend, or back to the survivors' edge; any point may be asked)."""

    window = Hysterique

    def options(self, game: GameState, window: Hysterique, fig: Fig) -> list[Action]:
        friends = [f.id for f in game.figures.values() if f.side == "survivors"
                   and f.band == fig.band and f.on_table and f.id != fig.id]
        out: list[Action] = [UseSkill(fig.id, window.kind, target=f) for f in friends[:3]]
        out.append(UseSkill(fig.id, window.kind, to=(game.table.width / 2, 0.6)))
        return out

    def check_use(self, game: GameState, window: Hysterique, act: UseSkill, fig: Fig) -> None:
        if act.to is None and act.target is None:
            raise refuse(Message("refusal.hysterical_where", {
                "skill": words.skill(game, "hysterique")}), "action.skill")
        plan_move(game, fig, act.to, act.target if act.to is None else None, fig.move)

    def use(self, game: GameState, window: Hysterique, act: UseSkill, fig: Fig) -> None:
        game.note(Message("engine.runs_off", {"who": words.who(game, fig),
                                              "skill": words.skill(game, "hysterique")}))
        toward = act.target if act.to is None else None
        do_move(game, fig, Move(fig.id, to=act.to, toward=toward), fig.move)
        panic.check_surrounded(game)


WINDOW_RULES: dict[type[Window], WindowRule[Any]] = {
    rule.window: rule for rule in (ReactionRule(), ContaminationRule(), ReactivationRule(),
                                   ZombieControlRule(), ThrowAgainRule(), SavoirRule(),
                                   DidactiqueRule(), ExtremisteRule(), HysteriqueRule())}


def _rule(window: Window) -> WindowRule[Any]:
    return WINDOW_RULES[type(window)]


def window_actions(game: GameState, window: Window) -> list[Action]:
    """The legal actions while `window` is open (decline among them, unless it must be
    taken)."""
    rule = _rule(window)
    out = rule.actions(game, window)
    return out if rule.mandatory(game, window) else [*out, Decline()]


def window_actions_of(game: GameState, window: Window, fig: Fig) -> list[Action]:
    """The legal actions of `fig` while `window` is open (decline aside), without listing
    anyone else's."""
    return _rule(window).actions_of(game, window, fig)


def check_window(game: GameState, window: Window, act: Action) -> None:
    """Refuse an action the open window does not allow, or return quietly."""
    rule = _rule(window)
    if isinstance(act, Decline):
        if rule.mandatory(game, window):
            raise refuse(Message("refusal.must_charge", {
                "who": words.who(game, window.figure_id),
                "skill": words.skill(game, "extremiste")}))
        return
    rule.check(game, window, act)


def carry_out_window(game: GameState, window: Window, act: Action) -> None:
    """Resolve the window's action (or its refusal) and close the window."""
    game.pending.pop(0)
    rule = _rule(window)
    if isinstance(act, Decline):
        what = _WINDOWS.get(window.kind) or words.skill(game, window.kind)
        game.note(Message("engine.declined", {"what": what}))
        rule.declined(game, window)
        return
    rule.carry_out(game, window, act)


def resume(game: GameState, window: Window) -> None:
    """A survivor action held back for a "before" reaction resolves now, if still possible."""
    if not isinstance(window, Reaction) or window.deferred is None or game.outcome is not None:
        return
    deferred = window.deferred
    fig = game.figures[actor(deferred)]
    try:
        check_action(game, fig, deferred, free=True)
    except IllegalActionError as error:
        game.note(Message("engine.no_longer", {"who": words.who(game, fig),
                                               "why": error.words or error.message}))
        return
    activate(game, fig, deferred, paid=True, again=window.again)
