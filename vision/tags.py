"""Tags mode: figure tags (ArUco ids 4-49, 0.6 in, on the bases) located in table inches.

Tags are found on a rectified top-down image of the table (NOTES.md: on the raw 4K frame 40%
of these small markers were missed), at about the frame's own pixel scale, with a detector
tuned to the tag's size. Each tag's centre (where its diagonals cross) is mapped to the table
plane, then moved along the camera ray to the height of the base top (parallax).

Every detection is checked against the printed tag: its four corners must form a square of
the printed size (after the fit, RMS corner residual at most `MAX_SHAPE_RESIDUAL_IN`, size
within `SIZE_TOLERANCE`). Blur, JPEG and the pixel grid leave a small tag's corners up to about
0.6 mm off a square; that is located, with the misfit in its uncertainty. A corner a cell or
more off (a hand, a figure or terrain over part of the tag) cannot be located: it is reported
under ``rejected`` with the reason, never as a position.

The height of each base comes from the caller (`FigureHints`: a game's setting per figure or
per band, or a calibration file's ``base_height_mm``); when nobody said it, the usual 3.2 mm is
assumed and the uncertainty covers any height in `BASE_HEIGHT_RANGE_MM` (``height_in``).

`uncertainty` is a bound, as in colour mode and as `rules.uncertain` reads it: the true centre
lies within it about 95% of the time (`SIGMAS` = 2.5 standard deviations; for a round 2-D
normal error P(r < 2.5 sigma) = 96%), plus the unknown height's reach. `sigma` (one standard
deviation, the bound / 2.5) adds in quadrature:
- the calibration: the RMS corner residual on the table (`reprojection_in`), doubled when
  only three markers were used (the fourth corner is extrapolated);
- the detection: marker centres jitter by about 0.15 px (NOTES.md), converted to inches at
  the tag's place in the frame, plus the tag's own corner residual (its centre moves about as
  much as a corner does);
- the parallax: 0.5 mm of base-height tolerance times the ray's slope there, and the
  correction's share of doubt from the focal length (3% calibrated, 10% estimated from the
  homography, 30% guessed).
When the height is not known, ``height_in`` (how far the ray's slope carries the tag for the
farthest height in `BASE_HEIGHT_RANGE_MM` from the one assumed) is added to the bound: it is
a systematic error, not a random one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from geometry.units import MM_PER_INCH
from i18n import Message
from vision.calibration import Calibration, rectified_to_table
from vision.cv import cv2
from vision.hints import BASE_HEIGHT_RANGE_MM, DEFAULT_BASE_HEIGHT_MM, NO_HINTS, FigureHints
from vision.layout import Layout
from vision.markers import (
    Detection,
    aruco_dictionary,
    decode_quad,
    detect,
    detect_with_candidates,
    marker_centre,
    refine_edges,
    tag_detector,
    to_gray,
)
from vision.types import FloatArray, Image

__all__ = ["TagFix", "TagRejection", "TagResult", "locate_tags", "find_tags", "default_px_per_in",
           "hints_for_layout", "MAX_SHAPE_RESIDUAL_IN", "SIZE_TOLERANCE"]

# Half a marker cell (0.05 in): fully visible tags at 41-63 px/in with blur and JPEG were up
# to 0.6 mm (0.025 in) off a square on the tuning frames; a corner hidden by something is
# off by a cell or more.
MAX_SHAPE_RESIDUAL_IN = 0.05
SIGMAS = 2.5  # uncertainty = this many standard deviations (~95% in 2-D)
SIZE_TOLERANCE = 0.12  # relative, on the tag's side length
CENTRE_JITTER_PX = 0.15
BASE_HEIGHT_TOLERANCE_IN = 0.5 / MM_PER_INCH
FOCAL_DOUBT = {"calibrated": 0.03, "estimated": 0.10, "guessed": 0.30}


@dataclass(frozen=True)
class TagFix:
    """A figure located by its tag: centre of the base in table inches."""

    tag: int
    x: float
    y: float
    uncertainty: float  # inches: ~95% bound on the centre error (SIGMAS standard deviations)
    angle_deg: float  # the tag's rotation on the table, counter-clockwise from +x
    pixel: tuple[float, float]  # where the tag centre is in the frame
    parallax_in: float  # how far the height correction moved it
    shape_residual_in: float
    base_height_mm: float = DEFAULT_BASE_HEIGHT_MM  # the height the correction used
    height_known: bool = False  # set by the player (else assumed, and `height_in` counted)
    height_in: float = 0.0  # the farthest an unknown height could move it (in `uncertainty`)

    @property
    def sigma(self) -> float:
        """One standard deviation of the centre error, inches."""
        return self.uncertainty / SIGMAS

    def to_json(self) -> dict[str, Any]:
        return {"tag": self.tag, "x": round(self.x, 4), "y": round(self.y, 4),
                "uncertainty": round(self.uncertainty, 4),
                "sigma": round(self.sigma, 4),
                "angle_deg": round(self.angle_deg, 1),
                "pixel": [round(self.pixel[0], 2), round(self.pixel[1], 2)],
                "parallax_in": round(self.parallax_in, 4),
                "shape_residual_in": round(self.shape_residual_in, 4),
                "base_height_mm": round(self.base_height_mm, 2),
                "height_known": self.height_known,
                "height_in": round(self.height_in, 4)}


@dataclass(frozen=True)
class TagRejection:
    """A tag that was seen but not trusted, and why (a message: what is wrong, what to do)."""

    tag: int
    reason: Message
    x: float | None = None
    y: float | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tag": self.tag, "reason": self.reason.text("en"),
                               "reason_words": self.reason.to_json()}
        if self.x is not None and self.y is not None:
            out["near"] = [round(self.x, 2), round(self.y, 2)]
        return out


@dataclass
class TagResult:
    figures: list[TagFix]
    rejected: list[TagRejection] = field(default_factory=list)
    px_per_in: float = 0.0
    rectified: bool = True


def default_px_per_in(calibration: Calibration) -> float:
    """Rectify at about the frame's own scale at the table centre (no detail is invented
    above it, none lost below it), within 40-100 px/in."""
    return float(min(100.0, max(40.0, round(calibration.px_per_in()))))


def hints_for_layout(hints: FigureHints, layout: Layout) -> FigureHints:
    """The hints, with a calibration file's ``base_height_mm`` (when it differs from the
    usual 3.2 mm) taken as the player's setting for every base the hints do not know."""
    if hints.height_known or layout.base_height_mm == DEFAULT_BASE_HEIGHT_MM:
        return hints
    return replace(hints, default_height_mm=layout.base_height_mm, height_known=True)


