"""Tags mode on synthetic 4K frames: accuracy, parallax, and the failure cases."""

from __future__ import annotations

import math

import numpy as np
import pytest
import vision_scenes as scenes

from i18n import Message
from vision.calibration import calibrate, rectified_to_table
from vision.cv import cv2
from vision.hints import FigureHints
from vision.markers import detect, tag_detector
from vision.tags import TagResult, default_px_per_in, locate_tags


def errors(result: TagResult, truth: dict[int, tuple[float, float]]) -> dict[int, float]:
    return {f.tag: math.hypot(f.x - truth[f.tag][0], f.y - truth[f.tag][1])
            for f in result.figures}


@pytest.fixture(scope="module")
def accuracy():
    frame = scenes.accuracy_frame()
    cal = calibrate(frame.image)
    return frame, cal, locate_tags(frame.image, cal)


def test_4k_every_tag_found_within_tolerance(accuracy):
    frame, cal, result = accuracy
    assert frame.image.shape[:2] == (2160, 3840)
    assert sorted(f.tag for f in result.figures) == sorted(frame.truth)
    err = np.array(list(errors(result, frame.truth).values()))
    assert err.mean() < 0.05, err.mean()
    assert err.max() < 0.15, err.max()
    assert result.rejected == []


def test_uncertainty_is_honest(accuracy):
    """`uncertainty` is a ~95% bound: nearly every error is within it, and it is not
    absurdly pessimistic either (most errors use a good part of it). The synthetic bases are
    all 3.2 mm: told so, the height's doubt is only its tolerance; not told, the uncertainty
    adds how far any height of 2-5 mm would carry each tag (`height_in`)."""
    frame, cal, unknown = accuracy
    known = locate_tags(frame.image, cal, hints=FigureHints(height_known=True))
    err = errors(known, frame.truth)
    ratio = np.array([err[f.tag] / f.uncertainty for f in known.figures])
    assert (ratio <= 1.0).mean() >= 0.9
    assert np.median(ratio) > 0.15
    assert np.median([f.uncertainty for f in known.figures]) < 0.06
    assert all(f.sigma == pytest.approx(f.uncertainty / 2.5) for f in known.figures)
    assert all(f.height_known and f.height_in == 0.0 and f.base_height_mm == 3.2
               for f in known.figures)
    by_tag = {f.tag: f for f in known.figures}
    for f in unknown.figures:
        assert not f.height_known and f.base_height_mm == 3.2
        assert (f.x, f.y) == (by_tag[f.tag].x, by_tag[f.tag].y)
        # 1.8 mm (5 - 3.2) times the ray's slope: 0.01-0.05 in on a 20-degree view
        assert 0.005 < f.height_in < 0.06
        assert f.uncertainty == pytest.approx(by_tag[f.tag].uncertainty + f.height_in)


def test_parallax_correction_matters(accuracy):
    """The same tags without the height correction are off by the base height's shadow."""
    frame, cal, result = accuracy
    ppi = default_px_per_in(cal)
    top = cal.rectify(cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY), ppi)
    raw = {d.id: rectified_to_table(d.centre.reshape(1, 2), cal.layout, ppi)[0]
           for d in detect(tag_detector(cal.layout, ppi, max(top.shape)), top)}
    uncorrected = np.array([math.hypot(raw[t][0] - x, raw[t][1] - y)
                            for t, (x, y) in frame.truth.items()])
    corrected = np.array(list(errors(result, frame.truth).values()))
    assert uncorrected.mean() > 2 * corrected.mean()
    assert all(f.parallax_in > 0.01 for f in result.figures)


def test_raw_frame_detection_agrees_where_it_finds(accuracy):
    frame, cal, _result = accuracy
    raw = locate_tags(frame.image, cal, rectify=False)
    assert not raw.rectified
    assert max(errors(raw, frame.truth).values()) < 0.15


def test_rotation_is_reported(accuracy):
    frame, _cal, result = accuracy
    by_tag = {f.tag: f for f in frame.figures}
    for fix in result.figures:
        # a tag's code fixes its orientation: the full turn is known, not just modulo 90
        diff = (fix.angle_deg - by_tag[fix.tag].angle_deg) % 360.0
        assert min(diff, 360.0 - diff) < 3.0


