"""Calibration: the homography between image pixels and table inches, from the corner markers.

API (stable; other modules and tests rely on it):

- ``calibrate(image, layout=DEFAULT_LAYOUT, intrinsics=None, previous=None) -> Calibration``
  finds the corner markers (ArUco ids 0-3 by default) and fits the homography to all four
  corners of every marker found. At least `MIN_MARKERS` (3) are needed; with fewer, a
  `previous` calibration of the same fixed camera is reused when the markers still visible
  agree with it, otherwise `CalibrationError` says which markers were seen.
- ``Calibration.image_to_table(points, height=0.0)`` / ``table_to_image(points, height=0.0)``
  map N x 2 arrays; `height` (inches above the table) applies the parallax correction along
  the ray from the camera centre.
- ``Calibration.rectify(image, px_per_in, margin=0.0)`` warps the frame to a top-down image of
  the table; ``rectified_to_table(uv, px_per_in, margin)`` maps its pixels back to inches
  (row 0 is the far edge y = depth + margin, column 0 is x = -margin).
- ``Calibration.homography`` (3 x 3, undistorted image px -> table in), ``inverse``,
  ``reprojection_px`` / ``reprojection_in`` (RMS over the marker corners), ``markers``,
  ``pose`` (`CameraPose` with the camera centre in table inches), ``to_json``/``from_json``.

Why two markers are refused: a homography has 8 degrees of freedom and two 2 in markers give
8 points, so it can be fitted, but both markers sit along one edge or one diagonal of the
table; the perspective terms are then fixed by points 2 in apart and the error far from the
markers (inches, on the opposite side of the table) is invisible in the residual of the
points used. We would report a small error and a wrong table. Three markers span the table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from geometry.units import MM_PER_INCH
from i18n import Message
from vision.cv import cv2
from vision.errors import CalibrationError
from vision.layout import DEFAULT_LAYOUT, Layout
from vision.markers import (
    Detection,
    aruco_dictionary,
    corner_detector,
    detect,
    refine_edges,
    to_gray,
)
from vision.pose import CameraPose, Intrinsics, solve_pose
from vision.types import FloatArray, Image
from vision.words import corners

__all__ = ["Calibration", "calibrate", "calibrate_from_detections", "find_corner_markers",
           "missing_markers", "rectified_to_table", "rectify_matrix", "too_few_markers",
           "MIN_MARKERS"]


#: Corner markers needed for a fresh calibration (see the module docstring).
MIN_MARKERS = 3
#: Frames larger than this (px, larger side) are searched for corner markers at these
#: scales, the next only when the first found fewer than three markers.
HALF_SCALE_ABOVE = 2000
COARSE_SCALES = (0.25, 0.5)
SMALL_FRAME_SCALES = (0.5, 1.0)
#: The coarse search's one threshold window (px): 2.5-4 cells of a marker at those scales
#: (OpenCV's three windows found no more markers on the tuning frames, in twice the time).
COARSE_WINDOW = 13
# OpenCV's default 5 iterations leave ~0.1 px on a wide-angle webcam's edge; 20 converge.
UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-6)


@dataclass(frozen=True)
class Calibration:
    """Image pixels <-> table inches for one camera placement."""

    homography: FloatArray  # undistorted image px -> table inches on z = 0
    image_size: tuple[int, int]  # (width, height) of the frames it applies to
    markers: tuple[int, ...]  # corner marker ids it was fitted to
    reprojection_px: float  # RMS, detected corners vs table corners mapped into the image
    reprojection_in: float  # RMS, detected corners mapped onto the table vs true corners
    layout: Layout = DEFAULT_LAYOUT
    pose: CameraPose | None = None
    intrinsics: Intrinsics | None = None  # calibrated lens, when one was given
    source: str = "markers"  # "markers": fitted on this frame; "saved": reused
    checked_markers: tuple[int, ...] = field(default=())  # visible markers that agreed (saved)
    #: covariance (8 x 8, table inches squared) of the homography's first eight entries (the
    #: ninth is 1) from the fit's residuals; None for a calibration read from a file
    homography_cov: FloatArray | None = field(default=None, compare=False)

    @cached_property
    def inverse(self) -> FloatArray:
        inv = np.asarray(np.linalg.inv(self.homography), dtype=np.float64)
        out: FloatArray = inv / inv[2, 2]
        return out

    # -- point mapping --------------------------------------------------------------------
    def undistort_points(self, points: FloatArray) -> FloatArray:
        """Pixels as a distortion-free camera would see them (identity without a lens
        calibration)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if self.intrinsics is None or not self.intrinsics.has_distortion or len(pts) == 0:
            return pts
        k = self.intrinsics.scaled_to(self.image_size)
        out = cv2.undistortPoints(pts.reshape(-1, 1, 2), k.camera_matrix, k.dist_coeffs,
                                  P=k.camera_matrix, criteria=UNDISTORT_CRITERIA)
        return np.asarray(out, dtype=np.float64).reshape(-1, 2)

    def image_to_table(self, points: FloatArray, height: float = 0.0) -> FloatArray:
        """Table inches of image points; a point `height` inches above the table (a tag on
        its base) is moved back along the camera ray onto its true x, y."""
        pts = self.undistort_points(points)
        table = _apply(self.homography, pts)
        return self.lift(table, height)

    def table_to_image(self, points: FloatArray, height: float = 0.0) -> FloatArray:
        """Undistorted pixels where table points `height` inches up appear."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if height:
            c = self._camera_centre(height)
            pts = c[:2] + (pts - c[:2]) * (c[2] / (c[2] - height))
        return _apply(self.inverse, pts)

    def lift(self, table_points: FloatArray, height: float) -> FloatArray:
        """Where a point seen at `table_points` (its ray's foot on z = 0) really is when it
        stands `height` inches up: P = P0 + (C_xy - P0) * height / C_z."""
        pts = np.asarray(table_points, dtype=np.float64).reshape(-1, 2)
        if not height:
            return pts
        c = self._camera_centre(height)
        lifted: FloatArray = pts + (c[:2] - pts) * (height / c[2])
        return lifted

    def _camera_centre(self, height: float) -> FloatArray:
        if self.pose is None:
            raise CalibrationError(Message("camera.pose.none"), "pose")
        if self.pose.centre[2] <= height:
            raise CalibrationError(Message("camera.pose.too_low", {
                "up": float(self.pose.centre[2]), "mm": height * MM_PER_INCH}), "pose")
        return self.pose.centre

    def mapping_sigma(self, points: FloatArray) -> FloatArray | None:
        """How far the homography's own error may carry each undistorted image point on the
        table (inches, one standard deviation of the distance, N points): the covariance of
        the fit carried to each point. It grows away from the markers fitted, the most at a
        fourth corner extrapolated from three. None without the fit's covariance."""
        if self.homography_cov is None:
            return None
        grad = _homography_gradient(self.homography, np.asarray(points, dtype=np.float64))
        cov = np.einsum("nik,kl,njl->nij", grad, self.homography_cov, grad)
        out: FloatArray = np.sqrt(np.maximum(np.trace(cov, axis1=1, axis2=2), 0.0))
        return out

    def px_per_in(self, at: Sequence[float] | None = None) -> float:
        """Image pixels per table inch near `at` (default: the table centre): the square root
        of the homography's local area scale."""
        x, y = (self.layout.table_width / 2, self.layout.table_depth / 2) if at is None else at
        pts = np.array([[x, y], [x + 0.5, y], [x, y + 0.5]])
        img = self.table_to_image(pts)
        ex, ey = (img[1] - img[0]) / 0.5, (img[2] - img[0]) / 0.5
        return math.sqrt(abs(ex[0] * ey[1] - ex[1] * ey[0]))

    # -- rectified top-down image ---------------------------------------------------------
    def undistort_image(self, image: Image) -> Image:
        if self.intrinsics is None or not self.intrinsics.has_distortion:
            return image
        k = self.intrinsics.scaled_to(self.image_size)
        out: Image = cv2.undistort(image, k.camera_matrix, k.dist_coeffs)
        return out

    def rectify(self, image: Image, px_per_in: float, margin: float = 0.0,
                interpolation: int = cv2.INTER_LINEAR) -> Image:
        """The table seen from straight above at `px_per_in`, `margin` inches around it."""
        self.check_image(image)
        m = rectify_matrix(self.layout, px_per_in, margin) @ self.homography
        size = (int(math.ceil((self.layout.table_width + 2 * margin) * px_per_in)) + 1,
                int(math.ceil((self.layout.table_depth + 2 * margin) * px_per_in)) + 1)
        out: Image = cv2.warpPerspective(self.undistort_image(image), m, size,
                                         flags=interpolation, borderMode=cv2.BORDER_CONSTANT,
                                         borderValue=(255, 255, 255))
        return out

    def check_image(self, image: Image) -> None:
        h, w = image.shape[:2]
        if (w, h) != self.image_size:
            raise CalibrationError(Message("camera.calibration.frame_size", {
                "size": _size(self.image_size), "image": _size((w, h))}), "image_size")

    # -- JSON -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "homography": self.homography.tolist(), "image_size": list(self.image_size),
            "markers": list(self.markers), "reprojection_px": self.reprojection_px,
            "reprojection_in": self.reprojection_in,
            "pose": None if self.pose is None else self.pose.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any, layout: Layout = DEFAULT_LAYOUT,
                  intrinsics: Intrinsics | None = None, where: str = "table") -> Calibration:
        """A saved calibration (the ``"table"`` object of a calibration file)."""
        if not isinstance(data, dict):
            raise CalibrationError(Message("camera.json.not_object", {"where": where}), where)
        try:
            hom = np.asarray(data["homography"], dtype=np.float64)
            w, h = (int(v) for v in data["image_size"])
            markers = tuple(int(m) for m in data.get("markers", []))
            rep_px = float(data.get("reprojection_px", 0.0))
            rep_in = float(data.get("reprojection_in", 0.0))
            pose_data = data.get("pose")
        except KeyError as error:
            raise CalibrationError(Message("camera.json.missing", {
                "where": where, "field": str(error.args[0])}),
                f"{where}.{error.args[0]}") from None
        except (TypeError, ValueError):
            raise CalibrationError(Message("camera.calibration.malformed", {"where": where}),
                                   where) from None
        if hom.shape != (3, 3) or not np.all(np.isfinite(hom)) or abs(np.linalg.det(hom)) < 1e-18:
            field = f"{where}.homography"
            raise CalibrationError(Message("camera.calibration.homography", {"where": field}),
                                   field)
        pose = None
        if pose_data is not None:
            try:
                rvec = np.asarray(pose_data["rvec"], dtype=np.float64).reshape(3)
                tvec = np.asarray(pose_data["tvec"], dtype=np.float64).reshape(3)
                centre = np.asarray(pose_data["centre"], dtype=np.float64).reshape(3)
                focal = float(pose_data["focal_px"])
                source = str(pose_data.get("focal_source", "estimated"))
            except (KeyError, TypeError, ValueError):
                field = f"{where}.pose"
                raise CalibrationError(Message("camera.calibration.pose", {"where": field}),
                                       field) from None
            intr = intrinsics.scaled_to((w, h)) if intrinsics is not None else Intrinsics(
                np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]], dtype=np.float64),
                np.zeros(5), (w, h))
            pose = CameraPose(intr, rvec, tvec, centre, source)
        return cls(hom / hom[2, 2], (w, h), markers, rep_px, rep_in, layout, pose, intrinsics,
                   source="saved")