def locate_tags(image: Image, calibration: Calibration, px_per_in: float | None = None,
                rectify: bool = True, hints: FigureHints = NO_HINTS) -> TagResult:
    """Every figure tag in `image`. `rectify=False` detects on the raw frame instead (the
    comparison the benchmark makes). `hints` give the bases' heights (see `FigureHints`)."""
    layout = calibration.layout
    hints = hints_for_layout(hints, layout)
    calibration.check_image(image)
    gray = to_gray(image)
    if rectify:
        ppi = px_per_in or default_px_per_in(calibration)
        top = calibration.rectify(gray, ppi)
        found = find_tags(top, layout, ppi)
    else:
        ppi = calibration.px_per_in()
        # raw pixels: image_to_table undoes any lens distortion point by point
        found = find_tags(gray, layout, ppi)
    result = TagResult([], [], ppi, rectify)
    tags = [d for d in found if d.id in layout.tag_ids]
    if not tags:
        return result
    counts: dict[int, int] = {}
    for d in tags:
        counts[d.id] = counts.get(d.id, 0) + 1
    points = np.concatenate([d.corners for d in tags] + [np.array([d.centre for d in tags])])
    on_table = (rectified_to_table(points, layout, ppi) if rectify
                else calibration.image_to_table(points))
    twice = [counts[d.id] > 1 for d in tags]
    for d, seen_twice, out in zip(tags, twice, _fixes(tags, on_table, calibration, hints),
                                  strict=True):
        if seen_twice:
            out = TagRejection(d.id, Message("camera.tag.twice", {"n": counts[d.id]}),
                               *_foot(out))
        if isinstance(out, TagFix):
            result.figures.append(out)
        else:
            result.rejected.append(out)
    result.figures.sort(key=lambda f: f.tag)
    return result


