"""ArUco detection: the big corner markers on the raw frame, the small figure tags on a
rectified top-down image (NOTES.md: on the raw frame 40% of the small tags were missed)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.cv import cv2
from vision.layout import Layout
from vision.types import FloatArray, Image

__all__ = ["Detection", "aruco_dictionary", "corner_detector", "tag_detector", "detect",
           "detect_with_candidates", "refine_edges", "decode_quad", "to_gray",
           "marker_centre", "TAG_THRESHOLD_CONSTANT"]

#: How much darker than its neighbourhood a pixel must be to count as black when looking for
#: tags (OpenCV's default is 7). A printed tag's black is far darker than its white sticker,
#: even in shade; the mat's texture is not, and at 7 it made most of the contours the
#: detector then traced and refused (on the tuning frames, 20 cut tag detection's time by
#: two thirds; the few tags whose blurred border it thins are read by `decode_quad`).
TAG_THRESHOLD_CONSTANT = 20.0



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


def corner_detector(layout: Layout, refine: bool = True, min_perimeter_rate: float = 0.03,
                    window: int | None = None) -> cv2.aruco.ArucoDetector:
    """Detector for the 2 in corner markers: default thresholds, sub-pixel corners (the
    homography is only as good as these corners) unless `refine` is False (the caller
    measures them itself, `refine_edges`).

    A 2 in marker's perimeter is 8% or more of a whole-table frame's larger side; the floor
    (`min_perimeter_rate`, 3%) leaves room for a table filling a third of the frame and spares
    the detector the many small contours of a textured mat or desk. `window` (px): one
    adaptive-threshold window instead of OpenCV's three (3, 13, 23).
    """
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = (cv2.aruco.CORNER_REFINE_SUBPIX if refine
                                     else cv2.aruco.CORNER_REFINE_NONE)
    params.minMarkerPerimeterRate = min_perimeter_rate
    if window is not None:
        params.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMax = window
        params.adaptiveThreshWinSizeStep = 1
    return cv2.aruco.ArucoDetector(aruco_dictionary(layout), params)


def tag_detector(layout: Layout, px_per_in: float,
                 image_side: int | None = None) -> cv2.aruco.ArucoDetector:
    """Detector for the small figure tags on an image at `px_per_in` (the rectified table)
    whose larger side is `image_side` pixels (default: the table's width at that scale).

    The perimeter floor is set from the tag's expected size (with room for a tag seen smaller
    than nominal), the ceiling at twice it. The adaptive threshold runs once, with a window
    of 4 marker cells (most of a tag): the tag's border against its white sticker is what
    makes the contour, and a window that wide keeps it clean beside dark terrain or in shade.
    (A second window of 1.5 cells found no more tags once `find_tags` reads the quadrilaterals
    the detector could not, and cost a third of the time.) OpenCV's default (3 to 23 px in
    steps of 10) is not tied to the tag's size and, at these scales, costs 3 passes for less.
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
    params.maxMarkerPerimeterRate = 2.0 * 4 * tag_px / max(1.0, side)
    window = max(3, int(4.0 * cell_px) | 1)
    params.adaptiveThreshWinSizeMin = window
    params.adaptiveThreshWinSizeMax = window
    params.adaptiveThreshWinSizeStep = 1
    params.minCornerDistanceRate = 0.05
    params.minDistanceToBorder = 1
    # Decoding small tags (45-55 px/in, a cell of 4-5 px) after a little blur and JPEG:
    # sample each cell away from its blurred edges (0.30 of a cell ignored each side, where
    # OpenCV's 0.13 let the neighbouring cells bleed in) on a finer canonical image (8 px a
    # cell, not 4), and accept the candidate quads a blurred contour gives (polygon
    # tolerance 5% of the perimeter). On the tuning frames: 75 -> 84 of 85 visible tags
    # decoded, no wrong id.
    params.adaptiveThreshConstant = TAG_THRESHOLD_CONSTANT
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
    return detect_with_candidates(detector, image)[0]


def detect_with_candidates(detector: cv2.aruco.ArucoDetector, image: Image
                           ) -> tuple[list[Detection], list[FloatArray]]:
    """The markers `detector` finds in `image`, and the quadrilaterals it found but could not
    read (4 x 2 pixel arrays): candidates for a second look."""
    corners, ids, rejected = detector.detectMarkers(to_gray(image))
    found = [] if ids is None else [
        Detection(int(i), np.asarray(c, dtype=np.float64).reshape(4, 2))
        for c, i in zip(corners, ids.ravel(), strict=True)]
    return found, [np.asarray(r, dtype=np.float64).reshape(4, 2) for r in rejected]