@pytest.fixture(scope="module")
def hard():
    frame = scenes.hard_frame()
    cal = calibrate(frame.image)
    return frame, cal, locate_tags(frame.image, cal)


def test_hand_over_a_marker_three_suffice(hard):
    _frame, cal, _result = hard
    assert cal.markers == (0, 2, 3)
    assert cal.reprojection_px < 1.0


def test_touching_bases_all_found(hard):
    frame, _cal, result = hard
    err = errors(result, frame.truth)
    for tag in scenes.TOUCHING:
        assert err[tag] < 0.05


def test_half_hidden_never_false(hard):
    """Figures behind a tall block: each is found at the right place or not at all, and the
    barely hidden one is found."""
    frame, _cal, result = hard
    err = errors(result, frame.truth)
    behind = [t for t in scenes.BEHIND if t in err]
    for tag in behind:
        assert err[tag] < 0.05, (tag, err[tag])
    assert 44 in behind  # its tag is clear of the block's edge
    assert 40 not in behind  # most of its tag is behind the block
    assert all(e < 0.15 for e in err.values())


def test_empty_table_has_no_figures():
    frame = scenes.empty_frame()
    cal = calibrate(frame.image)
    result = locate_tags(frame.image, cal)
    assert result.figures == [] and result.rejected == []


def test_blurred_frame_is_honest(accuracy):
    """A badly focused frame loses tags but never places one wrongly."""
    frame, cal, _result = accuracy
    blurred = cv2.GaussianBlur(frame.image, (0, 0), 3.0)
    result = locate_tags(blurred, calibrate(blurred))
    assert len(result.figures) < len(frame.truth)
    assert all(e < 0.15 for e in errors(result, frame.truth).values())


def test_duplicate_and_wrong_size_tags_are_rejected():
    """Two figures with one tag: neither is trusted. A tag printed at the wrong size: not
    taken for a figure tag (its position would be wrong by its height too)."""
    from synth_frames import Effects, Figure, render

    from vision.layout import Layout

    big = Layout(table_width=12.0, table_depth=12.0, tag_size=0.9, base_mm=40.0)
    figures = [Figure(3, 3, tag=5, base_mm=40), Figure(8, 8, tag=5, base_mm=40),
               Figure(4, 8, tag=6, base_mm=40)]
    frame = render(figures, (), scenes.SMALL_CAMERA, Effects(noise_sigma=2.0), layout=big,
                   seed=12)
    result = locate_tags(frame.image, calibrate(frame.image, scenes.SMALL))
    assert result.figures == []
    reasons = sorted(((r.tag, r.reason) for r in result.rejected), key=lambda r: r[0])
    assert [t for t, _ in reasons] == [5, 5, 6]
    assert reasons[0][1] == reasons[1][1] == Message("camera.tag.twice", {"n": 2})
    assert reasons[0][1].text("en").startswith("seen 2 times")
    assert reasons[0][1].text("fr").startswith("vue 2 fois, or chaque figurine doit avoir sa "
                                               "propre étiquette")
    wrong = reasons[2][1]
    assert wrong.code == "camera.tag.size"
    assert "where the printed tags are 15.2 mm: not a figure tag" in wrong.text("en")
    assert "au lieu des 15,2 mm imprimés : pas une étiquette de figurine" in wrong.text("fr")
    said = result.rejected[0].to_json()
    assert said["reason_words"] == result.rejected[0].reason.to_json()
    assert said["reason"] == result.rejected[0].reason.text("en")
    # with the right layout the same frame is read
    ok = locate_tags(frame.image, calibrate(frame.image, big))
    assert [f.tag for f in ok.figures] == [6]
    assert math.hypot(ok.figures[0].x - 4, ok.figures[0].y - 8) < 0.05


