"""The camera, on the service's side: a game's camera settings, frames and located positions.

- `PUT /games/ID/camera` (token) stores the game's calibration file (layout, lens, saved
  table, colours) and which tag is which figure; `GET` reads them with the last analysis.
- `POST /games/ID/frames` (token) takes a photo of the table (JPEG or PNG, as the raw body or
  as the `frame` part of a multipart form), locates the figures (`vision.locate`) and sets
  them against the game (`service.frame_analysis`).
- `POST /games/ID/frames/positions` (token) does the same from positions already located:
  the JSON `survive-us vision watch` posts.

Frames are the one place the body may exceed 1 MB (`MAX_FRAME_BYTES`); the pixel count is read
from the image header before anything is decoded (decompression bombs), and every bad frame is
a 4xx in the API's one error shape. Nothing here changes the game: a figure is brought to where
the camera saw it only by a legal action (`POST /games/ID/actions`).

Answers speak the request's language (`?lang=`, then `Accept-Language`): every text field
``K`` (a table's `reason`, `notes`, each refusal's `reason`) has its message beside it as
``K_words``, and the camera's last view is stored that way, to be said again in the language
of whoever reads it (`vision.words.say`).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

import sqlalchemy as sa
from apiflask import APIBlueprint, APIFlask
from flask import current_app, request
from pydantic import BaseModel, Field
from werkzeug.exceptions import RequestEntityTooLarge

from i18n import Message, render, render_text
from rules.game import Game
from rules.names import figure_name
from service.app import services
from service.camera_hints import HeightError, check_heights, hints_for
from service.camera_work import (
    FRAME_TYPES,
    MAX_FRAME_BYTES,
    MAX_FRAME_PIXELS,
    calibration_file,
    header,
    too_large,
)
from service.errors import ApiError
from service.frame_analysis import analyse, read_seen
from service.jsonio import JsonRefused, parse_json
from service.language import request_lang
from service.schemas import LARGEST_EXACT, Json, Query, Strict, Whole, Words
from service.storage import cameras, gamelog
from service.tokens import require_token
from service.words import stored
from service.workers import call_in
from vision.words import say

__all__ = ["bp", "register", "MAX_FRAME_BYTES", "MAX_FRAME_PIXELS", "FRAME_TYPES"]

bp = APIBlueprint("frames", __name__, tag="Camera")

# images of other formats, known by their first bytes: 415, as another Content-Type is
OTHER_IMAGES = {b"GIF87a": "GIF", b"GIF89a": "GIF", b"II*\x00": "TIFF", b"MM\x00*": "TIFF",
                b"\x00\x00\x01\x00": "ICO"}
TAG = r"^[0-9]{1,3}$"
Mode = Literal["tags", "colour"]
Side = Literal["survivors", "zombies", "civilians"]


class CameraIn(Strict):
    calibration: Json | None = Field(
        default=None, description="a calibration file (docs/vision.md): version, layout, "
        "intrinsics, table, colours; all optional")
    tags: dict[Annotated[str, Field(pattern=TAG)],
               Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        default_factory=dict, max_length=250, description="tag id -> figure id (tags mode)",
        json_schema_extra={"propertyNames": {"pattern": TAG}})
    mode: Mode | None = Field(default=None, description="the mode frames use by default")
    # a base thinner than a card or thicker than a stack of coins is a typing slip (mm)
    base_height_mm: dict[Side, Annotated[float, Field(ge=0.5, le=15)]] = Field(
        default_factory=dict, description="a side's base height in mm (the parallax "
        "correction; unset: 3.2 mm guessed, with a wider uncertainty)")
    figure_base_height_mm: dict[Annotated[str, Field(min_length=1, max_length=64)],
                                Annotated[float, Field(ge=0.5, le=15)]] = Field(
        default_factory=dict, max_length=250, description="one figure's base height in mm, "
        "over its side's")


class CameraOut(BaseModel):
    settings: Json
    last: Json | None


class FrameQuery(Query):
    mode: Mode | None = Field(default=None, description="tags or colour (default: the "
                              "camera's, else tags)")


class PositionsIn(Strict):
    """The body `survive-us vision watch` posts (vision/watch.py)."""

    frame: Annotated[Whole, Field(ge=0, le=LARGEST_EXACT)] | None = None
    time: Annotated[str, Field(max_length=64)] | None = None
    mode: Mode = "tags"
    table: Json = Field(default_factory=dict, description="the table as located (found, "
                        "markers, reprojection_in...)")
    figures: list[Json] = Field(max_length=300, description="every base seen: {tag or side, "
                                "x, y, uncertainty, ...}")
    moved: list[int | str] = Field(default_factory=list, max_length=300)
    appeared: list[int | str] = Field(default_factory=list, max_length=300)
    vanished: list[int | str] = Field(default_factory=list, max_length=300)


class FrameOut(BaseModel):
    version: int
    source: str
    mode: str
    time: str
    image: Json | None
    table: Json
    figures: list[Json]
    unknown: list[Json]
    appeared: list[Json]
    vanished: list[str]
    moved: list[str]
    ai: Json | None
    checks: Json | None
    notes: list[str]
    notes_words: list[Words] = Field(default_factory=list, description="`notes` as messages "
                                     "(code and parameters)")


# -- settings ---------------------------------------------------------------------------------
def _camera_row(game_id: str, token: bool) -> tuple[sa.Row[Any], dict[str, Any],
                                                    dict[str, Any] | None]:
    with services().db.read() as conn:
        row = gamelog.get_game(conn, game_id)
        settings, last = cameras.get_camera(conn, game_id)
    if token:
        require_token(row.token_hash, stored("game", game_id))
    return row, settings, last


@bp.put("/games/<id:game_id>/camera")
@bp.input(CameraIn, arg_name="body")
@bp.output(CameraOut)
@bp.doc(summary="Set the game's camera (token needed): calibration file, tag -> figure, mode",
        security="Bearer")
def put_camera(game_id: str, body: CameraIn) -> dict[str, Any]:
    _camera_row(game_id, token=True)
    settings = calibration_file(body.calibration, "calibration")
    first, last = settings.layout.tag_first, settings.layout.tag_last
    figures: dict[str, str] = {}

    def check(_row: sa.Row[Any], game: Game) -> None:
        for tag, figure in body.tags.items():
            where = f"tags.{tag}"
            if not first <= int(tag) <= last:
                raise ApiError(Message("camera.api.tag_outside", {
                    "where": where, "tag": tag, "first": str(first), "last": str(last)}),
                    where, code="invalid_camera")
            if figure not in game.figures:
                raise ApiError(Message("camera.api.no_figure", {"where": where,
                                                                "figure": figure}),
                               where, code="invalid_camera")
            if figure in figures:
                raise ApiError(Message("camera.api.tag_twice", {
                    "where": where, "figure": figure_name(game, figure),
                    "tag": figures[figure]}), where, code="invalid_camera")
            figures[figure] = tag
        try:
            check_heights(game, body.figure_base_height_mm)
        except HeightError as error:
            raise ApiError(error.words, error.where, code="invalid_camera") from None

    services().games.read(game_id, check)
    stored: dict[str, Any] = {"calibration": body.calibration, "tags": dict(body.tags),
                              "mode": body.mode}
    for key, heights in (("base_height_mm", body.base_height_mm),
                         ("figure_base_height_mm", body.figure_base_height_mm)):
        if heights:  # kept only when set: older settings read back as they were
            stored[key] = dict(heights)
    with services().db.write() as conn:
        cameras.put_settings(conn, game_id, stored)
        _, last_view = cameras.get_camera(conn, game_id)
    return {"settings": stored, "last": last_view}


@bp.get("/games/<id:game_id>/camera")
@bp.output(CameraOut)
@bp.doc(summary="The game's camera settings and the last analysis of a frame or positions")
def get_camera(game_id: str) -> dict[str, Any]:
    _, settings, last = _camera_row(game_id, token=False)
    return {"settings": settings, "last": _said(last)}


def _said(answer: Any) -> Any:
    """An answer (or a stored view) in the request's language: every ``K_words`` said into
    its ``K``, and the AI's explanation from its messages."""
    lang = request_lang()
    out = say(answer, lang)
    ai = out.get("ai") if isinstance(out, dict) else None
    if isinstance(ai, dict) and ai.get("messages"):
        ai["explanation"] = render_text("word.separator", {}, lang).join(
            render(m, lang) for m in ai["messages"])
    return out


