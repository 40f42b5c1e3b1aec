"""Errors of the game: malformed actions and actions that break a rule (DESIGN.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from geometry.errors import SurviveUsError
from i18n import Message
from rules import words

if TYPE_CHECKING:
    from rules.state import GameState

__all__ = ["SurviveUsError", "InvalidActionError", "IllegalActionError", "missing_figure"]


class InvalidActionError(SurviveUsError, ValueError):
    """An action that is not well formed: unknown type, missing or mistyped field."""

    code = "invalid_action"


class IllegalActionError(SurviveUsError, ValueError):
    """A well-formed action that the rules forbid now; the message says which rule.

    `advice`, when set, gives the same refusal with what to do instead worked out (the way
    round a wall, the nearest spot where the base fits): searches too slow for every try of
    a move, so `rules.legal.check`, which answers a person, asks for it (`advised`)."""

    code = "illegal_action"
    advice: Callable[[], Message] | None = None

    def advised(self) -> IllegalActionError:
        """This refusal with its advice, when it has any."""
        if self.advice is None:
            return self
        better = IllegalActionError(self.advice(), self.where)
        better.__cause__ = self.__cause__
        return better


def missing_figure(game: GameState, figure_id: str, where: str) -> IllegalActionError:
    """A figure named in an action that is not there to act on: gone from the table, or
    unknown to the game (the id is kept in the parameters, for programs)."""
    if figure_id in game.figures:
        return IllegalActionError(Message("refusal.not_on_table", {
            "who": words.who(game, figure_id)}), where)
    return IllegalActionError(Message("refusal.unknown_figure", {"id": figure_id}), where)
