"""Colour mode: find round bases by their coloured rims on the rectified table (no tags).

Each side paints its base rims one saturated colour (default survivors blue, zombies red,
civilians yellow; see `vision.colour_config`). The frame is warped to a top-down image of the
table at `px_per_in`, each side's HSV ranges (with a chroma floor) give a mask, and the mask's
boundary pixels, grouped when close, are fitted with circles of the expected radius (from the
side's `base_mm`, the table scale and the base height's parallax): RANSAC on boundary pixels
whose outward normal faces away from the candidate centre (the base's outer rim edge, not its
inner edge nor the cut where something hides it), then least squares, repeated on what is left
so that touching bases of one colour come apart, then refitted together. Blobs that do not fit
a base are refused with the reason (wrong size, too little rim seen, colour going on past the
base edge, colour filling it in like a painted miniature's torso, overlapping a surer base).

Centres are corrected for parallax (the rim is `layout.base_height` above the table) with the
calibration's camera pose. A known-radius fit of a partial arc is biased by any error in the
radius, so the radius used for partial arcs is the expected one plus the offset measured on
the well-seen bases of the same frame (thresholding moves every rim edge alike).

Each detection carries `uncertainty` (inches; the true centre should lie within it about 95%
of the time: 2.5 sigma of the fit covariance, the radius error's and the size doubt's effect
on partial arcs, a systematic floor, 2.5 sigma of the calibration's own error at the base's
place and the unknown base height's reach; docs/vision.md) and `confidence` (0-1, from rim
coverage and fit quality).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from geometry.units import DEFAULT_BASE_MM, MM_PER_INCH, base_radius
from i18n import Message
from vision.calibration import Calibration, rectified_to_table, rectify_matrix
from vision.colour_config import DEFAULT_COLOURS, ColourConfig, HsvRange, SideColour
from vision.colour_fit import (
    COVERAGE_BINS,
    MIN_FACING,
    CircleFit,
    coverage,
    radius_sensitivity,
    radius_sigma,
    refine,
)
from vision.cv import cv2
from vision.errors import ImageError
from vision.hints import BASE_HEIGHT_RANGE_MM, COMMON_BASE_MM, NO_HINTS, FigureHints
from vision.types import FloatArray, Image
from vision.words import side as side_word

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]

__all__ = ["BaseDetection", "Rejected", "ColourResult", "detect_bases", "find_bases",
           "colour_figures", "colour_config", "search_sizes",
           "side_mask", "hsv_table", "chroma"]

SIGMAS = 2.5  # uncertainty = this many standard deviations of the fit (~95% in 2-D)
CORRELATION = 2.0  # neighbouring boundary pixels share their noise (blur): fewer independent
FULL_COVERAGE = 0.85  # rims seen this much get a free-radius fit and set the frame's offset
SYSTEMATIC_IN = 0.04  # edge-colour bias, rim painting and parallax model, added in quadrature
MIN_CONTOUR = 6  # boundary curves shorter than this (pixels) are specks of noise
FIT_WEIGHT = 0.15  # score = coverage - this x the rim pixels' mean distance from the circle
#   (in tolerances): of two circles covering the same arc, the one the pixels hug wins
VOTE_CELL = 2  # pixels: votes are counted in cells this size, candidates placed at their mean
VOTE_SHARE = 0.9  # a candidate centre gathers at least this share of a min-coverage arc's votes
MAX_CANDIDATES = 400  # per side and frame (a frame holds a few dozen bases)
MAX_OFFSET_PX = 1.5  # bound on the frame's rim radius offset (thresholding, blur)
SIZE_FROM_ARC = 0.35  # a partial arc covering this much of its circle gives its size
FILLED_AT = 0.55  # the ring inside a circle, in radii, that a rim leaves free of its colour
MAX_FILLED = 0.7  # share of that ring in the colour beyond which the circle is a patch
_RING = np.linspace(0.0, 2.0 * math.pi, 48, endpoint=False)
_RING_COS, _RING_SIN = np.cos(_RING), np.sin(_RING)
JOINT_PASSES = 1  # refits of touching circles together
MAX_RMS_IN = 0.06  # rms distance (inches) of a rim's edge pixels from its circle, at most
THIN_FILL = 0.3  # a rim's paint under less than this share of its circle's edge...
THIN_RMS_IN = 0.025  # ...with its edge this loose (inches rms) is scattered colour
_FINE_RING = np.linspace(0.0, 2.0 * math.pi, 72, endpoint=False)
_FINE = (np.cos(_FINE_RING), np.sin(_FINE_RING))
_NINE = (np.repeat([-1, 0, 1], 3), np.tile([-1, 0, 1], 3))  # a cell's 3 x 3 neighbourhood
_EDGE_DR = np.array([[0.5], [1.0], [1.5]])  # pixels inside a circle's edge: its paint
SPECK = 16  # boundary curves shorter than this (pixels) are specks, never a bigger base
FAINT_RUNS = 5  # a rim seen in this many separate bits or more, or with paint under less
FAINT_FILL = 0.35  # than this share of its edge...
FAINT_CHROMA = 1.25  # ...whose paint's median chroma is under this x the range's floor: specks
GROW_COVER = 0.1  # a bigger size replaces an arc's size when it covers this much more of it
LEAN_COS = 0.5  # pixels within 60 degrees of the direction away from the camera: the lean
WEAK_COVER = 0.5  # an arc under this coverage whose paint's median saturation is within
BRUSH_SAT = 5  # this of the range's floor (and chroma under FAINT_CHROMA x its floor) is tint
BUSY_SPECKS = 0.25  # specks of a side's colour per square inch of table that make its mat busy
BUSY_COVER = 0.5  # the rim share a base must show on a busy mat
STRAY_FACING = 0.7  # cosine: a stray pixel's normal within 45 degrees of facing away
ARC_SIZE_SURE = 0.35  # an arc this much of its circle tells a size no one looked for
OFFSET_REFIT_PX = 0.25  # partial arcs are refitted with the frame's radius offset beyond this
PAINT_SURE_COVER = 0.7  # bases seen this well tell a side's paint in the frame
PAINT_HUE = 4.0  # hue units (2 degrees each) a weaker circle's colour may differ from it...
PAINT_CHROMA = 0.6  # ...and the share of its chroma it must have
SHADE_HUE = 2.0  # hue units and share of saturation within which less chroma is the same
SHADE_SAT = 0.9  # paint in less light (light scales chroma; hue and saturation are ratios)
DIM_SHARE = 0.7  # parts of the table lit under this share of its typical light are evened
DIM_GAIN = 2.5  # at most this much
SPREAD_SHARE = 0.5  # unexplained rim pixels just outside a circle, per inlier, that refuse it
SPILL = "camera.colour.reject.spill"
SPILL_SHARE = 0.5  # share of a ring just outside a circle in the colour that refuses it
SOLID_DEPTH = 0.5  # radii: colour running in this far from the edge of an arc seen under
#   PAINT_SURE_COVER (median along the arc) is a painted solid (a miniature's torso, 0.6-0.9
#   radii of a 25 mm base), not a rim's band (2-7 px, under 0.45 radii on such arcs, blurred)
SOLID_SECTORS = 2  # sectors of a partial arc along a solid's outline that make it suspect
#   (one is a same-coloured foot touching the rim band's inner edge)
VOTE_GATHER = 3.0  # pixels: votes this close together gather at one centre


@dataclass(frozen=True)
class BaseDetection:
    """A base found in colour mode: side, centre (table inches), fitted radius (inches),
    `uncertainty` (inches, ~95% bound on the centre error), `confidence` (0-1), the share of
    the rim circumference seen, the rms distance of rim pixels from the fitted circle, and the
    base size found (`base_mm`, the size looked for nearest the fitted radius when the rim was
    seen whole, `size_measured`; else the size whose circle the seen arc fits best)."""

    side: str
    x: float
    y: float
    radius: float
    uncertainty: float
    confidence: float
    coverage: float
    residual: float
    base_mm: float = DEFAULT_BASE_MM
    size_measured: bool = False
    #: what the uncertainty is made of (inches, each as it enters the bound): not in the JSON
    parts: dict[str, float] = field(default_factory=dict, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "x": round(self.x, 4), "y": round(self.y, 4),
                "radius": round(self.radius, 4), "uncertainty": round(self.uncertainty, 4),
                "confidence": round(self.confidence, 3), "coverage": round(self.coverage, 3),
                "residual": round(self.residual, 4), "base_mm": self.base_mm,
                "size_measured": self.size_measured}


@dataclass(frozen=True)
class Rejected:
    """A blob of a side's colour that was not taken for a base, and why (a message)."""

    side: str
    x: float
    y: float
    reason: Message

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "x": round(self.x, 3), "y": round(self.y, 3),
                "reason": self.reason.text("en"), "reason_words": self.reason.to_json()}


@dataclass(frozen=True)
class ColourResult:
    bases: tuple[BaseDetection, ...]
    rejected: tuple[Rejected, ...]
    px_per_in: float
    radius_offset_px: float  # fitted minus expected rim radius on well-seen bases

    def to_json(self) -> dict[str, Any]:
        return {"bases": [b.to_json() for b in self.bases],
                "rejected": [r.to_json() for r in self.rejected],
                "px_per_in": self.px_per_in, "radius_offset_px": round(self.radius_offset_px, 3)}