# -- small tags: a second reading, a misfit located with its doubt, heights per figure --------
def small_tag(marker_id: int, cell: float, angle: float, blur: float = 0.8,
              jpeg: int = 85) -> tuple[np.ndarray, np.ndarray]:
    """A tag of `cell` px per cell on its white sticker on a grey mat, turned by `angle`,
    blurred and JPEG'd; and its true outer corners in ArUco's order."""
    from vision.layout import DEFAULT_LAYOUT
    from vision.markers import aruco_dictionary

    big = 60  # px a cell, drawn large then warped down
    code = cv2.aruco.generateImageMarker(aruco_dictionary(DEFAULT_LAYOUT), marker_id, 6 * big)
    src = np.array([[0, 0], [6 * big, 0], [6 * big, 6 * big], [0, 6 * big]], np.float32)
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    half = 3 * cell
    corners = np.array([[60 + c * x - s * y, 60 + s * x + c * y]
                        for x, y in ((-half, -half), (half, -half), (half, half), (-half, half))])
    image = np.full((120, 120), 110, np.uint8)
    cv2.circle(image, (60, 60), int(5 * cell), 235, -1)  # the sticker
    warp = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    mask = cv2.warpPerspective(np.full_like(code, 255), warp, (120, 120))
    drawn = cv2.warpPerspective(code, warp, (120, 120), flags=cv2.INTER_AREA)
    image = np.where(mask > 127, np.clip(drawn.astype(int) * 235 // 255 + 15, 0, 255),
                     image).astype(np.uint8)
    image = cv2.GaussianBlur(image, (0, 0), blur)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
    # pixel centres map to pixel centres: the drawn edge is within 0.05 px of `corners`
    return cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE), corners


@pytest.mark.parametrize(("marker_id", "angle"), [(7, 0.0), (23, 33.0), (41, -70.0),
                                                  (12, 135.0)])
def test_a_quadrilateral_read_again(marker_id, angle):
    """`refine_edges` puts a quadrilateral found a pixel off back on the tag's edges;
    `decode_quad` reads its cells there: the id, and the corners in ArUco's order (the
    printed top-left first, whatever the rotation)."""
    from vision.layout import DEFAULT_LAYOUT
    from vision.markers import aruco_dictionary, decode_quad, refine_edges

    image, truth = small_tag(marker_id, 4.6, angle)
    rough = np.roll(truth, 1, axis=0) + np.array([[1.0, -0.8], [-0.7, 1.0], [0.9, 0.6],
                                                  [-1.0, -0.9]])
    edges = refine_edges(image, rough, 4.6)
    assert edges is not None
    read = decode_quad(image, edges, aruco_dictionary(DEFAULT_LAYOUT))
    assert read is not None and read[0] == marker_id
    assert np.abs(read[1] - truth).max() < 0.5


def test_nothing_is_read_into_a_blank_or_a_pattern():
    """Exact codes only: a grey square, a black square, a tag of another dictionary."""
    from vision.layout import DEFAULT_LAYOUT
    from vision.markers import aruco_dictionary, decode_quad

    dictionary = aruco_dictionary(DEFAULT_LAYOUT)
    quad = np.array([[32.0, 32.0], [88.0, 32.0], [88.0, 88.0], [32.0, 88.0]])
    flat = np.full((120, 120), 200, np.uint8)
    black = flat.copy()
    black[32:88, 32:88] = 20
    other = flat.copy()
    foreign = cv2.aruco.generateImageMarker(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_5X5_100), 3, 56)
    other[32:88, 32:88] = foreign
    for image in (flat, black, other):
        assert decode_quad(image, quad, dictionary) is None


def test_a_tag_the_detector_could_not_read_is_read_by_the_second_look(monkeypatch):
    """`find_tags` reads the tag-sized quadrilaterals OpenCV found but refused."""
    import vision.tags as tags
    from vision.layout import DEFAULT_LAYOUT

    image, truth = small_tag(19, 4.6, 20.0)
    ppi = 4.6 * 6 / DEFAULT_LAYOUT.tag_size
    monkeypatch.setattr(tags, "detect_with_candidates",
                        lambda _detector, _image: ([], [np.roll(truth, 2, axis=0) + 0.7]))
    found = tags.find_tags(image, DEFAULT_LAYOUT, ppi)
    assert [d.id for d in found] == [19]
    assert np.abs(found[0].corners - truth).max() < 0.5


