"""Secret tokens for campaigns, games and rosters: handed out once, stored only as a hash."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from apiflask import APIFlask
from flask import current_app, request

from i18n import Message
from service.errors import ApiError, TokenRequired
from service.words import stored

__all__ = ["new_token", "token_hash", "require_token", "register"]


def new_token() -> tuple[str, str]:
    """A fresh token and the sha256 hex digest that is stored in its place."""
    token = secrets.token_urlsafe(24)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def require_token(stored_hash: str, what: Message | str) -> None:
    """The request must carry `Authorization: Bearer TOKEN` matching `stored_hash`.

    No header: 401. A wrong token: 403 `not_yours` (the id is no secret: anyone may read
    the thing; the token is what opens it for changes). `what` names the thing
    (`service.words.stored`; text is shown as it is).
    """
    token = _bearer(what)
    if not hmac.compare_digest(token_hash(token), stored_hash):
        raise ApiError(Message("service.token.wrong", {"what": what}), "Authorization",
                       code="not_yours", status=403)


def _bearer(what: Message | str) -> str:
    """The token the request carries; none: 401 `token_required`."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TokenRequired(Message("service.token.needed", {"what": what}), "Authorization")
    return token.strip()


def _needs_token(view: Any) -> bool:
    """Whether the view's operation requires a token: its `security` is `Bearer` alone (an
    export's, `[{"Bearer": []}, {}]`, makes the token optional)."""
    security = (getattr(view, "_spec", None) or {}).get("security")
    if isinstance(security, str):
        return True
    return isinstance(security, list) and bool(security) and {} not in security


def _token_first() -> None:
    """A route that needs a token answers 401 to a request without one before anything is
    looked up: whether the id exists or not (a 404 would tell which ids do, and a client
    replaying a change without its token gets the 401 it expects either way)."""
    if request.url_rule is None or request.endpoint is None:
        return  # no such route: Flask answers 404 after the hooks
    if not _needs_token(current_app.view_functions.get(request.endpoint)):
        return
    args = request.view_args or {}
    kind, row_id = next(((name.removesuffix("_id"), str(value))
                         for name, value in args.items() if name.endswith("_id")), ("game", ""))
    _bearer(stored(kind, row_id))


def register(app: APIFlask) -> None:
    """Check a required token's presence before every view that needs one."""
    app.before_request(_token_first)
