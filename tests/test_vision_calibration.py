"""Calibration from the corner markers: accuracy, pose, refusals, saved calibrations, files."""

from __future__ import annotations

import json

import numpy as np
import pytest
import vision_scenes as scenes
from synth_frames import Camera, render

from i18n import Message
from vision.calibfile import CalibrationFile, load_calibration
from vision.calibration import (
    Calibration,
    calibrate,
    calibrate_from_detections,
    find_corner_markers,
    missing_markers,
    rectified_to_table,
    rectify_matrix,
)
from vision.errors import CalibrationError, LayoutError
from vision.layout import DEFAULT_LAYOUT, Layout
from vision.pose import estimate_focal

GRID = np.array([[x, y] for x in np.linspace(0, 12, 7) for y in np.linspace(0, 12, 7)])


def table_error(cal: Calibration, frame) -> float:
    """Largest distance (in) between true table points and where the calibration maps their
    exact pixels."""
    pts = GRID * (cal.layout.table_width / 12.0)
    img = frame.project(np.column_stack([pts, np.zeros(len(pts))]))
    return float(np.abs(cal.image_to_table(img) - pts).max())


@pytest.fixture(scope="module")
def small():
    frame = scenes.small_frame()
    return frame, calibrate(frame.image, scenes.SMALL)


def test_four_markers_fit_the_table(small):
    frame, cal = small
    assert cal.markers == (0, 1, 2, 3)
    assert cal.source == "markers"
    assert cal.reprojection_px < 0.5
    assert cal.reprojection_in < 0.01
    assert table_error(cal, frame) < 0.02


def test_pose_recovers_the_camera(small):
    frame, cal = small
    assert cal.pose is not None
    assert cal.pose.focal_source == "estimated"
    assert np.linalg.norm(cal.pose.centre - frame.camera_centre) < 0.03 * frame.camera_centre[2]
    f_true = frame.camera_matrix[0, 0]
    assert abs(cal.pose.intrinsics.camera_matrix[0, 0] - f_true) < 0.03 * f_true


def test_height_round_trip(small):
    frame, cal = small
    pts = np.array([[3.0, 4.0], [9.0, 10.0]])
    h = cal.layout.base_height
    img = frame.project(np.column_stack([pts, np.full(2, h)]))
    assert np.abs(cal.image_to_table(img, height=h) - pts).max() < 0.02
    assert np.abs(cal.table_to_image(pts, height=h) - img).max() < 1.0
    # without the height, the same pixels land away from the camera
    assert np.abs(cal.image_to_table(img) - pts).max() > 0.02


def test_rectify_convention(small):
    frame, cal = small
    ppi = 40.0
    top = cal.rectify(frame.image, ppi)
    assert top.shape[:2] == (int(np.ceil(12 * ppi)) + 1, int(np.ceil(12 * ppi)) + 1)
    m = rectify_matrix(cal.layout, ppi)
    corner = (m @ [1.5, 1.5, 1.0])[:2]
    assert np.allclose(rectified_to_table(corner, cal.layout, ppi), [[1.5, 1.5]])
    # marker 0's black border is at the bottom-left of the rectified image, on white paper
    for x, y, dark in ((0.65, 1.5, True), (1.5, 0.65, True), (0.25, 1.5, False)):
        u, v = (int(round(c)) for c in (m @ [x, y, 1.0])[:2])
        assert (top[v, u].mean() < 80) == dark, (x, y, top[v, u])


def test_corner_markers_measured_on_their_edges():
    """Corners from the four edges' lines, found at a quarter size on a 4K frame: within a
    pixel of where the camera puts them."""
    frame = scenes.accuracy_frame()
    found = find_corner_markers(frame.image)
    assert [d.id for d in found] == [0, 1, 2, 3]
    for d in found:
        projected = project(frame, DEFAULT_LAYOUT.corner_points(d.id))
        assert np.abs(d.corners - projected).max() < 1.0, (d.id, d.corners - projected)


def project(frame, table_pts: np.ndarray) -> np.ndarray:
    """Where the synthetic camera sees table points (z = 0)."""
    pts = np.column_stack([table_pts, np.zeros(len(table_pts))])
    cam = (frame.rotation @ pts.T).T + frame.tvec.reshape(1, 3)
    uv = (frame.camera_matrix @ cam.T).T
    return uv[:, :2] / uv[:, 2:]


def test_fourth_marker_looked_for_where_three_put_it(monkeypatch):
    """When the coarse search misses a marker, the full frame is searched where the three
    others put it (here the coarse search is made blind to marker 2)."""
    import vision.calibration as calibration

    frame = scenes.accuracy_frame()
    search = calibration._search

    def blind(gray, layout, scale):
        return [d for d in search(gray, layout, scale) if d.id != 2]

    monkeypatch.setattr(calibration, "_search", blind)
    found = find_corner_markers(frame.image)
    assert [d.id for d in found] == [0, 1, 2, 3]
    assert np.abs(found[2].corners - project(frame, DEFAULT_LAYOUT.corner_points(2))).max() < 1


