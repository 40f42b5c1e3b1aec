"""Colour mode on synthetic 1080p frames: accuracy, honesty of the uncertainty, failure cases."""

from __future__ import annotations

import dataclasses
import math
import random

import numpy as np
import pytest
import synth_colour as sc
import synth_frames as sf

from geometry.units import base_radius
from vision.calibration import Calibration, calibrate
from vision.colour import (
    BaseDetection,
    ColourResult,
    colour_config,
    colour_figures,
    detect_bases,
    find_bases,
    search_sizes,
)
from vision.colour_config import DEFAULT_COLOURS, ColourConfig, ColourConfigError, HsvRange
from vision.errors import ImageError
from vision.hints import FigureHints

R = base_radius(25.0)
WEBCAM = sf.Effects(blur_sigma=0.8, noise_sigma=2.5, gradient=0.3, jpeg_quality=85)


def located(frame: sc.ColourFrame) -> tuple[Calibration, ColourResult]:
    cal = calibrate(frame.image)
    return cal, find_bases(frame.image, cal)


def pair_up(truth: list[tuple[str, float, float]], bases: tuple[BaseDetection, ...],
            within: float = 0.3) -> tuple[list[tuple[float, BaseDetection]], list[int]]:
    """(error, detection) per true base found, and the indices of detections matching none."""
    used: set[int] = set()
    found = []
    for side, x, y in truth:
        options = [(math.hypot(b.x - x, b.y - y), k) for k, b in enumerate(bases)
                   if b.side == side and k not in used]
        if options:
            d, k = min(options)
            if d <= within:
                used.add(k)
                found.append((d, bases[k]))
    return found, [k for k in range(len(bases)) if k not in used]


@pytest.fixture(scope="module")
def table_frames() -> list[sc.ColourFrame]:
    """Four webcam frames of 25 bases each (7 survivors, 15 zombies, 3 civilians) seen from
    different angles, with blur, noise, a light gradient and JPEG."""
    frames = []
    for seed in range(4):
        rng = random.Random(100 + seed)
        figs = sc.random_colour_figures({"survivors": 7, "zombies": 15, "civilians": 3}, rng)
        fx = dataclasses.replace(WEBCAM, blur_sigma=rng.uniform(0.5, 1.2),
                                 gradient=rng.uniform(0.0, 0.4),
                                 jpeg_quality=rng.choice([75, 85, 92]))
        cam = dataclasses.replace(sc.HD, tilt_deg=rng.uniform(0, 25), yaw_deg=rng.uniform(-10, 10))
        frames.append(sc.render_colour(figs, camera=cam, effects=fx, seed=seed))
    return frames


def test_accuracy_on_webcam_frames(table_frames: list[sc.ColourFrame]) -> None:
    errors: list[float] = []
    honest: list[bool] = []
    total = false = 0
    for frame in table_frames:
        _, result = located(frame)
        found, extra = pair_up(frame.truth, result.bases)
        total += len(frame.truth)
        false += len(extra)
        errors += [d for d, _ in found]
        honest += [d <= b.uncertainty for d, b in found]
    assert len(errors) >= 0.98 * total  # measured: 100 of 100
    assert false == 0
    assert float(np.mean(errors)) < 0.08  # measured: ~0.02 in
    assert max(errors) < 0.15  # measured: ~0.06 in
    assert float(np.mean(honest)) >= 0.9  # the true centre lies within `uncertainty`


def test_detections_carry_what_the_cli_needs(table_frames: list[sc.ColourFrame]) -> None:
    frame = table_frames[0]
    cal = calibrate(frame.image)
    bases = detect_bases(frame.image, cal)
    assert all(isinstance(b, BaseDetection) for b in bases)
    b = bases[0]
    assert abs(b.radius - R) < 0.05
    assert 0 < b.uncertainty < 0.2 and 0 < b.confidence <= 1 and 0 < b.coverage <= 1
    rows = colour_figures(frame.image, cal, None)
    assert {"side", "x", "y", "uncertainty", "confidence"} <= set(rows[0])
    assert len(rows) == len(bases)


