"""Optional lens calibration from a ChArUco board (intrinsics and distortion).

Cheap webcams bend straight lines near the frame's edges by several pixels; the corner-marker
homography cannot absorb that. Show the camera a printed ChArUco board in a dozen poses,
calibrate once, and keep the result in the calibration file (`"intrinsics"`).

The board uses DICT_5X5_100, a dictionary other than the table's, so its markers are never
taken for corner markers or figure tags.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from i18n import Message
from vision.cv import cv2
from vision.errors import CalibrationError
from vision.markers import to_gray
from vision.pose import Intrinsics
from vision.types import Image

__all__ = ["BoardSpec", "DEFAULT_BOARD", "make_board", "board_image", "calibrate_lens",
           "MIN_VIEWS", "MIN_CORNERS"]

MIN_VIEWS = 4
MIN_CORNERS = 8


@dataclass(frozen=True)
class BoardSpec:
    """A ChArUco board: squares across and down, square and marker sides in inches."""

    squares_x: int = 7
    squares_y: int = 5
    square_in: float = 1.2
    marker_in: float = 0.9
    dictionary: str = "DICT_5X5_100"


DEFAULT_BOARD = BoardSpec()


def make_board(spec: BoardSpec = DEFAULT_BOARD) -> cv2.aruco.CharucoBoard:
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, spec.dictionary))
    return cv2.aruco.CharucoBoard((spec.squares_x, spec.squares_y), spec.square_in,
                                  spec.marker_in, d)


def board_image(spec: BoardSpec = DEFAULT_BOARD, px_per_in: float = 100.0) -> Image:
    """The board drawn at `px_per_in`, no margin (for printing or synthetic views)."""
    size = (int(round(spec.squares_x * spec.square_in * px_per_in)),
            int(round(spec.squares_y * spec.square_in * px_per_in)))
    img: Image = make_board(spec).generateImage(size, marginSize=0, borderBits=1)
    return img


def calibrate_lens(frames: Iterable[Image], spec: BoardSpec = DEFAULT_BOARD) -> Intrinsics:
    """Intrinsics from several views of the board. Views with fewer than `MIN_CORNERS`
    chessboard corners are skipped; at least `MIN_VIEWS` usable views are needed."""
    board = make_board(spec)
    detector = cv2.aruco.CharucoDetector(board)
    obj_points: list[Image] = []
    img_points: list[Image] = []
    size: tuple[int, int] | None = None
    for n, frame in enumerate(frames):
        h, w = frame.shape[:2]
        if size is None:
            size = (w, h)
        elif size != (w, h):
            this, first = f"{w}x{h}", f"{size[0]}x{size[1]}"
            raise CalibrationError(Message("camera.lens.frame_size", {
                "n": n + 1, "size": this, "first": first}), f"frames[{n}]")
        corners, ids, _mc, _mi = detector.detectBoard(to_gray(frame))
        if ids is None or len(ids) < MIN_CORNERS:
            continue
        obj, img = board.matchImagePoints(corners, ids)  # type: ignore[call-overload]
        if obj is None or len(obj) < MIN_CORNERS:
            continue
        obj_points.append(np.asarray(obj, dtype=np.float32).reshape(-1, 1, 3))
        img_points.append(np.asarray(img, dtype=np.float32).reshape(-1, 1, 2))
    if size is None:
        raise CalibrationError(Message("camera.lens.no_frames"), "frames")
    if len(obj_points) < MIN_VIEWS:
        raise CalibrationError(Message("camera.lens.too_few_views", {
            "found": len(obj_points), "views": MIN_VIEWS, "corners": MIN_CORNERS}), "frames")
    rms, k, dist, _r, _t = cv2.calibrateCamera(obj_points, img_points, size, None, None)
    return Intrinsics(np.asarray(k, dtype=np.float64),
                      np.asarray(dist, dtype=np.float64).ravel(), size, float(rms))
