"""Lens calibration from synthetic ChArUco views through a distorting lens, and its use."""

from __future__ import annotations

import math

import numpy as np
import pytest
import vision_scenes as scenes
from synth_frames import Camera, distort, render

from vision.calibfile import CalibrationFile
from vision.calibration import calibrate
from vision.cv import cv2
from vision.errors import CalibrationError
from vision.lens import DEFAULT_BOARD, MIN_VIEWS, board_image, calibrate_lens
from vision.locate import locate
from vision.pose import Intrinsics

W, H = 1280, 720
K = np.array([[1000.0, 0.0, 640.0], [0.0, 1000.0, 360.0], [0.0, 0.0, 1.0]])
DIST = [-0.22, 0.06, 0.0, 0.0, 0.0]
PPI = 60.0
PAD_IN = 0.5


def board_view(rx: float, ry: float, rz: float, distance: float, shift: tuple[float, float]):
    """The board (on white paper) seen through K + DIST, turned by rx, ry, rz degrees."""
    board = board_image(DEFAULT_BOARD, PPI)
    pad = int(PAD_IN * PPI)
    paper = cv2.copyMakeBorder(board, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
    paper = cv2.cvtColor(paper, cv2.COLOR_GRAY2BGR)
    rvec = np.radians([rx, ry, rz])
    rot, _ = cv2.Rodrigues(rvec)
    w_in = DEFAULT_BOARD.squares_x * DEFAULT_BOARD.square_in
    h_in = DEFAULT_BOARD.squares_y * DEFAULT_BOARD.square_in
    centre = np.array([w_in / 2, h_in / 2, 0.0])
    tvec = np.array([shift[0], shift[1], distance]) - rot @ centre
    plane = K @ np.column_stack([rot[:, 0], rot[:, 1], tvec])
    px_to_board = np.array([[1 / PPI, 0, -PAD_IN], [0, 1 / PPI, -PAD_IN], [0, 0, 1]])
    ideal = cv2.warpPerspective(cv2.GaussianBlur(paper, (0, 0), 0.8), plane @ px_to_board,
                                (W, H), borderValue=(90, 90, 90))
    return distort(ideal, K, DIST)


@pytest.fixture(scope="module")
def views():
    poses = [(0, 0, 0, 16, (0, 0)), (25, 0, 5, 17, (-1, 0)), (-25, 0, -5, 17, (1, 0.5)),
             (0, 28, 0, 17, (0, -1)), (0, -28, 3, 17, (0, 1)), (18, 18, 10, 15, (2, 1)),
             (-18, 18, -10, 15, (-2, -1)), (15, -20, 0, 14, (-3, 1.5)),
             # toward the frame's corners, where distortion is strongest
             (10, 10, 0, 16, (4.5, 2.5)), (-10, 10, 0, 16, (-4.5, 2.5)),
             (10, -10, 0, 16, (4.5, -2.5)), (-10, -10, 0, 16, (-4.5, -2.5))]
    return [board_view(*p) for p in poses]


@pytest.fixture(scope="module")
def lens(views):
    return calibrate_lens(views)


def test_lens_recovered(lens):
    assert lens.image_size == (W, H)
    assert lens.rms_px is not None and lens.rms_px < 0.5
    assert abs(lens.camera_matrix[0, 0] - 1000.0) < 20.0
    assert abs(lens.camera_matrix[0, 2] - 640.0) < 15.0
    assert abs(lens.dist_coeffs[0] - DIST[0]) < 0.03
    # what matters for the table: the recovered model straightens the frame like the true
    # one, up to a homography (which the corner markers absorb); the frame's very corners,
    # where no board was seen, are left out
    pts = np.array([[x, y] for x in np.linspace(60, 1220, 12) for y in np.linspace(40, 680, 8)])
    true = cv2.undistortPoints(pts.reshape(-1, 1, 2), K, np.array(DIST), P=K).reshape(-1, 2)
    got = cv2.undistortPoints(pts.reshape(-1, 1, 2), lens.camera_matrix, lens.dist_coeffs,
                              P=K).reshape(-1, 2)
    def straightening_error(model: np.ndarray) -> float:
        hom, _ = cv2.findHomography(model, true, 0)
        fitted = cv2.perspectiveTransform(model.reshape(-1, 1, 2), hom).reshape(-1, 2)
        return float(np.abs(fitted - true).max())

    assert straightening_error(got) < 1.0
    assert straightening_error(pts) > 10.0  # the lens bends the frame by far more


def test_too_few_views(views):
    with pytest.raises(CalibrationError, match=f"at least {MIN_VIEWS} views"):
        calibrate_lens(views[: MIN_VIEWS - 1])
    with pytest.raises(CalibrationError, match="no photos"):
        calibrate_lens([])
    with pytest.raises(CalibrationError, match="use one resolution"):
        calibrate_lens([views[0], views[1][:360, :640]])


def test_intrinsics_scale_and_json(lens):
    half = lens.scaled_to((640, 360))
    assert half.camera_matrix[0, 0] == pytest.approx(lens.camera_matrix[0, 0] / 2)
    back = Intrinsics.from_json(lens.to_json())
    assert np.allclose(back.camera_matrix, lens.camera_matrix)
    with pytest.raises(CalibrationError, match="aspect ratio"):
        lens.scaled_to((640, 640))


def test_distorted_table_needs_the_lens(lens):
    """Through a distorting lens the corner-marker homography alone is off by a lot near
    the edges; with the lens calibration the tags are where they should be."""
    frame = render(scenes.small_figures(), (), Camera(W, H, tilt_deg=15.0, focal_px=1000.0),
                   layout=scenes.SMALL, seed=11)
    image = distort(frame.image, K, DIST)
    plain = locate(image, "tags", CalibrationFile(scenes.SMALL))
    fixed = locate(image, "tags", CalibrationFile(scenes.SMALL, lens))
    assert fixed.calibration is not None and fixed.calibration.intrinsics is lens
    assert fixed.calibration.pose is not None
    assert fixed.calibration.pose.focal_source == "calibrated"

    def worst(result) -> float:
        found = {f["tag"]: f for f in result.figures}
        assert sorted(found) == sorted(frame.truth)
        return max(math.hypot(found[t]["x"] - x, found[t]["y"] - y)
                   for t, (x, y) in frame.truth.items())

    assert plain.calibration is not None
    assert plain.calibration.reprojection_px > 3 * fixed.calibration.reprojection_px
    assert worst(fixed) < 0.05
    assert worst(fixed) < worst(plain)
    assert calibrate(image, scenes.SMALL, lens).markers == (0, 1, 2, 3)


def test_lens_command(views, tmp_path, capsys):
    import json

    from synth_frames import encode_png

    from service.cli import main
    from vision.calibfile import load_calibration

    paths = []
    for n, view in enumerate(views):
        paths.append(tmp_path / f"view{n}.png")
        paths[-1].write_bytes(encode_png(view))
    start = tmp_path / "start.json"
    start.write_text(json.dumps({"layout": scenes.SMALL_JSON}))
    out = tmp_path / "cal.json"
    code = main(["vision", "lens", *map(str, paths), "--calibration", str(start), "--out",
                 str(out), "--json"])
    assert code == 0
    answer = json.loads(capsys.readouterr().out)
    assert abs(answer["intrinsics"]["camera_matrix"][0][0] - 1000.0) < 20.0
    saved = load_calibration(out)
    assert saved.layout == scenes.SMALL  # the file's layout is kept
    assert saved.intrinsics is not None and saved.intrinsics.has_distortion
    code = main(["vision", "lens", str(paths[0]), "--out", str(out), "--json"])
    assert code == 2
    assert "at least 4 views" in json.loads(capsys.readouterr().out)["error"]["message"]