def test_empty_table_finds_nothing() -> None:
    frame = sc.render_colour([], effects=WEBCAM, seed=7)
    cal, result = located(frame)
    assert result.bases == () and result.rejected == ()
    with pytest.raises(ImageError, match="colour mode needs a colour photo"):
        find_bases(frame.image[:, :, 0], cal)


def test_touching_bases_come_apart() -> None:
    d = 2 * R
    figs = [sc.ColourFigure("zombies", 10, 10), sc.ColourFigure("zombies", 10 + d, 10),
            sc.ColourFigure("zombies", 10 + d / 2, 10 + d * math.sqrt(3) / 2),
            sc.ColourFigure("zombies", 20, 12), sc.ColourFigure("zombies", 20, 12 + d),
            sc.ColourFigure("survivors", 20, 20), sc.ColourFigure("zombies", 20 + d, 20)]
    frame = sc.render_colour(figs, effects=WEBCAM, seed=3)
    _, result = located(frame)
    found, extra = pair_up(frame.truth, result.bases)
    assert len(found) == len(figs) and not extra
    assert max(e for e, _ in found) < 0.08


def test_base_half_hidden_by_terrain() -> None:
    # A low wall between the camera (toward -y) and the base hides the near half of its rim.
    wall = sf.Block(13.5, 17.2, 16.5, 19.0, height=0.6)
    figs = [sc.ColourFigure("zombies", 15, 19.5), sc.ColourFigure("survivors", 5, 5)]
    frame = sc.render_colour(figs, [wall], effects=WEBCAM, seed=4)
    _, result = located(frame)
    found, extra = pair_up(frame.truth, result.bases)
    assert len(found) == 2 and not extra
    hidden = next(b for _, b in found if b.side == "zombies")
    clear = next(b for _, b in found if b.side == "survivors")
    error = next(e for e, b in found if b is hidden)
    assert hidden.coverage < 0.7 < clear.coverage
    assert hidden.uncertainty > clear.uncertainty and hidden.confidence < clear.confidence
    assert error <= hidden.uncertainty


def test_blurred_frame() -> None:
    figs = [sc.ColourFigure("zombies", 15, 19.5), sc.ColourFigure("survivors", 5, 5),
            sc.ColourFigure("civilians", 25, 25), sc.ColourFigure("zombies", 8, 26)]
    blurred = sc.render_colour(figs, effects=sf.Effects(blur_sigma=2.5, noise_sigma=3,
                                                        jpeg_quality=80), seed=5)
    sharp = sc.render_colour(figs, effects=sf.Effects(blur_sigma=0.5, noise_sigma=3,
                                                      jpeg_quality=80), seed=5)
    found, extra = pair_up(blurred.truth, located(blurred)[1].bases)
    assert len(found) == 4 and not extra
    assert max(e for e, _ in found) < 0.1
    sharp_found, _ = pair_up(sharp.truth, located(sharp)[1].bases)
    assert np.mean([b.uncertainty for _, b in found]) > np.mean(
        [b.uncertainty for _, b in sharp_found])


