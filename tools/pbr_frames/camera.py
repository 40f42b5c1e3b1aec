"""A pinhole camera in OpenCV's convention (x right, y down, z forward; pixel (0, 0) is the
centre of the top-left pixel), placed above the table and fitted so the table is in view.

The renderer gets the same camera as an origin, target, up vector and diagonal field of view;
`make_set.py` checks after rendering that the corner markers OpenCV detects in the photo sit
where this model projects them (a fraction of a pixel), so the ground truth and the picture
agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from layout import TABLE

CM = 1 / 2.54


@dataclass
class Camera:
    width: int
    height: int
    fov_diag_deg: float
    origin: np.ndarray  # table inches
    target: np.ndarray
    up: np.ndarray
    tilt_deg: float
    azimuth_deg: float
    roll_deg: float

    @property
    def focal_px(self) -> float:
        return math.hypot(self.width, self.height) / 2 / math.tan(
            math.radians(self.fov_diag_deg) / 2)

    def rotation(self) -> np.ndarray:
        """Rows: the camera's right, down and forward axes in table coordinates."""
        f = self.target - self.origin
        f = f / np.linalg.norm(f)
        r = np.cross(f, self.up)
        r = r / np.linalg.norm(r)
        d = np.cross(f, r)
        return np.stack([r, d, f])

    def matrix(self) -> np.ndarray:
        f = self.focal_px
        return np.array([[f, 0, self.width / 2 - 0.5], [0, f, self.height / 2 - 0.5],
                         [0, 0, 1]])

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Table points (N, 3) to pixels (N, 2)."""
        cam = (np.asarray(pts, float) - self.origin) @ self.rotation().T
        k = self.matrix()
        return np.stack([k[0, 0] * cam[:, 0] / cam[:, 2] + k[0, 2],
                         k[1, 1] * cam[:, 1] / cam[:, 2] + k[1, 2]], axis=1)

    def inside(self, px: np.ndarray, margin: float = 0.0) -> np.ndarray:
        return ((px[:, 0] >= margin) & (px[:, 0] <= self.width - 1 - margin)
                & (px[:, 1] >= margin) & (px[:, 1] <= self.height - 1 - margin))

    def to_json(self) -> dict[str, object]:
        r = self.rotation()
        t = -r @ self.origin
        return {
            "model": "pinhole, no lens distortion; OpenCV convention (x right, y down, z "
                     "forward; pixel (0, 0) is the centre of the top-left pixel)",
            "width": self.width, "height": self.height,
            "fov_diagonal_deg": round(self.fov_diag_deg, 3),
            "focal_px": round(self.focal_px, 3),
            "camera_matrix": [[round(float(v), 4) for v in row] for row in self.matrix()],
            "rotation": [[round(float(v), 8) for v in row] for row in r],
            "translation_in": [round(float(v), 6) for v in t],
            "centre_in": [round(float(v), 4) for v in self.origin],
            "target_in": [round(float(v), 4) for v in self.target],
            "height_cm": round(float(self.origin[2]) * 2.54, 2),
            "tilt_deg": round(self.tilt_deg, 2), "azimuth_deg": round(self.azimuth_deg, 2),
            "roll_deg": round(self.roll_deg, 2),
        }


def place_camera(width: int, height: int, fov_diag_deg: float, height_cm: float,
                 tilt_deg: float, azimuth_deg: float, roll_deg: float = 0.0,
                 shift: tuple[float, float] = (0.0, 0.0), margin: float = 0.02) -> Camera:
    """A camera `height_cm` above the mat, its axis `tilt_deg` from vertical, standing on the
    side of the table at `azimuth_deg` (-90: the survivors' edge), aimed near the centre.
    When the whole table does not fit with `margin` (a share of the image) to spare, the
    camera is raised in 2 cm steps, up to 140 cm."""
    corners = np.array([[0, 0, 0], [TABLE, 0, 0], [TABLE, TABLE, 0], [0, TABLE, 0]], float)
    h = height_cm
    while h <= 140.0 + 1e-9:
        cam = _camera(width, height, fov_diag_deg, h, tilt_deg, azimuth_deg, roll_deg, shift)
        if cam.inside(cam.project(corners), margin * max(width, height)).all():
            return cam
        h += 2.0
    raise ValueError(f"the table does not fit in a {fov_diag_deg} degree view from 140 cm "
                     f"at tilt {tilt_deg}, azimuth {azimuth_deg}")


def _camera(width: int, height: int, fov: float, h_cm: float, tilt: float, az: float,
            roll: float, shift: tuple[float, float]) -> Camera:
    target = np.array([TABLE / 2 + shift[0], TABLE / 2 + shift[1], 0.0])
    a, t = math.radians(az), math.radians(tilt)
    h = h_cm * CM
    back = h * math.tan(t)
    origin = target + np.array([back * math.cos(a), back * math.sin(a), h])
    toward = np.array([-math.cos(a), -math.sin(a), 0.0])  # far side of the table: image top
    side = np.cross(toward, [0, 0, 1.0])
    rr = math.radians(roll)
    up = toward * math.cos(rr) + side * math.sin(rr)
    return Camera(width, height, fov, origin, target, up, tilt, az, roll)
