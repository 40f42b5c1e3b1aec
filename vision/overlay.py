"""A picture of what was located, drawn over the frame, for players to check at a glance:
numbers and colours only, so it reads the same in every language."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from geometry.units import base_radius
from vision.calibration import Calibration
from vision.cv import cv2
from vision.types import Image

__all__ = ["draw_located"]

SIDE_BGR = {"survivors": (255, 160, 0), "zombies": (0, 0, 255), "civilians": (0, 220, 255)}
TAG_BGR = (0, 200, 255)


def draw_located(image: Image, cal: Calibration, figures: list[dict[str, Any]]) -> Image:
    """A copy of `image` with the table's outline and each figure's base circle (where the
    calibration puts it, at base height) and label. Points are drawn in undistorted pixels:
    with a strong lens calibration they sit slightly off near the frame's edges."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    lay = cal.layout
    scale = max(1, int(round(max(out.shape[:2]) / 1000)))
    outline = cal.table_to_image(np.array([[0, 0], [lay.table_width, 0],
                                           [lay.table_width, lay.table_depth],
                                           [0, lay.table_depth]], dtype=np.float64))
    cv2.polylines(out, [np.round(outline).astype(np.int32)], True, (0, 255, 0), scale)
    height = lay.base_height if cal.pose is not None else 0.0
    for fig in figures:
        r = base_radius(float(fig.get("base_mm", lay.base_mm)))
        ring = np.array([[fig["x"] + r * math.cos(a), fig["y"] + r * math.sin(a)]
                         for a in np.linspace(0, 2 * math.pi, 32, endpoint=False)])
        pts = np.round(cal.table_to_image(ring, height)).astype(np.int32)
        colour = TAG_BGR if "tag" in fig else SIDE_BGR.get(str(fig.get("side")), (255, 255, 255))
        cv2.polylines(out, [pts], True, colour, 2 * scale, cv2.LINE_AA)
        label = str(fig["tag"]) if "tag" in fig else _track_number(fig)
        x, y = pts[:, 0].max() + 4 * scale, int(pts[:, 1].mean())
        cv2.putText(out, label, (int(x), y), cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, colour,
                    max(1, scale), cv2.LINE_AA)
    return out


def _track_number(fig: dict[str, Any]) -> str:
    """A colour-mode base's label: its track's number ("zombies#3" -> "3"), no words (the
    ring's colour says the side, and OpenCV's fonts print neither accents nor a language)."""
    track = str(fig.get("track", ""))
    return track.rpartition("#")[2] if "#" in track else ""