def test_a_base_of_the_wrong_size_is_refused_with_the_reason() -> None:
    figs = [sc.ColourFigure("zombies", 15, 15, base_mm=40), sc.ColourFigure("zombies", 5, 15)]
    frame = sc.render_colour(figs, effects=WEBCAM, seed=6)
    cal = calibrate(frame.image)
    # A game whose zombies all stand on 25 mm bases: the 40 mm one is refused, and said why.
    result = find_bases(frame.image, cal, hints=FigureHints(base_mm={"zombies": (25.0,)}))
    assert len(result.bases) == 1 and abs(result.bases[0].x - 5) < 0.1
    reasons = [r.reason for r in result.rejected if math.hypot(r.x - 15, r.y - 15) < 1.0]
    assert reasons and all("base" in r.text("en") for r in reasons)
    assert {r.code for r in reasons} & {"camera.colour.reject.spread",
                                        "camera.colour.reject.size"}
    # said in French too, with the sizes the French way
    french = [r.text("fr") for r in reasons]
    assert all("socle" in t and " mm" in t for t in french), french
    assert all(r.to_json()["reason_words"]["code"] == r.reason.code for r in result.rejected)
    # Alone (no game), every common size is looked for: both are found, each with its size.
    alone = find_bases(frame.image, cal).bases
    assert sorted((round(b.x), b.base_mm) for b in alone) == [(5, 25.0), (15, 40.0)]
    big = next(b for b in alone if b.base_mm == 40.0)
    assert abs(big.radius - base_radius(40)) < 0.05 and big.size_measured
    # An older file's single size is looked for beside the common ones.
    old = colour_config({"sides": {"zombies": {"ranges": [HsvRange(168, 10).to_json()],
                                               "base_mm": 40}}})
    assert search_sizes(old.side("zombies")) == (25.0, 28.0, 30.0, 32.0, 40.0, 50.0)
    assert len(detect_bases(frame.image, cal, old)) == 2


def test_a_patch_of_colour_is_not_a_base() -> None:
    # A red rug (a flat saturated square) on the table.
    figs = [sc.ColourFigure("zombies", 5, 15)]
    frame = sc.render_colour(figs, effects=sf.Effects(), seed=8)
    img = frame.image.copy()
    corners = frame.frame.project(np.array([[18, 18, 0], [22, 18, 0], [22, 21, 0], [18, 21, 0]],
                                           dtype=np.float64))
    import cv2  # only for drawing the rug into the test frame
    cv2.fillPoly(img, [np.round(corners).astype(np.int32)], sc.RIM_BGR["zombies"])
    cal = calibrate(img)
    result = find_bases(img, cal)
    assert [(round(b.x), round(b.y)) for b in result.bases] == [(5, 15)]
    assert any(18 <= r.x <= 22 and 18 <= r.y <= 21 for r in result.rejected)


def test_colour_settings_json_and_errors(tmp_path: object) -> None:
    data = DEFAULT_COLOURS.to_json()
    assert ColourConfig.from_json(data) == DEFAULT_COLOURS
    assert colour_config(None) is DEFAULT_COLOURS
    assert colour_config(data) == DEFAULT_COLOURS
    with pytest.raises(ColourConfigError, match="overlap"):
        ColourConfig.from_json({"sides": {"a": {"ranges": [{"hue_lo": 100, "hue_hi": 120}]},
                                          "b": {"ranges": [{"hue_lo": 115, "hue_hi": 130}]}}})
    with pytest.raises(ColourConfigError, match=r"colours.sides.a.ranges\[0\].hue_hi"):
        ColourConfig.from_json({"sides": {"a": {"ranges": [{"hue_lo": 100, "hue_hi": 200}]}}})
    with pytest.raises(ColourConfigError, match='unknown field "hue"'):
        ColourConfig.from_json({"sides": {"a": {"ranges": [{"hue": 1}]}}})
    with pytest.raises(ColourConfigError, match="px_per_in"):
        ColourConfig.from_json({"px_per_in": 1})
    red = HsvRange(170, 8)
    assert red.wraps and len(red.boxes()) == 2 and 0 in red.hues() and 175 in red.hues()