# -- frames -----------------------------------------------------------------------------------
def _other_format(data: bytes) -> None:
    """A GIF, TIFF, ICO or WebP photo: 415, as another Content-Type is."""
    other = next((f for sign, f in OTHER_IMAGES.items() if data.startswith(sign)), None)
    if other is None and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        other = "WebP"
    if other is not None:
        raise ApiError(Message("camera.api.format", {"format": other}), "body",
                       code="unsupported_media_type", status=415)


FORM_PARTS = {"frame", "mode", "calibration"}  # a multipart frame's parts (the spec's)


def _frame_bytes() -> tuple[bytes, str | None, str | None]:
    """(image bytes, declared type or None, form fields mode / calibration)."""
    if request.content_length is not None and request.content_length > MAX_FRAME_BYTES:
        raise too_large()
    request.max_content_length = MAX_FRAME_BYTES
    mimetype = request.mimetype
    try:
        if mimetype in FRAME_TYPES:
            return request.get_data(cache=False), mimetype, None
        if mimetype == "multipart/form-data":
            part = request.files.get("frame")
            if part is None:
                raise ApiError(Message("camera.api.no_frame_part"), "body.frame",
                               code="invalid_request")
            extra = sorted((set(request.form) | set(request.files)) - FORM_PARTS)
            if extra:  # as for a JSON body: a part nobody reads is the client's mistake
                raise ApiError(Message("service.field.unknown", {"field": f"body.{extra[0]}"}),
                               f"body.{extra[0]}", code="invalid_request")
            # a part is read by its bytes: a browser names its type after the file's
            # extension (a PNG saved as .jpg is sent as image/jpeg), and the spec lets a
            # client send either type for it; the raw body's Content-Type is held to them
            return part.read(MAX_FRAME_BYTES + 1), None, request.form.get("calibration")
    except RequestEntityTooLarge:
        raise too_large() from None
    raise ApiError(Message("camera.api.media_type", {
        "got": mimetype or Message("camera.api.no_media_type")}),
        "Content-Type", code="unsupported_media_type", status=415)