def rectify_matrix(layout: Layout, px_per_in: float, margin: float = 0.0) -> FloatArray:
    """Table inches -> rectified pixels (x right, rows downward from the far edge)."""
    return np.array([[px_per_in, 0.0, margin * px_per_in],
                     [0.0, -px_per_in, (layout.table_depth + margin) * px_per_in],
                     [0.0, 0.0, 1.0]])


def rectified_to_table(uv: FloatArray, layout: Layout, px_per_in: float,
                       margin: float = 0.0) -> FloatArray:
    """Table inches of rectified-image pixels (inverse of `rectify_matrix`)."""
    pts = np.asarray(uv, dtype=np.float64).reshape(-1, 2)
    return np.column_stack([pts[:, 0] / px_per_in - margin,
                            layout.table_depth + margin - pts[:, 1] / px_per_in])


def find_corner_markers(image: Image, layout: Layout = DEFAULT_LAYOUT) -> list[Detection]:
    """The corner markers in a frame (other ids are ignored; an id seen twice is dropped as
    ambiguous).

    Frames wider than `HALF_SCALE_ABOVE` px are searched at a quarter of their size (a 2 in
    marker is still 20+ px wide there, and the search costs a sixteenth), then at half size
    if fewer than three markers were found. Every marker's corners are then measured on the
    full frame from its four edges (`refine_edges`). When three are found, the fourth is
    looked for where they put it, on the full frame: a marker too small or blurred for the
    coarse search is found there, a hidden one costs a glance.
    """
    gray = to_gray(image)
    scales = COARSE_SCALES if max(gray.shape[:2]) > HALF_SCALE_ABOVE else SMALL_FRAME_SCALES
    found: list[Detection] = []
    for scale in scales:
        found = _search(gray, layout, scale)
        if len({d.id for d in found}) >= MIN_MARKERS:
            break
    ids = [d.id for d in found]
    unique = [d for d in found if ids.count(d.id) == 1]
    if len(unique) == len(layout.corner_ids) - 1:
        unique += _look_for_the_last(gray, layout, unique)
    return sorted(unique, key=lambda d: d.id)


