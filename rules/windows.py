"""Decision windows: moments when a side may (or may not) do something out of turn.

A window is plain data in `GameState.pending`, e.g. `{"kind": "reaction", "side": "zombies"}`. While
one is open only its actions (or `decline`) are legal:

- `reaction`: after a survivor's 2-AP action, one zombie may act for 1 AP (D6);
- `contaminate`: a zombie that just put a survivor down may contaminate it (1 AP);
- `reactivate`: entraîné / tireur rapide may act again (melee / shoot), AP paid as normal;
- `throw_again`: the Molotov's second cocktail, when the first killed its target, may be
  thrown at another legal target (no AP: it was paid);
- `savoir`: the scientist may cancel the zombie activation being made;
- `didactique`: the scientist may re-roll the survivors' AP die;
- `extremiste`: after a kill, a free move toward the nearest zombie;
- `hysterique`: after a failed panic test, a free move where the player wants.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from i18n import Message
from rules import legal, words
from rules.actions import (
    Action,
    Contaminate,
    Decline,
    Melee,
    Move,
    Revive,
    Shoot,
    UseSkill,
    actor,
    parse_action,
)
from rules.arbitration import ACTIVATION_INCHES
from rules.errors import IllegalActionError

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["check", "actions", "carry_out", "offer_reaction", "offer_reaction_before", "resume"]

Window = dict[str, Any]


def _fail(message: Message) -> IllegalActionError:
    return IllegalActionError(message, "action")


_AGAIN = {"melee": Message("refusal.now_melee_again"), "shoot": Message("refusal.now_shoot_again")}
# what a declined window let pass, for the note
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


def actions(game: GameState, window: Window) -> list[Action]:
    """The legal actions while `window` is open (decline always among them)."""
    kind = window["kind"]
    out: list[Action] = []
    if kind == "reaction":
        for z in legal.activatable(game, "zombies"):
            out += legal.figure_actions(game, z, kinds=("move", "melee"), max_ap=1)
    elif kind == "contaminate":
        z = game.figures[window["figure"]]
        act = Contaminate(z.id, window["target"])
        try:  # the attack may have spent the last AP: then only decline is left
            check(game, window, act)
            out.append(act)
        except IllegalActionError:
            pass
    elif kind == "reactivate":
        fig = game.figures[window["figure"]]
        out += legal.figure_actions(game, fig, kinds=(window["action"],))
    elif kind == "zombie_control":
        for z in controllable(game, window["enemy"]):
            out += legal.figure_actions(game, z, kinds=("move", "melee"))
    elif kind == "throw_again":
        from rules.resolve import shooting_legal

        fig = game.figures[window["figure"]]
        out += [Shoot(fig.id, t, window["weapon"])
                for t in shooting_legal(game, fig, window["weapon"])]
    else:
        from rules import skills

        out += skills.window_actions(game, window)
    return out if _must_charge(game, window) else [*out, Decline()]


def _must_charge(game: GameState, window: Window) -> bool:
    """With extremiste_move = mandatory, the free move cannot be declined when possible."""
    if window["kind"] != "extremiste" or game.settings.extremiste_move != "mandatory":
        return False
    from rules import skills

    return bool(skills.window_actions(game, window))


def check(game: GameState, window: Window, act: Action) -> None:
    if isinstance(act, Decline):
        if _must_charge(game, window):
            raise _fail(Message("refusal.must_charge", {
                "who": words.who(game, window["figure"]),
                "skill": words.skill(game, "extremiste")}))
        return
    kind = window["kind"]
    if kind == "reaction":
        if not isinstance(act, Move | Melee):
            raise _fail(Message("refusal.reaction_kind"))
        fig = game.figures.get(act.figure)
        if fig is None or not fig.is_zombie:
            raise _fail(Message("refusal.not_a_zombie", {"who": _figure(game, act.figure)}))
        reason = legal.why_not_active(game, fig)
        if reason is not None:
            raise _fail(reason)
        if isinstance(act, Melee) and act.ap != 1:
            raise _fail(Message("refusal.reaction_one_ap"))
        legal.check_action(game, fig, act)
    elif kind == "contaminate":
        if not (isinstance(act, Contaminate) and act.figure == window["figure"]
                and act.target == window["target"]):
            raise _fail(Message("refusal.now_contaminate", {
                "who": words.who(game, window["figure"]),
                "target": words.who(game, window["target"])}))
        legal.check_action(game, game.figures[act.figure], act)
    elif kind == "reactivate":
        fig = game.figures[window["figure"]]
        wanted = Melee if window["action"] == "melee" else Shoot
        if not isinstance(act, wanted) or act.figure != fig.id:
            raise _fail(Message(_AGAIN[window["action"]].code, {"who": words.who(game, fig)}))
        legal.check_action(game, fig, act)
    elif kind == "zombie_control":
        if not isinstance(act, Move | Melee):
            raise _fail(Message("refusal.control_kind", {"band": window["side"]}))
        fig = game.figures.get(act.figure)
        if fig is None or fig not in controllable(game, window["enemy"]):
            raise _fail(Message("refusal.not_controllable", {
                "who": _figure(game, act.figure), "band": window["enemy"]}))
        legal.check_action(game, fig, act)
    elif kind == "throw_again":
        fig = game.figures[window["figure"]]
        if not (isinstance(act, Shoot) and act.figure == fig.id
                and act.weapon == window["weapon"]):
            raise _fail(Message("refusal.now_throw_again", {
                "who": words.who(game, fig), "weapon": words.item(game, window["weapon"])}))
        legal.check_action(game, fig, act, free=True)
    else:
        from rules import skills

        skills.check_window(game, window, act)


def carry_out(game: GameState, window: Window, act: Action) -> None:
    """Resolve the window's action (or its refusal) and close the window."""
    from rules import resolve, skills

    game.pending.pop(0)
    kind = window["kind"]
    if isinstance(act, Decline):
        what = _WINDOWS.get(kind) or words.skill(game, kind)
        game.note(Message("engine.declined", {"what": what}))
        if kind == "savoir":
            deferred = parse_action(window["deferred"])
            resolve.activate(game, game.figures[actor(deferred)], deferred, paid=True)
            if "then" in window:
                resume(game, window["then"])
        resume(game, window)
        return
    if kind == "reactivate":
        # a separate activation: it may earn its own 2-AP reaction (D6), never another go
        fig = game.figures[actor(act)]
        if not offer_reaction_before(game, act, again=True):
            resolve.activate(game, fig, act, again=True)
        return
    if kind in ("reaction", "contaminate"):
        fig = game.figures[actor(act)]
        if skills.offer_savoir(game, fig, act, then=window):
            return
        resolve.activate(game, fig, act)
        resume(game, window)
        return
    if kind == "zombie_control":
        fig = game.figures[actor(act)]
        game.note(Message("engine.sets_on", {"band": window["side"], "who": words.who(game, fig),
                                             "enemy": window["enemy"]}))
        resolve.activate(game, fig, act, paid=True)
        return
    if kind == "throw_again":
        assert isinstance(act, Shoot)
        fig, target = game.figures[act.figure], game.figures[act.target]
        game.note(Message("engine.throws_again", {"who": words.who(game, fig),
                                                  "target": words.who(game, target),
                                                  "weapon": words.item(game, act.weapon)}))
        resolve.fire(game, fig, target, act.weapon, int(window["dice"]))
        return
    skills.carry_out_window(game, window, act)