def test_rows_in_contact_and_mixed_sizes() -> None:
    """A card's zombies deployed in base contact along an edge (a row of 7, mixed sizes), a
    row of 5 of one size, and touching bases of different sizes and sides: all found, each
    with its size (within one step when only an arc is seen)."""
    sizes = [25.0, 32.0, 25.0, 40.0, 28.0, 25.0, 50.0]
    figs: list[sc.ColourFigure] = []
    x = 3.0
    for mm in sizes:  # along the near edge, rims touching
        r = base_radius(mm)
        figs.append(sc.ColourFigure("zombies", x + r, 3.0, base_mm=mm))
        x += 2 * r + 0.01
    for n in range(5):
        figs.append(sc.ColourFigure("zombies", 6.0 + n * (2 * R + 0.01), 22.0))
    big = base_radius(50.0)
    figs += [sc.ColourFigure("survivors", 20.0, 15.0, base_mm=50.0),
             sc.ColourFigure("zombies", 20.0 + big + R + 0.01, 15.0),
             sc.ColourFigure("survivors", 12.0, 16.0, base_mm=40.0),
             sc.ColourFigure("survivors", 12.0 + base_radius(40.0) + base_radius(28.0) + 0.01,
                             16.0, base_mm=28.0)]
    frame = sc.render_colour(figs, effects=WEBCAM, camera=dataclasses.replace(sc.HD,
                                                                              tilt_deg=15.0),
                             seed=9)
    _, result = located(frame)
    found, extra = pair_up(frame.truth, result.bases, within=0.15)
    assert len(found) == len(figs) and not extra
    assert max(e for e, _ in found) < 0.08
    steps = sorted({25.0, 28.0, 30.0, 32.0, 40.0, 50.0})
    for f in figs:
        b = min(result.bases, key=lambda b: math.hypot(b.x - f.x, b.y - f.y))
        if b.size_measured:
            assert b.base_mm == f.base_mm, (f, b)
        else:
            assert abs(steps.index(b.base_mm) - steps.index(f.base_mm)) <= 1, (f, b)


def test_hints_narrow_the_sizes() -> None:
    """A game that says its zombies stand on 25 and 40 mm bases: only those are looked for."""
    from vision.colour_config import SideColour

    hints = FigureHints(base_mm={"zombies": (40.0, 25.0, 25.0)})
    zombies = SideColour("zombies", (HsvRange(168, 10),))
    assert search_sizes(zombies, hints) == (25.0, 40.0)
    assert search_sizes(SideColour("survivors", (HsvRange(98, 130),)), hints) == (
        25.0, 28.0, 30.0, 32.0, 40.0, 50.0)
    assert search_sizes(SideColour("zombies", (HsvRange(168, 10),), 60.0)) == (
        25.0, 28.0, 30.0, 32.0, 40.0, 50.0, 60.0)


def test_locate_passes_the_hints_to_colour_mode() -> None:
    """`vision.locate.locate(..., hints=)` narrows colour mode's sizes as `find_bases` does."""
    from vision.locate import locate

    figs = [sc.ColourFigure("zombies", 15, 15, base_mm=40), sc.ColourFigure("zombies", 5, 15)]
    frame = sc.render_colour(figs, effects=WEBCAM, seed=6)
    alone = locate(frame.image, "colour").figures
    assert sorted(f["base_mm"] for f in alone) == [25.0, 40.0]
    told = locate(frame.image, "colour", hints=FigureHints(base_mm={"zombies": (25.0,)}))
    assert [f["base_mm"] for f in told.figures] == [25.0]