def refine_edges(gray: Image, corners: FloatArray, cell_px: float,
                 samples: int = 24) -> FloatArray | None:
    """The corners of a dark square on a light ground (a marker on its white paper, a tag on
    its sticker), from straight lines fitted to its four edges, each edge point where the
    brightness rises fastest across the edge (sub-pixel). A blurred corner is rounded and a
    corner search drifts along an edge; an edge's middle stays straight, so its line does not.

    `corners` (4 x 2, any rotation) must be within about half a cell of the truth; None when
    an edge shows no clear step (hidden, or not a marker's edge).
    """
    quad = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    nxt = np.roll(quad, -1, axis=0)  # side k runs from corner k to corner k + 1
    lengths = np.linalg.norm(nxt - quad, axis=1)
    if float(lengths.min()) < 1e-6:
        return None
    along = (nxt - quad) / lengths[:, None]
    normal = np.column_stack([-along[:, 1], along[:, 0]])
    outward = np.sign(np.sum(normal * ((quad + nxt) / 2.0 - quad.mean(axis=0)), axis=1))
    normal *= np.where(outward == 0, 1.0, outward)[:, None]  # dark inside, light outside
    reach = max(3.0, 0.7 * cell_px)  # inside the one-cell black border and the white margin
    offsets = np.arange(-reach, reach + 1e-9, 0.5)
    t = np.linspace(0.12, 0.88, samples)  # clear of the rounded corners
    base = quad[:, None, :] + t[None, :, None] * (nxt - quad)[:, None, :]  # 4 x S x 2
    pts = base[:, :, None, :] + offsets[None, None, :, None] * normal[:, None, None, :]
    flat = pts.reshape(4 * samples, len(offsets), 2).astype(np.float32)
    profile = cv2.remap(gray, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE).astype(np.float64)
    rise = np.diff(profile, axis=1)
    peak = np.argmax(rise, axis=1)
    rows = np.arange(len(peak))
    strength = rise[rows, peak]
    usable = (peak > 0) & (peak < rise.shape[1] - 1) & (strength > 0)
    at = np.clip(peak, 1, rise.shape[1] - 2)
    y0, y1, y2 = rise[rows, at - 1], rise[rows, at], rise[rows, at + 1]
    den = y0 - 2.0 * y1 + y2
    frac = np.where(np.abs(den) > 1e-9, 0.5 * (y0 - y2) / np.where(den == 0, 1.0, den), 0.0)
    # a difference sits half way between its two samples (0.5 px apart)
    s = offsets[at] + 0.25 + 0.5 * np.clip(frac, -0.5, 0.5)
    edge = (base.reshape(-1, 2) + s[:, None] * np.repeat(normal, samples, axis=0))
    lines = []
    for k in range(4):
        side = slice(k * samples, (k + 1) * samples)
        keep = usable[side]
        if keep.sum() < 5:
            return None
        keep &= strength[side] > 0.25 * _median(strength[side][keep])
        if keep.sum() < 5:
            return None
        vx, vy, x0, y0_ = cv2.fitLine(edge[side][keep].astype(np.float32), cv2.DIST_HUBER, 0,
                                      0.01, 0.01).ravel()
        lines.append((np.array([x0, y0_], dtype=np.float64), np.array([vx, vy], dtype=np.float64)))
    out = np.empty((4, 2), dtype=np.float64)
    for k in range(4):  # corner k joins the edge before it (k-1 -> k) and its own (k -> k+1)
        (p1, d1), (p2, d2) = lines[(k - 1) % 4], lines[k]
        det = d1[1] * d2[0] - d1[0] * d2[1]
        if abs(det) < 1e-6:
            return None
        diff = p2 - p1
        out[k] = p1 + d1 * ((diff[1] * d2[0] - diff[0] * d2[1]) / det)
    if float(np.max(np.linalg.norm(out - quad, axis=1))) > max(2.0, cell_px):
        return None  # the lines met far from the corners: not this quadrilateral's edges
    return out


def _median(values: FloatArray) -> float:
    """np.median of a non-empty 1-D array of finite numbers, by a sort (np.median's generic
    machinery costs more than the few dozen values it is called on here)."""
    a = np.sort(values)
    m = len(a) // 2
    return float(a[m]) if len(a) % 2 else (float(a[m - 1]) + float(a[m])) / 2.0


def decode_quad(gray: Image, quad: FloatArray, dictionary: cv2.aruco.Dictionary,
                px_per_cell: int = 8) -> tuple[int, FloatArray] | None:
    """Read the marker inside `quad` (4 x 2 pixels: the outer corners of its black border,
    in order round it) where the detector could not: each cell's middle (0.3 of a cell
    ignored each side) against the midpoint of the border's black and the white round it.
    Only a clean read counts: every border cell black, every bit clearly black or white, and
    the code exactly one of the dictionary's (no bit corrected).

    Returns the id and the corners in ArUco's order (the printed marker's top-left first),
    or None.
    """
    bits_n = dictionary.markerSize
    cells = bits_n + 2
    size = cells * px_per_cell
    pad = px_per_cell  # one cell of the paper round the marker
    target = np.array([[0, 0], [size, 0], [size, size], [0, size]], dtype=np.float32) + pad
    m = cv2.getPerspectiveTransform(np.asarray(quad, dtype=np.float32).reshape(4, 2), target)
    canon = cv2.warpPerspective(gray, m, (size + 2 * pad, size + 2 * pad),
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    canon = canon.astype(np.float64)
    margin = int(round(0.3 * px_per_cell))
    inner = canon[pad:pad + size, pad:pad + size].reshape(cells, px_per_cell, cells, px_per_cell)
    values = inner[:, margin:px_per_cell - margin, :, margin:px_per_cell - margin].mean(axis=(1, 3))
    half = pad // 2 + 1
    paper = np.concatenate([canon[:half].ravel(), canon[-half:].ravel(),
                            canon[:, :half].ravel(), canon[:, -half:].ravel()])
    border = np.concatenate([values[0], values[-1], values[1:-1, 0], values[1:-1, -1]])
    white, black = float(np.median(paper)), float(np.median(border))
    contrast = white - black
    if contrast < 20.0:
        return None
    threshold = (white + black) / 2.0
    code = values[1:-1, 1:-1]
    if float(border.max()) > threshold or float(np.min(np.abs(code - threshold))) < 0.12 * contrast:
        return None
    ok, marker_id, rotation = dictionary.identify((code > threshold).astype(np.uint8), 0.0)
    if not ok:
        return None
    # as OpenCV turns its candidates: the corner `rotation` places back comes first
    ordered: FloatArray = np.roll(np.asarray(quad, dtype=np.float64).reshape(4, 2),
                                  int(rotation), axis=0)
    return int(marker_id), ordered


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
