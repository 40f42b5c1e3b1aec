"""What a request must be before a view reads it (docs/api.md, Conventions).

- **Writes come from this site.** A browser names the site of the page that sends a request
  in `Origin` (and `Sec-Fetch-Site`). A write (POST, PUT, PATCH, DELETE) from a page of
  another site is refused with 403 `cross_site`, so no other site can make a visitor's
  browser create games or send heavy requests here; a site listed in `ALLOWED_ORIGINS`
  (`survive-us serve --allow-origin URL`, or the environment's `SURVIVE_US_ALLOW_ORIGINS`,
  separated by spaces or commas) may, and gets the CORS headers its page's browser asks for.
  A client that is no page (curl, the command line, `vision watch`) sends no `Origin` and is
  let through: it needs the token anyway.
- **JSON routes take JSON only.** A route that reads a JSON body answers 415 to any other
  `Content-Type`: a page of another site can post a form or `text/plain` without asking the
  server first, never `application/json`.
- **JSON is read strictly** (`service.jsonio.parse_json` as the app's JSON reader): nesting
  deeper than 32, NaN or Infinity, numbers out of range, and text with a NUL character or a
  lone surrogate are refused before anything is stored, naming where (`json.roster.name`),
  since no record holding them could be read back (PostgreSQL refuses NaN and NUL; UTF-8
  cannot write a lone surrogate; the answer's serializer stops at 255 levels). A `null` body
  is no body (422), where it used to be taken for `{}`.
- **Path and query values** holding a NUL or a lone surrogate are refused (422, naming the
  parameter): `GET /games/abc%00` is a request PostgreSQL cannot even look up.
- **The OpenAPI document says so** where it declares a value: a text (a string field, a
  query or path value, an object's key) has the `pattern` of `NO_NUL` unless it has its
  own, and an integer is bounded by `MAX_DIGITS` digits, so a client reading the spec does
  not take for valid what the reader refuses. The documents the engine checks field by
  field (a scene, a roster, an action) stay open objects: whatever they hold is the
  engine's to refuse, with 422 as any of their mistakes.
"""

from __future__ import annotations

import os
import re
from typing import Any
from urllib.parse import urlsplit

from apiflask import APIFlask
from flask import Response, current_app, request
from flask.json.provider import DefaultJSONProvider

from i18n import Message
from service.errors import ApiError
from service.jsonio import MAX_DIGITS, JsonRefused, parse_json, text_problem

__all__ = ["register", "allowed_origins", "StrictJSONProvider", "ENV_ORIGINS"]

ENV_ORIGINS = "SURVIVE_US_ALLOW_ORIGINS"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
JSON_TYPE = "application/json"
CORS_HEADERS = "Authorization, Content-Type, Accept, Accept-Language, Last-Event-ID"
NO_NUL = "^[^\\u0000]*$"  # a JSON Schema pattern (ECMA regular expression): no NUL character
LARGEST = 10**MAX_DIGITS - 1  # the largest integer the reader takes
OWN_TEXT_RULE = ("pattern", "enum", "const", "format", "contentMediaType")


class StrictJSONProvider(DefaultJSONProvider):
    """The app's JSON: answers written as Flask writes them; bodies read by `parse_json`, a
    refusal answered in the API's one error shape."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return parse_json(s, "json")
        except JsonRefused as error:
            status = 400 if error.code == "invalid_json" else 422
            raise ApiError(error.words or error.message, error.where, code=error.code,
                           status=status) from None


def allowed_origins(configured: Any = None) -> frozenset[str]:
    """The sites whose pages may write here: `configured` (a list, or one text) and the
    environment's, each as `scheme://host[:port]`, lower case, without a trailing slash."""
    found: list[str] = []
    for source in (configured, os.environ.get(ENV_ORIGINS)):
        if isinstance(source, str):
            found += re.split(r"[\s,]+", source)
        elif source:
            found += [str(s) for s in source]
    return frozenset(o.strip().rstrip("/").lower() for o in found if o.strip())


def _same_site(origin: str) -> bool:
    """Whether a page at `origin` is one this server serves: the same host and port as the
    request's `Host` (behind a proxy that rewrites it, list the public site instead). The
    scheme is not compared: a proxy ending TLS talks plain HTTP to the service."""
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return bool(parts.scheme in ("http", "https") and parts.netloc
                and parts.netloc.lower() == request.host.lower())


def _listed(origin: str | None) -> bool:
    return origin is not None and origin.rstrip("/").lower() in current_app.config[
        "ALLOWED_ORIGINS"]


