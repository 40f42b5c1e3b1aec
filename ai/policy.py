"""One interface for every player the computer can be: `Policy.choose(game) -> Choice`.

A policy decides for whichever side must decide now (`game.current_side()`, windows
included: a reaction, a contamination, a skill's moment). It takes its RNG in the
constructor, so the same seed gives the same choices. Every choice comes with a short
explanation naming the figures and distances, for a player at the real table.

Policies are registered by name per side: zombies `random`, `greedy`, `tactician` (with
`tactician:easy|normal|hard`); survivors `bot`, `random`. `make_policy(name, side, seed)`
builds one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from i18n import Message
from rules import legal
from rules.actions import (
    Action,
    Contaminate,
    Decline,
    EndActivations,
    Melee,
    Move,
    Pass,
    Shoot,
    actor,
)

if TYPE_CHECKING:
    from rules.game import Game

__all__ = ["Choice", "Policy", "POLICIES", "make_policy", "describe", "who", "policy_names",
           "legal_now"]


@dataclass(frozen=True)
class Choice:
    """An action and why it was chosen, in words; `messages` say it as codes and parameters
    (`i18n.Message`) where the player gives them."""

    action: Action
    explanation: str
    messages: tuple[Message, ...] = ()


class Policy(Protocol):
    def choose(self, game: Game) -> Choice: ...


def legal_now(game: Game) -> list[Action]:
    """The legal actions now (the engine lists only legal ones, windows included: a
    contamination with no AP left is no longer offered)."""
    return game.legal_actions() or [Decline()]


def who(game: Game, fig_id: str) -> str:
    """'Rôdeur z4': a figure's name and id."""
    fig = game.figures.get(fig_id)
    return fig_id if fig is None else f"{fig.name} {fig.id}"


def _dist(game: Game, a: str, b: str) -> float | None:
    fa, fb = game.figures.get(a), game.figures.get(b)
    if fa is None or fb is None or not fa.on_table or not fb.on_table:
        return None
    return game.distance(a, b)


def describe(game: Game, act: Action) -> str:
    """The action in words, with the figures' names and the distance between them."""
    fig = actor(act)
    if isinstance(act, Decline):
        return "lets the opportunity pass"
    if isinstance(act, Pass):
        return f"the {game.current_side()} pass, keeping {game.pools.get(game.to_act, 0)} AP"
    if isinstance(act, EndActivations):
        return f"the {game.current_side()} end their activations for this turn"
    target = getattr(act, "target", None) or (act.toward if isinstance(act, Move)
                                               and isinstance(act.toward, str) else None)
    far = "" if target is None else _dist(game, fig, target)
    at = "" if not far else f" ({far:.1f} in away)"
    if isinstance(act, Move):
        if legal.is_hold(game, act):
            return f"{who(game, fig)} stands still, spending 1 AP (the AP cannot be kept)"
        if isinstance(act.toward, str):
            return f"{who(game, fig)} moves toward {who(game, act.toward)}{at}"
        spot = act.to or act.toward
        return f"{who(game, fig)} moves to {spot}"
    if isinstance(act, Melee):
        return (f"{who(game, fig)} attacks {who(game, act.target)} in melee with "
                f"{act.ap} AP" + (f" ({act.weapon})" if act.weapon else ""))
    if isinstance(act, Shoot):
        return f"{who(game, fig)} shoots {who(game, act.target)}{at} with {act.weapon}"
    if isinstance(act, Contaminate):
        return f"{who(game, fig)} contaminates {who(game, act.target)}, who is down"
    words = f"{who(game, fig)} {act.type}"
    return words + (f" {who(game, target)}{at}" if target else "")


# --- the registry --------------------------------------------------------------------------

Factory = Callable[[str, random.Random], Policy]
POLICIES: dict[str, dict[str, Factory]] = {"zombies": {}, "survivors": {}}


def register(side: str, name: str, factory: Factory) -> None:
    POLICIES[side][name] = factory


def policy_names(side: str) -> list[str]:
    _load()
    return sorted(POLICIES[side])


def _load() -> None:
    from ai import group, search, survivors, zombies  # noqa: F401  (they register themselves)


def make_policy(name: str, side: str, seed: int | str) -> Policy:
    """The policy called `name` (`tactician:hard`: a level after a colon) for `side`."""
    _load()
    base, _, level = name.partition(":")
    table = POLICIES.get(side)
    if table is None:
        raise ValueError(f"unknown side {side!r} (known: zombies, survivors)")
    if base not in table:
        raise ValueError(f"unknown {side} policy {name!r} (known: {', '.join(sorted(table))})")
    return table[base](level, random.Random(f"{side}:{name}:{seed}"))
