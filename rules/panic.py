"""Panic tests: the three triggers, the value tested and the skills that change it.

Triggers (rulebook L127-129): another survivor dies within 4 in (with no death while out of
action in the rulebook, a friend put out of action or contaminated within 4 in by default,
R5); three zombies within 3 in with no friend closer; the figure has lost half its starting
PV. A failed test: no action this turn and D lowered by 1 until the end of the turn (D18).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from i18n import Message
from rules import words
from rules.dice import Roll, RollKind, succeeds
from rules.windows import Hysterique

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["panic_test", "after_fall", "check_surrounded", "check_half_pv"]

DEATH_INCHES = 4.0
SURROUND_INCHES = 3.0
SURROUND_COUNT = 3
LEADER_INCHES = 10.0  # autoritaire, doyen
RASSURANT_INCHES = 6.0


def _band(game: GameState, fig: Fig) -> list[Fig]:
    return [f for f in game.figures.values()
            if f.side == "survivors" and f.band == fig.band and f.id != fig.id]


def _immune(game: GameState, fig: Fig, trigger: str) -> Message | None:
    """Why this figure takes no test, or None."""
    who = words.who(game, fig)
    if (fig.has("paternel") or fig.has("maternelle")) and any(
            f.kind == "enfant" and f.status != "dead" for f in _band(game, fig)):
        skill = "paternel" if fig.has("paternel") else "maternelle"
        return Message("engine.panic.child", {"who": who, "skill": words.skill(game, skill)})
    if trigger == "death" and fig.has("egoiste"):
        return Message("engine.panic.selfish", {"who": who,
                                                "skill": words.skill(game, "egoiste")})
    if trigger == "surrounded" and fig.has("tete_brulee"):
        return Message("engine.panic.hothead", {"who": who,
                                                "skill": words.skill(game, "tete_brulee")})
    return None


def _value(game: GameState, fig: Fig) -> tuple[int, int, Fig | None, str]:
    """The P value tested, the roll bonus, and the friend whose value it is (with the
    skill that lends it), None for the figure's own."""
    best, bonus = fig.panic, 0
    leader: Fig | None = None
    skill = ""
    for friend in _band(game, fig):
        if not friend.standing:
            continue
        if friend.has("meneuse") and fig.sex == "F" and friend.panic < best:
            best, leader, skill = friend.panic, friend, "meneuse"
        near = game.distance(fig.id, friend.id) <= LEADER_INCHES + 1e-9
        if near and friend.has("autoritaire") and friend.panic < best:
            best, leader, skill = friend.panic, friend, "autoritaire"
        if near and friend.has("doyen"):
            bonus = 1
    return best, bonus, leader, skill


def panic_test(game: GameState, fig: Fig, reason: str | Message, *, trigger: str) -> None:
    """Test panic now; a failure leaves the figure panicked for the rest of the turn.

    `trigger` is "death", "surrounded" or "half_pv" (the skills that skip a test look at
    it); `reason` is the words shown to players (a message, best)."""
    if not fig.standing or fig.side != "survivors" or fig.panicked:
        return
    why = _immune(game, fig, trigger)
    if why is not None:
        game.note(why)
        return
    who = words.who(game, fig)
    fig.panic_tests += 1
    if fig.has("maline") and fig.panic_tests == 1:
        game.note(Message("engine.panic.savvy", {"who": who,
                                                 "skill": words.skill(game, "maline")}))
        return
    value, bonus, leader, skill = _value(game, fig)
    english = reason.text("en") if isinstance(reason, Message) else reason
    label = f"panic {value}+ ({english})"
    test = Message("engine.purpose.panic", {"n": value, "reason": reason})
    passed = succeeds(game.roll(Roll(label, fig.id, test, kind=RollKind.PANIC, need=value,
                                     modifier=bonus)), value, bonus)
    if not passed:  # one re-roll at most, whatever skills allow it (D12)
        helper = None if fig.has("paume") else next(
            (f for f in _band(game, fig) if f.standing and f.has("rassurant")
             and not f.used_turn.get("rassurant")
             and game.distance(fig.id, f.id) <= RASSURANT_INCHES + 1e-9), None)
        if fig.has("paume"):
            game.note(Message("engine.panic.spaced_out", {
                "who": who, "skill": words.skill(game, "paume")}))
        elif helper is not None:
            helper.used_turn = helper.counted("used_turn", "rassurant", 1)
            game.note(Message("engine.panic.reassured", {
                "helper": words.who(game, helper), "who": who,
                "skill": words.skill(game, "rassurant")}))
        if fig.has("paume") or helper is not None:
            again = Message("engine.purpose.panic_again", {"n": value, "reason": reason})
            passed = succeeds(game.roll(Roll(label + ", re-roll", fig.id, again,
                                             kind=RollKind.PANIC, need=value, modifier=bonus,
                                             again=True)), value, bonus)
    if passed:
        if leader is None:
            game.note(Message("engine.panic.calm", {"who": who, "reason": reason,
                                                    "n": value}))
        else:
            game.note(Message("engine.panic.calm_led", {
                "who": who, "reason": reason, "n": value, "leader": words.who(game, leader),
                "skill": words.skill(game, skill)}))
        return
    fig.panicked = True
    fig.panic_malus = 1
    game.note(Message("engine.panic.panics", {"who": who, "reason": reason}))
    if fig.has("hysterique"):
        side: str = game.settings.hysterique_mover
        if game.mode == "zombie_war":  # "survivors" is her own band, "zombies" the rival one
            side = fig.band if side == "survivors" else game.other(fig.band)
        game.offer(Hysterique(side, fig.id))