def _search(gray: Image, layout: Layout, scale: float) -> list[Detection]:
    """Corner markers found on `gray` resized by `scale`, measured on `gray` itself."""
    small = _shrink(gray, scale)
    # pixel centres: full = (small + 0.5) * (full size / small size) - 0.5
    factor = np.array([gray.shape[1] / small.shape[1], gray.shape[0] / small.shape[0]])
    return [Detection(d.id, _refine(gray, (d.corners + 0.5) * factor - 0.5, layout))
            for d in detect(corner_detector(layout, refine=False, window=COARSE_WINDOW), small)
            if d.id in layout.corner_ids]


def _shrink(gray: Image, scale: float) -> Image:
    """`gray` resized by `scale` (pixel areas averaged); a quarter as two halvings, which
    OpenCV does four times faster than one resize to a quarter, to the same pixels."""
    out = gray
    while scale <= 0.5 and min(out.shape[:2]) >= 2:
        out = cv2.resize(out, (out.shape[1] // 2, out.shape[0] // 2),
                         interpolation=cv2.INTER_AREA)
        scale *= 2.0
    if scale < 1.0:
        size = (max(1, round(out.shape[1] * scale)), max(1, round(out.shape[0] * scale)))
        out = cv2.resize(out, size, interpolation=cv2.INTER_AREA)
    return out


def _look_for_the_last(gray: Image, layout: Layout, found: list[Detection]) -> list[Detection]:
    """The one corner marker missing from `found` (three), searched on the full frame around
    where the homography of the three puts it; [] when it is not there."""
    missing = [i for i in layout.corner_ids if i not in {d.id for d in found}][0]
    image_pts = np.concatenate([d.corners for d in found])
    table_pts = np.concatenate([layout.corner_points(d.id) for d in found])
    hom, _mask = cv2.findHomography(table_pts, image_pts, 0)
    if hom is None or not np.all(np.isfinite(hom)):
        return []
    expected = _apply(np.asarray(hom, dtype=np.float64), layout.corner_points(missing))
    side = float(np.max(np.linalg.norm(expected - np.roll(expected, 1, axis=0), axis=1)))
    lo = np.floor(expected.min(axis=0) - side).astype(int)
    hi = np.ceil(expected.max(axis=0) + side).astype(int)
    h, w = gray.shape[:2]
    x0, y0 = max(0, int(lo[0])), max(0, int(lo[1]))
    x1, y1 = min(w, int(hi[0])), min(h, int(hi[1]))
    if x1 - x0 < side or y1 - y0 < side:
        return []  # out of the frame
    window = gray[y0:y1, x0:x1]
    scale = min(1.0, 48.0 / max(side, 1.0))  # ~8 px a cell is plenty to find it
    shift = np.array([x0, y0], dtype=np.float64)
    for d in _search_window(window, layout, scale):
        if d.id == missing:
            return [Detection(d.id, _refine(gray, d.corners + shift, layout))]
    return []


def _search_window(window: Image, layout: Layout, scale: float) -> list[Detection]:
    small = _shrink(window, scale)
    factor = np.array([window.shape[1] / small.shape[1], window.shape[0] / small.shape[0]])
    detector = corner_detector(layout, refine=False, min_perimeter_rate=0.2)
    return [Detection(d.id, (d.corners + 0.5) * factor - 0.5) for d in detect(detector, small)]


def _refine(gray: Image, corners: FloatArray, layout: Layout) -> FloatArray:
    """Corners measured from the marker's edges; a corner search (`cornerSubPix`) when an
    edge cannot be fitted (a hand over part of it)."""
    side = float(np.max(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))
    cells = aruco_dictionary(layout).markerSize + 2  # its bits and a border cell each side
    fitted = refine_edges(gray, corners, side / cells)
    if fitted is not None:
        return fitted
    pts = corners.astype(np.float32).reshape(-1, 1, 2)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 0.01)
    refined = cv2.cornerSubPix(gray, pts, (5, 5), (-1, -1), criteria)
    return np.asarray(refined, dtype=np.float64).reshape(4, 2)


