"""Every action's rule, found by the action's class, and what is asked of all of them: its
cost, its check, a figure's listing, its resolution and its words.

`RULES` maps each action type to its rule object (`rules.action_rules`); the side's own
actions (pass, end the activations, let a window pass) have theirs here, as whether a side
may pass depends on its listing. A figure's actions are listed in a fixed order, rule by
rule (`LISTING`): moves, melee, shots, care (friend by friend: heal, revive, carry), doors,
crates and items, exits, the card's actions, skills. The order is part of what is played:
a player who picks among listed actions at random plays what it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from i18n import Message
from rules import words
from rules.action_rules import (
    MOVE_TARGETS,
    ActionRule,
    CarryRule,
    ContaminateRule,
    DoorRule,
    ExitRule,
    GiveRule,
    HealRule,
    InteractRule,
    Listing,
    MeleeRule,
    MoveRule,
    ReviveRule,
    ShootRule,
    SpecialRule,
    TakeRule,
    TurnRule,
    UseSkillRule,
    refuse,
)
from rules.actions import Action, Decline, EndActivations, Pass
from rules.activity import activatable, enemies_by_distance, free_zombie
from rules.attacks import REACH_INCHES, hit_back, most_melee_ap
from rules.errors import IllegalActionError

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["RULES", "LISTING", "rule_for", "cost", "check_action", "figure_actions",
           "resolve_action", "action_message", "activations", "may_pass", "PassRule",
           "EndActivationsRule", "DeclineRule"]

_ENDS = {"survivors": Message("engine.end_activations.survivors"),
         "zombies": Message("engine.end_activations.zombies"),
         "band": Message("engine.end_activations.band")}
_PASSES = {"survivors": Message("engine.passes.survivors"),
           "zombies": Message("engine.passes.zombies"),
           "band": Message("engine.passes.band")}
_MUST_ACTIVATE = {"survivors": Message("refusal.must_activate.survivors"),
                  "zombies": Message("refusal.must_activate.zombies"),
                  "band": Message("refusal.must_activate.band")}


class PassRule(TurnRule[Pass]):
    """The side to act passes, keeping its AP; two passes in a row end the turn (D16).
    With no AP, or nothing it may activate, it always may; otherwise only with the
    `allow_pass` setting (R1)."""

    action = Pass

    def check_turn(self, game: GameState, act: Pass) -> None:
        if not may_pass(game, game.to_act):
            raise refuse(words.by_side(game.to_act, _MUST_ACTIVATE), "action.type")

    def resolve_turn(self, game: GameState, act: Pass) -> None:
        game.note(words.by_side(game.to_act, _PASSES, ap=game.pools[game.to_act]))

    def words(self, game: GameState, act: Pass) -> Message:
        return Message("ai.act.pass", {"side": words.side_name(game.current_side()),
                                       "ap": game.pools.get(game.to_act, 0)})


class EndActivationsRule(TurnRule[EndActivations]):
    """The side to act gives up the rest of its AP this turn (when it may pass)."""

    action = EndActivations

    def check_turn(self, game: GameState, act: EndActivations) -> None:
        PASS.check_turn(game, Pass())

    def resolve_turn(self, game: GameState, act: EndActivations) -> None:
        side = game.to_act
        game.note(words.by_side(side, _ENDS, ap=game.pools[side]))
        game.pools[side] = 0
        game.ended.append(side)

    def words(self, game: GameState, act: EndActivations) -> Message:
        return Message("ai.act.end", {"side": words.side_name(game.current_side())})


class DeclineRule(TurnRule[Decline]):
    """Let an offered moment pass: only while a window is open (`rules.window_rules`)."""

    action = Decline

    def check_turn(self, game: GameState, act: Decline) -> None:
        raise refuse(Message("refusal.nothing_to_decline"), "action.type")

    def words(self, game: GameState, act: Decline) -> Message:
        return Message("ai.act.decline", {"side": words.side_name(game.current_side())})


MOVE, CARRY, MELEE, SHOOT = MoveRule(), CarryRule(), MeleeRule(), ShootRule()
HEAL, REVIVE, DOOR = HealRule(), ReviveRule(), DoorRule()
INTERACT, TAKE, GIVE = InteractRule(), TakeRule(), GiveRule()
EXIT, SPECIAL, SKILL = ExitRule(), SpecialRule(), UseSkillRule()
CONTAMINATE = ContaminateRule()
PASS, END, DECLINE = PassRule(), EndActivationsRule(), DeclineRule()

RULES: dict[type[Action], ActionRule[Any]] = {
    rule.action: rule for rule in (MOVE, SHOOT, MELEE, HEAL, REVIVE, CARRY, DOOR, INTERACT,
                                   TAKE, GIVE, EXIT, SPECIAL, CONTAMINATE, SKILL, DECLINE,
                                   PASS, END)}


def rule_for(act: Action) -> ActionRule[Any]:
    """The rule of `act`, by its class."""
    return RULES[type(act)]


def cost(game: GameState, act: Action) -> int:
    """AP the action takes from its side's pool."""
    return rule_for(act).cost(game, act)


def check_action(game: GameState, fig: Fig, act: Action, *, free: bool = False) -> None:
    """The rules of the action itself, once `fig` may act (shared by normal activations and
    windows): the AP, who may take it, then its own rule. `free`: no AP to pay."""
    rule = rule_for(act)
    ap = 0 if free or free_zombie(game, fig) else rule.cost(game, act)
    pool = game.pools.get(game.side_of(fig), 0)
    if ap > pool:
        raise refuse(Message("refusal.not_enough_ap", {"ap": ap, "left": pool}), "action")
    if fig.is_zombie and not rule.zombies:
        raise refuse(Message("refusal.zombie_actions"), "action.type")
    if fig.status == "down" and (ap > 1 or not rule.heroic):
        raise refuse(Message("refusal.heroic_one_ap", {
            "who": words.who(game, fig), "skill": words.skill(game, "heroique")}),
            "action.type")
    rule.check(game, fig, act)