def _foot(out: TagFix | TagRejection) -> tuple[float | None, float | None]:
    return (out.x, out.y)


def find_tags(gray: Image, layout: Layout, px_per_in: float) -> list[Detection]:
    """The figure tags in a grey image at about `px_per_in` (the rectified table): OpenCV's
    ArUco detector, then a second look at the quadrilaterals of a tag's size it found but
    could not read. A small blurred tag's contour often sits a little inside or outside its
    border, and the cells sampled from it straddle two bits: its edges are fitted again
    (`refine_edges`) and its cells read from there (`decode_quad`, exact codes only). When
    that fails too (a shadow's edge across the sticker bends the contour), the detector
    looks again at that spot only, enlarged twice, with other thresholds (`CLOSER_LOOKS`)."""
    found, candidates = detect_with_candidates(tag_detector(layout, px_per_in,
                                                            max(gray.shape[:2])), gray)
    tag_px = layout.tag_size * px_per_in
    perimeter = 4.0 * tag_px
    dictionary = aruco_dictionary(layout)
    centres = [d.centre for d in found]
    for quad in candidates:
        length = float(np.sum(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))
        if not 0.8 * perimeter < length < 1.3 * perimeter:
            continue
        middle = quad.mean(axis=0)
        if any(math.hypot(*(c - middle)) < tag_px for c in centres):
            continue  # a tag read already (or its inner square)
        edges = refine_edges(gray, quad, tag_px / (dictionary.markerSize + 2))
        read = decode_quad(gray, edges, dictionary) if edges is not None else None
        tag = Detection(read[0], read[1]) if read is not None else \
            _look_closer(gray, layout, px_per_in, middle)
        if tag is not None:
            found.append(tag)
            centres.append(tag.centre)
    return found


#: The closer look at an unread candidate: (threshold window in marker cells, constant),
#: on the spot enlarged `CLOSER_ZOOM` times. Two settings unlike the first pass's (4 cells,
#: `TAG_THRESHOLD_CONSTANT`): on the tuning frames either read the one tag left unread, in
#: the edge of a spot light's shadow.
CLOSER_LOOKS = ((4.0, 15.0), (2.5, 7.0))
CLOSER_ZOOM = 2


def _look_closer(gray: Image, layout: Layout, px_per_in: float,
                 middle: FloatArray) -> Detection | None:
    """A tag at `middle` (pixels of `gray`), looked for in a patch of 2.4 tag widths
    enlarged `CLOSER_ZOOM` times; None when there is none (or the patch leaves the image)."""
    tag_px = layout.tag_size * px_per_in
    half = int(math.ceil(1.2 * tag_px))
    x0, y0 = int(round(middle[0])) - half, int(round(middle[1])) - half
    if x0 < 0 or y0 < 0 or x0 + 2 * half > gray.shape[1] or y0 + 2 * half > gray.shape[0]:
        return None
    zoom = CLOSER_ZOOM
    patch = cv2.resize(gray[y0:y0 + 2 * half, x0:x0 + 2 * half], None, fx=zoom, fy=zoom,
                       interpolation=cv2.INTER_CUBIC)
    cell = tag_px * zoom / 6.0
    for cells, constant in CLOSER_LOOKS:
        detector = tag_detector(layout, px_per_in * zoom, max(patch.shape[:2]))
        params = detector.getDetectorParameters()
        window = max(3, int(cells * cell) | 1)
        params.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMax = window
        params.adaptiveThreshConstant = constant
        detector.setDetectorParameters(params)
        for tag in detect(detector, patch):
            # pixel centres: gray = (patch + 0.5) / zoom - 0.5, shifted to the patch's corner
            corners = (tag.corners + 0.5) / zoom - 0.5 + np.array([x0, y0], dtype=np.float64)
            if float(np.hypot(*(marker_centre(corners) - middle))) < tag_px / 2:
                return Detection(tag.id, corners)
    return None