def calibrate(image: Image, layout: Layout = DEFAULT_LAYOUT,
              intrinsics: Intrinsics | None = None,
              previous: Calibration | None = None) -> Calibration:
    """Locate the table in `image` from its corner markers (see the module docstring)."""
    h, w = image.shape[:2]
    return calibrate_from_detections(find_corner_markers(image, layout), (w, h), layout,
                                     intrinsics, previous)


def calibrate_from_detections(detections: Sequence[Detection], image_size: tuple[int, int],
                              layout: Layout = DEFAULT_LAYOUT,
                              intrinsics: Intrinsics | None = None,
                              previous: Calibration | None = None) -> Calibration:
    """Fit the homography to the corner-marker detections (pixels, as detected)."""
    ids = tuple(sorted(d.id for d in detections if d.id in layout.corner_ids))
    if len(ids) < MIN_MARKERS:
        if previous is not None:
            return _reuse(previous, detections, image_size, layout)
        raise CalibrationError(too_few_markers(layout, ids, detections, image_size),
                               "table.markers")
    by_id = {d.id: d for d in detections}
    image_pts = np.concatenate([by_id[i].corners for i in ids])
    table_pts = np.concatenate([layout.corner_points(i) for i in ids])
    probe = Calibration(np.eye(3), image_size, ids, 0.0, 0.0, layout, None, intrinsics)
    undist = probe.undistort_points(image_pts)
    hom, _mask = cv2.findHomography(undist, table_pts, 0)
    if hom is None or not np.all(np.isfinite(hom)):
        raise CalibrationError(Message("camera.calibration.degenerate", {
            "corners": corners(layout.corner_ids, ids)}), "table.markers")
    hom = hom / hom[2, 2]
    inv = np.linalg.inv(hom)
    rep_px = _rms(_apply(inv, table_pts) - undist)
    rep_in = _rms(_apply(hom, undist) - table_pts)
    pose = solve_pose(table_pts, image_pts, image_size, inv / inv[2, 2], intrinsics)
    return Calibration(hom, image_size, ids, rep_px, rep_in, layout, pose, intrinsics,
                       homography_cov=_homography_cov(hom, undist, table_pts))