def resolve_action(game: GameState, fig: Fig, act: Action) -> None:
    """Carry out `act` of `fig` (paid for), then the violent replies it earned."""
    rule_for(act).resolve(game, fig, act)
    hit_back(game)


def action_message(game: GameState, act: Action) -> Message:
    """The action in words: who does what to whom, and how far away it is."""
    return rule_for(act).words(game, act)


# --- listing -----------------------------------------------------------------------------


Want = Callable[[str], bool]


def _care(game: GameState, fig: Fig, want: Want) -> list[Action]:
    """Heals, revivals and carries, friend by friend (those in contact, and itself)."""
    if fig.is_zombie:
        return []
    out: list[Action] = []
    for other in game.figures.values():
        if not (other.side == "survivors" and other.band == fig.band and other.on_table):
            continue
        if other.id != fig.id and not game.in_contact(fig.id, other.id):
            continue
        for rule in (HEAL, REVIVE, CARRY):
            if want(rule.kind):
                act = rule.for_friend(game, fig, other)
                if act is not None:
                    out.append(act)
    return out


LISTING: tuple[ActionRule[Any], ...] = (MOVE, MELEE, SHOOT, HEAL, DOOR, INTERACT, EXIT,
                                        SPECIAL, SKILL)
"""The rules whose candidates a figure's listing offers, in order (HEAL stands for the
care of friends, `_care`: heals, revivals and carries)."""


def figure_actions(game: GameState, fig: Fig, *, kinds: Sequence[str] = (), free: bool = False,
                   max_ap: int | None = None) -> list[Action]:
    """Legal actions of one figure (optionally only some kinds), each checked. `free`: no
    AP to pay (a window's); `max_ap`: the most AP one action may take.

    A zombie's listing depends on little (where it and the humans stand, the pool): it is
    kept by just that (`_zombie_key`), from state to state and copy to copy, so a zombie
    that nothing near has changed for is not listed again."""
    pool = fig.attack if free_zombie(game, fig) else game.pools.get(game.side_of(fig), 0)
    budget = pool if max_ap is None else min(pool, max_ap)

    def want(kind: str) -> bool:
        return not kinds or kind in kinds

    key = _zombie_key(game, fig, tuple(kinds), free, pool, budget, want)
    if key is not None:
        kept: tuple[Action, ...] | None = game.memo.get(key)
        if kept is not None:
            return list(kept)
    out = _listed(game, fig, free, pool, budget, want)
    if key is not None:
        game.remember(key, tuple(out))
    return out


def _listed(game: GameState, fig: Fig, free: bool, pool: int, budget: int,
            want: Want) -> list[Action]:
    """`figure_actions` made: each rule's candidates in `LISTING` order, checked."""
    listing = Listing(pool, budget, enemies_by_distance(game, fig))
    out: list[Action] = []
    for rule in LISTING:
        if rule is HEAL:
            candidates = _care(game, fig, want)
        elif want(rule.kind):
            candidates = list(rule.candidates(game, fig, listing))
        else:
            continue
        if rule.listed_legal:
            out += candidates
            continue
        for act in candidates:
            try:
                check_action(game, fig, act, free=free)
            except IllegalActionError:
                continue
            out.append(act)
    return out


def _zombie_key(game: GameState, fig: Fig, kinds: tuple[str, ...], free: bool, pool: int,
                budget: int, want: Want) -> tuple[Any, ...] | None:
    """Everything a zombie's listing depends on, when that is all there is: in a solo game
    with no action of the card open to it, its moves (toward its `MOVE_TARGETS` nearest
    humans, round the terrain) and its strikes (the humans within reach, the AP it may
    spend) depend only on where it stands, on those humans (where, their bases, statuses
    and Discrète) and on the pool as far as it limits them; the terrain and the settings
    are the game's own (`GameState.memo` is dropped with the terrain). None: list it
    afresh."""
    if not fig.is_zombie or game.mode != "solo":
        return None
    if want(SPECIAL.kind) and game.referee is not None and fig.standing and \
            game.referee.special_actions(game, fig):
        return None
    enemies = enemies_by_distance(game, fig)
    reach = sum(1 for d, _ in enemies if d <= REACH_INCHES + 1e-9)
    near = tuple((h.id, h.x, h.y, h.base_mm, h.status, h.side, h.has("discrete"))
                 for _, h in enemies[:max(MOVE_TARGETS, reach)])
    # its strikes take 1 AP each up to A dice (D5), its moves 1 AP
    spend = (min(budget, most_melee_ap(game, fig, None)), pool >= 1)
    return ("zombie", fig.id, fig.x, fig.y, fig.base_mm, fig.attack, fig.status, kinds, free,
            spend, near)


def activations(game: GameState, side: str) -> list[Action]:
    """Every legal action of every figure `side` may activate now."""
    out: list[Action] = []
    for fig in activatable(game, side):
        out += figure_actions(game, fig)
    return out


def may_pass(game: GameState, side: str, listed: list[Action] | None = None) -> bool:
    """May `side` pass (or end its activations) now? With `allow_pass`, always; by default
    only with no AP or no legal activation (R1, L74). `listed`: the side's legal
    activations, when the caller has listed them already."""
    if game.settings.allow_pass or game.pools.get(side, 0) <= 0:
        return True
    return not (listed if listed is not None else activations(game, side))
