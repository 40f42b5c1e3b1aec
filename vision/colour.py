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
base edge, overlapping a surer base).

Centres are corrected for parallax (the rim is `layout.base_height` above the table) with the
calibration's camera pose. A known-radius fit of a partial arc is biased by any error in the
radius, so the radius used for partial arcs is the expected one plus the offset measured on
the well-seen bases of the same frame (thresholding moves every rim edge alike).

Each detection carries `uncertainty` (inches; the true centre should lie within it about 95%
of the time: 2.5 sigma of the fit covariance, the radius error's effect on partial arcs, and
the calibration's own error) and `confidence` (0-1, from rim coverage and fit quality).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from geometry.units import MM_PER_INCH, base_radius
from i18n import Message
from vision.calibration import Calibration, rectified_to_table
from vision.colour_config import DEFAULT_COLOURS, ColourConfig, HsvRange, SideColour
from vision.colour_fit import CircleFit, coverage, radius_sensitivity, ransac_centre, refine
from vision.cv import cv2
from vision.errors import ImageError
from vision.types import FloatArray, Image
from vision.words import side as side_word

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]

__all__ = ["BaseDetection", "Rejected", "ColourResult", "detect_bases", "find_bases",
           "colour_figures", "colour_config",
           "side_mask", "hsv_table", "chroma"]

SIGMAS = 2.5  # uncertainty = this many standard deviations of the fit (~95% in 2-D)
CORRELATION = 2.0  # neighbouring boundary pixels share their noise (blur): fewer independent
FULL_COVERAGE = 0.85  # rims seen this much get a free-radius fit and set the frame's offset
SYSTEMATIC_IN = 0.04  # edge-colour bias, rim painting and parallax model, added in quadrature
MAX_BASES_PER_BLOB = 12


@dataclass(frozen=True)
class BaseDetection:
    """A base found in colour mode: side, centre (table inches), fitted radius (inches),
    `uncertainty` (inches, ~95% bound on the centre error), `confidence` (0-1), the share of
    the rim circumference seen and the rms distance of rim pixels from the fitted circle."""

    side: str
    x: float
    y: float
    radius: float
    uncertainty: float
    confidence: float
    coverage: float
    residual: float

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "x": round(self.x, 4), "y": round(self.y, 4),
                "radius": round(self.radius, 4), "uncertainty": round(self.uncertainty, 4),
                "confidence": round(self.confidence, 3), "coverage": round(self.coverage, 3),
                "residual": round(self.residual, 4)}


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


def detect_bases(image_bgr: Image, calibration: Calibration,
                 config: Any = DEFAULT_COLOURS) -> list[BaseDetection]:
    """Every base found in the frame, in table inches (see `find_bases` for the refusals).

    `config` is a ColourConfig, its JSON, a calibration file (its ``colours`` section) or
    None for the defaults.
    """
    return list(find_bases(image_bgr, calibration, colour_config(config)).bases)


def colour_figures(image_bgr: Image, calibration: Calibration,
                   config: Any = DEFAULT_COLOURS) -> list[dict[str, Any]]:
    """The figures of `vision locate --mode colour`: ``{"side", "x", "y", ...}`` per base."""
    return [b.to_json() for b in detect_bases(image_bgr, calibration, config)]


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
    out: Image = cv2.multiply(hsv[:, :, 1], hsv[:, :, 2], scale=1.0 / 255.0)
    return out


def side_mask(hsv: Image, ranges: Sequence[HsvRange], chroma_image: Image | None = None) -> Image:
    """255 where a pixel falls in any of the ranges (HSV box and chroma floor)."""
    c = chroma(hsv) if chroma_image is None else chroma_image
    mask: Image | None = None
    for r in ranges:
        strong = cv2.inRange(c, r.chroma_min, 255)
        for lo, hi in r.boxes():
            m = cv2.bitwise_and(cv2.inRange(hsv, np.array(lo, np.uint8), np.array(hi, np.uint8)),
                                strong)
            mask = m if mask is None else cv2.bitwise_or(mask, m)
    assert mask is not None
    return mask


@dataclass
class _Raw:
    side: SideColour
    fit: CircleFit
    points: FloatArray  # boundary pixels of its blob still unclaimed when it was found
    cover: float
    expected_px: float