def _answer(game_id: str, source: str, mode: str, table: dict[str, Any], seen_json: list[Any],
            tags: dict[str, str], image: dict[str, Any] | None,
            calibration: dict[str, Any] | None, extra: dict[str, Any] | None = None
            ) -> dict[str, Any]:
    """Analyse under the game's lock, store as the camera's last view, answer."""
    seen = read_seen(seen_json, mode) if table.get("found") else []

    def use(row: sa.Row[Any], game: Game) -> dict[str, Any]:
        if not table.get("found"):
            reason = table.get("reason_words") or table.get("reason") or Message(
                "camera.api.table_unknown")
            note = Message("camera.api.no_table", {"reason": reason})
            return {"version": row.version, "mode": mode, "figures": [], "unknown": [],
                    "appeared": [], "vanished": [], "moved": [], "ai": None, "checks": None,
                    "notes": [note.text("en")], "notes_words": [note.to_json()]}
        return analyse(game, game_id, row.version, seen, mode, tags)

    found: dict[str, Any] = services().games.read(game_id, use)
    out = {**found, "source": source, "image": image, "table": table,
           "time": datetime.now(UTC).isoformat(timespec="milliseconds")}
    stored = {**out, **(extra or {})}
    if calibration is not None:
        stored["calibration"] = calibration
    with services().db.write() as conn:
        if calibration is None:
            _, last = cameras.get_camera(conn, game_id)
            if last and "calibration" in last:
                stored["calibration"] = last["calibration"]
        cameras.put_last(conn, game_id, stored)
    said: dict[str, Any] = _said(out)
    return said


@bp.post("/games/<id:game_id>/frames")
@bp.input(FrameQuery, location="query", arg_name="query")
@bp.output(FrameOut)
@bp.doc(summary="Analyse a photo of the table (token needed): JPEG/PNG as the raw body "
        "(Content-Type image/jpeg or image/png) or the 'frame' part of multipart/form-data "
        "(with optional 'mode' and 'calibration' parts); at most 25 MB and 36 Mpx",
        security="Bearer")
