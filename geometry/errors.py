"""The project's error hierarchy, rooted here because geometry is the lowest layer.

Every error carries a short machine `code`, a human `message` that quotes the bad value,
and `where`: a path to the offending item (``"figures[2].x"``,
``"skills.toml:agile.cost"``). The message may be an `i18n.Message` (a code and its
parameters): it is then said in the language asked for (`text(lang)`, `to_json(lang)`),
and `message` is its English words, for logs and `str()`.
"""

from __future__ import annotations

import json
from typing import Any

from i18n import Message, render

__all__ = ["SurviveUsError", "SceneError", "DataError", "QuestionError", "shown"]


def shown(value: Any) -> str:
    """A bad value as the request had it (JSON), shortened: a message's parameter, for the
    person who sent it to find and fix it."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class SurviveUsError(Exception):
    """Root of every error this project raises on purpose."""

    code = "error"

    def __init__(self, message: str | Message, where: str = "") -> None:
        self.words = message if isinstance(message, Message) else None
        # a message is put in words only when read: refusals made and caught inside the
        # engine (listing the legal actions, the AI trying moves) are never read
        self._text = None if isinstance(message, Message) else message
        super().__init__(message.code if isinstance(message, Message) else message)
        self.where = where

    @property
    def message(self) -> str:
        """The English words (a message's, rendered when first asked)."""
        if self._text is None:
            self._text = render(self.words, "en") if self.words is not None else ""
        return self._text

    @message.setter
    def message(self, text: str) -> None:
        self._text = text
        self.words = None

    def __str__(self) -> str:
        return self.message

    def text(self, lang: str = "en") -> str:
        """The message in `lang` (a plain-text message is the same in every language)."""
        return self.message if self.words is None else render(self.words, lang)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The error body of DESIGN.md: ``{"error": {"code", "message", "where"}}``, the
        message in `lang`; with its code and parameters under ``"words"`` when it has them."""
        body: dict[str, Any] = {"code": self.code, "message": self.text(lang),
                                "where": self.where}
        if self.words is not None:
            body["words"] = self.words.to_json()
        return {"error": body}


class SceneError(SurviveUsError, ValueError):
    """A scene that is malformed or physically impossible (overlaps, off the table...)."""

    code = "invalid_scene"


class QuestionError(SurviveUsError, ValueError):
    """An arbitration question that cannot be answered as asked (unknown id, bad field)."""

    code = "invalid_question"


class DataError(SurviveUsError, ValueError):
    """A rules or scenario data file that fails validation."""

    code = "invalid_data"