def find_bases(image_bgr: Image, calibration: Calibration,
               config: ColourConfig = DEFAULT_COLOURS) -> ColourResult:
    """Bases and refused blobs in one frame; deterministic (seeded RANSAC)."""
    if image_bgr.ndim != 3 or image_bgr.shape[2] != 3 or image_bgr.dtype != np.uint8:
        raise ImageError(Message("camera.colour.not_colour"), "image")
    ppi = config.px_per_in
    hsv = hsv_table(image_bgr, calibration, ppi)
    rng = np.random.default_rng(12345)
    raws: list[_Raw] = []
    rejected: list[Rejected] = []
    scale = _parallax_scale(calibration)
    strength = chroma(hsv)
    for side in config.sides:
        expected = base_radius(side.base_mm) * ppi * scale
        mask = side_mask(hsv, side.ranges, strength)
        found, refused = _blobs(mask, side, expected, config, rng)
        raws += found
        rejected += [Rejected(side.side, *_to_table(calibration, u, v, ppi), why)
                     for u, v, why in refused]
    offsets = [r.fit.radius - r.expected_px for r in raws if r.fit.free_radius]
    offset = float(np.median(offsets)) if offsets else 0.0
    offset_spread = float(np.std(offsets)) if len(offsets) > 2 else 0.5
    bases: list[BaseDetection] = []
    for raw in raws:
        fit = raw.fit
        sens = 0.0
        if not fit.free_radius:
            tol = max(1.2, 0.12 * raw.expected_px)
            fit = refine(raw.points, fit.cx, fit.cy, raw.expected_px + offset, tol, False)
            sens = radius_sensitivity(raw.points[fit.inliers], fit.cx, fit.cy)
        x, y = _to_table(calibration, fit.cx, fit.cy, ppi)
        sigma_px = math.sqrt(max(float(np.linalg.eigvalsh(fit.cov).max()), 0.0) * CORRELATION)
        radius_term = SIGMAS * sens * max(offset_spread, 0.35)
        spread_px = math.hypot(SIGMAS * sigma_px, radius_term)
        uncertainty = math.hypot(spread_px / ppi, SYSTEMATIC_IN, calibration.reprojection_in)
        quality = math.exp(-((fit.rms / 1.0) ** 2) / 2.0)
        confidence = min(1.0, raw.cover / FULL_COVERAGE) * quality
        bases.append(BaseDetection(raw.side.side, x, y, (fit.radius) / ppi / scale, uncertainty,
                                   confidence, raw.cover, fit.rms / ppi))
    bases, dropped = _overlaps(bases)
    rejected += dropped
    bases.sort(key=lambda b: (b.side, b.y, b.x))
    return ColourResult(tuple(bases), tuple(rejected), ppi, offset)


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


def _parallax_scale(calibration: Calibration) -> float:
    """A rim `base_height` up looks bigger by C_z / (C_z - h) on the table plane."""
    pose = calibration.pose
    h = calibration.layout.base_height
    if pose is None or pose.centre[2] <= h:
        return 1.0
    return float(pose.centre[2] / (pose.centre[2] - h))


def _to_table(calibration: Calibration, u: float, v: float, ppi: float) -> tuple[float, float]:
    """Rectified pixel -> table inches of a point on the base top, parallax removed."""
    layout = calibration.layout
    seen = rectified_to_table(np.array([[u, v]]), layout, ppi)
    if calibration.pose is not None and calibration.pose.centre[2] > layout.base_height:
        seen = calibration.lift(seen, layout.base_height)
    return float(seen[0, 0]), float(seen[0, 1])