def post_frame(game_id: str, query: FrameQuery) -> dict[str, Any]:
    _, settings_json, last = _camera_row(game_id, token=True)
    data, declared, form_calibration = _frame_bytes()
    form_mode = request.form.get("mode") if request.mimetype == "multipart/form-data" else None
    if form_mode is not None and form_mode not in ("tags", "colour"):
        raise ApiError(Message("camera.api.mode", {"got": form_mode}), "body.mode",
                       code="invalid_request")
    mode = query.mode or form_mode or settings_json.get("mode") or "tags"
    calibration_json = settings_json.get("calibration")
    if form_calibration is not None:
        try:
            calibration_json = parse_json(form_calibration, "body.calibration")
        except JsonRefused as error:  # too deep, NaN, a NUL...: named where
            raise ApiError(error.words or error.message, error.where, code=error.code,
                           status=400 if error.code == "invalid_json" else 422) from None
        except json.JSONDecodeError as error:
            raise ApiError(Message("camera.api.calibration_json", {
                "line": error.lineno, "column": error.colno}), "body.calibration",
                code="invalid_json", status=400) from None
    calibration_file(calibration_json, "calibration")  # its errors before any queueing
    _other_format(data)
    header(data, declared)  # a bad or oversized photo is refused here, undecoded
    # the bases the game holds: sizes per side, heights the player set (service.camera_hints)
    hints = services().games.read(game_id, lambda _row, game: hints_for(game, settings_json))
    # decoding and the marker search run in a worker process, within a time budget
    found = call_in(current_app.config["FRAME_POOL"], "service.camera_work:locate_frame",
                    data, declared, mode, calibration_json, last, hints,
                    client=request.remote_addr or "")
    return _answer(game_id, "frame", mode, found["table"], found["figures"],
                   settings_json.get("tags", {}), {"width": found["width"],
                                                    "height": found["height"],
                                                    "bytes": len(data)}, found["keep"],
                   {"rejected": found["rejected"]})


@bp.post("/games/<id:game_id>/frames/positions")
@bp.input(PositionsIn, arg_name="body")
@bp.output(FrameOut)
@bp.doc(summary="Analyse positions already located (the body `survive-us vision watch` "
        "posts; token needed)", security="Bearer")
def post_positions(game_id: str, body: PositionsIn) -> dict[str, Any]:
    _, settings_json, _ = _camera_row(game_id, token=True)
    table = dict(body.table)
    table.setdefault("found", True)
    return _answer(game_id, "positions", body.mode, table, body.figures,
                   settings_json.get("tags", {}), None, None,
                   {"frame": body.frame, "posted_time": body.time})


# -- OpenAPI: the frame body is an image, not JSON ---------------------------------------------
_BINARY = {"schema": {"type": "string", "format": "binary"}}
FRAME_BODY = {
    "required": True,
    "description": "the photo: JPEG or PNG as the raw body, or multipart/form-data with the "
                   "image in 'frame' (a tablet's camera input sends this)",
    "content": {
        "image/jpeg": _BINARY, "image/png": _BINARY,
        "multipart/form-data": {"schema": {
            "type": "object", "required": ["frame"], "additionalProperties": False,
            "properties": {
                "frame": {"type": "string", "format": "binary"},
                "mode": {"type": "string", "enum": ["tags", "colour"]},
                "calibration": {"type": "object",
                                "description": "a calibration file's JSON (docs/vision.md); "
                                               "a part that is not JSON is a 400"}}},
            # the part holds JSON text: a client that reads the spec sends an object as JSON;
            # the photo is a JPEG or a PNG, as a raw body (another image is a 415)
            "encoding": {"calibration": {"contentType": "application/json"},
                         "frame": {"contentType": "image/jpeg, image/png"}}},
    },
}


def register(app: APIFlask) -> None:
    """Register the blueprint under /api/v1 and document the frame's binary body."""
    app.register_blueprint(bp, url_prefix="/api/v1")
    previous = app.spec_callback

    def complete(spec: Any) -> Any:
        if previous is not None:
            spec = previous(spec)
        op = spec.get("paths", {}).get("/api/v1/games/{game_id}/frames", {}).get("post")
        if isinstance(op, dict):
            op["requestBody"] = FRAME_BODY
            ref = {"content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/Error"}}}}
            op["responses"]["400"] = {"description": "Malformed calibration JSON", **ref}
            op["responses"]["413"] = {"description": "Frame over 25 MB or 36 Mpx", **ref}
            op["responses"]["415"] = {"description": "Not a JPEG or PNG", **ref}
        return spec

    app.spec_callback = complete
