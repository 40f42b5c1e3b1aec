"""Camera intrinsics and pose: where the camera is above the table, for parallax.

The pose comes from `cv2.solvePnP` on the corner markers' corners (all on the plane z = 0).
Without calibrated intrinsics the focal length is estimated from the homography itself
(two orthogonality constraints of a pinhole camera with square pixels and the principal point
at the image centre, as in Zhang's method); when the camera looks almost straight down that
estimate is ill-posed and a typical webcam field of view is assumed (`focal_source`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from i18n import Message
from vision.cv import cv2
from vision.errors import CalibrationError
from vision.types import FloatArray

__all__ = ["Intrinsics", "CameraPose", "estimate_focal", "solve_pose", "guess_focal"]



@dataclass(frozen=True)
class Intrinsics:
    """A pinhole camera: matrix K, distortion coefficients (OpenCV order), the image size
    they were measured at, and the RMS reprojection error of the lens calibration."""

    camera_matrix: FloatArray
    dist_coeffs: FloatArray
    image_size: tuple[int, int]  # (width, height)
    rms_px: float | None = None

    @property
    def has_distortion(self) -> bool:
        return bool(np.any(np.abs(self.dist_coeffs) > 1e-12))

    def scaled_to(self, image_size: tuple[int, int]) -> Intrinsics:
        """The same lens at another resolution of the same sensor (aspect must match)."""
        if image_size == self.image_size:
            return self
        sx = image_size[0] / self.image_size[0]
        sy = image_size[1] / self.image_size[1]
        if abs(sx - sy) > 0.01 * max(sx, sy):
            lens = f"{self.image_size[0]}x{self.image_size[1]}"
            image = f"{image_size[0]}x{image_size[1]}"
            raise CalibrationError(Message("camera.lens.aspect", {"lens": lens, "image": image}),
                                   "intrinsics.image_size")
        k = self.camera_matrix.copy()
        k[0, :] *= sx
        k[1, :] *= sy
        return Intrinsics(k, self.dist_coeffs, image_size, self.rms_px)

    def to_json(self) -> dict[str, Any]:
        return {"camera_matrix": self.camera_matrix.tolist(),
                "dist_coeffs": self.dist_coeffs.ravel().tolist(),
                "image_size": list(self.image_size), "rms_px": self.rms_px}

    @classmethod
    def from_json(cls, data: Any, where: str = "intrinsics") -> Intrinsics:
        if not isinstance(data, dict):
            raise CalibrationError(Message("camera.json.not_object", {"where": where}), where)
        try:
            k = np.asarray(data["camera_matrix"], dtype=np.float64)
            dist = np.asarray(data.get("dist_coeffs", []), dtype=np.float64).ravel()
            w, h = (int(v) for v in data["image_size"])
            rms = data.get("rms_px")
        except KeyError as error:
            raise CalibrationError(Message("camera.json.missing", {
                "where": where, "field": str(error.args[0])}),
                f"{where}.{error.args[0]}") from None
        except (TypeError, ValueError):
            raise CalibrationError(Message("camera.lens.malformed", {"where": where}),
                                   where) from None
        if k.shape != (3, 3) or not np.all(np.isfinite(k)) or k[0, 0] <= 0 or k[1, 1] <= 0:
            field = f"{where}.camera_matrix"
            raise CalibrationError(Message("camera.lens.matrix", {"where": field}), field)
        if dist.size not in (0, 4, 5, 8, 12, 14) or not np.all(np.isfinite(dist)):
            field = f"{where}.dist_coeffs"
            raise CalibrationError(Message("camera.lens.distortion", {
                "where": field, "n": int(dist.size)}), field)
        if w <= 0 or h <= 0:
            field = f"{where}.image_size"
            raise CalibrationError(Message("camera.lens.image_size", {"where": field}), field)
        return cls(k, dist if dist.size else np.zeros(5), (w, h),
                   None if rms is None else float(rms))


@dataclass(frozen=True)
class CameraPose:
    """The camera seen from the table: rotation and translation (table inches to camera),
    the camera centre in table inches (z up, toward the camera), and where K came from:
    ``"calibrated"`` (ChArUco), ``"estimated"`` (from the homography) or ``"guessed"``."""

    intrinsics: Intrinsics
    rvec: FloatArray
    tvec: FloatArray
    centre: FloatArray
    focal_source: str

    def to_json(self) -> dict[str, Any]:
        return {"rvec": self.rvec.ravel().tolist(), "tvec": self.tvec.ravel().tolist(),
                "centre": self.centre.tolist(), "focal_source": self.focal_source,
                "focal_px": float(self.intrinsics.camera_matrix[0, 0])}


def guess_focal(image_size: tuple[int, int]) -> float:
    """Focal length (px) of a typical webcam or phone: about 70 degrees across the width."""
    return image_size[0] / 2.0 / math.tan(math.radians(35.0))


def estimate_focal(table_to_image: FloatArray, image_size: tuple[int, int]) -> float | None:
    """Focal length (px) from a plane's homography, or None when the view is too close to
    straight down (or the data too noisy) to tell.

    With K = [[f, 0, cx], [0, f, cy], [0, 0, 1]] and the columns h1, h2 of K^-1 H being
    scaled rotation columns, r1.r2 = 0 and |r1| = |r2| each give a linear equation in 1/f^2.
    """
    w, h = image_size
    shift = np.array([[1.0, 0.0, -w / 2.0], [0.0, 1.0, -h / 2.0], [0.0, 0.0, 1.0]])
    m = shift @ table_to_image
    m = m / np.linalg.norm(m[:, :2])
    h11, h21, h31 = m[:, 0]
    h12, h22, h32 = m[:, 1]
    a = np.array([h11 * h12 + h21 * h22, h11 ** 2 + h21 ** 2 - h12 ** 2 - h22 ** 2])
    b = np.array([h31 * h32, h31 ** 2 - h32 ** 2])
    # The perspective terms must be large enough to carry information: each h3x is about
    # tan(tilt) / f (scaled); below ~8 degrees of tilt the estimate is mostly noise.
    tilt_scale = math.hypot(h31, h32) * max(w, h)
    if tilt_scale < 0.1 or float(a @ a) == 0.0:
        return None
    inv_f2 = -float(a @ b) / float(a @ a)
    if inv_f2 <= 0:
        return None
    f = 1.0 / math.sqrt(inv_f2)
    if not 0.25 * max(w, h) <= f <= 6.0 * max(w, h):
        return None
    return f


def solve_pose(table_points: FloatArray, image_points: FloatArray, image_size: tuple[int, int],
               table_to_image: FloatArray, intrinsics: Intrinsics | None) -> CameraPose:
    """Camera pose from table-plane points (inches, z = 0) and their pixels.

    `image_points` are as detected (distorted); with calibrated intrinsics solvePnP undoes the
    distortion itself. `table_to_image` maps table inches to *undistorted* pixels.
    """
    if intrinsics is not None:
        intr = intrinsics.scaled_to(image_size)
        source = "calibrated"
    else:
        f = estimate_focal(table_to_image, image_size)
        source = "estimated"
        if f is None:
            f, source = guess_focal(image_size), "guessed"
        k = np.array([[f, 0.0, image_size[0] / 2.0], [0.0, f, image_size[1] / 2.0],
                      [0.0, 0.0, 1.0]])
        intr = Intrinsics(k, np.zeros(5), image_size)
    obj = np.column_stack([table_points, np.zeros(len(table_points))]).astype(np.float64)
    ok, rvec, tvec = cv2.solvePnP(obj, image_points.astype(np.float64), intr.camera_matrix,
                                  intr.dist_coeffs, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        raise CalibrationError(Message("camera.pose.unsolved"), "pose")
    rot = np.asarray(cv2.Rodrigues(rvec)[0], dtype=np.float64)
    rvec = np.asarray(rvec, dtype=np.float64).ravel()
    tvec = np.asarray(tvec, dtype=np.float64).ravel()
    centre: FloatArray = -rot.T @ tvec
    if centre[2] <= 0:
        raise CalibrationError(Message("camera.pose.below"), "pose")
    return CameraPose(intr, rvec, tvec, centre, source)