def _homography_gradient(hom: FloatArray, points: FloatArray) -> FloatArray:
    """d(table point) / d(h0..h7) for each image point (N x 2 x 8), h8 fixed at 1."""
    h = np.asarray(hom, dtype=np.float64) / hom[2, 2]
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    x, y = pts[:, 0], pts[:, 1]
    w = h[2, 0] * x + h[2, 1] * y + 1.0
    u = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
    v = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
    grad = np.zeros((len(pts), 2, 8))
    grad[:, 0, 0], grad[:, 0, 1], grad[:, 0, 2] = x / w, y / w, 1.0 / w
    grad[:, 1, 3], grad[:, 1, 4], grad[:, 1, 5] = x / w, y / w, 1.0 / w
    grad[:, 0, 6], grad[:, 0, 7] = -u * x / w, -u * y / w
    grad[:, 1, 6], grad[:, 1, 7] = -v * x / w, -v * y / w
    return grad


def _homography_cov(hom: FloatArray, image_pts: FloatArray, table_pts: FloatArray
                    ) -> FloatArray | None:
    """Covariance of the fitted homography's entries from its residuals (Gauss-Newton at the
    fit: s^2 (J^T J)^-1, s^2 the residual variance per coordinate on the table)."""
    grad = _homography_gradient(hom, image_pts).reshape(-1, 8)
    resid = (_apply(hom, image_pts) - table_pts).ravel()
    dof = len(resid) - 8
    if dof <= 0:
        return None
    scale = np.linalg.norm(grad, axis=0)  # the entries differ by orders of magnitude
    if float(scale.min()) <= 0.0:
        return None
    normal = (grad / scale).T @ (grad / scale)
    if np.linalg.cond(normal) > 1e12:
        return None
    inv = np.linalg.inv(normal) / np.outer(scale, scale)
    cov: FloatArray = np.asarray(float(resid @ resid) / dof * inv, dtype=np.float64)
    return cov