def _blobs(mask: Image, side: SideColour, expected: float, config: ColourConfig,
           rng: np.random.Generator) -> tuple[list[_Raw], list[tuple[float, float, Message]]]:
    """Fit circles to every group of one side's mask boundaries.

    Boundary curves closer than 1.5 base radii are grouped, so a rim cut in two by a
    miniature's foot or by terrain is fitted as one base (and touching bases as one group,
    which the repeated RANSAC separates).
    """
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    found: list[_Raw] = []
    refused: list[tuple[float, float, Message]] = []
    tol = max(1.2, 0.12 * expected)
    for pixels in _groups(contours, gap=1.5 * expected, min_extent=0.8 * expected):
        points = np.column_stack((pixels, _normals(mask, pixels)))
        lo, hi = pixels.min(axis=0), pixels.max(axis=0)
        centre_uv = (float(lo[0] + hi[0]) / 2.0, float(lo[1] + hi[1]) / 2.0)
        got = _circles(points, expected, tol, config, rng)
        if not got:
            refused.append((*centre_uv, _why_not(points, expected, config, side)))
            continue
        problems = [_check(fit, cover, expected, config, mask) for fit, _, cover in got]
        # Pixels a refused circle explains are not explained: refuse until no change.
        for _ in range(len(got)):
            claimed = np.zeros(len(points), dtype=bool)
            for (f, _, _), problem in zip(got, problems, strict=True):
                if not problem:
                    claimed |= np.hypot(points[:, 0] - f.cx, points[:, 1] - f.cy) <= f.radius + tol
            fresh = [problem or _unexplained(points, claimed, fit, expected, config.px_per_in)
                     for (fit, _, _), problem in zip(got, problems, strict=True)]
            if fresh == problems:
                break
            problems = fresh
        for (fit, pts, cover), problem in zip(got, problems, strict=True):
            if problem:
                refused.append((fit.cx, fit.cy, problem))
            else:
                found.append(_Raw(side, fit, pts, cover, expected))
    return found, refused


def _normals(mask: Image, pixels: FloatArray) -> FloatArray:
    """Unit outward normals of the mask boundary at `pixels` (Sobel at those pixels only)."""
    h, w = mask.shape
    x = pixels[:, 0].astype(np.intp)
    y = pixels[:, 1].astype(np.intp)
    xm, xp = np.clip(x - 1, 0, w - 1), np.clip(x + 1, 0, w - 1)
    ym, yp = np.clip(y - 1, 0, h - 1), np.clip(y + 1, 0, h - 1)
    def at(r: IntArray, c: IntArray) -> FloatArray:
        out: FloatArray = mask[r, c].astype(np.float64)
        return out

    gx = (at(ym, xp) + 2 * at(y, xp) + at(yp, xp)) - (at(ym, xm) + 2 * at(y, xm) + at(yp, xm))
    gy = (at(yp, xm) + 2 * at(yp, x) + at(yp, xp)) - (at(ym, xm) + 2 * at(ym, x) + at(ym, xp))
    norm = np.maximum(np.hypot(gx, gy), 1e-9)
    out: FloatArray = np.column_stack((-gx / norm, -gy / norm))
    return out


def _groups(contours: Sequence[Any], gap: float, min_extent: float) -> list[FloatArray]:
    """Boundary points of contours whose bounding boxes come within `gap`, per group; groups
    smaller than `min_extent` across (specks of noise) are dropped."""
    kept = [c.reshape(-1, 2) for c in contours if len(c) >= 3]
    if not kept:
        return []
    boxes = np.array([(*c.min(axis=0), *c.max(axis=0)) for c in kept], dtype=np.float64)
    near = ((boxes[:, None, 0] - gap <= boxes[None, :, 2])
            & (boxes[None, :, 0] - gap <= boxes[:, None, 2])
            & (boxes[:, None, 1] - gap <= boxes[None, :, 3])
            & (boxes[None, :, 1] - gap <= boxes[:, None, 3]))
    _, label = connected_components(csr_matrix(near), directed=False)
    out = []
    for g in range(int(label.max()) + 1):
        members = np.flatnonzero(label == g)
        lo = boxes[members, :2].min(axis=0)
        hi = boxes[members, 2:].max(axis=0)
        if float((hi - lo).max()) < min_extent:
            continue
        out.append(np.concatenate([kept[i] for i in members]).astype(np.float64))
    return out


def _circles(points: FloatArray, expected: float, tol: float, config: ColourConfig,
             rng: np.random.Generator) -> list[tuple[CircleFit, FloatArray, float]]:
    """Circles of about the expected radius in one blob's boundary points, best first."""
    out: list[tuple[CircleFit, FloatArray, float]] = []
    left = points
    while len(left) >= 8 and len(out) < MAX_BASES_PER_BLOB:
        start = ransac_centre(left, expected, tol, rng)
        if start is None:
            break
        cx, cy, inl = start
        cover = coverage(left[inl], cx, cy)
        if cover < config.min_coverage:
            break
        free = cover >= FULL_COVERAGE
        fit = refine(left, cx, cy, expected, tol, free)
        cover = coverage(left[fit.inliers], fit.cx, fit.cy)
        out.append((fit, left, cover))
        # Claim everything of this base (outer rim, inner edge, cut edges) before the next.
        gone = np.hypot(left[:, 0] - fit.cx, left[:, 1] - fit.cy) <= fit.radius + tol
        left = left[~gone]
    if len(out) > 1:
        out = _jointly(points, out, expected, tol)
    return out


