"""Errors of the game: malformed actions and actions that break a rule (DESIGN.md)."""

from __future__ import annotations

from geometry.errors import SurviveUsError

__all__ = ["SurviveUsError", "InvalidActionError", "IllegalActionError"]


class InvalidActionError(SurviveUsError, ValueError):
    """An action that is not well formed: unknown type, missing or mistyped field."""

    code = "invalid_action"


class IllegalActionError(SurviveUsError, ValueError):
    """A well-formed action that the rules forbid now; the message says which rule."""

    code = "illegal_action"