def controllable(game: GameState, enemy: str) -> list[Fig]:
    """Zombies a band may set on band `enemy`: within 20 in of one of its figures (D23)."""
    targets = [f for f in game.figures.values()
               if f.side == "survivors" and f.band == enemy and f.on_table]
    return [z for z in game.figures.values() if z.is_zombie and z.standing and any(
        game.distance(z.id, t.id) <= ACTIVATION_INCHES + 1e-9 for t in targets)]


def offer_zombie_control(game: GameState, band: str) -> bool:
    """After each of its activations a band moves one zombie near the other band, if any."""
    enemy = game.other(band)
    window: Window = {"kind": "zombie_control", "side": band, "enemy": enemy}
    if not any(legal.figure_actions(game, z, kinds=("move", "melee"))
               for z in controllable(game, enemy)):
        return False
    game.offer(window)
    return True


def resume(game: GameState, window: Window) -> None:
    """A survivor action held back for a "before" reaction resolves now, if still possible."""
    from rules import resolve

    if window["kind"] != "reaction" or "deferred" not in window or game.outcome is not None:
        return
    deferred = parse_action(window["deferred"])
    fig = game.figures[actor(deferred)]
    try:
        legal.check_action(game, fig, deferred, free=True)
    except IllegalActionError as error:
        game.note(Message("engine.no_longer", {"who": words.who(game, fig),
                                               "why": error.words or error.message}))
        return
    resolve.activate(game, fig, deferred, paid=True, again=bool(window.get("again")))


def _listed_cost(game: GameState, act: Action) -> int:
    """The AP an action is listed at: the weapon's cost, 2 to revive, else 1."""
    if isinstance(act, Shoot | Melee) and act.weapon is not None:
        return game.catalog.equipment[act.weapon].ap_cost
    return legal.cost(game, act) if isinstance(act, Revive) else 1


def _reacts(game: GameState, act: Action, when: str) -> bool:
    """Does this survivor activation let a zombie react (D6, two_ap_reaction[_scope])?"""
    if game.settings.two_ap_reaction != when or game.outcome is not None:
        return False
    if game.mode == "zombie_war":
        return False  # D23: the bands move the zombies; there is no reaction
    if game.settings.two_ap_reaction_scope == "fixed_cost":
        big = _listed_cost(game, act) >= 2
    else:
        big = legal.cost(game, act) >= 2
    return big and game.pools["zombies"] >= 1 and bool(legal.activatable(game, "zombies"))


def offer_reaction(game: GameState, act: Action) -> None:
    """A survivor action of 2 AP or more lets one zombie act at once for 1 AP (D6)."""
    if _reacts(game, act, "after"):
        game.note(Message("engine.reaction_after"))
        game.offer({"kind": "reaction", "side": "zombies"})


def offer_reaction_before(game: GameState, act: Action, *, again: bool = False) -> bool:
    """With two_ap_reaction = "before": the zombie reacts first, then the action resolves.

    `again` marks a reactivation (entraîné, tireur rapide), which earns no further go."""
    if not _reacts(game, act, "before"):
        return False
    game.pools[game.side_of(game.figures[actor(act)])] -= legal.cost(game, act)
    game.note(Message("engine.reaction_before"))
    window: Window = {"kind": "reaction", "side": "zombies", "deferred": act.to_json()}
    if again:
        window["again"] = True
    game.offer(window)
    return True


_ = UseSkill