def _reuse(previous: Calibration, detections: Sequence[Detection],
           image_size: tuple[int, int], layout: Layout) -> Calibration:
    """The saved calibration of a fixed camera, if the corner markers still visible agree."""
    if previous.image_size != image_size:
        raise CalibrationError(Message("camera.calibration.saved_size", {
            "size": _size(previous.image_size), "image": _size(image_size)}),
            "table.image_size")
    visible = [d for d in detections if d.id in layout.corner_ids]
    if visible:
        seen = np.concatenate([previous.undistort_points(d.corners) for d in visible])
        expected = previous.table_to_image(np.concatenate([layout.corner_points(d.id)
                                                           for d in visible]))
        err = _rms(seen - expected)
        tolerance = max(3.0, 5.0 * previous.reprojection_px)
        if err > tolerance:
            raise CalibrationError(Message("camera.calibration.moved", {
                "corners": corners(layout.corner_ids, [d.id for d in visible]),
                "px": err, "tolerance": tolerance}), "table.markers")
    return Calibration(previous.homography, previous.image_size, previous.markers,
                       previous.reprojection_px, previous.reprojection_in, previous.layout,
                       previous.pose, previous.intrinsics, "saved",
                       tuple(sorted(d.id for d in visible)), previous.homography_cov)


def too_few_markers(layout: Layout, ids: Sequence[int],
                    detections: Sequence[Detection] = (),
                    image_size: tuple[int, int] | None = None) -> Message:
    """Why the table cannot be located from these corner markers (fewer than three): which
    corners are hidden, and what to do. With two markers seen (their `detections` and the
    frame's `image_size`), a missing marker that falls outside the photo is said to be out
    of the photo (move the camera), not hidden."""
    hidden = [i for i in layout.corner_ids if i not in ids]
    seen = corners(layout.corner_ids, ids)
    missing = corners(layout.corner_ids, hidden)
    if not ids:
        return Message("camera.corners.none_seen")
    if len(ids) == 1:
        return Message("camera.corners.one_seen", {"seen": seen, "hidden": missing})
    covered, outside = missing_markers(layout, detections, image_size)
    if outside and not covered:
        return Message("camera.corners.two_seen_outside", {
            "seen": seen, "outside": corners(layout.corner_ids, outside)})
    if outside:
        return Message("camera.corners.two_seen_mixed", {
            "seen": seen, "hidden": corners(layout.corner_ids, covered),
            "outside": corners(layout.corner_ids, outside)})
    return Message("camera.corners.two_seen", {"seen": seen, "hidden": missing})


def missing_markers(layout: Layout, detections: Sequence[Detection],
                    image_size: tuple[int, int] | None) -> tuple[list[int], list[int]]:
    """The corner markers not found, split into those inside the photo (something hides
    them) and those outside it or cut by its edge (a corner beyond the edge), where two or more
    markers found put them: two markers predict the others within a fifth of a marker on the
    rendered frames. A marker put across the edge is said to be outside: even if it were just
    inside, a marker touching the photo's edge is badly framed, and moving the camera back
    is the advice that works either way (a new user cropped a photo through two markers and
    was told to uncover them). ([], []) when fewer than two markers were found or the frame's
    size is not known."""
    found = {d.id: d for d in detections if d.id in layout.corner_ids}
    absent = [i for i in layout.corner_ids if i not in found]
    if len(found) < 2 or image_size is None or not absent:
        return [], []
    image_pts = np.concatenate([d.corners for d in found.values()])
    table_pts = np.concatenate([layout.corner_points(i) for i in found])
    hom, _mask = cv2.findHomography(table_pts, image_pts, 0)
    if hom is None or not np.all(np.isfinite(hom)):
        return [], []
    w, h = image_size
    covered: list[int] = []
    outside: list[int] = []
    for marker in absent:
        quad = _apply(np.asarray(hom, dtype=np.float64), layout.corner_points(marker))
        # how far inside the frame its worst corner is (negative: beyond the edge)
        inside = float(np.min(np.concatenate([quad[:, 0] + 0.5, w - 0.5 - quad[:, 0],
                                              quad[:, 1] + 0.5, h - 0.5 - quad[:, 1]])))
        (outside if inside < 0.0 else covered).append(marker)
    return covered, outside


def _size(size: tuple[int, int]) -> str:
    """A frame size as people write it: 1280x720 (no thousands separator)."""
    return f"{size[0]}x{size[1]}"


def _apply(hom: FloatArray, pts: FloatArray) -> FloatArray:
    pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    if len(pts) == 0:
        return pts
    out = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), hom)
    return np.asarray(out, dtype=np.float64).reshape(-1, 2)


def _rms(diff: FloatArray) -> float:
    return float(np.sqrt(np.mean(np.sum(np.asarray(diff) ** 2, axis=1)))) if len(diff) else 0.0
