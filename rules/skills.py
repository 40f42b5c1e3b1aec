"""Skills used as actions or in windows: chanceux, sprinter, savoir, didactique, extrémiste,
hystérique, entraîné and tireur rapide. Skills that only modify rolls live where the roll is
made (`rules.resolve.attack_spec`, `rules.panic`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from geometry.units import CONTACT_INCHES
from i18n import Message
from rules import words
from rules.actions import Action, Melee, Move, Shoot, UseSkill
from rules.dice import Roll
from rules.errors import IllegalActionError

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = [
    "offer_didactique", "offer_savoir", "offer_reactivation", "skill_actions", "check_use",
    "use", "window_actions", "check_window", "carry_out_window", "lucky_split",
]

ONCE_PER_GAME = ("chanceux", "sprinter", "didactique")
LUCKY_VICTIMS = 2


def _fail(message: Message, where: str = "action.skill") -> IllegalActionError:
    return IllegalActionError(message, where)


_DOING = {"move": Message("engine.doing.move"), "melee": Message("engine.doing.melee"),
          "contaminate": Message("engine.doing.contaminate"),
          "other": Message("engine.doing.other")}


def _holder(game: GameState, skill: str, *, per: str, band: str | None = None) -> Fig | None:
    for f in game.figures.values():
        if f.side == "survivors" and f.standing and f.has(skill) and (
                band is None or f.band == band):
            used = f.used_game if per == "game" else f.used_turn
            if not used.get(skill):
                return f
    return None


# --- windows opened by the game ----------------------------------------------------------


def offer_didactique(game: GameState, die: int, band: str | None = None) -> None:
    """The scientist may re-roll the AP die just rolled for its side (its band's)."""
    sci = _holder(game, "didactique", per="game", band=band)
    if sci is not None:
        game.offer({"kind": "didactique", "figure": sci.id, "side": game.side_of(sci),
                    "die": die})


def offer_savoir(game: GameState, zombie: Fig, act: Action,
                 then: dict[str, Any] | None = None) -> bool:
    """Before a zombie activation resolves (normal, reaction or contamination), the
    scientist may cancel it, once per turn; its AP is spent either way (D14).

    `then` is the window the activation answered, to carry on with afterwards."""
    if game.mode == "zombie_war":
        return False  # zombies are moved by the bands there: no one to out-think
    sci = _holder(game, "savoir", per="turn")
    if sci is None:
        return False
    from rules.legal import cost

    game.pools["zombies"] -= cost(game, act)
    game.note(Message("engine.savoir_offer", {
        "zombie": words.who(game, zombie), "doing": _DOING.get(act.type, _DOING["other"]),
        "who": words.who(game, sci),
        "skill": words.skill(game, "savoir")}))
    window = {"kind": "savoir", "figure": sci.id, "side": "survivors",
              "deferred": act.to_json()}
    if then is not None:
        window["then"] = then
    game.pending.insert(0, window)
    return True


def offer_reactivation(game: GameState, fig: Fig, act: Action) -> None:
    """Entraîné after melee, tireur rapide after shooting: one more go, AP paid as normal."""
    from rules import legal

    kind = "melee" if isinstance(act, Melee) and fig.has("entraine") else (
        "shoot" if isinstance(act, Shoot) and fig.has("tireur_rapide") else "")
    if not kind or game.pools[game.side_of(fig)] < 1 or game.outcome is not None:
        return
    if legal.figure_actions(game, fig, kinds=(kind,)):
        game.offer({"kind": "reactivate", "figure": fig.id, "action": kind,
                    "side": game.side_of(fig)})


# --- skills used as an activation ---------------------------------------------------------


def skill_actions(game: GameState, fig: Fig) -> list[Action]:
    out: list[Action] = []
    if fig.has("chanceux"):
        out.append(UseSkill(fig.id, "chanceux"))
        _, tied, slots = lucky_split(game, fig)
        if len(tied) > slots:
            out += [UseSkill(fig.id, "chanceux", target=z) for z in tied]
    if fig.has("sprinter"):
        zombies = sorted((game.distance(fig.id, z.id), z.id) for z in game.figures.values()
                         if z.is_zombie and z.on_table)
        out += [UseSkill(fig.id, "sprinter", target=z) for _, z in zombies[:2]]
    return out


def check_use(game: GameState, fig: Fig, act: UseSkill) -> None:
    who, skill = words.who(game, fig), words.skill(game, act.skill)
    if not fig.has(act.skill):
        raise _fail(Message("refusal.no_skill", {"who": who, "skill": skill}))
    if act.skill in ONCE_PER_GAME and fig.used_game.get(act.skill):
        raise _fail(Message("refusal.skill_used", {"who": who, "skill": skill}))
    if act.skill == "chanceux":
        if not any(z.is_zombie and z.on_table for z in game.figures.values()):
            raise _fail(Message("refusal.no_zombie"))
        _, tied, slots = lucky_split(game, fig)
        if act.target is not None and (act.target not in tied or len(tied) <= slots):
            if len(tied) > slots:
                raise _fail(Message("refusal.lucky_tie", {
                    "tied": [words.who(game, z) for z in tied]}), "action.target")
            raise _fail(Message("refusal.lucky_no_tie"), "action.target")
    elif act.skill == "sprinter":
        from rules.resolve import plan_move

        plan_move(game, fig, act.to, act.target, fig.move)
    else:
        raise _fail(Message("refusal.skill_not_action", {"skill": skill}))


def use(game: GameState, fig: Fig, act: UseSkill) -> None:
    from rules import resolve

    fig.used_game[act.skill] = 1
    if act.skill == "chanceux":
        sure, tied, slots = lucky_split(game, fig)
        if act.target is not None:
            tied = [act.target] + [z for z in tied if z != act.target]
        for zid in sure + tied[:slots]:
            z = game.figures[zid]
            z.status, z.downed_by = "removed", fig.id
            game.note(Message("engine.lucky", {"zombie": words.who(game, z),
                                               "skill": words.skill(game, "chanceux")}))
        game.moved()
    elif act.skill == "sprinter":
        game.note(Message("engine.sprints", {"who": words.who(game, fig),
                                             "skill": words.skill(game, "sprinter")}))
        resolve.do_move(game, fig, Move(fig.id, to=act.to, toward=act.target), fig.move)


def lucky_split(game: GameState, fig: Fig) -> tuple[list[str], list[str], int]:
    """Chanceuse's victims: (the zombies surely among the two nearest, the zombies tied at
    the cut, how many of those are taken). Distances count as equal within 0.01 in, and
    every zombie in base contact is at 0 in; the survivors player breaks a tie at the cut
    by naming the zombie taken first (D14); the rest of the tie goes by exact distance (as
    the tape would split it), then by the order the figures are listed."""
    exact = sorted((game.distance(fig.id, z.id), z.id) for z in game.figures.values()
                   if z.is_zombie and z.on_table)
    ranked = [(round(max(d - CONTACT_INCHES, 0.0), 2), z) for d, z in exact]
    if len(ranked) <= LUCKY_VICTIMS:
        return [z for _, z in ranked], [], 0
    cut = ranked[LUCKY_VICTIMS - 1][0]
    sure = [z for d, z in ranked if d < cut]
    tied = [z for d, z in ranked if d == cut]
    return sure, tied, LUCKY_VICTIMS - len(sure)


# --- windows -----------------------------------------------------------------------------


def _home(game: GameState) -> tuple[float, float]:
    return (game.table.width / 2, 0.6)


def window_actions(game: GameState, window: dict[str, Any]) -> list[Action]:
    kind, fig = window["kind"], game.figures[window["figure"]]
    options: list[Action] = []
    if kind in ("savoir", "didactique") or kind == "extremiste":
        options.append(UseSkill(fig.id, kind))
    elif kind == "hysterique":
        friends = [f.id for f in game.figures.values() if f.side == "survivors"
                   and f.band == fig.band and f.on_table and f.id != fig.id]
        options += [UseSkill(fig.id, kind, target=f) for f in friends[:3]]
        options.append(UseSkill(fig.id, kind, to=_home(game)))
    out = []
    for act in options:
        try:
            check_window(game, window, act)
        except IllegalActionError:
            continue
        out.append(act)
    return out


def _nearest_zombie(game: GameState, fig: Fig) -> str | None:
    zombies = sorted((game.distance(fig.id, z.id), z.id) for z in game.figures.values()
                     if z.is_zombie and z.on_table)
    return zombies[0][1] if zombies else None


def check_window(game: GameState, window: dict[str, Any], act: Action) -> None:
    from rules.resolve import plan_move

    kind = window["kind"]
    if not (isinstance(act, UseSkill) and act.skill == kind and act.figure == window["figure"]):
        raise _fail(Message("refusal.now_skill", {"who": words.who(game, window["figure"]),
                                                  "skill": words.skill(game, kind)}), "action")
    fig = game.figures[act.figure]
    if kind == "extremiste":
        target = _nearest_zombie(game, fig)
        if target is None:
            raise _fail(Message("refusal.no_zombie_left"))
        plan_move(game, fig, None, target, fig.move)
    elif kind == "hysterique":
        if act.to is None and act.target is None:
            raise _fail(Message("refusal.hysterical_where", {
                "skill": words.skill(game, "hysterique")}))
        plan_move(game, fig, act.to, act.target if act.to is None else None, fig.move)


def carry_out_window(game: GameState, window: dict[str, Any], act: Action) -> None:
    from rules import panic, resolve

    assert isinstance(act, UseSkill)
    fig = game.figures[act.figure]
    kind = window["kind"]
    if kind == "savoir":
        fig.used_turn["savoir"] = 1
        deferred = window["deferred"]
        game.note(Message("engine.savoir_cancels", {
            "who": words.who(game, fig), "zombie": words.who(game, str(deferred["figure"])),
            "skill": words.skill(game, "savoir")}))
        if "then" in window:
            from rules.windows import resume

            resume(game, window["then"])
    elif kind == "didactique":
        fig.used_game["didactique"] = 1
        side = game.side_of(fig)
        new = game.roll(Roll(f"{side}' action points, re-rolled", fig.id,
                             Message("engine.purpose.ap_again")))
        game.pools[side] += new - int(window["die"])
        game.note(Message("engine.ap_die_again", {
            "skill": words.skill(game, "didactique"), "old": int(window["die"]), "new": new,
            "ap": game.pools[side]}))
    elif kind == "extremiste":
        target = _nearest_zombie(game, fig)
        game.note(Message("engine.charges", {"who": words.who(game, fig),
                                             "skill": words.skill(game, "extremiste")}))
        resolve.do_move(game, fig, Move(fig.id, toward=target), fig.move)
        panic.check_surrounded(game)
    elif kind == "hysterique":
        game.note(Message("engine.runs_off", {"who": words.who(game, fig),
                                              "skill": words.skill(game, "hysterique")}))
        toward = act.target if act.to is None else None
        resolve.do_move(game, fig, Move(fig.id, to=act.to, toward=toward), fig.move)
        panic.check_surrounded(game)
