"""One interface for every player the computer can be: `Policy.choose(game) -> Choice`.

A policy decides for whichever side must decide now (`game.current_side()`, windows
included: a reaction, a contamination, a skill's moment). It takes its RNG in the
constructor, so the same seed gives the same choices. Every choice comes with a short
explanation naming the figures and distances, for a player at the real table, as messages
(`i18n.Message`: a code and its parameters) said in French or English at the edge.

Policies are registered by name per side: zombies `random`, `greedy`, `tactician` (with
`tactician:easy|normal|hard`); survivors `bot`, `random`. `make_policy(name, side, seed)`
builds one.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ai import words
from ai.words import action_message, said, side_name
from geometry.errors import SurviveUsError
from i18n import Message, Name, render
from rules.actions import Action, Decline

if TYPE_CHECKING:
    from rules.game import Game

__all__ = ["Choice", "Policy", "POLICIES", "make_policy", "describe", "who", "policy_names",
           "legal_now", "explained", "action_message", "PolicyError", "level_error"]


@dataclass(frozen=True)
class Choice:
    """An action and why it was chosen: `messages` say it as codes and parameters
    (`i18n.Message`), put in words in a language by `text(lang)`; `explanation` is their
    English, for logs and studies."""

    action: Action
    messages: tuple[Message, ...] = ()

    def text(self, lang: str = "en") -> str:
        return said(self.messages, lang)

    @functools.cached_property
    def explanation(self) -> str:
        return said(self.messages, "en")


def explained(act: Action, *messages: Message) -> Choice:
    """A choice with its messages."""
    return Choice(act, messages)


class Policy(Protocol):
    def choose(self, game: Game) -> Choice: ...


def legal_now(game: Game) -> list[Action]:
    """The legal actions now (the engine lists only legal ones, windows included: a
    contamination with no AP left is no longer offered)."""
    return game.legal_actions() or [Decline()]


def who(game: Game, fig_id: str) -> Name:
    """What a person calls the figure, in French and English ("Rôdeur 4" / "Walker 4"):
    `rules.names.figure_name`, never its id."""
    return words.who(game, fig_id)


def describe(game: Game, act: Action, lang: str = "en") -> str:
    """The action in words in `lang`, with the figures' names and the distance between
    them (`action_message` is the same as a message)."""
    return render(action_message(game, act), lang)


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
        raise PolicyError(Message("ai.error.side", {"side": side,
                                                    "known": ["zombies", "survivors"]}))
    if base not in table:
        raise PolicyError(Message("ai.error.policy", {"side": side_name(side), "name": name,
                                                      "known": sorted(table)}))
    return table[base](level, random.Random(f"{side}:{name}:{seed}"))


class PolicyError(SurviveUsError, ValueError):
    """No such player: an unknown side, policy or level (a ValueError, as before)."""

    code = "unknown_policy"


def level_error(kind: str, level: str, known: list[str]) -> PolicyError:
    """An unknown level of a policy (`tactician:expert`)."""
    return PolicyError(Message("ai.error.level", {"policy": kind, "level": level,
                                                  "known": known}))