def _fixes(tags: list[Detection], on_table: FloatArray, cal: Calibration,
           hints: FigureHints) -> list[TagFix | TagRejection]:
    """Each tag located, or refused with the reason. `on_table`: the tags' corners (4 a tag,
    in order) then their centres, as seen on the table plane (their rays' feet). The
    arithmetic is done for all the tags at once."""
    layout = cal.layout
    n = len(tags)
    table_corners = on_table[:4 * n].reshape(n, 4, 2)
    feet = on_table[4 * n:]
    heights_mm = [hints.height_for(d.id) for d in tags]
    h = np.array([mm for mm, _known in heights_mm]) / MM_PER_INCH
    if cal.pose is not None:
        c = cal.pose.centre
        if float(c[2]) <= float(h.max()):
            cal.lift(feet[:1], float(h.max()))  # raises the pose's "too low" error
        # P = P0 + (C_xy - P0) * h / C_z: the tag's true place and its corners at its height
        pull = (h / float(c[2]))[:, None]
        corners = table_corners + (c[:2] - table_corners) * pull[:, :, None]
        xy = feet + (c[:2] - feet) * pull
        # where each stands in the image: its height's point on its ray
        grow = float(c[2]) / (float(c[2]) - h)
        pixels = cal.table_to_image(c[:2] + (xy - c[:2]) * grow[:, None])
        slopes = np.hypot(feet[:, 0] - c[0], feet[:, 1] - c[1]) / float(c[2])
    else:
        corners, xy = table_corners, feet
        pixels = cal.table_to_image(feet)
        slopes = np.zeros(n)
    side, angle, residual = _square_fits(corners)
    # the homography's own error at each foot (None for a calibration read from a file)
    mapping = cal.mapping_sigma(cal.table_to_image(feet))
    scale = _px_per_in(cal, xy)
    out: list[TagFix | TagRejection] = []
    for k, d in enumerate(tags):
        x0, y0 = float(feet[k, 0]), float(feet[k, 1])
        x, y = float(xy[k, 0]), float(xy[k, 1])
        if residual[k] > MAX_SHAPE_RESIDUAL_IN:
            out.append(TagRejection(d.id, Message("camera.tag.misshapen", {
                "mm": round(float(residual[k]) * MM_PER_INCH, 1),
                "max": round(MAX_SHAPE_RESIDUAL_IN * MM_PER_INCH, 1)}), x0, y0))
        elif abs(side[k] / layout.tag_size - 1.0) > SIZE_TOLERANCE:
            out.append(TagRejection(d.id, Message("camera.tag.size", {
                "mm": round(float(side[k]) * MM_PER_INCH, 2),
                "printed": round(layout.tag_size * MM_PER_INCH, 2)}), x0, y0))
        elif not (0.0 <= x <= layout.table_width and 0.0 <= y <= layout.table_depth):
            out.append(TagRejection(d.id, Message("camera.tag.off_table"), x, y))
        else:
            height_mm, known = heights_mm[k]
            slope = float(slopes[k])  # a height error moves the tag along its ray
            height_in = 0.0 if known else slope * max(
                abs(height_mm - BASE_HEIGHT_RANGE_MM[0]),
                abs(BASE_HEIGHT_RANGE_MM[1] - height_mm)) / MM_PER_INCH
            parallax = math.hypot(x - x0, y - y0)
            sigma = _sigma(cal, float(scale[k]), slope, parallax, float(residual[k]),
                           None if mapping is None else float(mapping[k]))
            out.append(TagFix(d.id, x, y, SIGMAS * sigma + height_in, float(angle[k]),
                              (float(pixels[k, 0]), float(pixels[k, 1])), parallax,
                              float(residual[k]), height_mm, known, height_in))
    return out


