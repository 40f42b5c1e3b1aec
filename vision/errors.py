"""Errors of the camera pipeline, in the project's hierarchy (code, message, where)."""

from __future__ import annotations

from geometry.errors import SurviveUsError

__all__ = ["VisionError", "ImageError", "CalibrationError", "LayoutError"]


class VisionError(SurviveUsError, ValueError):
    """Something the camera pipeline cannot do with what it was given."""

    code = "vision_error"


class ImageError(VisionError):
    """An image file that is missing, empty, corrupt, of an unknown format or too large."""

    code = "invalid_image"


class CalibrationError(VisionError):
    """The table cannot be located: too few corner markers, or a bad calibration file."""

    code = "calibration_failed"


class LayoutError(VisionError):
    """A marker layout (from a calibration file) that fails validation."""

    code = "invalid_layout"