def detect_bases(image_bgr: Image, calibration: Calibration, config: Any = DEFAULT_COLOURS,
                 hints: FigureHints = NO_HINTS) -> list[BaseDetection]:
    """Every base found in the frame, in table inches (see `find_bases` for the refusals).

    `config` is a ColourConfig, its JSON, a calibration file (its ``colours`` section) or
    None for the defaults; `hints` the base sizes and height the game expects.
    """
    return list(find_bases(image_bgr, calibration, colour_config(config), hints).bases)


def colour_figures(image_bgr: Image, calibration: Calibration, config: Any = DEFAULT_COLOURS,
                   hints: FigureHints = NO_HINTS) -> list[dict[str, Any]]:
    """The figures of `vision locate --mode colour`: ``{"side", "x", "y", ...}`` per base."""
    return [b.to_json() for b in detect_bases(image_bgr, calibration, config, hints)]


def colour_config(config: Any) -> ColourConfig:
    """ColourConfig from what a caller holds: the config itself, its JSON, None (defaults), or
    an object with a ``colours`` attribute (the calibration file) holding either."""
    if isinstance(config, ColourConfig):
        return config
    if config is None:
        return DEFAULT_COLOURS
    if hasattr(config, "colours"):
        return colour_config(config.colours)
    return ColourConfig.from_json(config)


def hsv_table(image_bgr: Image, calibration: Calibration, px_per_in: float) -> Image:
    """The rectified top-down table in OpenCV HSV."""
    top = calibration.rectify(image_bgr, px_per_in)
    hsv: Image = cv2.cvtColor(top, cv2.COLOR_BGR2HSV)
    return hsv


def chroma(hsv: Image) -> Image:
    """max - min of B, G, R per pixel (S * V / 255), uint8."""
    out: Image = cv2.multiply(cv2.extractChannel(hsv, 1), cv2.extractChannel(hsv, 2),
                              scale=1.0 / 255.0)  # channels extracted: faster than views
    return out


def side_mask(hsv: Image, ranges: Sequence[HsvRange], chroma_image: Image | None = None,
              floors: dict[object, Image] | None = None) -> Image:
    """255 where a pixel falls in any of the ranges (HSV box and chroma floor). `floors`
    keeps masks from one call to the next on the same image: the chroma floors, the
    saturation and value boxes, the hue channel.

    A box is tested as its hues (a lookup table on the hue channel) and its saturation and
    value bounds with the chroma floor: ranges that share those bounds (every default side
    colour does) share that mask, across sides too, and one table lookup per side is left
    instead of a pass over all three channels per box. The same pixels either way.
    """
    c = chroma(hsv) if chroma_image is None else chroma_image
    cache: dict[object, Image] = {} if floors is None else floors
    hues: dict[tuple[int, int, int, int, int], set[int]] = {}
    for r in ranges:  # ranges of the same bounds, their hues together
        hues.setdefault((r.sat_min, r.sat_max, r.val_min, r.val_max, r.chroma_min),
                        set()).update(r.hues())
    if ("hue",) not in cache:
        cache[("hue",)] = cv2.extractChannel(hsv, 0)
    mask: Image | None = None
    for bounds, shades in hues.items():
        sat_min, sat_max, val_min, val_max, chroma_min = bounds
        if chroma_min not in cache:
            cache[chroma_min] = cv2.inRange(c, chroma_min, 255)
        if bounds not in cache:
            box = cv2.inRange(hsv, np.array((0, sat_min, val_min), np.uint8),
                              np.array((255, sat_max, val_max), np.uint8))
            cache[bounds] = cv2.bitwise_and(box, cache[chroma_min])
        table = np.zeros(256, np.uint8)
        table[sorted(shades)] = 255
        m = cv2.bitwise_and(cv2.LUT(cache[("hue",)], table), cache[bounds])
        mask = m if mask is None else cv2.bitwise_or(mask, m)
    assert mask is not None
    return mask


@dataclass
class _Raw:
    side: SideColour
    fit: CircleFit
    points: FloatArray  # the boundary pixels of the side's mask near it
    cover: float
    size_mm: float  # the size it was fitted with (partial arcs) or found nearest (full rims)
    expected_px: float  # that size's rim radius on the rectified table
    size_step_px: float = 0.0  # radius difference to the nearest other size looked for
    #: the radius the arc's own curvature gives (free-radius fit) and its standard deviation,
    #: and the radii of the sizes looked for: which other sizes the arc could be
    free_px: tuple[float, float] = (0.0, math.inf)
    radii_px: tuple[float, ...] = ()


def search_sizes(side: SideColour, hints: FigureHints = NO_HINTS) -> tuple[float, ...]:
    """The base sizes (mm across) looked for on `side`: the game's when its hints name that
    side's figures, else the common sizes and the colour settings' own `base_mm` (the single
    size of an older calibration file, looked for beside the common ones)."""
    if hints.base_mm.get(side.side):
        return hints.sizes_for(side.side)
    return tuple(sorted(set(COMMON_BASE_MM) | {float(side.base_mm)}))


def find_bases(image_bgr: Image, calibration: Calibration,
               config: ColourConfig = DEFAULT_COLOURS,
               hints: FigureHints = NO_HINTS) -> ColourResult:
    """Bases and refused blobs in one frame; deterministic.

    `hints` narrows the base sizes looked for per side (a game's figures) and sets the rim
    height (a band's base height); without them every common size is looked for.
    """
    if image_bgr.ndim != 3 or image_bgr.shape[2] != 3 or image_bgr.dtype != np.uint8:
        raise ImageError(Message("camera.colour.not_colour"), "image")
    ppi = config.px_per_in
    hsv = hsv_table(image_bgr, calibration, ppi)
    height = _rim_height(calibration, hints)
    height_known = hints.height_for(None)[1]
    scale = _parallax_scale(calibration, height)
    raws: list[_Raw] = []
    rejected: list[Rejected] = []
    strength = chroma(hsv)
    hsv, strength = _evened(hsv, strength, ppi)
    floors: dict[object, Image] = {}
    for side in config.sides:
        sizes = search_sizes(side, hints)
        mask = side_mask(hsv, side.ranges, strength, floors)
        found, refused = _search(mask, side, sizes, ppi * scale, config, strength,
                                 _camera_foot(calibration, ppi), hsv[:, :, 1])
        found, odd = _one_paint(found, mask, hsv, strength)
        refused += odd
        raws += found
        where = _to_table(calibration, np.array([(u, v) for u, v, _ in refused],
                                                     dtype=np.float64).reshape(-1, 2),
                               ppi, height).tolist()
        rejected += [Rejected(side.side, x, y, why)
                     for (x, y), (_, _, why) in zip(where, refused, strict=True)]
    offsets = [r.fit.radius - r.expected_px for r in raws if r.fit.free_radius]
    offset = float(np.clip(np.median(offsets), -MAX_OFFSET_PX, MAX_OFFSET_PX)) if offsets \
        else 0.0
    offset_spread = float(np.std(offsets)) if len(offsets) > 2 else 0.5
    fits: list[tuple[CircleFit, float]] = []
    for raw in raws:
        fit = raw.fit
        sens = 0.0
        if not fit.free_radius:
            if abs(offset) > OFFSET_REFIT_PX:
                tol = _tolerance(raw.expected_px)
                fit = refine(raw.points, fit.cx, fit.cy, raw.expected_px + offset, tol, False)
            sens = radius_sensitivity(raw.points[fit.inliers], fit.cx, fit.cy)
        fits.append((fit, sens))
    centres = np.array([(f.cx, f.cy) for f, _ in fits], dtype=np.float64).reshape(-1, 2)
    at = _to_table(calibration, centres, ppi, height).tolist()
    # a base height not set by the game may be anything in BASE_HEIGHT_RANGE_MM: how far
    # that moves the parallax correction (up to ~0.05 in at the edge of a steep view)
    heights = [] if height_known else [
        _to_table(calibration, centres, ppi, h / MM_PER_INCH).tolist()
        for h in BASE_HEIGHT_RANGE_MM]
    # the homography's own error at each centre, one standard deviation (grows away from the
    # markers fitted, most at a corner extrapolated from three); a calibration read from a
    # file has no covariance: its corner residual, doubled with three markers, as tags mode
    mapping = calibration.mapping_sigma(calibration.table_to_image(
        np.array(at, dtype=np.float64).reshape(-1, 2))) if at else None
    fallback = calibration.reprojection_in * (1.0 if len(calibration.markers) >= 4 else 2.0)
    bases: list[BaseDetection] = []
    for n, (raw, (fit, sens)) in enumerate(zip(raws, fits, strict=True)):
        x, y = at[n]
        sigma_px = math.sqrt(max(_largest_eigenvalue(fit.cov), 0.0) * CORRELATION)
        radius_term = SIGMAS * sens * max(offset_spread, 0.35)
        # an arc's size may be another one: the centre moves by sens x the radius difference
        radius_term = math.hypot(radius_term, sens * _size_doubt(raw, offset))
        unsure = max((math.dist((x, y), other[n]) for other in heights), default=0.0)
        calib = SIGMAS * (fallback if mapping is None else float(mapping[n]))
        parts = {"fit": SIGMAS * sigma_px / ppi, "radius": radius_term / ppi,
                 "systematic": SYSTEMATIC_IN, "calibration": calib, "height": unsure}
        uncertainty = math.hypot(*parts.values())
        quality = math.exp(-((fit.rms / 1.0) ** 2) / 2.0)
        confidence = min(1.0, raw.cover / FULL_COVERAGE) * quality
        bases.append(BaseDetection(raw.side.side, x, y, fit.radius / ppi / scale, uncertainty,
                                   confidence, raw.cover, fit.rms / ppi, raw.size_mm,
                                   fit.free_radius, parts))
    bases, dropped = _overlaps(bases)
    rejected += dropped
    bases.sort(key=lambda b: (b.side, b.y, b.x))
    return ColourResult(tuple(bases), tuple(rejected), ppi, offset)


