"""What may be done now: the whole check of an action, with a player's reason, and the
legal actions, listed on demand.

`check` refuses an action with a message that names the rule and what to do instead
(`refusal.*` codes: "Rôdeur 3 est à 23,4 ps de l'humain le plus proche : un zombie n'agit qu'à
20 ps ou moins d'un humain"): the open window's rule (`rules.window_rules`), or who may act
now (`rules.activity`) and then the action's own rule (`rules.rulebook`). `legal_actions`
lists a finite set of legal actions for bots and tests: moves are listed as "toward" a
figure (the game finds the route), while players may also move to any exact point, which
`check` verifies. `figure_actions` lists one figure's alone; both are kept for the state
they were made on (`GameState.listed`), and `is_legal` answers for one action without
listing anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from i18n import Message
from rules import rulebook, words
from rules.action_rules import TurnRule, refuse
from rules.actions import Action, EndActivations, Pass, actor
from rules.activity import activatable, why_not_active
from rules.errors import IllegalActionError
from rules.movement import hold, is_hold
from rules.rulebook import check_action, may_pass, rule_for
from rules.window_rules import check_window, window_actions, window_actions_of

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["check", "is_legal", "is_known_legal", "legal_actions", "figure_actions",
           "actions_of", "may_pass", "hold", "is_hold", "holds", "give_up"]

_NOT_YOURS = {"survivors": Message("refusal.not_your_turn.survivors"),
              "zombies": Message("refusal.not_your_turn.zombies"),
              "band": Message("refusal.not_your_turn.band")}


def check(game: GameState, act: Action) -> None:
    """Refuse `act` with the rule it breaks and, for a move, what to do instead (the way
    round, the nearest spot where the base fits: `IllegalActionError.advice`), or return
    quietly."""
    if is_known_legal(game, act):
        return
    try:
        _check(game, act)
    except IllegalActionError as error:
        if error.advice is None:
            raise
        raise error.advised() from None
    _known(game).add(act)


def _check(game: GameState, act: Action) -> None:
    """`check` without the advice: the rule broken, quickly."""
    if game.pending:
        check_window(game, game.pending[0], act)
        return
    rule = rule_for(act)
    rule.check_turn(game, act)
    if isinstance(rule, TurnRule):
        return
    side = game.to_act
    fig = game.figures.get(actor(act))
    if fig is None:
        raise refuse(Message("refusal.unknown_figure", {"id": actor(act)}), "action.figure")
    if game.side_of(fig) != side:
        raise refuse(words.by_side(side, _NOT_YOURS, who=words.who(game, fig)),
                     "action.figure")
    reason = why_not_active(game, fig)
    if reason is not None:
        raise refuse(reason, "action.figure")
    check_action(game, fig, act)


def is_legal(game: GameState, act: Action) -> bool:
    """Whether the rules accept `act` now (`check` without the reason): the bots ask it of
    actions the listing leaves out, moves to a point. An action listed for this very state
    is legal without asking again."""
    if is_known_legal(game, act):
        return True
    try:
        _check(game, act)
    except IllegalActionError:
        return False
    _known(game).add(act)
    return True


def is_known_legal(game: GameState, act: Action) -> bool:
    """Whether `act` was listed or checked legal for this very state already (a bot that
    checks the action it picks, then the game that applies it, ask once)."""
    return act in game.listed.get("known", ())


def _known(game: GameState) -> set[Action]:
    """The actions known legal in this state (listed or checked)."""
    known: set[Action] | None = game.listed.get("known")
    if known is None:
        known = game.listed["known"] = set()
    return known


def figure_actions(game: GameState, fig: Fig, *, kinds: Sequence[str] = ()) -> list[Action]:
    """Legal actions of one figure the side to act may activate (optionally only some
    kinds), kept for this state."""
    key = ("figure", fig.id, tuple(kinds))
    listed = game.listed.get(key)
    if listed is None:
        listed = rulebook.figure_actions(game, fig, kinds=kinds)
        game.listed[key] = listed
    return list(listed)


def actions_of(game: GameState, fig: Fig) -> list[Action]:
    """One figure's legal actions now, as `legal_actions` lists them (the open window's, or
    its activation's; under R1 its way of standing still aside), without listing anyone
    else's."""
    if game.outcome is not None:
        return []
    if game.pending:
        return window_actions_of(game, game.pending[0], fig)
    if game.side_of(fig) != game.to_act or why_not_active(game, fig) is not None:
        return []
    return figure_actions(game, fig)


def legal_actions(game: GameState) -> list[Action]:
    """Every legal action now: the open window's, or every activation of the side to act
    with its pass (or, under R1, its figures standing still); kept for this state."""
    listed = game.listed.get("legal")
    if listed is None:
        listed = _legal_actions(game)
        game.listed["legal"] = listed
        _known(game).update(listed)
    return list(listed)


def _legal_actions(game: GameState) -> list[Action]:
    if game.outcome is not None:
        return []
    if game.pending:
        return window_actions(game, game.pending[0])
    out = rulebook.activations(game, game.to_act)
    if may_pass(game, game.to_act, out):
        out += [Pass(), EndActivations()]
    else:
        out += holds(game, game.to_act)
    return out


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