FALLS = {"died": Message("engine.panic.reason.died"),
         "down": Message("engine.panic.reason.down"),
         "contaminated": Message("engine.panic.reason.contaminated")}


def after_fall(game: GameState, dead: Fig, how: str) -> None:
    """Every standing survivor of the band within 4 in of a friend who falls tests panic,
    measured now (L127, R5).

    `how` is "died", "down" (put out of action: a trigger only with the default
    `panic_friend_falls = out_of_action`, the rulebook having no death while out of action)
    or "contaminated" (which its caller counts as a fall under
    `contamination_counts_as_death`)."""
    if dead.side != "survivors":
        return
    if how == "down" and game.settings.panic_friend_falls != "out_of_action":
        return
    for fig in _band(game, dead):
        if fig.standing and game.distance(fig.id, dead.id) <= DEATH_INCHES + 1e-9:
            panic_test(game, fig, Message(FALLS[how].code, {"who": words.who(game, dead)}),
                       trigger="death")


def check_surrounded(game: GameState) -> None:
    """Three zombies within 3 in and no friend closer than the third: test, once a turn."""
    zombies = [f.id for f in game.figures.values() if f.is_zombie and f.on_table]
    if len(zombies) < SURROUND_COUNT:
        return
    testing = [f for f in game.figures.values()
               if f.side == "survivors" and f.standing and not f.surrounded_tested]
    if not testing:
        return
    # the zombies within 3 in of each, counted all at once on the distances of the table
    space = game.space()
    index = space.scene.index
    rows = space.distances[np.ix_([index[f.id] for f in testing], [index[z] for z in zombies])]
    within = rows <= SURROUND_INCHES + 1e-9
    for fig, gaps, inside in zip(testing, rows, within, strict=True):
        if int(inside.sum()) < SURROUND_COUNT or fig.surrounded_tested or not fig.standing:
            continue
        near = sorted(float(d) for d in gaps[inside])
        limit = near[SURROUND_COUNT - 1]
        if game.settings.surrounded_friend_rule == "within_3":
            limit = SURROUND_INCHES
        row = space.distance_rows[index[fig.id]]
        if any(row[index[f.id]] <= limit + 1e-9 for f in _band(game, fig) if f.standing):
            continue  # a standing friend at most as close as the third zombie (D18)
        fig.surrounded_tested = True
        panic_test(game, fig, Message("engine.panic.reason.surrounded"), trigger="surrounded")


def check_half_pv(game: GameState, fig: Fig, before: int) -> None:
    """Tested once per game, when PV drop from above half its starting PV to half or less."""
    half = fig.wounds / 2
    if fig.side == "survivors" and not fig.half_pv_tested and fig.pv <= half < before:
        fig.half_pv_tested = True
        panic_test(game, fig, Message("engine.panic.reason.half_pv"), trigger="half_pv")