def test_three_markers_with_a_hand(small):
    frame = scenes.small_frame(hidden=(2,))
    cal = calibrate(frame.image, scenes.SMALL)
    assert cal.markers == (0, 1, 3)
    assert table_error(cal, frame) < 0.05


def test_two_markers_refused():
    frame = scenes.small_frame(hidden=(1, 2))
    assert [d.id for d in find_corner_markers(frame.image, scenes.SMALL)] == [0, 3]
    with pytest.raises(CalibrationError) as err:
        calibrate(frame.image, scenes.SMALL)
    assert err.value.where == "table.markers"
    # it names the corners seen and the corners hidden, and says what to do
    assert err.value.words == Message("camera.corners.two_seen", {
        "seen": [Message("camera.corner.bottom_left"), Message("camera.corner.top_left")],
        "hidden": [Message("camera.corner.bottom_right"), Message("camera.corner.top_right")]})
    assert err.value.message.startswith(
        "the camera sees only the bottom-left and top-left corner markers; the bottom-right "
        "and top-right ones are hidden: uncover one of them")
    assert err.value.text("fr").startswith(
        "la caméra ne voit que les marqueurs des coins en bas à gauche et en haut à gauche ; "
        "ceux des coins en bas à droite et en haut à droite sont cachés : dégagez-en un")


def test_markers_outside_the_photo_are_not_called_hidden():
    """Two markers put the others where they must be: out of the photo (move the camera),
    or in it but covered (uncover it)."""
    cut = scenes.small_frame().image[:, :700]  # the right-hand corners are out of the photo
    with pytest.raises(CalibrationError) as err:
        calibrate(cut, scenes.SMALL)
    assert err.value.words.code == "camera.corners.two_seen_outside"
    assert err.value.message == (
        "the camera sees only the bottom-left and top-left corner markers; the bottom-right "
        "and top-right ones are outside the photo: move the camera back or turn it so that "
        "the whole table is in view, its four corner markers included")
    assert err.value.text("fr").startswith(
        "la caméra ne voit que les marqueurs des coins en bas à gauche et en haut à gauche ; "
        "ceux des coins en bas à droite et en haut à droite sont hors de la photo : reculez")
    # a turned camera, a hand over the top-left marker and the top-right one cut off
    turned = render(scenes.small_figures({}), (), Camera(1280, 720, tilt_deg=18.0,
                                                          yaw_deg=25.0),
                    layout=scenes.SMALL, seed=4, hidden_markers=(3,)).image[:, :830]
    found = find_corner_markers(turned, scenes.SMALL)
    assert missing_markers(scenes.SMALL, found, (830, 720)) == ([3], [2])
    with pytest.raises(CalibrationError) as err:
        calibrate(turned, scenes.SMALL)
    assert err.value.words == Message("camera.corners.two_seen_mixed", {
        "seen": [Message("camera.corner.bottom_left"), Message("camera.corner.bottom_right")],
        "hidden": [Message("camera.corner.top_left")],
        "outside": [Message("camera.corner.top_right")]})
    assert "the top-left one is hidden: uncover it" in err.value.message
    assert "so that the top-right one, outside the photo, comes into view" in err.value.message
    # cut by the photo's edge, most of each marker still in it: outside too (a new user's
    # crop was told to uncover them)
    whole = scenes.small_frame().image
    right = {d.id: d for d in find_corner_markers(whole, scenes.SMALL)}
    # a tenth of each marker beyond the edge
    edge = int(min(float(right[i].corners[:, 0].max()) - 0.1 * float(np.ptp(
        right[i].corners[:, 0])) for i in (1, 2)))
    crossed = whole[:, :edge]
    assert missing_markers(scenes.SMALL, find_corner_markers(crossed, scenes.SMALL),
                           (edge, crossed.shape[0])) == ([], [1, 2])
    # covered, not out of the photo: the message of test_two_markers_refused
    hidden = scenes.small_frame(hidden=(1, 2)).image
    assert missing_markers(scenes.SMALL, find_corner_markers(hidden, scenes.SMALL),
                           (1280, 720)) == ([1, 2], [])


def test_no_markers_refused():
    blank = np.full((720, 1280, 3), 128, np.uint8)
    with pytest.raises(CalibrationError, match="sees no corner marker") as err:
        calibrate(blank)
    assert err.value.words is not None and err.value.words.code == "camera.corners.none_seen"
    assert "aucun marqueur de coin" in err.value.text("fr")
    assert err.value.to_json("fr")["error"]["words"] == {"code": "camera.corners.none_seen",
                                                         "params": {}}


def test_saved_calibration_reused_when_markers_hidden(small):
    _frame, cal = small
    saved = Calibration.from_json(json.loads(json.dumps(cal.to_json())), scenes.SMALL)
    frame = scenes.small_frame(hidden=(1, 2))
    reused = calibrate(frame.image, scenes.SMALL, previous=saved)
    assert reused.source == "saved"
    assert reused.checked_markers == (0, 3)
    assert np.allclose(reused.homography, cal.homography, atol=1e-9)
    assert table_error(reused, frame) < 0.02