def _size_doubt(raw: _Raw, offset: float) -> float:
    """How far (pixels of radius) the true size of a partial arc's base may be from the size
    it was fitted with: the nearest other size looked for at least, and any size whose rim the
    arc's own curvature allows (within `SIGMAS` standard deviations of its free-radius fit,
    less the frame's rim offset). A short arc's curvature says little, so many sizes remain."""
    r_free, sd = raw.free_px
    reach = SIGMAS * sd
    plausible = [abs(r - raw.expected_px) for r in raw.radii_px
                 if abs(r + offset - r_free) <= reach]
    return max([raw.size_step_px, *plausible])


def _evened(hsv: Image, strength: Image, ppi: float) -> tuple[Image, Image]:
    """Value and chroma brightened where the table lies in shadow or out of a lamp's beam
    (saturation and hue are ratios and keep): the light falling on each part of the table is
    the brightness of its mat (a median over cells of an inch, smoothed), and where it is under
    `DIM_SHARE` of the table's typical light, value and chroma are scaled up toward what that
    light would give (at most `DIM_GAIN` times), so a rim's paint passes the same floors in
    a lamp's dim corner as under it. Evenly lit tables are left as they are."""
    value = hsv[:, :, 2]
    h, w = value.shape[:2]
    cell = max(int(round(ppi)), 1)
    small = cv2.resize(value, (max(w // cell, 1), max(h // cell, 1)),
                       interpolation=cv2.INTER_AREA)
    light = cv2.medianBlur(small, 5) if min(small.shape) >= 5 else small
    typical = float(np.percentile(light, 50))
    if typical <= 0.0:
        return hsv, strength
    gain_small = np.clip(DIM_SHARE * typical / np.maximum(light.astype(np.float32), 1.0),
                         1.0, DIM_GAIN).astype(np.float32)
    if float(gain_small.max()) <= 1.0:
        return hsv, strength
    gain = cv2.resize(gain_small, (w, h), interpolation=cv2.INTER_LINEAR)
    out = hsv.copy()
    out[:, :, 2] = cv2.multiply(value, gain, dtype=cv2.CV_8U)
    evened: Image = cv2.multiply(strength, gain, dtype=cv2.CV_8U)
    return out, evened


def _paints(found: Sequence[_Raw], mask: Image, hsv: Image, strength: Image,
            ) -> list[tuple[float, float, float] | None]:
    """(hue, chroma, saturation) medians of the paint just inside each base's fitted edge
    (None: none seen), all bases at once. Hue is taken relative to red's wrap (-90..89), so
    reds near 0 and 179 are close."""
    if not found:
        return []
    cx = np.array([r.fit.cx for r in found])[:, None]
    cy = np.array([r.fit.cy for r in found])[:, None]
    at = np.array([r.fit.radius for r in found])[:, None] - 1.0
    u = np.rint(cx + at * _FINE[0]).astype(np.intp)
    v = np.rint(cy + at * _FINE[1]).astype(np.intp)
    h, w = mask.shape[:2]
    inside = (u >= 0) & (v >= 0) & (u < w) & (v < h)
    ui, vi = np.minimum(np.maximum(u, 0), w - 1), np.minimum(np.maximum(v, 0), h - 1)
    on = inside & (mask[vi, ui] > 0)
    hue = np.where(on, (hsv[vi, ui, 0].astype(np.float64) + 90.0) % 180.0 - 90.0, np.nan)
    paint = np.where(on, strength[vi, ui].astype(np.float64), np.nan)
    sat = np.where(on, hsv[vi, ui, 1].astype(np.float64), np.nan)
    seen = on.any(axis=1)
    out: list[tuple[float, float, float] | None] = [None] * len(found)
    if seen.any():
        hues, chromas = _row_medians(hue[seen]), _row_medians(paint[seen])
        sats = _row_medians(sat[seen])
        for n, a, b, c in zip(np.flatnonzero(seen), hues, chromas, sats, strict=True):
            out[int(n)] = (float(a), float(b), float(c))
    return out


def _one_paint(found: list[_Raw], mask: Image, hsv: Image, strength: Image,
               ) -> tuple[list[_Raw], list[tuple[float, float, Message]]]:
    """One side's rims share one paint: a weakly seen circle whose colour differs from the
    paint of that side's well-seen bases in the same frame (another hue, or much less colour:
    skin between a hand's fingers, a miniature's red cloth, a rug) is not a rim. Needs at
    least three well-seen bases to know the paint. Less colour of the very same hue and
    saturation is the same paint in less light (a lamp's dim corner, a shadow): light scales
    chroma, not the ratios that hue and saturation are."""
    paints = _paints(found, mask, hsv, strength)
    sure = [p for r, p in zip(found, paints, strict=True)
            if p is not None and r.cover >= PAINT_SURE_COVER]
    if len(sure) < 3:
        return found, []
    hue = _median(np.array([p[0] for p in sure]))
    strong = _median(np.array([p[1] for p in sure]))
    vivid = _median(np.array([p[2] for p in sure]))
    kept: list[_Raw] = []
    odd: list[tuple[float, float, Message]] = []
    for raw, p in zip(found, paints, strict=True):
        shaded = p is not None and abs(p[0] - hue) <= SHADE_HUE and p[2] >= SHADE_SAT * vivid
        if p is not None and raw.cover < PAINT_SURE_COVER and (
                abs(p[0] - hue) > PAINT_HUE or (p[1] < PAINT_CHROMA * strong and not shaded)):
            odd.append((raw.fit.cx, raw.fit.cy, Message("camera.colour.reject.paint", {
                "hue": round(abs(p[0] - hue) * 2.0, 1), "share": p[1] / max(strong, 1.0)})))
        else:
            kept.append(raw)
    return kept, odd


def _overlaps(bases: list[BaseDetection]) -> tuple[list[BaseDetection], list[Rejected]]:
    """Bases cannot overlap: of two circles closer than 1.5 radii, keep the surer one."""
    kept: list[BaseDetection] = []
    dropped: list[Rejected] = []
    for b in sorted(bases, key=lambda b: -b.confidence):
        clash = next((k for k in kept
                      if math.hypot(k.x - b.x, k.y - b.y) < 0.75 * (k.radius + b.radius)), None)
        if clash is None:
            kept.append(b)
        else:
            dropped.append(Rejected(b.side, b.x, b.y, Message("camera.colour.reject.overlap", {
                "other": side_word(clash.side), "x": clash.x, "y": clash.y})))
    return kept, dropped


def _rim_height(calibration: Calibration, hints: FigureHints) -> float:
    """How high the rims stand (inches): the band's setting when the hints carry one, else
    the calibration file's `base_height_mm`."""
    mm, known = hints.height_for(None)
    return mm / MM_PER_INCH if known else calibration.layout.base_height


def _parallax_scale(calibration: Calibration, height: float) -> float:
    """A rim `height` up looks bigger by C_z / (C_z - h) on the table plane."""
    pose = calibration.pose
    if pose is None or pose.centre[2] <= height:
        return 1.0
    return float(pose.centre[2] / (pose.centre[2] - height))


def _to_table(calibration: Calibration, uv: FloatArray, ppi: float,
                   height: float) -> FloatArray:
    """Rectified pixels (N x 2) -> table inches of points on the base top, parallax
    removed."""
    seen = rectified_to_table(uv, calibration.layout, ppi)
    if calibration.pose is not None and calibration.pose.centre[2] > height:
        seen = calibration.lift(seen, height)
    return seen


def _largest_eigenvalue(cov: FloatArray) -> float:
    """The larger eigenvalue of a symmetric 2 x 2 matrix (closed form)."""
    a, b, d = float(cov[0, 0]), float(cov[0, 1]), float(cov[1, 1])
    return (a + d) / 2.0 + math.hypot((a - d) / 2.0, b)


def _tolerance(radius_px: float) -> float:
    """How far (pixels) a rim pixel may lie from a circle of that radius and count for it."""
    return max(1.2, 0.12 * radius_px)


@dataclass
class _Candidate:
    cx: float
    cy: float
    near: IntArray  # indices of the side's boundary points around it
    k: int = -1  # best size index
    cover: float = 0.0
    score: float = 0.0
    inliers: int = 0
    votes: float = 0.0


def _search(mask: Image, side: SideColour, sizes: Sequence[float], px_per_in: float,
            config: ColourConfig, strength: Image | None = None,
            foot: tuple[float, float] | None = None, saturation: Image | None = None,
            ) -> tuple[list[_Raw], list[tuple[float, float, Message]]]:
    """Every base of `side` in its mask, and the blobs refused.

    The mask's boundary pixels vote, each along its inward normal, for the centre of a circle
    of each size looked for (the base's outer rim edge faces away from its centre, so the
    votes of one base meet at its centre, whatever hides part of it). Local maxima of the
    votes are candidates; the one whose circle holds the most rim (the share of its
    circumference, `coverage`) is taken first, its pixels claimed, and so on, so touching
    bases of one side come apart and a candidate made of a neighbour's arc finds nothing left.
    """
    radii = np.array([base_radius(s) * px_per_in for s in sizes], dtype=np.float64)
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    # A mat whose texture takes this colour (dry grass for yellow) strews specks of it all
    # over: there, a base must show at least half its rim, and specks are no part of one.
    specks = sum(1 for c in contours if len(c) < SPECK)
    area = mask.shape[0] * mask.shape[1] / (px_per_in * px_per_in)
    busy = specks > BUSY_SPECKS * area
    need = max(config.min_coverage, BUSY_COVER) if busy else config.min_coverage
    shortest = SPECK if busy else MIN_CONTOUR
    kept = [c.reshape(-1, 2) for c in contours if len(c) >= shortest]
    if not kept:
        return [], []
    points = _contour_normals(kept)
    # the picture's own edge (the table's) cuts a base there: no rim edge
    h, w = mask.shape[:2]
    inside = (points[:, 0] > 0) & (points[:, 1] > 0) & (points[:, 0] < w - 1) \
        & (points[:, 1] < h - 1)
    points = points[inside]
    if len(points) < MIN_CONTOUR:
        return [], []
    order = np.argsort(points[:, 0], kind="stable")
    points = points[order]
    candidates = _vote(points, radii, mask.shape, need)
    found: list[_Raw] = []
    refused: list[tuple[float, float, Message]] = []
    claimed = np.zeros(len(points), dtype=bool)
    reach = float(radii.max()) + _tolerance(float(radii.max()))
    owner, idx = _neighbourhoods(candidates, points, reach)
    _score_all(candidates, points, radii, owner, idx)
    bounds = _ring_bounds(radii)
    radius_list = radii.tolist()
    taken: list[tuple[float, float, float]] = []
    chroma_floor = min(r.chroma_min for r in side.ranges)
    sat_floor = min(r.sat_min for r in side.ranges)

    def check(fit: CircleFit, cover: float, size_r: float) -> Message | None:
        return _check(fit, cover, size_r, radii, sizes, config, mask, strength, chroma_floor,
                      saturation, sat_floor, busy, [(o.fit.cx, o.fit.cy, o.fit.radius)
                                                    for o in found], foot)

    # Lazy greedy: claims only ever lower a candidate's score, so a candidate re-scored and
    # still above every other's last score is the best. A candidate needs re-scoring only
    # when a base was taken near it since it was scored.
    heap = [(-c.score, n, 0) for n, c in enumerate(candidates)]
    heapq.heapify(heap)
    while heap:
        _, n, when = heapq.heappop(heap)
        cand = candidates[n]
        cx, cy = cand.cx, cand.cy
        if any(math.hypot(cx - x, cy - y) < reach + rr + 2.0 for x, y, rr in taken[when:]):
            _score(cand, points, claimed, radii, bounds)
            if heap and cand.score < -heap[0][0]:
                heapq.heappush(heap, (-cand.score, n, len(taken)))
                continue
        if cand.cover < need:
            break
        r = float(radii[cand.k])
        if any(math.hypot(cx - x, cy - y) < 0.75 * (r + rr) for x, y, rr in taken):
            continue
        local = points[cand.near]
        mine = local[~claimed[cand.near]]
        fit = refine(mine, cand.cx, cand.cy, r, _tolerance(r), True)
        cover = coverage(mine[fit.inliers], fit.cx, fit.cy)
        k = _nearest(radius_list, fit.radius)
        free = fit
        if cover < FULL_COVERAGE:
            # the arc's own curvature tells the size when enough of it is seen; else the
            # size the candidate's arc fits best, from the candidate's centre. An arc seen
            # well enough whose curvature fits no size looked for is another size of base.
            if cover >= ARC_SIZE_SURE and min(abs(rr - fit.radius) / rr for rr in radius_list) \
                    > config.radius_tolerance:
                refused.append((fit.cx, fit.cy, _check(fit, cover, r, radii, sizes, config,
                                                       mask) or Message(
                    "camera.colour.reject.coverage", {"seen": cover, "need": need})))
                continue
            start = (fit.cx, fit.cy)
            if cover < SIZE_FROM_ARC or abs(radii[k] - fit.radius) > _tolerance(radii[k]):
                k, start = cand.k, (cand.cx, cand.cy)
            fit = refine(mine, *start, float(radii[k]), _tolerance(float(radii[k])), False)
            cover = coverage(mine[fit.inliers], fit.cx, fit.cy)
            if cover < SIZE_FROM_ARC:
                # a short arc: the neighbouring sizes may hold more of it
                for other in (k - 1, k + 1):
                    if 0 <= other < len(radii):
                        ro = float(radii[other])
                        alt = refine(mine, *start, ro, _tolerance(ro), False)
                        alt_cover = coverage(mine[alt.inliers], alt.cx, alt.cy)
                        if alt_cover > cover + 1e-9:
                            fit, cover, k = alt, alt_cover, other
            # the rim going on past a partial arc's circle: a bigger size may explain it
            bigger = k + 1
            spills: bool | None = None  # for the fit as it stands (computed when needed)
            while bigger < len(radii):
                if spills is None:
                    spills = _stray(mine, fit, float(radii[k]), foot) > SPREAD_SHARE * max(
                        int(np.count_nonzero(fit.inliers)), 1)
                if not spills:
                    break
                rb = float(radii[bigger])
                alt = refine(mine, fit.cx, fit.cy, rb, _tolerance(rb), False)
                alt_cover = coverage(mine[alt.inliers], alt.cx, alt.cy)
                if alt.rms <= MAX_RMS_IN * px_per_in and (alt_cover >= cover + GROW_COVER or (
                        alt_cover >= cover and _holds(mine, alt, rb, foot))):
                    fit, cover, k, spills = alt, alt_cover, bigger, None
                bigger += 1
        size_r = float(radii[k])
        if cover < need:
            continue  # too little rim once fitted (or a busy mat's specks): nothing to say
        if cover < PAINT_SURE_COVER and k + 1 < len(radii):
            fit, cover, k = _past_solid(mask, mine, fit, cover, k, radii, need)
            size_r = float(radii[k])
        problem = check(fit, cover, size_r)
        if problem is None and cover < PAINT_SURE_COVER:
            problem = _solid(mask, fit, px_per_in)
            if problem is not None:  # a solid's outline: no rim of another circle either
                claimed[cand.near[np.flatnonzero(~claimed[cand.near])[fit.inliers]]] = True
        if problem is not None:
            refused.append((fit.cx, fit.cy, problem))
            continue
        taken.append((fit.cx, fit.cy, fit.radius))
        step = min((abs(rr - size_r) for j, rr in enumerate(radius_list) if j != k),
                   default=0.0)
        curvature = (free.radius, math.sqrt(CORRELATION) * radius_sigma(
            mine[free.inliers], free.cx, free.cy, free.radius))
        found.append(_Raw(side, fit, mine, cover, float(sizes[k]), size_r, step, curvature,
                          tuple(radius_list)))
        d = np.hypot(local[:, 0] - fit.cx, local[:, 1] - fit.cy)
        claimed[cand.near[d <= fit.radius + _tolerance(fit.radius)]] = True
    found = _jointly(found)
    found, spread = _spread(found, foot)
    refused += spread
    refused += _leftovers(points, claimed, found, radii, sizes, side, config)
    return found, refused


def _vote(points: FloatArray, radii: FloatArray, shape: tuple[int, ...],
          min_coverage: float) -> list[_Candidate]:
    """Centres where boundary pixels' votes gather: local maxima of the vote count in cells of
    `VOTE_CELL` pixels (3 x 3 cells summed), each placed at the mean of the votes around it."""
    h, w = (int(math.ceil(n / VOTE_CELL)) for n in shape[:2])
    u = (points[:, 0, None] - radii[None, :] * points[:, 2, None]).ravel()
    v = (points[:, 1, None] - radii[None, :] * points[:, 3, None]).ravel()
    iu = np.floor(u / VOTE_CELL).astype(np.intp)
    iv = np.floor(v / VOTE_CELL).astype(np.intp)
    ok = (iu >= 0) & (iu < w) & (iv >= 0) & (iv < h)
    cell = iv[ok] * w + iu[ok]

    grid = np.bincount(cell, None, minlength=h * w).astype(np.float32).reshape(h, w)
    acc: Image = cv2.boxFilter(grid, -1, (3, 3), normalize=False, borderType=cv2.BORDER_CONSTANT)
    rmin = float(radii.min())
    floor = VOTE_SHARE * min_coverage * 2.0 * math.pi * rmin
    above = np.flatnonzero(acc.ravel() >= floor)
    dilated = cv2.dilate(acc, np.ones((3, 3), np.uint8)).ravel()
    flat = acc.ravel()
    above = above[flat[above] >= dilated[above]]
    if len(above) == 0:
        return []
    ys, xs = above // w, above % w
    # the mean of the votes in each peak's 3 x 3 cells (each cell's sum rounded to float32
    # as a float32 grid would hold it; cells off the grid hold none)
    su, sv = _around(cell, (u[ok], v[ok]), ys, xs, h, w)
    strength = flat[above]
    order = np.argsort(-strength, kind="stable")
    empty = np.zeros(0, dtype=np.intp)
    out: list[_Candidate] = []
    near = np.zeros((h, w), np.uint8)  # within 0.6 rmin of a stronger candidate
    apart = max(1, int(round(0.6 * rmin / VOTE_CELL)))
    # Python numbers for the loop (indexing numpy arrays one item at a time costs more)
    xs_, ys_, su_, sv_ = xs.tolist(), ys.tolist(), su.tolist(), sv.tolist()
    totals = strength.tolist()
    for n in order.tolist():  # plateaus and shoulders: one candidate per peak
        x, y = xs_[n], ys_[n]
        if near[y, x]:
            continue
        total = totals[n]
        out.append(_Candidate(su_[n] / total, sv_[n] / total, empty, votes=total))
        cv2.circle(near, (x, y), apart, 1, -1)
        if len(out) >= MAX_CANDIDATES:
            break
    return out


def _around(cell: IntArray, weights: tuple[FloatArray, ...], ys: IntArray, xs: IntArray,
            h: int, w: int) -> list[FloatArray]:
    """For each set of weights of the votes in flat cells `cell` of an h x w grid: the sums
    over the 3 x 3 cells around each (y, x), as a float32 box filter of the float32 grid of
    cell sums gives them (cells off the grid count nothing). Only the cells asked about are
    summed (each in the votes' order, as a bincount of the whole grid would)."""
    y = (ys[:, None] + _NINE[0]).ravel()
    x = (xs[:, None] + _NINE[1]).ravel()
    ok = (y >= 0) & (y < h) & (x >= 0) & (x < w)
    wanted = np.sort(y[ok] * w + x[ok])
    wanted = wanted[np.concatenate(([True], wanted[1:] != wanted[:-1]))]  # each once
    # each wanted cell's place in `wanted`, by lookup (a zeroed grid: only the pages of the
    # cells written are touched), -1 for the cells not wanted
    slot_of = np.zeros(h * w, dtype=np.int32)
    slot_of[wanted] = np.arange(1, len(wanted) + 1, dtype=np.int32)
    where = slot_of[np.where(ok, y * w + x, 0)] - 1
    slot = slot_of[cell] - 1
    chosen = slot >= 0
    slot = slot[chosen]
    out: list[FloatArray] = []
    for weight in weights:
        sums = np.bincount(slot, weight[chosen], minlength=len(wanted)).astype(np.float32)
        cells = np.where(ok, sums[where], np.float32(0.0))
        total: FloatArray = cells.astype(np.float64).reshape(len(ys), 9).sum(axis=1)
        out.append(total.astype(np.float32))
    return out


def _nearest(radii: Sequence[float], radius: float) -> int:
    """Index of the size whose radius is nearest `radius` (the first of equals)."""
    gaps = [abs(rr - radius) for rr in radii]
    return gaps.index(min(gaps))


def _neighbourhoods(candidates: Sequence[_Candidate], points: FloatArray, reach: float,
                    ) -> tuple[IntArray, IntArray]:
    """Set each candidate's `near`: the indices of the points (sorted by u) within `reach`
    of it along both axes, in order. Returns them all concatenated (`idx`) with the
    candidate each belongs to (`owner`), as `_score_all` takes them. (A loop: gathering
    every candidate's strip of the table at once costs more than it saves.)"""
    if not candidates:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty
    bounds = np.searchsorted(points[:, 0], [[c.cx - reach, c.cx + reach] for c in candidates])
    ys = points[:, 1]
    for cand, (lo, hi) in zip(candidates, bounds.tolist(), strict=True):
        near = np.arange(lo, hi)
        cand.near = near[np.abs(ys[lo:hi] - cand.cy) <= reach]
    owner: IntArray = np.repeat(np.arange(len(candidates)), [len(c.near) for c in candidates])
    idx: IntArray = np.concatenate([c.near for c in candidates])
    return owner, idx


def _score_all(candidates: Sequence[_Candidate], points: FloatArray, radii: FloatArray,
               owner: IntArray, idx: IntArray) -> None:
    """`_score` for every candidate at once, nothing claimed yet (one pass over all the
    candidate-pixel pairs: point `idx[i]` near candidate `owner[i]`)."""
    if not candidates:
        return
    cx = np.array([c.cx for c in candidates])[owner]
    cy = np.array([c.cy for c in candidates])[owner]
    # one column at a time: a 1-D gather costs a third of indexing rows and a column at once
    dx, dy = points[:, 0][idx] - cx, points[:, 1][idx] - cy
    d = np.sqrt(dx * dx + dy * dy)
    tol = np.maximum(1.2, 0.12 * radii)
    # only pixels within a tolerance of some size and facing away can count (the distance
    # test first: it leaves fewer pairs for the other)
    keep = np.flatnonzero((d >= float((radii - tol).min()) - 1e-6)
                          & (d <= float((radii + tol).max()) + 1e-6))
    owner, idx, dx, dy, d = owner[keep], idx[keep], dx[keep], dy[keep], d[keep]
    keep = np.flatnonzero(dx * points[:, 2][idx] + dy * points[:, 3][idx] >= MIN_FACING * d)
    owner, dx, dy, d = owner[keep], dx[keep], dy[keep], d[keep]
    ang = np.floor((np.arctan2(dy, dx) + math.pi) * (COVERAGE_BINS / (2 * math.pi)))
    sector = np.minimum(ang.astype(np.intp), COVERAGE_BINS - 1)  # arctan2 >= -pi
    gap = np.abs(d[:, None] - radii[None, :]) / tol[None, :]
    row, k = np.nonzero(gap <= 1.0)
    nk = len(radii)
    pair = owner[row] * nk + k
    hist = np.bincount(pair * COVERAGE_BINS + sector[row],
                       minlength=len(candidates) * nk * COVERAGE_BINS)
    hist = hist.reshape(len(candidates), nk, COVERAGE_BINS)
    cover = (hist > 0).sum(axis=2) / COVERAGE_BINS
    counts = hist.sum(axis=2)
    spread = np.bincount(pair, gap[row, k], minlength=len(candidates) * nk).reshape(
        len(candidates), nk) / np.maximum(counts, 1)
    score = cover - FIT_WEIGHT * spread
    best = np.argmax(score, axis=1)
    pick = np.arange(len(candidates))
    rows = zip(best.tolist(), cover[pick, best].tolist(), score[pick, best].tolist(),
               counts[pick, best].tolist(), strict=True)
    for cand, (kb, cv, sc, ct) in zip(candidates, rows, strict=True):
        if ct >= 3:
            cand.k, cand.cover, cand.score, cand.inliers = kb, cv, sc, ct
        else:
            cand.k, cand.cover, cand.score, cand.inliers = -1, 0.0, 0.0, 0


def _ring_bounds(radii: FloatArray) -> tuple[FloatArray, float, float]:
    """Each size's rim tolerance (`_tolerance`, vectorised) and the distances from a centre
    between which a pixel can lie on some size's rim."""
    tol = np.maximum(1.2, 0.12 * radii)
    return tol, float((radii - tol).min()) - 1e-6, float((radii + tol).max()) + 1e-6


def _score(cand: _Candidate, points: FloatArray, claimed: BoolArray, radii: FloatArray,
           bounds: tuple[FloatArray, float, float]) -> None:
    """The size whose circle at the candidate holds the most unclaimed rim, and how much
    (`bounds` from `_ring_bounds`)."""
    near = cand.near[~claimed[cand.near]]
    cand.k, cand.cover, cand.score, cand.inliers = -1, 0.0, 0.0, 0
    if len(near) < 3:
        return
    p = points[near]
    dx, dy = p[:, 0] - cand.cx, p[:, 1] - cand.cy
    d = np.sqrt(dx * dx + dy * dy)
    tol, lo, hi = bounds
    keep = (dx * p[:, 2] + dy * p[:, 3] >= MIN_FACING * d) & (d >= lo) & (d <= hi)
    dx, dy, d = dx[keep], dy[keep], d[keep]
    ang = np.floor((np.arctan2(dy, dx) + math.pi) * (COVERAGE_BINS / (2 * math.pi)))
    sector = np.minimum(ang.astype(np.intp), COVERAGE_BINS - 1)  # arctan2 >= -pi
    gap = np.abs(d[:, None] - radii[None, :]) / tol[None, :]
    kk = np.nonzero(gap <= 1.0)  # m x K, facing away
    if len(kk[0]) < 3:
        return
    hist = np.bincount(kk[1] * COVERAGE_BINS + sector[kk[0]],
                       minlength=len(radii) * COVERAGE_BINS).reshape(len(radii), COVERAGE_BINS)
    cover = (hist > 0).sum(axis=1) / COVERAGE_BINS
    counts = hist.sum(axis=1)
    spread = np.bincount(kk[1], gap[kk], minlength=len(radii)) / np.maximum(counts, 1)
    score = cover - FIT_WEIGHT * spread
    k = int(np.argmax(score))
    if counts[k] >= 3:
        cand.k, cand.cover, cand.score, cand.inliers = k, float(cover[k]), float(score[k]), \
            int(counts[k])


def _jointly(found: list[_Raw]) -> list[_Raw]:
    """Refit touching circles together: each boundary pixel goes to the circle it fits best,
    each circle is refitted on its own pixels, twice. A circle found first may have taken
    pixels of its neighbour (touching bases); this gives them back."""
    for _ in range(JOINT_PASSES):
        nxt: list[_Raw] = []
        fits = [o.fit for o in found]
        for n, raw in enumerate(found):
            f = raw.fit
            fx, fy, fr = f.cx, f.cy, f.radius
            near = [o for m, o in enumerate(fits) if m != n and math.hypot(
                o.cx - fx, o.cy - fy) < fr + o.radius + 4.0]
            if not near:
                nxt.append(raw)
                continue
            circles = [f, *near]
            cx = np.array([c.cx for c in circles])
            cy = np.array([c.cy for c in circles])
            r = np.array([c.radius for c in circles])
            pts = raw.points
            gaps = np.abs(np.hypot(pts[None, :, 0] - cx[:, None],
                                   pts[None, :, 1] - cy[:, None]) - r[:, None])
            tol = _tolerance(raw.expected_px)
            mine = pts[(np.argmin(gaps, axis=0) == 0) | (gaps[0] > tol)]
            refit = refine(mine, f.cx, f.cy, raw.expected_px if not f.free_radius else f.radius,
                           tol, f.free_radius)
            if np.count_nonzero(refit.inliers) < 8:
                nxt.append(raw)
                continue
            cover = coverage(mine[refit.inliers], refit.cx, refit.cy)
            nxt.append(_Raw(raw.side, refit, mine, cover, raw.size_mm, raw.expected_px,
                            raw.size_step_px, raw.free_px, raw.radii_px))
        found = nxt
    return found


def _spread(found: list[_Raw], foot: tuple[float, float] | None = None,
            ) -> tuple[list[_Raw], list[tuple[float, float, Message]]]:
    """Refuse circles whose colour goes on just outside them, unexplained by another circle
    (a bigger base or a patch of colour); a refused circle explains nothing, so repeat."""
    refused: list[tuple[float, float, Message]] = []
    while True:
        # the worst first: refusing one takes away what it explained for its neighbours
        worst: tuple[float, int, Message] | None = None
        for n, raw in enumerate(found):
            share, problem = _unexplained(raw, found, foot)
            if problem is not None and (worst is None or share > worst[0]):
                worst = (share, n, problem)
        if worst is None:
            return found, refused
        raw = found.pop(worst[1])
        refused.append((raw.fit.cx, raw.fit.cy, worst[2]))


def _stray(points: FloatArray, fit: CircleFit, expected: float,
           foot: tuple[float, float] | None = None) -> int:
    """Boundary pixels just outside a circle, out to 1.7 radii: neither specks nor on the
    side away from the camera (see `_outside`)."""
    return int(np.count_nonzero(_outside(points, fit, expected, foot)))


def _outside(points: FloatArray, fit: CircleFit, expected: float,
             foot: tuple[float, float] | None) -> BoolArray:
    """Which boundary pixels lie just outside a circle (out to 1.7 radii) and count as the
    colour going on past the base: specks of a textured mat (short curves) do not, nor do
    pixels on the side of the base away from the camera's foot, where the miniature standing
    on it, seen from an angle, leans over and past the rim (its paint may be the rim's
    colour); a bigger base or a patch of colour goes on all round."""
    dx, dy = points[:, 0] - fit.cx, points[:, 1] - fit.cy
    d = np.hypot(dx, dy)
    out: BoolArray = (d > fit.radius + _tolerance(fit.radius)) & (d < 1.7 * expected)
    # the outer edge of a bigger base or of a patch round this one faces away from it; a
    # touching neighbour's rim mostly runs across
    out &= dx * points[:, 2] + dy * points[:, 3] >= STRAY_FACING * d
    if points.shape[1] > 4:
        out &= points[:, 4] >= SPECK
    if foot is not None:
        ax, ay = fit.cx - foot[0], fit.cy - foot[1]
        norm = math.hypot(ax, ay)
        if norm > 1e-6:
            along = ((points[:, 0] - fit.cx) * ax + (points[:, 1] - fit.cy) * ay) / norm
            out &= along < LEAN_COS * np.maximum(d, 1e-9)
    return out


def _holds(points: FloatArray, fit: CircleFit, expected: float,
           foot: tuple[float, float] | None) -> bool:
    """Whether a circle leaves no more colour just past its edge than `_spread` allows."""
    return _stray(points, fit, expected, foot) <= SPREAD_SHARE * max(
        int(np.count_nonzero(fit.inliers)), 1)


def _camera_foot(calibration: Calibration, ppi: float) -> tuple[float, float] | None:
    """Where the camera stands over the table plane, in rectified pixels (None: no pose)."""
    if calibration.pose is None:
        return None
    c = calibration.pose.centre
    p = rectify_matrix(calibration.layout, ppi) @ np.array([float(c[0]), float(c[1]), 1.0])
    return float(p[0] / p[2]), float(p[1] / p[2])


def _unexplained(raw: _Raw, found: Sequence[_Raw],
                 foot: tuple[float, float] | None = None) -> tuple[float, Message | None]:
    """The unexplained boundary pixels just outside a circle per rim pixel, and why that
    refuses it (or None).

    A base's surroundings out to 1.7 radii hold none of its colour except touching bases of
    the same side (fitted circles of their own). Rim pixels there that no circle explains mean
    a bigger base or a patch of colour, not this base.
    """
    fit, pts, expected = raw.fit, raw.points, raw.expected_px
    outside = _outside(pts, fit, expected, foot)
    if not outside.any():
        return 0.0, None
    stray = pts[outside]
    for o in found:
        if o is raw or math.hypot(o.fit.cx - fit.cx, o.fit.cy - fit.cy) \
                > 1.7 * expected + o.fit.radius + 4.0:
            continue
        gone = np.hypot(stray[:, 0] - o.fit.cx, stray[:, 1] - o.fit.cy) \
            <= o.fit.radius + _tolerance(o.fit.radius)
        stray = stray[~gone]
    share = len(stray) / max(int(np.count_nonzero(fit.inliers)), 1)
    if share > SPREAD_SHARE:
        return share, Message("camera.colour.reject.spread", {
            "mm": raw.size_mm * 0.35, "base": raw.size_mm})
    return share, None


def _contour_normals(contours: Sequence[npt.NDArray[Any]]) -> FloatArray:
    """(u, v, nx, ny, n) per pixel of closed boundary curves: the unit normal pointing out of
    the mask, from the curve's own direction (the chords between the pixels 1 and 3 steps
    either side), and the curve's length. Rims can be thinner than a gradient filter: the
    curve knows which side is paint."""
    lengths = np.array([len(c) for c in contours], dtype=np.intp)
    c = np.concatenate(contours).astype(np.float64)
    start = np.repeat(np.cumsum(lengths) - lengths, lengths)
    size = np.repeat(lengths, lengths)
    i = np.arange(len(c)) - start

    def at(step: int) -> FloatArray:
        out: FloatArray = c[start + (i + step) % size]
        return out

    t = at(3) - at(-3) + at(1) - at(-1)
    norm = np.maximum(np.hypot(t[:, 0], t[:, 1]), 1e-9)
    out: FloatArray = np.column_stack((c, -t[:, 1] / norm, t[:, 0] / norm, size))
    return out


def _leftovers(points: FloatArray, claimed: BoolArray, found: Sequence[_Raw],
               radii: FloatArray, sizes: Sequence[float], side: SideColour,
               config: ColourConfig) -> list[tuple[float, float, Message]]:
    """Blobs of the side's colour of a base's size or more where no base was found, each with
    the reason (its size)."""
    rmin = float(radii.min())
    free = points[~claimed & (points[:, 4] >= SPECK)]  # specks make no blob of their own
    if len(free) < MIN_CONTOUR:
        return []
    out: list[tuple[float, float, Message]] = []
    for group in _clusters(free, gap=1.5 * rmin):
        span = group[:, :2].max(axis=0) - group[:, :2].min(axis=0)
        if float(span.max()) < 1.6 * rmin:
            continue
        centre = (group[:, :2].max(axis=0) + group[:, :2].min(axis=0)) / 2.0
        if any(math.hypot(float(centre[0]) - r.fit.cx, float(centre[1]) - r.fit.cy)
               < r.fit.radius * 1.5 for r in found):
            continue  # paint beside a base found (a miniature's, a foot): not a blob of its own
        out.append((float(centre[0]), float(centre[1]),
                    _why_not(group, radii, sizes, config, side)))
    return out


def _clusters(points: FloatArray, gap: float) -> list[FloatArray]:
    """Points split into clusters: cells of `gap` pixels, neighbouring occupied cells joined
    (diagonals too); clusters in the order of their first cell (by column, then row)."""
    cell = np.floor(points[:, :2] / gap).astype(np.intp)
    cell -= cell.min(axis=0)
    w, h = (int(n) + 1 for n in cell.max(axis=0))
    grid = np.zeros((h, w), np.uint8)
    grid[cell[:, 1], cell[:, 0]] = 1
    _, label = cv2.connectedComponents(grid, connectivity=8)
    of_point: IntArray = np.asarray(label, dtype=np.intp)[cell[:, 1], cell[:, 0]]
    count = int(of_point.max())
    # number clusters by their first cell in column-major order, as a sort of the cells would
    first = np.full(count + 1, np.iinfo(np.intp).max, dtype=np.intp)
    np.minimum.at(first, of_point, cell[:, 0] * h + cell[:, 1])
    by_label = points[np.argsort(of_point, kind="stable")]  # each cluster's points in order
    groups = np.split(by_label, np.cumsum(np.bincount(of_point, minlength=count + 1))[1:-1])
    return [groups[g] for g in np.argsort(first[1:], kind="stable")]  # groups[0]: label 1


def _mm(px: float, ppi: float) -> float:
    """A length on the rectified table, pixels to millimetres (to a hundredth)."""
    return round(px / ppi * MM_PER_INCH, 2)


def _check(fit: CircleFit, cover: float, size_r: float, radii: FloatArray,
           sizes: Sequence[float], config: ColourConfig, mask: Image,
           strength: Image | None = None, chroma_floor: int = 0,
           saturation: Image | None = None, sat_floor: int = 0,
           busy: bool = False, neighbours: Sequence[tuple[float, float, float]] = (),
           foot: tuple[float, float] | None = None) -> Message | None:
    """Why a fitted circle is not a base, or None. `neighbours` (centre and radius of the
    side's bases found so far) and `foot` (the camera's, see `_camera_foot`) explain colour
    just outside it (`_spill_explained`)."""
    tol = config.radius_tolerance
    mm_per_px = sizes[0] / (2.0 * float(radii[0]))
    if fit.free_radius and min(abs(rr - fit.radius) / rr for rr in radii.tolist()) > tol:
        return Message("camera.colour.reject.size", {
            "mm": round(2 * fit.radius * mm_per_px, 2),
            "expected": float(sizes[int(np.argmin(np.abs(radii - fit.radius)))]), "tol": tol})
    if cover < config.min_coverage:
        return Message("camera.colour.reject.coverage", {"seen": cover,
                                                         "need": config.min_coverage})
    # A rim's edge is a smooth circle (rms 0.25-0.75 px at 24 px/in on the rendered tuning
    # frames); colour scattered over a textured mat (dry grass, a dirt path, the tinted halo
    # where a rim meets the mat) lines up with a circle only loosely.
    ppi = 2.0 * float(radii[0]) / sizes[0] * MM_PER_INCH
    if fit.rms > MAX_RMS_IN * ppi:
        return Message("camera.colour.reject.ragged", {"mm": round(fit.rms / ppi * MM_PER_INCH,
                                                                   2)})
    # A painted band under the circle's edge wherever the rim is seen; scattered specks of
    # colour give edge pixels in many directions (coverage) but little paint (fill).
    edge = fit.radius - _EDGE_DR
    h, w = mask.shape[:2]
    us = np.rint(fit.cx + edge * _FINE[0]).astype(np.intp)
    vs = np.rint(fit.cy + edge * _FINE[1]).astype(np.intp)
    rings = (us >= 0) & (vs >= 0) & (us < w) & (vs < h)
    us, vs = np.minimum(np.maximum(us, 0), w - 1), np.minimum(np.maximum(vs, 0), h - 1)
    rings &= mask[vs, us] > 0
    best = int(np.argmax(rings.sum(axis=1)))  # the first of equals
    on = rings[best]
    u, v = us[best][on], vs[best][on]
    fill = np.count_nonzero(on) / len(on)
    if fill < THIN_FILL and fit.rms > THIN_RMS_IN * ppi:
        return Message("camera.colour.reject.scattered", {"share": fill})
    # Paint is strong where seen, in a few long arcs; specks of a mat that just pass the
    # colour's floor come in many short bits, or cover little of the edge.
    runs = int(np.count_nonzero(on[1:] & ~on[:-1])) + int(on[0] and not on[-1])
    faint = runs >= FAINT_RUNS or fill < FAINT_FILL
    weak = saturation is not None and (cover < WEAK_COVER or busy)
    # the paint's median chroma, only when one of the two tests below needs it
    paint = _median(strength[v, u]) if strength is not None and len(u) and (faint or weak) \
        else 0.0
    if strength is not None and len(u) and faint and paint < FAINT_CHROMA * chroma_floor:
        return Message("camera.colour.reject.scattered", {"share": fill})
    # A weak arc (any arc on a busy mat) whose colour only brushes the range's floors
    # (saturation and chroma) is the mat's own tint: a rim's paint sits well inside its range.
    if strength is not None and saturation is not None and len(u) and weak:
        sat = _median(saturation[v, u])
        if sat < sat_floor + BRUSH_SAT and paint < FAINT_CHROMA * chroma_floor:
            return Message("camera.colour.reject.scattered", {"share": fill})
    # Colour beyond the base edge: a large patch of this colour, not a rim. Colour filling
    # the middle: a patch of colour (a rug, a painted piece), not a rim round a miniature
    # (whose own paint of that colour covers less than this ring).
    spill, filled = _ring_shares(mask, fit.cx, fit.cy, (
        fit.radius + max(2.5, 0.25 * size_r), FILLED_AT * fit.radius))
    if spill > SPILL_SHARE and not _spill_explained(mask, fit, size_r, neighbours, foot):
        return Message(SPILL, {"share": spill})
    if filled > MAX_FILLED:
        return Message("camera.colour.reject.filled", {"share": filled})
    return None


_DEPTH_STEP = 0.5  # pixels between the samples of a radius walked inward


def _inward_depths(mask: Image, pts: FloatArray, fit: CircleFit,
                   reach: float = math.inf) -> FloatArray:
    """How far (pixels) the colour runs in from each boundary pixel toward a circle's centre
    (sampled every `_DEPTH_STEP`, up to the radius or `reach`, which the deeper ones reach)."""
    dx, dy = fit.cx - pts[:, 0], fit.cy - pts[:, 1]
    d = np.maximum(np.hypot(dx, dy), 1e-9)
    steps = np.arange(_DEPTH_STEP, min(fit.radius, reach), _DEPTH_STEP)
    u = np.rint(pts[:, 0, None] + steps[None, :] * (dx / d)[:, None]).astype(np.intp)
    v = np.rint(pts[:, 1, None] + steps[None, :] * (dy / d)[:, None]).astype(np.intp)
    h, w = mask.shape[:2]
    inside = (u >= 0) & (v >= 0) & (u < w) & (v < h)
    on = np.zeros(u.shape, dtype=bool)
    on[inside] = mask[v[inside], u[inside]] > 0
    off = ~on
    end = np.where(off.any(axis=1), np.argmax(off, axis=1), len(steps))
    out: FloatArray = end * _DEPTH_STEP
    return out


def _rim_cover(mask: Image, points: FloatArray, fit: CircleFit) -> float:
    """The share of a circle's circumference its inliers cover where the colour inside them
    is a rim's band (runs in under `SOLID_DEPTH` radii), not a painted solid's outline."""
    inl = points[fit.inliers]
    deep = SOLID_DEPTH * fit.radius
    # a run reaching `deep` is on the colour there: only those pixels are walked
    last = math.ceil(deep / _DEPTH_STEP) * _DEPTH_STEP
    dx, dy = fit.cx - inl[:, 0], fit.cy - inl[:, 1]
    d = np.maximum(np.hypot(dx, dy), 1e-9)
    u = np.rint(inl[:, 0] + last * dx / d).astype(np.intp)
    v = np.rint(inl[:, 1] + last * dy / d).astype(np.intp)
    h, w = mask.shape[:2]
    maybe = (u >= 0) & (v >= 0) & (u < w) & (v < h)
    maybe[maybe] = mask[v[maybe], u[maybe]] > 0
    if not maybe.any():
        return coverage(inl, fit.cx, fit.cy)
    rim = ~maybe
    rim[maybe] = _inward_depths(mask, inl[maybe], fit, deep + _DEPTH_STEP) < deep
    return coverage(inl[rim], fit.cx, fit.cy)


def _centre_for(points: FloatArray, near: tuple[float, float], radius: float,
                ) -> CircleFit | None:
    """The circle of `radius` that the points' own votes (each along its inward normal)
    gather at, within a radius of `near`, fitted with that radius; None without votes."""
    votes = points[:, :2] - radius * points[:, 2:4]
    close = np.hypot(votes[:, 0] - near[0], votes[:, 1] - near[1]) < radius
    if np.count_nonzero(close) < 3:
        return None
    v = votes[close]
    gx, gy = v[:, 0, None] - v[None, :, 0], v[:, 1, None] - v[None, :, 1]
    together = gx * gx + gy * gy <= VOTE_GATHER * VOTE_GATHER
    densest = together[int(np.argmax(together.sum(axis=1)))]
    start = v[densest].mean(axis=0)
    return refine(points, float(start[0]), float(start[1]), radius, _tolerance(radius), False)


def _past_solid(mask: Image, points: FloatArray, fit: CircleFit, cover: float, k: int,
                radii: FloatArray, need: float) -> tuple[CircleFit, float, int]:
    """A partial arc (the caller passes those seen under `PAINT_SURE_COVER`) that runs along
    a painted solid's outline for `SOLID_SECTORS` sectors or more (a miniature's legs or
    torso of the side's colour, standing inside a bigger base whose rim the rest of the arc
    is) is replaced by the bigger size whose circle, at the
    centre its own votes give, covers at least as much rim band, runs along no solid, and
    whose rim band is longer than the smaller circle's whole arc, solid outline included:
    a smaller circle through part of a big base's rim and its miniature's paint is ranked
    first by the share of its circle seen, which favours small circles. Returns the fit,
    its coverage and its size index (unchanged when no bigger size does)."""
    rim = _rim_cover(mask, points, fit)
    if cover - rim < (SOLID_SECTORS - 0.5) / COVERAGE_BINS:
        return fit, cover, k
    best: tuple[CircleFit, float, int] | None = None
    for bigger in range(k + 1, len(radii)):
        alt = _centre_for(points, (fit.cx, fit.cy), float(radii[bigger]))
        if alt is None:
            continue
        band = _rim_cover(mask, points, alt)
        whole = coverage(points[alt.inliers], alt.cx, alt.cy)
        longer = band * float(radii[bigger]) >= cover * float(radii[k])
        if longer and band >= max(rim, need) - 1e-9 and band >= whole - 1e-9 and (
                best is None or band > best[1]):
            best = (alt, whole, bigger)
    return best if best is not None else (fit, cover, k)


def _band_depth(mask: Image, fit: CircleFit) -> float | None:
    """How far (pixels) the colour runs in from a circle's edge, the median over the edge
    where it is painted (72 directions; the run starts in the edge's first 1.5 px and ends
    at the first sample off the colour), or None when no edge is painted."""
    r = fit.radius
    inward = r - np.arange(_DEPTH_STEP, r, _DEPTH_STEP)  # radii, from the edge to the centre
    if len(inward) < 3:
        return None
    cos, sin = _FINE
    u = np.rint(fit.cx + inward[None, :] * cos[:, None]).astype(np.intp)
    v = np.rint(fit.cy + inward[None, :] * sin[:, None]).astype(np.intp)
    h, w = mask.shape[:2]
    inside = (u >= 0) & (v >= 0) & (u < w) & (v < h)
    on = np.zeros(u.shape, dtype=bool)
    on[inside] = mask[v[inside], u[inside]] > 0
    painted = on[:, :3].any(axis=1)
    if not painted.any():
        return None
    on = on[painted]
    start = np.argmax(on, axis=1)
    steps = np.arange(len(inward))
    gap = ~on & (steps[None, :] > start[:, None])  # off the colour after the run began
    end = np.where(gap.any(axis=1), np.argmax(gap, axis=1), len(inward))
    return _median((end - start) * _DEPTH_STEP)


def _solid(mask: Image, fit: CircleFit, px_per_in: float) -> Message | None:
    """A partial arc whose colour runs in from its edge most of the way to its centre is the
    outline of a painted solid, not a rim: a rim is a thin band along the base's edge (2-3 mm
    on a 25-50 mm base, a few pixels wide even blurred), which leaves the middle of the base
    free of its colour, while a miniature's torso or cloak of the side's colour (on any
    side's base: a civilian in a red coat) is a filled blob whose outline an arc of a base's
    size can follow. Measured along the seen arc, so a rim whose own miniature is painted
    the same colour (paint inside it on the side where the miniature leans) stays a rim."""
    depth = _band_depth(mask, fit)
    if depth is None or depth < SOLID_DEPTH * fit.radius:
        return None
    return Message("camera.colour.reject.solid", {"mm": round(depth / px_per_in * MM_PER_INCH,
                                                               1)})


def _spill_explained(mask: Image, fit: CircleFit, size_r: float,
                     neighbours: Sequence[tuple[float, float, float]],
                     foot: tuple[float, float] | None) -> bool:
    """Whether the colour on the ring just outside a circle is what surrounds a base in a
    row: the rims of the touching bases of its side already found, and, on the side away
    from the camera, its miniature leaning over and past its rim (the same two things
    `_outside` does not count as colour past a base). Counted on the rest of the ring, the
    colour must cover at most `SPILL_SHARE` of it, as a patch's colour would not: a patch
    goes on all round."""
    if not neighbours and foot is None:
        return False
    ring = fit.radius + max(2.5, 0.25 * size_r)
    u = fit.cx + ring * _RING_COS
    v = fit.cy + ring * _RING_SIN
    free = np.ones(len(u), dtype=bool)
    for x, y, r in neighbours:
        if math.hypot(x - fit.cx, y - fit.cy) < ring + r + 4.0:
            free &= np.hypot(u - x, v - y) > r + _tolerance(r)
    if foot is not None:
        ax, ay = fit.cx - foot[0], fit.cy - foot[1]
        norm = math.hypot(ax, ay)
        if norm > 1e-6:
            free &= (_RING_COS * ax + _RING_SIN * ay) / norm < LEAN_COS
    ui, vi = np.rint(u).astype(np.intp), np.rint(v).astype(np.intp)
    free &= (ui >= 0) & (vi >= 0) & (ui < mask.shape[1]) & (vi < mask.shape[0])
    n = int(np.count_nonzero(free))
    if n < len(u) // 3:  # too little of the ring left to tell
        return False
    return int(np.count_nonzero(mask[vi[free], ui[free]])) <= SPILL_SHARE * n


def _ring_share(mask: Image, cx: float, cy: float, radius: float,
                ring: tuple[FloatArray, FloatArray] | None = None) -> float:
    """Share of the points of a circle (48, or `ring`'s cosines and sines) that fall on the
    mask (points off the image left out)."""
    cos, sin = ring or (_RING_COS, _RING_SIN)
    u = np.rint(cx + radius * cos).astype(np.intp)
    v = np.rint(cy + radius * sin).astype(np.intp)
    inside = (u >= 0) & (v >= 0) & (u < mask.shape[1]) & (v < mask.shape[0])
    n = int(np.count_nonzero(inside))
    return int(np.count_nonzero(mask[v[inside], u[inside]])) / n if n else 0.0


def _ring_shares(mask: Image, cx: float, cy: float, radii: tuple[float, float],
                 ) -> tuple[float, float]:
    """`_ring_share` of two circles round one centre, in one pass."""
    r = np.array(radii)[:, None]
    u = np.rint(cx + r * _RING_COS).astype(np.intp)
    v = np.rint(cy + r * _RING_SIN).astype(np.intp)
    inside = (u >= 0) & (v >= 0) & (u < mask.shape[1]) & (v < mask.shape[0])
    hit = np.zeros(u.shape, dtype=bool)
    hit[inside] = mask[v[inside], u[inside]] > 0
    n = inside.sum(axis=1).tolist()
    on = hit.sum(axis=1).tolist()
    a, b = (k / m if m else 0.0 for k, m in zip(on, n, strict=True))
    return a, b


def _row_medians(values: FloatArray) -> FloatArray:
    """The median of each row's values that are not NaN (each row holds at least one)."""
    ordered = np.sort(values, axis=1)  # NaN sorts last
    count = (~np.isnan(values)).sum(axis=1)
    rows = np.arange(len(values))
    out: FloatArray = (ordered[rows, (count - 1) // 2] + ordered[rows, count // 2]) / 2.0
    return out


def _median(values: npt.NDArray[Any]) -> float:
    """np.median of a non-empty 1-D array, without its generic machinery (called often on
    a few dozen values)."""
    a = np.sort(values)
    m = len(a) // 2
    return float(a[m]) if len(a) % 2 else (float(a[m - 1]) + float(a[m])) / 2.0


def _why_not(points: FloatArray, radii: FloatArray, sizes: Sequence[float],
             config: ColourConfig, side: SideColour) -> Message:
    """A reason for a blob with no circle of a size looked for: a circle of another size, or
    its own size."""
    mm_per_px = sizes[0] / (2.0 * float(radii[0]))
    xy = points[:, :2]
    # algebraic circle fit (Kasa): x^2 + y^2 = a x + b y + c
    design = np.column_stack((xy, np.ones(len(xy))))
    rhs = (xy**2).sum(axis=1)
    sol, *_ = np.linalg.lstsq(design, rhs, rcond=None)
    cx, cy = sol[0] / 2.0, sol[1] / 2.0
    r = math.sqrt(max(float(sol[2]) + cx * cx + cy * cy, 0.0))
    rms = float(np.sqrt(np.mean((np.hypot(xy[:, 0] - cx, xy[:, 1] - cy) - r) ** 2)))
    if r > 0 and rms < 0.1 * r and coverage(points, cx, cy) >= FULL_COVERAGE:
        return Message("camera.colour.reject.size", {
            "mm": round(2 * r * mm_per_px, 2),
            "expected": float(sizes[int(np.argmin(np.abs(radii - r)))]),
            "tol": config.radius_tolerance})
    span = float((xy.max(axis=0) - xy.min(axis=0)).max())
    if len(sizes) == 1:
        return Message("camera.colour.reject.blob", {
            "side": side_word(side.side), "mm": round(span * mm_per_px, 2),
            "base": float(sizes[0])})
    return Message("camera.colour.reject.blob_sizes", {
        "side": side_word(side.side), "mm": round(span * mm_per_px, 2),
        "low": float(min(sizes)), "high": float(max(sizes))})
