"""The project's error hierarchy, rooted here because geometry is the lowest layer.

Every error carries a short machine `code`, a human `message` that quotes the bad value,
and `where`: a path to the offending item (``"figures[2].x"``,
``"skills.toml:agile.cost"``).
"""

from __future__ import annotations

__all__ = ["SurviveUsError", "SceneError", "DataError", "QuestionError"]


class SurviveUsError(Exception):
    """Root of every error this project raises on purpose."""

    code = "error"

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def to_json(self) -> dict[str, dict[str, str]]:
        """The error body of DESIGN.md: ``{"error": {"code", "message", "where"}}``."""
        return {"error": {"code": self.code, "message": self.message, "where": self.where}}


class SceneError(SurviveUsError, ValueError):
    """A scene that is malformed or physically impossible (overlaps, off the table...)."""

    code = "invalid_scene"


class QuestionError(SurviveUsError, ValueError):
    """An arbitration question that cannot be answered as asked (unknown id, bad field)."""

    code = "invalid_question"


class DataError(SurviveUsError, ValueError):
    """A rules or scenario data file that fails validation."""

    code = "invalid_data"
