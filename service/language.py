"""The language of a request: `?lang=fr|en` first, then the `Accept-Language` header, then
English (DESIGN.md: messages are rendered at the edge)."""

from __future__ import annotations

from flask import has_request_context, request

from i18n import language_of

__all__ = ["request_lang"]


def request_lang() -> str:
    if not has_request_context():
        return "en"
    asked = request.args.get("lang")
    wanted = ([asked] if asked else []) + [tag for tag, _q in request.accept_languages]
    return language_of(wanted)
