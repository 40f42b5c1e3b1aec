"""A camera frame's heavy part, run in a worker process (`service.workers`): decode the photo
and locate the table and the figures (`vision.locate`).

The request thread reads the body and the game's camera settings, hands the bytes here and
sets the answer against the game (`service.frame_analysis`) when it comes back. Nothing here
knows HTTP or the database: errors are `ApiError`s with their status and words, which the
worker carries back to the request.
"""

from __future__ import annotations

from typing import Any

from geometry.errors import SurviveUsError
from i18n import Message
from service.errors import ApiError
from vision.words import plain

__all__ = ["MAX_FRAME_BYTES", "MAX_FRAME_PIXELS", "FRAME_TYPES", "too_large", "decode",
           "calibration_file", "locate_frame"]

MAX_FRAME_BYTES = 25 * 1024 * 1024
MAX_FRAME_PIXELS = 36_000_000  # an 8K frame (33 Mpx) passes; a 20000 x 20000 bomb does not
FRAME_TYPES = {"image/jpeg": "JPEG", "image/png": "PNG"}


def too_large() -> ApiError:
    return ApiError(Message("camera.api.too_large", {"mb": MAX_FRAME_BYTES // (1024 * 1024)}),
                    "body", code="too_large", status=413)


def header(data: bytes, declared: str | None) -> tuple[int, int]:
    """The photo's width and height from its header (nothing decoded), or the 4xx that
    refuses it: not an image, another format than declared, too many pixels."""
    from vision.errors import ImageError
    from vision.imageio import image_header, too_many_pixels

    if len(data) > MAX_FRAME_BYTES:
        raise too_large()
    try:
        fmt, width, height = image_header(data, "frame")
    except ImageError as error:
        raise ApiError(_photo(plain(error)), "body", code="invalid_image") from None
    if fmt not in FRAME_TYPES.values():
        raise ApiError(Message("camera.api.format", {"format": fmt}), "body",
                       code="unsupported_media_type", status=415)
    if declared is not None and FRAME_TYPES[declared] != fmt:
        raise ApiError(Message("camera.api.declared", {"declared": declared, "format": fmt}),
                       "Content-Type", code="unsupported_media_type", status=415)
    if width * height > MAX_FRAME_PIXELS:
        raise ApiError(_photo(too_many_pixels("frame", width, height, MAX_FRAME_PIXELS)),
                       "body", code="too_many_pixels", status=413)
    return width, height


def decode(data: bytes, declared: str | None, mode: str) -> Any:
    """The photo's pixels (grey in tags mode), after `header`'s checks."""
    from vision.errors import ImageError
    from vision.imageio import decode_image

    header(data, declared)
    try:
        return decode_image(data, "frame", MAX_FRAME_PIXELS, grey=mode == "tags")
    except ImageError as error:
        raise ApiError(_photo(plain(error)), "body", code="invalid_image") from None


def _photo(message: Message) -> Message:
    """An image refusal about the body: "the photo" rather than the file name "frame"."""
    if message.params.get("file") != "frame":
        return message
    return Message(message.code, {**message.params, "file": Message("camera.api.photo")})


def calibration_file(data: Any, where: str) -> Any:
    """The calibration file from its JSON, every section checked (colours included)."""
    from vision.calibfile import CalibrationFile
    from vision.colour_config import ColourConfig

    if data is None:
        return CalibrationFile()
    settings = CalibrationFile.from_json(data, where)
    if settings.colours is not None:
        ColourConfig.from_json(settings.colours, f"{where}.colours")
    return settings


def _previous(settings: Any, last: dict[str, Any] | None) -> Any:
    """The last good calibration from markers (a fixed camera, markers now hidden)."""
    from vision.calibration import Calibration

    saved = (last or {}).get("calibration")
    if not isinstance(saved, dict):
        return None
    try:
        return Calibration.from_json(saved, settings.layout, settings.intrinsics)
    except SurviveUsError:
        return None


def locate_frame(data: bytes, declared: str | None, mode: str, calibration: Any,
                 last: dict[str, Any] | None, hints: Any = None) -> dict[str, Any]:
    """Decode and locate: `{"table", "figures", "rejected", "keep" (the calibration from
    markers to keep, or None), "width", "height"}`. `hints` (a `vision.hints.FigureHints`)
    are the game's base sizes and heights."""
    from vision.hints import NO_HINTS
    from vision.locate import locate

    settings = calibration_file(calibration, "calibration")
    image = decode(data, declared, mode)
    result = locate(image, mode, settings, previous=_previous(settings, last),
                    hints=hints or NO_HINTS)
    cal = result.calibration
    h, w = image.shape[:2]
    return {"table": result.answer["table"], "figures": result.figures,
            "rejected": result.answer.get("rejected", []),
            "keep": cal.to_json() if cal is not None and cal.source == "markers" else None,
            "width": w, "height": h}