def test_a_rim_in_shade_is_the_side_paint(monkeypatch: pytest.MonkeyPatch) -> None:
    # A zombie half hidden behind a low wall stands in the wall's deep shade (a lamp's dim
    # corner): its rim holds under half the chroma of the lit zombies' rims, the same hue and
    # saturation. Less light, not another paint: it is found (it was refused as "not the
    # paint of this side's other rims" before; a lamp-lit rendered tuning frame showed it).
    import cv2  # only for drawing the shade into the test frame
    wall = sf.Block(13.5, 17.2, 16.5, 19.0, height=0.6)
    figs = [sc.ColourFigure("zombies", 15, 19.5), sc.ColourFigure("zombies", 5, 5),
            sc.ColourFigure("zombies", 25, 5), sc.ColourFigure("zombies", 5, 25),
            sc.ColourFigure("zombies", 25, 25)]
    frame = sc.render_colour(figs, [wall], effects=sf.Effects(noise_sigma=1.5), seed=4)
    shade = np.zeros(frame.image.shape[:2], np.uint8)
    corners = frame.frame.project(np.array([[12.5, 17, 0], [17.5, 17, 0], [17.5, 22, 0],
                                            [12.5, 22, 0]], dtype=np.float64))
    cv2.fillPoly(shade, [np.round(corners).astype(np.int32)], 1)
    img = frame.image.copy()
    img[shade > 0] = (img[shade > 0].astype(np.float64) * 0.4).round().astype(np.uint8)
    cal = calibrate(img)
    # the rule alone (the dim part's value and chroma not evened, as in a shade too small
    # for the light estimate)
    monkeypatch.setattr("vision.colour.DIM_GAIN", 1.0)

    def shaded_found() -> list[BaseDetection]:
        return [b for b in find_bases(img, cal).bases if math.hypot(b.x - 15, b.y - 19.5) < 0.15]

    seen = shaded_found()
    assert len(seen) == 1 and seen[0].coverage < 0.7
    assert len(find_bases(img, cal).bases) == 5
    # the shade is what the rule is for: without it the same rim is refused for its paint
    monkeypatch.setattr("vision.colour.SHADE_SAT", 9.0)
    assert shaded_found() == []


def test_a_base_in_a_dim_corner_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    # A lamp lights the table unevenly: one part gets a fifth of the light, where a rim's paint
    # falls under the colour's value and chroma floors. Value and chroma are evened there by
    # the mat's own brightness (saturation and hue keep), so the base is found.
    import cv2  # only for drawing the dim part into the test frame
    figs = [sc.ColourFigure("zombies", 22, 22), sc.ColourFigure("zombies", 5, 5),
            sc.ColourFigure("zombies", 25, 5), sc.ColourFigure("zombies", 5, 25)]
    frame = sc.render_colour(figs, effects=sf.Effects(noise_sigma=1.0), seed=4)
    dim = np.zeros(frame.image.shape[:2], np.uint8)
    corners = frame.frame.project(np.array([[17, 17, 0], [27, 17, 0], [27, 27, 0], [17, 27, 0]],
                                           dtype=np.float64))
    cv2.fillPoly(dim, [np.round(corners).astype(np.int32)], 1)
    img = frame.image.copy()
    img[dim > 0] = (img[dim > 0].astype(np.float64) * 0.2).round().astype(np.uint8)
    cal = calibrate(img)

    def dim_found() -> list[BaseDetection]:
        return [b for b in find_bases(img, cal).bases if math.hypot(b.x - 22, b.y - 22) < 0.1]

    assert len(dim_found()) == 1 and len(find_bases(img, cal).bases) == 4
    monkeypatch.setattr("vision.colour.DIM_GAIN", 1.0)  # not evened: under the floors
    assert dim_found() == []