def test_misfit_located_with_its_doubt_a_hidden_corner_refused():
    """A tag 0.5 mm off a square (blur, JPEG) is located, its misfit in the uncertainty; one
    whose corner is a cell off (something over it) is refused, saying why."""
    from vision.markers import Detection
    from vision.tags import MAX_SHAPE_RESIDUAL_IN, TagFix, TagRejection, _fixes

    frame = scenes.small_frame()
    cal = calibrate(frame.image, scenes.SMALL)
    square = np.array([[5.7, 6.3], [6.3, 6.3], [6.3, 5.7], [5.7, 5.7]])
    seen = []
    for shift in (0.0, 0.02, 0.1):
        corners = square.copy()
        corners[0] += (shift, -shift)
        seen.append(np.concatenate([corners, [[6.0, 6.0]]]))
    tags = [Detection(9, np.zeros((4, 2))), Detection(10, np.zeros((4, 2))),
            Detection(11, np.zeros((4, 2)))]
    on_table = np.concatenate([s[:4] for s in seen] + [s[4:] for s in seen])
    clean, misfit, hidden = _fixes(tags, on_table, cal, FigureHints(height_known=True))
    assert isinstance(clean, TagFix) and isinstance(misfit, TagFix)
    assert isinstance(hidden, TagRejection)
    refused = [hidden]
    assert clean.shape_residual_in < 0.002 < misfit.shape_residual_in < MAX_SHAPE_RESIDUAL_IN
    # the misfit is one more standard deviation of the centre, in quadrature
    assert misfit.uncertainty == pytest.approx(
        math.hypot(clean.uncertainty, 2.5 * misfit.shape_residual_in), rel=1e-6)
    assert refused[0].reason.code == "camera.tag.misshapen"
    assert "mm off a square, more than the 1.3 mm a tag can be off and still be located: " \
           "something hides part of it" in refused[0].reason.text("en")
    assert "plus que les 1,3 mm qu'une étiquette peut s'écarter pour être encore située" \
           in refused[0].reason.text("fr")


def test_each_figure_at_its_own_height(accuracy):
    """A game's height per tag, a band's height for the rest, or a calibration file's
    `base_height_mm`: each tag is corrected for its own base."""
    from dataclasses import replace

    from vision.calibration import Calibration

    frame, cal, unknown = accuracy
    tag = unknown.figures[0].tag
    hints = FigureHints(height_mm_by_tag={tag: 5.0}, default_height_mm=3.0, height_known=True)
    told = {f.tag: f for f in locate_tags(frame.image, cal, hints=hints).figures}
    assert told[tag].base_height_mm == 5.0 and told[tag].height_known
    others = [f for t, f in told.items() if t != tag]
    assert all(f.base_height_mm == 3.0 and f.height_in == 0.0 for f in others)
    before = unknown.figures[0]
    # 1.8 mm higher than assumed: pulled toward the camera by less than the doubt said
    moved = math.hypot(told[tag].x - before.x, told[tag].y - before.y)
    assert 0.0 < moved <= before.height_in + 1e-9
    layout = replace(cal.layout, base_height_mm=4.0)
    filed = locate_tags(frame.image, Calibration(cal.homography, cal.image_size, cal.markers,
                                                 cal.reprojection_px, cal.reprojection_in,
                                                 layout, cal.pose))
    assert all(f.base_height_mm == 4.0 and f.height_known for f in filed.figures)
    assert filed.figures[0].to_json()["base_height_mm"] == 4.0


def test_a_closer_look_where_the_outline_was_wrong(monkeypatch):
    """A candidate whose outline is wrong (turned, as a shadow's edge bends it) cannot be
    read from its edges; the detector then looks again at that spot, enlarged."""
    import vision.tags as tags
    from vision.layout import DEFAULT_LAYOUT

    image, truth = small_tag(33, 4.6, 10.0)
    ppi = 4.6 * 6 / DEFAULT_LAYOUT.tag_size
    centre = truth.mean(axis=0)
    turn = np.array([[math.cos(0.5), -math.sin(0.5)], [math.sin(0.5), math.cos(0.5)]])
    wrong = (truth - centre) @ turn.T * 1.1 + centre
    monkeypatch.setattr(tags, "detect_with_candidates", lambda _d, _i: ([], [wrong]))
    calls = []
    closer = tags._look_closer
    monkeypatch.setattr(tags, "_look_closer", lambda *a: calls.append(a) or closer(*a))
    found = tags.find_tags(image, DEFAULT_LAYOUT, ppi)
    assert calls and [d.id for d in found] == [33]
    assert np.abs(found[0].corners - truth).max() < 0.6