def _jointly(points: FloatArray, fits: list[tuple[CircleFit, FloatArray, float]],
             expected: float, tol: float) -> list[tuple[CircleFit, FloatArray, float]]:
    """Refit the circles of one blob together: each boundary point goes to the circle it fits
    best, each circle is refitted on its own points, twice. A circle found first may have
    taken points of its neighbour (touching bases); this gives them back."""
    for _ in range(2):
        cx = np.array([f.cx for f, _, _ in fits])
        cy = np.array([f.cy for f, _, _ in fits])
        r = np.array([f.radius for f, _, _ in fits])
        gaps = np.abs(np.hypot(points[None, :, 0] - cx[:, None],
                               points[None, :, 1] - cy[:, None]) - r[:, None])
        owner = np.argmin(gaps, axis=0)
        fits_next = []
        for k, (fit, _, cover) in enumerate(fits):
            mine = points[(owner == k) | (gaps[k] > tol)]  # its points, and nobody's
            refit = refine(mine, fit.cx, fit.cy, expected, tol, cover >= FULL_COVERAGE)
            if np.count_nonzero(refit.inliers) < 8:
                fits_next.append((fit, mine, cover))
                continue
            fits_next.append((refit, mine, coverage(mine[refit.inliers], refit.cx, refit.cy)))
        fits = fits_next
    return fits


def _mm(px: float, ppi: float) -> float:
    """A length on the rectified table, pixels to millimetres (to a hundredth)."""
    return round(px / ppi * MM_PER_INCH, 2)


def _check(fit: CircleFit, cover: float, expected: float, config: ColourConfig,
           mask: Image) -> Message | None:
    """Why a fitted circle is not a base, or None."""
    tol = config.radius_tolerance
    ppi = config.px_per_in
    if fit.free_radius and abs(fit.radius - expected) > tol * expected:
        return Message("camera.colour.reject.size", {
            "mm": _mm(2 * fit.radius, ppi), "expected": _mm(2 * expected, ppi), "tol": tol})
    if cover < config.min_coverage:
        return Message("camera.colour.reject.coverage", {"seen": cover,
                                                         "need": config.min_coverage})
    # Colour beyond the base edge: a large patch of this colour, not a rim.
    ring = np.linspace(0.0, 2.0 * math.pi, 48, endpoint=False)
    rr = fit.radius + max(2.5, 0.25 * expected)
    u = np.round(fit.cx + rr * np.cos(ring)).astype(np.intp)
    v = np.round(fit.cy + rr * np.sin(ring)).astype(np.intp)
    inside = (u >= 0) & (v >= 0) & (u < mask.shape[1]) & (v < mask.shape[0])
    spill = float(np.mean(mask[v[inside], u[inside]] > 0)) if inside.any() else 0.0
    if spill > 0.5:
        return Message("camera.colour.reject.spill", {"share": spill})
    return None


def _unexplained(points: FloatArray, claimed: BoolArray, fit: CircleFit, expected: float,
                 ppi: float) -> Message | None:
    """Why a circle is refused because its colour goes on just outside it, or None.

    A base's surroundings out to 1.7 radii hold none of its colour except touching bases of
    the same side (fitted circles of their own). Rim pixels there that no circle explains mean
    a bigger base or a patch of colour, not this base.
    """
    d = np.hypot(points[:, 0] - fit.cx, points[:, 1] - fit.cy)
    stray = int(np.count_nonzero((d > fit.radius) & (d < 1.7 * expected) & ~claimed))
    inliers = max(int(np.count_nonzero(fit.inliers)), 1)
    if stray > 0.4 * inliers:
        return Message("camera.colour.reject.spread", {
            "mm": _mm(0.7 * expected, ppi), "base": _mm(2 * expected, ppi)})
    return None


def _why_not(points: FloatArray, expected: float, config: ColourConfig,
             side: SideColour) -> Message:
    """A reason for a blob with no circle of the expected radius: its own size."""
    span = points[:, :2].max(axis=0) - points[:, :2].min(axis=0)
    return Message("camera.colour.reject.blob", {
        "side": side_word(side.side), "mm": _mm(float(max(span)), config.px_per_in),
        "base": float(side.base_mm)})
