"""HTTP errors in the project's one shape: `{"error": {"code", "message", "where"}}`."""

from __future__ import annotations

from typing import Any

from geometry.errors import SurviveUsError
from i18n import Message, render

__all__ = ["ApiError", "NotFound", "Conflict", "TokenRequired", "error_body"]


class ApiError(SurviveUsError):
    """An error answered with `status` (the engine's own errors are 422)."""

    status = 422

    def __init__(self, message: str | Message, where: str = "", *, code: str | None = None,
                 status: int | None = None, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message, where)
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.extra = extra or {}

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        body: dict[str, Any] = super().to_json(lang)
        body["error"].update(self.extra)
        return body


class NotFound(ApiError):
    code = "not_found"
    status = 404


class Conflict(ApiError):
    code = "stale_version"
    status = 409


class TokenRequired(ApiError):
    code = "token_required"
    status = 401


def error_body(code: str, message: str | Message, where: str = "",
               lang: str = "en") -> dict[str, Any]:
    """The error body; a message (code and parameters) is said in `lang` and kept under
    `words`, as `SurviveUsError.to_json` does."""
    if isinstance(message, Message):
        return {"error": {"code": code, "message": render(message, lang), "where": where,
                          "words": message.to_json()}}
    return {"error": {"code": code, "message": message, "where": where}}
