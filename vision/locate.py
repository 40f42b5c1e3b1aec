"""One frame in, figure positions out: the pipeline behind `survive-us vision locate`.

The answer is the JSON of DESIGN.md (``{"table": {"found", "markers", ...}, "figures": [...]}``)
plus what helps: the calibration's error, the camera position, rejected tags and timings.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field
from typing import Any

from i18n import Message
from vision.calibfile import CalibrationFile
from vision.calibration import (
    Calibration,
    calibrate_from_detections,
    find_corner_markers,
    missing_markers,
)
from vision.errors import CalibrationError, VisionError
from vision.hints import NO_HINTS, FigureHints
from vision.tags import locate_tags
from vision.types import Image

__all__ = ["Located", "locate", "table_json", "MODES", "colour_available"]

MODES = ("tags", "colour")


@dataclass
class Located:
    """What one frame showed: the table (or why not), figures, and the JSON answer."""

    calibration: Calibration | None
    figures: list[dict[str, Any]] = field(default_factory=list)
    answer: dict[str, Any] = field(default_factory=dict)

    @property
    def found(self) -> bool:
        return self.calibration is not None


def colour_available() -> bool:
    """Whether the colour-mode module (vision.colour) is installed in this build."""
    try:
        module = importlib.import_module("vision.colour")
    except ImportError:
        return False
    return hasattr(module, "colour_figures") and hasattr(module, "colour_config")


def table_json(cal: Calibration) -> dict[str, Any]:
    out: dict[str, Any] = {
        "found": True, "markers": list(cal.checked_markers if cal.source == "saved"
                                       else cal.markers),
        "source": cal.source, "fitted_markers": list(cal.markers),
        "reprojection_px": round(cal.reprojection_px, 3),
        "reprojection_in": round(cal.reprojection_in, 4),
        "px_per_in": round(cal.px_per_in(), 2),
    }
    if cal.pose is not None:
        out["camera"] = {"centre": [round(float(v), 2) for v in cal.pose.centre],
                         "focal_px": round(float(cal.pose.intrinsics.camera_matrix[0, 0]), 1),
                         "focal_source": cal.pose.focal_source}
    return out


def locate(image: Image, mode: str = "tags", settings: CalibrationFile | None = None,
           px_per_in: float | None = None, previous: Calibration | None = None,
           hints: FigureHints = NO_HINTS) -> Located:
    """Calibrate on `image` (falling back on `previous` or the file's saved table when corner
    markers are hidden) and locate the figures in `mode`. A table that cannot be located is
    an answer (``found: false`` with the reason), not an exception. `hints` say what the
    caller knows of the bases (their sizes and heights, `vision.hints`)."""
    if mode not in MODES:
        raise VisionError(Message("camera.locate.mode", {"mode": mode, "known": list(MODES)}),
                          "mode")
    settings = settings or CalibrationFile()
    start = time.perf_counter()
    h, w = image.shape[:2]
    answer: dict[str, Any] = {"mode": mode, "image": {"width": w, "height": h}}
    fallback = previous or settings.table
    detections = find_corner_markers(image, settings.layout)
    try:
        cal = calibrate_from_detections(detections, (w, h), settings.layout,
                                        settings.intrinsics, fallback)
    except CalibrationError as error:
        seen = [d.id for d in detections]
        answer["table"] = {"found": False, "markers": seen, "reason": error.message}
        if error.words is not None:
            answer["table"]["reason_words"] = error.words.to_json()
        # where two markers put the others: in the photo but hidden, or out of it
        covered, outside = missing_markers(settings.layout, detections, (w, h))
        if covered or outside:
            answer["table"]["hidden_markers"] = covered
            answer["table"]["outside_markers"] = outside
        answer["figures"] = []
        return Located(None, [], answer)
    t_cal = time.perf_counter()
    answer["table"] = table_json(cal)
    if mode == "tags":
        result = locate_tags(image, cal, px_per_in, hints=hints)
        figures = [f.to_json() for f in result.figures]
        answer["figures"] = figures
        answer["rejected"] = [r.to_json() for r in result.rejected]
        answer["rectified_px_per_in"] = result.px_per_in
    else:
        figures, rejected = _colour(image, cal, settings, hints)
        answer["figures"] = figures
        answer["rejected"] = rejected  # marks of a side's colour not taken, and why
    answer["timing_ms"] = {"calibration": round((t_cal - start) * 1e3, 1),
                           "figures": round((time.perf_counter() - t_cal) * 1e3, 1)}
    return Located(cal, figures, answer)


def _colour(image: Image, cal: Calibration, settings: CalibrationFile,
            hints: FigureHints = NO_HINTS) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The bases found, and the marks of a side's colour refused with their reason."""
    if not colour_available():
        raise VisionError(Message("camera.locate.no_colour"), "mode")
    module = importlib.import_module("vision.colour")
    # colour_config reads the calibration file's "colours" section (defaults when absent);
    # the hints say which base sizes each side has (every common size when they are silent)
    result = module.find_bases(image, cal, module.colour_config(settings), hints)
    return [b.to_json() for b in result.bases], [r.to_json() for r in result.rejected]