def test_a_torso_of_a_sides_colour_is_not_a_base(monkeypatch: pytest.MonkeyPatch) -> None:
    # A civilian miniature in a red coat (the zombies' rim colour), leaning away from a camera
    # tilted 30 degrees: its torso lies on the table plane beyond its own base, and its outline
    # follows the arc of a base's circle. A rim is a thin band; the torso is colour all the way
    # in, so it is refused as a painted solid and no zombie base is invented.
    import cv2  # only for drawing the torso into the test frame
    figs = [sc.ColourFigure("civilians", 12.0, 24.0), sc.ColourFigure("zombies", 5.0, 8.0)]
    frame = sc.render_colour(figs, camera=dataclasses.replace(sc.HD, tilt_deg=30.0),
                             effects=sf.Effects(blur_sigma=0.8, noise_sigma=2.0,
                                                jpeg_quality=90), seed=3)
    img = frame.image.copy()
    foot = frame.frame.camera_centre
    away = np.array([12.0 - foot[0], 24.0 - foot[1]])
    away /= np.hypot(*away)
    t = np.linspace(0.0, 2.0 * math.pi, 32, endpoint=False)
    torso = np.concatenate([  # a cylinder 0.42 in across from 0.55 to 1 in up, leaning
        np.column_stack((12.0 + away[0] * lean + 0.21 * np.cos(t),
                         24.0 + away[1] * lean + 0.21 * np.sin(t), np.full(32, z)))
        for z, lean in ((0.55, 0.15), (1.0, 0.5))])
    hull = cv2.convexHull(np.round(frame.frame.project(torso) * 16).astype(np.int32))
    cv2.fillConvexPoly(img, hull, (30, 30, 150), lineType=cv2.LINE_AA, shift=4)
    cal = calibrate(img)
    result = find_bases(img, cal)
    assert sorted((b.side, round(b.x), round(b.y)) for b in result.bases) == [
        ("civilians", 12, 24), ("zombies", 5, 8)]
    assert any(r.reason.code == "camera.colour.reject.solid" and math.hypot(r.x - 12.2, r.y - 24.9)
               < 0.5 for r in result.rejected)
    # the band's depth is what refuses it: a rule that let solids pass would find a zombie there
    monkeypatch.setattr("vision.colour.SOLID_DEPTH", 9.0)
    assert any(b.side == "zombies" and math.hypot(b.x - 12.2, b.y - 24.9) < 0.5
               for b in find_bases(img, cal).bases)