def test_saved_calibration_refused_when_camera_moved(small):
    _frame, cal = small
    moved = scenes.small_frame(hidden=(1, 2), camera=Camera(1280, 720, tilt_deg=12.0))
    with pytest.raises(CalibrationError, match="the camera or the table moved") as err:
        calibrate(moved.image, scenes.SMALL, previous=cal)
    assert err.value.words is not None and err.value.words.code == "camera.calibration.moved"
    assert "(en bas à gauche et en haut à gauche)" in err.value.text("fr")


def test_saved_calibration_needs_the_same_size(small):
    _frame, cal = small
    with pytest.raises(CalibrationError, match="1280x720 frames"):
        calibrate_from_detections([], (640, 480), scenes.SMALL, previous=cal)
    with pytest.raises(CalibrationError, match="this image is 640x480"):
        cal.rectify(np.zeros((480, 640, 3), np.uint8), 20.0)


def test_top_down_camera_guesses_focal():
    frame = render([], camera=Camera(1280, 720, tilt_deg=0.0), layout=scenes.SMALL, seed=5)
    cal = calibrate(frame.image, scenes.SMALL)
    assert cal.pose is not None and cal.pose.focal_source == "guessed"
    assert table_error(cal, frame) < 0.02
    assert estimate_focal(np.eye(3), (1280, 720)) is None


def test_calibration_file_round_trip(tmp_path, small):
    _frame, cal = small
    file = CalibrationFile(scenes.SMALL, None, cal, True, colours={"keep": "me"})
    path = tmp_path / "cal.json"
    file.save(path)
    back = load_calibration(path)
    assert back.layout == scenes.SMALL
    assert back.colours == {"keep": "me"}
    assert back.table is not None and back.table.source == "saved"
    assert np.allclose(back.table.homography, cal.homography)
    assert back.table.pose is not None
    assert np.allclose(back.table.pose.centre, cal.pose.centre)


@pytest.mark.parametrize(("content", "message", "where"), [
    ("{", "is not valid JSON", ":1"),
    ('{"tables": {}}', 'unknown field "tables"', ":tables"),
    ('{"version": 7}', "version 7 is not supported", ":version"),
    ('{"layout": {"tag_size": -1}}', "tag_size must be a positive number", "layout.tag_size"),
    ('{"layout": {"corner_ids": [0, 1, 2, 2]}}', "4 distinct ids", "layout.corner_ids"),
    ('{"table": {"homography": [[1, 0], [0, 1]], "image_size": [10, 10]}}',
     "invertible 3x3", "table.homography"),
    ('{"table": {"image_size": [10, 10]}}', "lacks the field homography", "table.homography"),
    ('{"intrinsics": {"camera_matrix": [[0, 0, 0], [0, 0, 0], [0, 0, 1]], '
     '"image_size": [10, 10]}}', "positive focal", "intrinsics.camera_matrix"),
])
def test_bad_calibration_files(tmp_path, content, message, where):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises((CalibrationError, LayoutError), match=message) as err:
        load_calibration(path)
    assert where in err.value.where
    assert str(path) in err.value.where or str(path) in err.value.message


def test_missing_calibration_file(tmp_path):
    with pytest.raises(CalibrationError, match="no such calibration file"):
        load_calibration(tmp_path / "nope.json")


def test_layout_defaults_follow_design():
    lay = DEFAULT_LAYOUT
    w = lay.table_width
    assert lay.corner_centres == ((1.5, 1.5), (w - 1.5, 1.5), (w - 1.5, w - 1.5), (1.5, w - 1.5))
    tl, tr, br, bl = lay.corner_points(0)
    assert tl[1] > bl[1] and tr[0] > tl[0]  # upright: the top edge faces +y
    assert np.allclose(np.ptp(lay.corner_points(0), axis=0), [2.0, 2.0])
    assert list(lay.tag_ids) == list(range(4, 50))
    assert abs(lay.base_height - 3.2 / 25.4) < 1e-12


@pytest.mark.parametrize(("data", "message"), [
    ({"size": 2}, 'unknown field "size"'),
    ({"corner_size": "2"}, "must be a number"),
    ({"corner_size": True}, "must be a number"),
    ({"tag_first": 2}, "also figure tag ids"),
    ({"tag_last": 60}, "outside DICT_4X4_50"),
    ({"dictionary": "DICT_9X9"}, "unknown ArUco dictionary"),
    ({"corner_centres": [[0, 0], [10, 1], [10, 10], [1, 10]]}, "does not fit"),
    ({"tag_size": 0.9}, "does not fit on a 25.0 mm base"),
    ({"base_height_mm": -1}, "between 0 and 100"),
    ([], "must be a JSON object"),
])
def test_layout_validation(data, message):
    with pytest.raises(LayoutError, match=message):
        Layout.from_json(data)


def test_layout_overrides_derive_positions():
    lay = Layout.from_json({"table_width": 48.0, "table_depth": 36.0, "corner_inset": 2.0})
    assert lay.corner_centres == ((2.0, 2.0), (46.0, 2.0), (46.0, 34.0), (2.0, 34.0))
    assert Layout.from_json(lay.to_json()) == lay
