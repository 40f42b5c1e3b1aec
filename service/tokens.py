"""Secret tokens for campaigns, games and rosters: handed out once, stored only as a hash."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import request

from i18n import Message
from service.errors import ApiError, TokenRequired

__all__ = ["new_token", "token_hash", "require_token"]


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
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TokenRequired(Message("service.token.needed", {"what": what}), "Authorization")
    if not hmac.compare_digest(token_hash(token.strip()), stored_hash):
        raise ApiError(Message("service.token.wrong", {"what": what}), "Authorization",
                       code="not_yours", status=403)