def _refuse_cross_site() -> None:
    origin = request.headers.get("Origin")
    if origin is not None:
        if _same_site(origin) or _listed(origin):
            return
    elif request.headers.get("Sec-Fetch-Site", "").lower() not in ("cross-site", "same-site"):
        return  # no page named (a program), or the browser says this site's own page
    shown = origin if origin is not None else request.headers.get("Sec-Fetch-Site", "")
    raise ApiError(Message("service.request.cross_site", {"origin": shown[:200]}), "Origin",
                   code="cross_site", status=403)


def _refuse_bad_text() -> None:
    """A NUL or a lone surrogate in the path's values or the query's names and values."""
    for name, value in (request.view_args or {}).items():
        problem = text_problem(value, f"path.{name}") if isinstance(value, str) else None
        if problem is not None:
            raise ApiError(problem.words or problem.message, problem.where,
                           code=problem.code, status=422)
    for name, value in request.args.items(multi=True):
        problem = text_problem(name, "query") or text_problem(value, f"query.{name}")
        if problem is not None:
            raise ApiError(problem.words or problem.message, problem.where,
                           code=problem.code, status=422)


def _reads_json() -> bool:
    """Whether the route asked for takes a JSON body (apiflask's `@input` in json)."""
    view = current_app.view_functions.get(request.endpoint or "")
    spec = getattr(view, "_spec", None)
    return isinstance(spec, dict) and spec.get("content_type") == JSON_TYPE


def _check() -> None:
    if request.method in WRITES:
        _refuse_cross_site()
    _refuse_bad_text()
    if request.method not in WRITES or not _reads_json():
        return
    if request.mimetype != JSON_TYPE:
        got = request.mimetype or Message("service.request.no_media_type")
        raise ApiError(Message("service.request.media_type_got", {"got": got}),
                       "Content-Type", code="unsupported_media_type", status=415)
    if request.get_json() is None:  # apiflask would take null for {}
        raise ApiError(Message("service.request.null_body"), "json", code="invalid_request")


def _cors(response: Response) -> Response:
    """A listed site's page may read the answers and send JSON with a token (preflight)."""
    origin = request.headers.get("Origin")
    if origin is None or not _listed(origin) or _same_site(origin):
        return response
    response.headers["Access-Control-Allow-Origin"] = origin
    response.vary.add("Origin")
    if request.method == "OPTIONS":
        response.headers["Access-Control-Allow-Methods"] = "GET, POST, PUT, DELETE"
        response.headers["Access-Control-Allow-Headers"] = CORS_HEADERS
        response.headers["Access-Control-Max-Age"] = "600"
    return response


_ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _declare_limits(node: Any) -> None:
    """Texts without a NUL, integers within `MAX_DIGITS` digits, everywhere in `node`."""
    if isinstance(node, list):
        for item in node:
            _declare_limits(item)
        return
    if not isinstance(node, dict):
        return
    kind = node.get("type")
    if kind == "string" and not any(rule in node for rule in OWN_TEXT_RULE):
        node["pattern"] = NO_NUL
    elif kind == "integer":
        if "minimum" not in node and "exclusiveMinimum" not in node:
            node["minimum"] = -LARGEST
        if "maximum" not in node and "exclusiveMaximum" not in node:
            node["maximum"] = LARGEST
    elif kind == "object" and node.get("additionalProperties", True) is not False:
        node.setdefault("propertyNames", {"pattern": NO_NUL})
    for value in node.values():
        _declare_limits(value)


def _document(spec: Any) -> Any:
    """Every write may answer 403 (another site's page); a JSON body, 415. What the JSON
    reader and the path and query check refuse is declared where the spec declares the
    value (`_declare_limits`)."""
    _declare_limits(spec.get("paths", {}))
    _declare_limits(spec.get("components", {}).get("schemas", {}))
    for item in spec.get("paths", {}).values():
        for method, op in item.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            if method.upper() in WRITES and "403" not in op["responses"]:
                op["responses"]["403"] = {"description": "Sent by a page of another site",
                                          **_ERROR}
            content = op.get("requestBody", {}).get("content", {})
            if JSON_TYPE in content and "415" not in op["responses"]:
                op["responses"]["415"] = {"description": "Body not application/json",
                                          **_ERROR}
    return spec


def register(app: APIFlask) -> None:
    """Read JSON strictly, check every request before its view, document the answers."""
    app.json = StrictJSONProvider(app)
    app.config["ALLOWED_ORIGINS"] = allowed_origins(app.config.get("ALLOWED_ORIGINS"))
    app.before_request(_check)
    app.after_request(_cors)
    previous = app.spec_callback

    def complete(spec: Any) -> Any:
        return _document(previous(spec) if previous is not None else spec)

    app.spec_callback = complete
