"""ArUco detection: the big corner markers on the raw frame, the small figure tags on a
rectified top-down image (NOTES.md: on the raw frame 40% of the small tags were missed)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.cv import cv2
from vision.layout import Layout
from vision.types import FloatArray, Image

__all__ = ["Detection", "aruco_dictionary", "corner_detector", "tag_detector", "detect",
           "to_gray", "marker_centre"]



@dataclass(frozen=True)
class Detection:
    """One detected marker: its id and four corners (pixels, ArUco order: the printed
    marker's top-left, top-right, bottom-right, bottom-left)."""

    id: int
    corners: FloatArray

    @property
    def centre(self) -> FloatArray:
        return marker_centre(self.corners)


def aruco_dictionary(layout: Layout) -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.dictionary))


def corner_detector(layout: Layout) -> cv2.aruco.ArucoDetector:
    """Detector for the 2 in corner markers: default thresholds, sub-pixel corners (the
    homography is only as good as these corners)."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.minMarkerPerimeterRate = 0.01  # a 2 in marker is ~3% of a whole-table frame's side
    return cv2.aruco.ArucoDetector(aruco_dictionary(layout), params)


def tag_detector(layout: Layout, px_per_in: float,
                 image_side: int | None = None) -> cv2.aruco.ArucoDetector:
    """Detector for the small figure tags on an image at `px_per_in` (the rectified table)
    whose larger side is `image_side` pixels (default: the table's width at that scale).

    The perimeter floor is set from the tag's expected size (with room for a tag seen smaller
    than nominal). The adaptive threshold runs twice, with windows of 1.5 and 4 marker cells:
    the small window separates the cells, the wide one (most of a tag) keeps a tag on its
    white sticker beside dark terrain or in shade clean. OpenCV's default (3 to 23 px in steps
    of 10) is not tied to the tag's size and, at these scales, costs 3 passes for less.
    """
    tag_px = layout.tag_size * px_per_in
    cell_px = tag_px / 6.0  # 4x4 bits plus a one-cell border each side
    params = cv2.aruco.DetectorParameters()
    # Corners from lines fitted to the whole contour of each side (CONTOUR), not a corner
    # search in a few-pixel window (SUBPIX), which a blurred corner pulls inward unevenly:
    # on the tuning frames the RMS misfit of a tag's corners to a square halves (median
    # 0.25 -> 0.11 mm) and so does the position error (mean 0.011 -> 0.005 in).
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_CONTOUR
    # minMarkerPerimeterRate is relative to the image's larger side.
    side = image_side or layout.table_width * px_per_in
    params.minMarkerPerimeterRate = 0.5 * 4 * tag_px / max(1.0, side)
    params.maxMarkerPerimeterRate = 4.0
    small_win = max(3, int(1.5 * cell_px) | 1)
    wide_win = max(small_win + 2, int(4.0 * cell_px) | 1)
    params.adaptiveThreshWinSizeMin = small_win
    params.adaptiveThreshWinSizeMax = wide_win
    params.adaptiveThreshWinSizeStep = wide_win - small_win
    params.minCornerDistanceRate = 0.05
    params.minDistanceToBorder = 1
    # Decoding small tags (45-55 px/in, a cell of 4-5 px) after a little blur and JPEG:
    # sample each cell away from its blurred edges (0.30 of a cell ignored each side, where
    # OpenCV's 0.13 let the neighbouring cells bleed in) on a finer canonical image (8 px a
    # cell, not 4), and accept the candidate quads a blurred contour gives (polygon
    # tolerance 5% of the perimeter). On the tuning frames: 75 -> 84 of 85 visible tags
    # decoded, no wrong id.
    params.perspectiveRemoveIgnoredMarginPerCell = 0.30
    params.perspectiveRemovePixelPerCell = 8
    params.polygonalApproxAccuracyRate = 0.05
    return cv2.aruco.ArucoDetector(aruco_dictionary(layout), params)


def to_gray(image: Image) -> Image:
    if image.ndim == 2:
        return image
    gray: Image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return gray


def detect(detector: cv2.aruco.ArucoDetector, image: Image) -> list[Detection]:
    """Every marker `detector` finds in `image` (BGR or grey)."""
    corners, ids, _rejected = detector.detectMarkers(to_gray(image))
    if ids is None:
        return []
    return [Detection(int(i), np.asarray(c, dtype=np.float64).reshape(4, 2))
            for c, i in zip(corners, ids.ravel(), strict=True)]


def marker_centre(corners: FloatArray) -> FloatArray:
    """Where the diagonals of a marker's quadrilateral cross: the true centre under any
    perspective (the mean of the corners is not)."""
    p0, p1, p2, p3 = (np.asarray(c, dtype=np.float64) for c in corners)
    d1, d2 = p2 - p0, p3 - p1
    denom = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denom) < 1e-12:
        mean: FloatArray = np.asarray(corners, dtype=np.float64).mean(axis=0)
        return mean
    t = ((p1[0] - p0[0]) * d2[1] - (p1[1] - p0[1]) * d2[0]) / denom
    centre: FloatArray = p0 + t * d1
    return centre
