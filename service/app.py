"""The Flask app: the JSON API under /api/v1, its OpenAPI document, and the page at /.

`create_app(test_config=None)` follows the Flask tutorial's factory. Configuration keys:
`DATABASE_URL` (default: the environment's, else ./data/survive-us.sqlite3), `SSE_POLL`
(seconds between event-table polls of a live stream), `SSE_LIFETIME` (seconds a stream stays
open before the browser reconnects with Last-Event-ID), `WEB_DIR` (the page's files),
`DEMO_CAMPAIGN` (create a demo campaign when the database has none), `FRAME_POOL`, `AI_POOL` and
`ARBITRATE_POOL` (the worker processes of heavy work, `service.workers.PoolSettings`; None
runs it on the request's thread), `STREAMS_PER_CLIENT` and `STREAMS_TOTAL` (live streams open
at once from one address and in all; docs/api.md, "Limits"), `CLIENT_SHARE` and
`CLIENT_BURST` (each address's share of the processor, service/fair_share.py; off unless set).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from apiflask import APIFlask
from apiflask.exceptions import HTTPError
from flask import Response, current_app, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter

from geometry.errors import SurviveUsError
from i18n import Message, catalog
from rules.limits import LimitError
from service.errors import ApiError, error_body
from service.language import request_lang
from service.live import LiveGames
from service.storage.db import Database, database_url
from service.validation import field_problems, json_problem
from service.workers import Busy, PoolSettings

__all__ = ["create_app", "services", "Services", "WEB_DIR"]

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
API = "/api/v1"
MAX_BODY = 1024 * 1024
SHOWN = 10  # a schema's refusals said in an error; the others are counted
# Heavy work runs in worker processes (service/workers.py; docs/api.md, "Limits"): the camera's
# decoding and marker search, and arbitrations that build paths or many lines of sight.
FRAME_POOL = PoolSettings("camera", size=2, waiting=2, per_client=1, wait=20.0, budget=15.0,
                          memory_mb=1024, preload=("service.camera_work", "vision.locate"))
ARBITRATE_POOL = PoolSettings("arbitrate", size=1, waiting=4, per_client=2, wait=10.0,
                              budget=10.0, memory_mb=1024,
                              # paths' Dijkstra: scipy is slow to import, not in a budget
                              preload=("service.explain", "scipy.sparse.csgraph"))
# the AI's choices (service/ai_work.py): a hard decision takes up to a second, a crowded card
# several; two processes for two cores
AI_POOL = PoolSettings("ai", size=2, waiting=8, per_client=2, wait=30.0, budget=30.0,
                       memory_mb=1024, preload=("service.ai_work",))
WEB_TYPES = {".webmanifest": "application/manifest+json"}  # the page's files mimetypes misses


class IdConverter(BaseConverter):
    """An id in a path: any segment but the words that name fixed routes beside it
    (`/rosters/validate`, `/campaigns/import`, `/games/import`)."""

    regex = r"(?!(?:validate|import)$)[^/]+"


@dataclass
class Services:
    """What the views share in one worker: the database and the live games."""

    db: Database
    games: LiveGames


def services() -> Services:
    found: Services = current_app.extensions["survive_us"]
    return found


def create_app(test_config: dict[str, Any] | None = None) -> APIFlask:
    app = APIFlask(__name__, title="Survive Us table service", version="1.0",
                   spec_path="/openapi.json", docs_path="/docs")
    app.config.update(
        DATABASE_URL=None, MAX_CONTENT_LENGTH=MAX_BODY, VALIDATION_ERROR_STATUS_CODE=422,
        VALIDATION_ERROR_DESCRIPTION="Validation error", SSE_POLL=0.4, SSE_LIFETIME=300.0,
        WEB_DIR=str(WEB_DIR), DEMO_CAMPAIGN=False, FRAME_POOL=FRAME_POOL,
        ARBITRATE_POOL=ARBITRATE_POOL, AI_POOL=AI_POOL, STREAMS_PER_CLIENT=8, STREAMS_TOTAL=32,
        SECURITY_SCHEMES={"Bearer": {"type": "http", "scheme": "bearer",
                                     "description": "the token answered at creation"}},
        INFO={"description": "Arbitration, rules, rosters, campaigns and live games of "
                             "Survive Us. Every 4xx answer is {\"error\": {\"code\", "
                             "\"message\", \"where\"}}; see docs/api.md."},
    )
    if test_config:
        app.config.update(test_config)
    db = Database(database_url(app.config["DATABASE_URL"]))
    db.upgrade()
    app.extensions["survive_us"] = Services(db=db, games=LiveGames(db))
    app.url_map.converters["id"] = IdConverter
    _errors(app)
    _spec(app)
    _blueprints(app)
    import_module("service.request_guard").register(app)  # JSON in, writes from this site
    import_module("service.fair_share").register(app)  # each client's share of the processor
    import_module("service.tokens").register(app)  # no token: 401 before any look-up
    _web(app)
    if app.config["DEMO_CAMPAIGN"]:
        from service.demo import ensure_demo

        with app.app_context():
            ensure_demo(app)
    return app


def _blueprints(app: APIFlask) -> None:
    from service.api import campaigns, game_views, games, qr, rosters, rules_api, stream

    for module in (rules_api, rosters, campaigns, games, game_views, stream, qr):
        app.register_blueprint(module.bp, url_prefix=API)
    app.register_blueprint(import_module("service.api.page_support").bp, url_prefix=API)
    import_module("service.api.frames").register(app)  # the camera: frames and positions


def _errors(app: APIFlask) -> None:
    @app.error_processor
    def http_error(error: HTTPError) -> tuple[dict[str, Any], int, Any]:
        lang = request_lang()
        detail = error.detail if isinstance(error.detail, dict) else {}
        if error.status_code == 422 and detail:  # a request body/query that fails its schema
            problems = _schema_problems(error, detail)
            shown = [m for _, m in problems[:SHOWN]]
            if len(problems) > SHOWN:
                shown.append(Message("service.request.more", {"n": len(problems) - SHOWN}))
            words = shown[-1]
            for said in reversed(shown[:-1]):  # "a; b; c", the language's way
                words = Message("service.request.problems", {"first": said, "rest": words})
            body = error_body("invalid_request", words, problems[0][0], lang)
            return body, 422, error.headers
        code = _CODES.get(error.status_code, "http_error")
        words = _status_message(error.status_code, request.path, request.method)
        return error_body(code, words, "", lang), error.status_code, error.headers

    @app.errorhandler(HTTPException)
    def werkzeug_error(error: HTTPException) -> tuple[Response, int]:
        status = error.code or 500
        cause = error.__cause__  # Flask hides the JSON parser's words behind a bare 400
        lang = request_lang()
        if status == 400 and isinstance(cause, HTTPException) and "JSON" in str(
                cause.description):
            body = error_body("invalid_json", json_problem(str(cause.description)), "body",
                              lang)
        elif status == 413:
            body = error_body("too_large", Message("service.request.too_large",
                                                   {"n": MAX_BODY}), "body", lang)
        else:
            body = error_body(_CODES.get(status, "http_error"),
                              _status_message(status, request.path, request.method), "", lang)
        response = jsonify(body)
        for key, value in error.get_headers():
            if key.lower() != "content-type":
                response.headers[key] = value
        return response, status

    @app.errorhandler(ApiError)
    def api_error(error: ApiError) -> tuple[Response, int]:
        response = jsonify(error.to_json(request_lang()))
        if error.status == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="survive-us"'
        if isinstance(error, Busy):
            response.headers["Retry-After"] = str(error.retry_after)
        return response, error.status

    @app.errorhandler(SurviveUsError)
    def rules_error(error: SurviveUsError) -> tuple[Response, int]:
        # a request over one of the limits (rules.limits) is too large to answer: 413
        return jsonify(error.to_json(request_lang())), 413 if isinstance(
            error, LimitError) else 422


def _schema_problems(error: HTTPError, detail: dict[str, Any]) -> list[tuple[str, Message]]:
    """Each field's problem as a message; pydantic's own errors (the cause) give its kind
    and limits; without them, the field is named with a plain 'not valid'."""
    location = next(iter(detail))
    cause = error.__cause__
    errors = getattr(cause, "errors", None)
    if callable(errors):
        found = field_problems(str(location), errors())
        if found:
            return found
    return [(f"{loc}.{field}" if field != "_schema" else str(loc),
             Message("service.field.invalid", {"field": f"{loc}.{field}"}))
            for loc, fields in detail.items() for field in fields]


def _status_message(status: int, path: str, method: str) -> Message:
    """What an HTTP status says about the request, in words."""
    if status == 404:
        return Message("service.request.no_route", {"path": path})
    if status == 405:
        return Message("service.request.method", {"method": method, "path": path})
    if status == 415:
        return Message("service.request.media_type")
    if status == 400:
        return Message("service.request.bad")
    if status == 401:
        return Message("service.request.token")
    if status == 409:
        return Message("service.request.stale")
    if status == 413:
        return Message("service.request.too_large", {"n": MAX_BODY})
    if status >= 500:
        return Message("service.request.server", {"status": status})
    return Message("service.request.refused", {"status": status})


_CODES = {400: "bad_request", 401: "token_required", 404: "not_found",
          405: "method_not_allowed", 409: "stale_version", 413: "too_large",
          415: "unsupported_media_type", 422: "invalid_request", 500: "server_error"}

ERROR_SCHEMA = {
    "type": "object", "required": ["error"], "additionalProperties": False,
    "properties": {"error": {
        "type": "object", "required": ["code", "message", "where"],
        "properties": {"code": {"type": "string"}, "message": {"type": "string"},
                       "where": {"type": "string"}, "version": {"type": "integer"},
                       "words": {"type": "object", "required": ["code", "params"],
                                 "properties": {"code": {"type": "string"},
                                                "params": {"type": "object"}}}}}}}
_ERROR_TEXT = {"400": "Malformed JSON", "401": "Token missing",
               "403": "The token does not open this (not_yours), or a write sent by a page "
               "of another site (cross_site)", "404": "Unknown id", "409": "Stale version",
               "413": "Body over 1 MB, or over a limit "
               "of the work one request may ask (docs/api.md)",
               "422": "Invalid request or illegal action",
               "429": "This client's share of heavy work or live streams is in use",
               "503": "Busy: try again after Retry-After seconds"}
# operations that queue heavy work or hold a thread, and may answer 503 (docs/api.md)
_BUSY = {("/api/v1/arbitrate", "post"), ("/api/v1/games/{game_id}/frames", "post"),
         ("/api/v1/games/{game_id}/events", "get"), ("/api/v1/games/{game_id}/ai/suggest", "post"),
         ("/api/v1/games/{game_id}/ai/play", "post")}


def _spec(app: APIFlask) -> None:
    @app.spec_processor
    def complete(spec: Any) -> Any:
        """Bodies are required; every operation documents the errors it can answer."""
        assert isinstance(spec, dict)
        spec.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
        ref = {"$ref": "#/components/schemas/Error"}
        for path, item in spec.get("paths", {}).items():
            for method, op in item.items():
                if not isinstance(op, dict) or "responses" not in op:
                    continue
                # an id in the path or in the body may be unknown; any client may use up
                # its share of the processor (service/fair_share.py)
                codes = ["404", "422", "429"]
                if "requestBody" in op:
                    op["requestBody"]["required"] = True
                    codes += ["400", "413"]
                if method in ("post", "put", "delete", "patch") and "{" in path:
                    codes += ["401", "409"]
                if op.get("security"):  # a wrong token: 403 not_yours, reads included
                    codes += ["401", "403"]
                if (path, method) in _BUSY:
                    codes += ["503"]
                for code in codes:
                    op["responses"][code] = {"description": _ERROR_TEXT[code],
                                             "content": {"application/json": {"schema": ref}}}
        return spec


def _web(app: APIFlask) -> None:
    """The page: index.html at /, its files at /NAME and /FOLDER/... (the folders of web/ at
    start-up), so no route of the page overlaps /api/v1."""
    web = Path(app.config["WEB_DIR"])
    folders = sorted(p.name for p in web.iterdir() if p.is_dir() and p.name != "api") \
        if web.is_dir() else []

    @app.get("/i18n/<any(fr, en):lang>.json")
    @app.doc(hide=True)
    def page_catalog(lang: str) -> Response:
        """The catalog of `lang` as code -> text: the page's own words and every message
        the service sends as a code, so the page renders both in the language it shows."""
        response = jsonify(catalog(lang))
        response.cache_control.no_cache = True
        return response

    @app.get("/")
    @app.doc(hide=True)
    def index() -> Response:
        return send_from_directory(web, "index.html")

    @app.get("/<name>")
    @app.doc(hide=True)
    def web_file(name: str) -> Response:
        # the web app manifest's own type (Python's mimetypes does not know .webmanifest)
        kind = WEB_TYPES.get(Path(name).suffix)
        return send_from_directory(web, name, mimetype=kind) if kind \
            else send_from_directory(web, name)

    if folders:
        choices = ", ".join(f'"{f}"' for f in folders)

        @app.get(f"/<any({choices}):folder>/<path:name>")
        @app.doc(hide=True)
        def web_folder_file(folder: str, name: str) -> Response:
            return send_from_directory(web / folder, name)