def _px_per_in(cal: Calibration, xy: FloatArray) -> FloatArray:
    """Image pixels per table inch at each point (as `Calibration.px_per_in`, all at once)."""
    step = 0.5
    pts = np.concatenate([xy, xy + (step, 0.0), xy + (0.0, step)])
    img = cal.table_to_image(pts).reshape(3, len(xy), 2)
    ex, ey = (img[1] - img[0]) / step, (img[2] - img[0]) / step
    out: FloatArray = np.sqrt(np.abs(ex[:, 0] * ey[:, 1] - ex[:, 1] * ey[:, 0]))
    return out


def _slope(cal: Calibration, foot: tuple[float, float]) -> float:
    """How far a point seen at `foot` (its ray's foot on the table) moves per unit of height
    (the ray's tangent); 0 without a camera pose (no parallax correction then)."""
    if cal.pose is None:
        return 0.0
    c = cal.pose.centre
    return math.hypot(foot[0] - c[0], foot[1] - c[1]) / float(c[2])


def _square_fits(corners: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Side, rotation (degrees) and RMS corner residual of the best square through each
    tag's four corners (N x 4 x 2, ArUco order, table inches, y up)."""
    quads = np.asarray(corners, dtype=np.float64).reshape(-1, 4, 2)
    # where the diagonals cross: the centre under any perspective
    p0, p1, p2, p3 = quads[:, 0], quads[:, 1], quads[:, 2], quads[:, 3]
    d1, d2 = p2 - p0, p3 - p1
    denom = d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]
    safe = np.where(np.abs(denom) < 1e-12, 1.0, denom)
    t = ((p1[:, 0] - p0[:, 0]) * d2[:, 1] - (p1[:, 1] - p0[:, 1]) * d2[:, 0]) / safe
    centre = np.where((np.abs(denom) < 1e-12)[:, None], quads.mean(axis=1), p0 + t[:, None] * d1)
    rel = quads - centre[:, None, :]
    # least-squares similarity rel ~ s R unit: complex numbers make it one division
    z = rel[..., 0] + 1j * rel[..., 1]
    u = np.array([-0.5 + 0.5j, 0.5 + 0.5j, 0.5 - 0.5j, -0.5 - 0.5j])  # TL, TR, BR, BL, y up
    a = (z @ np.conj(u)) / float(np.vdot(u, u).real)
    residual = np.sqrt(np.mean(np.abs(z - a[:, None] * u) ** 2, axis=1))
    angle = np.degrees(np.arctan2(a.imag, a.real)) % 360.0
    return np.abs(a), angle, residual


def _sigma(cal: Calibration, px_per_in: float, slope: float, parallax: float,
           residual: float, mapping: float | None) -> float:
    cal_term = mapping if mapping is not None else \
        cal.reprojection_in * (1.0 if len(cal.markers) >= 4 else 2.0)
    det_term = math.hypot(CENTRE_JITTER_PX / px_per_in, residual)
    par_term = 0.0
    if cal.pose is not None:
        par_term = math.hypot(BASE_HEIGHT_TOLERANCE_IN * slope,
                              FOCAL_DOUBT.get(cal.pose.focal_source, 0.3) * parallax)
    return math.sqrt(cal_term ** 2 + det_term ** 2 + par_term ** 2)