def test_an_arc_along_a_miniatures_paint_gives_way_to_its_big_base() -> None:
    # A 40 mm base seen on two thirds of its rim, its miniature's legs painted the rim's
    # colour inside it: a 25 mm circle runs along the top of the big rim and the legs'
    # outline and covers a bigger share of its small circle than the big one of its own.
    # Where the small circle's arc follows a filled solid (colour running in deep) it is no
    # rim: the bigger size whose votes gather at the true centre holds more rim band.
    import cv2  # only for drawing the mask

    from vision.colour import _contour_normals, _past_solid, _rim_cover
    from vision.colour_fit import coverage, refine
    ppi = 24.0
    sizes = (25.0, 28.0, 30.0, 32.0, 40.0, 50.0)
    radii = np.array([base_radius(s) * ppi for s in sizes])
    big, small = float(radii[4]), float(radii[0])
    mask = np.zeros((200, 200), np.uint8)
    centre = (100.0, 100.0)
    rim = np.zeros_like(mask)
    cv2.circle(rim, (1600, 1600), int(round(big * 16)), 255, -1, cv2.LINE_AA, 4)
    cv2.circle(rim, (1600, 1600), int(round((big - 3.0) * 16)), 0, -1, cv2.LINE_AA, 4)
    hidden = np.zeros_like(mask)  # the left third of the rim behind terrain
    cv2.ellipse(hidden, (100, 100), (40, 40), 0, 120, 240, 255, -1)
    mask[(rim > 127) & (hidden == 0)] = 255
    inner = (100.0, 100.0 - (big - small))  # a small circle touching the big rim at the top
    legs = np.zeros_like(mask)  # a solid wedge of paint along the small circle's lower left
    cv2.ellipse(legs, (int(inner[0] * 16), int(inner[1] * 16)),
                (int(small * 16), int(small * 16)), 0, 100, 170, 255, -1, cv2.LINE_AA, 4)
    cv2.circle(legs, (int(inner[0]), int(inner[1])), 4, 0, -1)
    mask[legs > 127] = 255
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    points = _contour_normals([c.reshape(-1, 2) for c in contours if len(c) >= 6])
    fit = refine(points, *inner, small, max(1.2, 0.12 * small), False)
    cover = coverage(points[fit.inliers], fit.cx, fit.cy)
    assert cover >= 0.3 and _rim_cover(mask, points, fit) < cover - 1.5 / 36
    out, out_cover, k = _past_solid(mask, points, fit, cover, 0, radii, 0.3)
    assert sizes[k] == 40.0 and math.dist((out.cx, out.cy), centre) < 1.0
    assert out_cover > 0.55
    # a rim of its own size, with no solid along it, stays as it is
    plain = np.zeros_like(mask)
    cv2.circle(plain, (1600, 1600), int(round(small * 16)), 255, -1, cv2.LINE_AA, 4)
    cv2.circle(plain, (1600, 1600), int(round((small - 3.0) * 16)), 0, -1, cv2.LINE_AA, 4)
    plain[hidden > 0] = 0
    contours, _ = cv2.findContours(plain, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    points = _contour_normals([c.reshape(-1, 2) for c in contours if len(c) >= 6])
    own = refine(points, 100.0, 100.0, small, max(1.2, 0.12 * small), False)
    seen = coverage(points[own.inliers], own.cx, own.cy)
    same = _past_solid(plain, points, own, seen, 0, radii, 0.3)
    assert same[0] is own and same[2] == 0


def test_colour_round_a_base_in_a_row_is_not_a_patch() -> None:
    # A base in a row, its rims blurred wide: the ring just outside its circle crosses its two
    # touching neighbours' rims and, away from the camera, its own miniature leaning past the
    # rim. That is a row, not a patch: the neighbours found and the lean side leave the rest
    # of the ring clear. A patch of colour all round stays a patch, and so does colour on the
    # side toward the camera, where no miniature leans.
    import cv2  # only for drawing the masks

    from vision.colour import _ring_shares, _spill_explained
    from vision.colour_fit import CircleFit
    mask = np.zeros((90, 160), np.uint8)
    for x in (49, 80, 111):  # three rims of 15 px, touching, their paint 9-16.5 px out
        cv2.circle(mask, (x, 45), 16, 255, -1)
        cv2.circle(mask, (x, 45), 9, 0, -1)
    cv2.rectangle(mask, (63, 0), (97, 36), 255, -1)  # the middle miniature's torso, leaning up
    fit = CircleFit(80.0, 45.0, 15.0, np.ones(1, bool), 0.3, np.eye(2), False)
    below, above = (80.0, 400.0), (80.0, -400.0)  # the camera's foot, in rectified pixels
    neighbours = [(49.0, 45.0, 15.0), (111.0, 45.0, 15.0)]
    assert _ring_shares(mask, 80.0, 45.0, (18.25, 8.0))[0] > 0.5  # the spill test's ring
    assert not _spill_explained(mask, fit, 13.0, [], None)
    assert _spill_explained(mask, fit, 13.0, neighbours, below)
    assert not _spill_explained(mask, fit, 13.0, neighbours, above)
    assert not _spill_explained(np.full_like(mask, 255), fit, 13.0, neighbours, below)


def test_a_pale_blue_rim_is_found() -> None:
    # A blue rim blurred into a bright mat keeps its chroma but loses saturation (HSV
    # saturation 100 here, chroma 80): the survivors' blue takes a saturation floor of 90,
    # under the 110 of red and yellow, whose hues the mats themselves take.
    pale = (205, 145, 125)
    figs = [sc.ColourFigure("survivors", 10.0, 12.0, rim_bgr=pale),
            sc.ColourFigure("survivors", 20.0, 20.0, rim_bgr=pale)]
    frame = sc.render_colour(figs, effects=sf.Effects(noise_sigma=1.0), seed=5)
    cal = calibrate(frame.image)
    assert sorted((round(b.x), round(b.y)) for b in find_bases(frame.image, cal).bases) == [
        (10, 12), (20, 20)]
    strict = DEFAULT_COLOURS.with_side(dataclasses.replace(
        DEFAULT_COLOURS.side("survivors"), ranges=(HsvRange(98, 130),)))
    assert find_bases(frame.image, cal, strict).bases == ()
