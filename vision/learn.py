"""Learn each side's rim colours from one frame where the player clicked a few bases.

Lighting, webcam white balance and paint differ from table to table, so fixed HSV ranges are
only a starting point. The player clicks the middle of a few bases of each side (image
pixels); around each click, on the rectified table, the saturated pixels of the annulus where
the rim must be are collected, the dominant hue among them is taken as the rim colour (a
miniature's own paint is a smaller, different hue), and the ranges are set from the pooled
statistics with margins. A learned colour that overlaps another side's is refused: those
bases could be read as either side.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from geometry.units import base_radius
from i18n import Message
from vision.calibration import Calibration, rectify_matrix
from vision.colour import chroma, find_bases, hsv_table, side_mask
from vision.colour_config import (
    DEFAULT_COLOURS,
    ColourConfig,
    ColourConfigError,
    HsvRange,
    SideColour,
)
from vision.cv import cv2
from vision.hints import COMMON_BASE_MM
from vision.types import FloatArray, Image
from vision.words import os_reason, shown
from vision.words import side as side_word

__all__ = ["LearnResult", "learn_colours", "save_colours", "load_colours", "ClickError"]

SATURATED_S = 70  # a rim pixel candidate: at least this saturated...
SATURATED_C = 30  # ...and this much chroma (max - min of B, G, R)
HUE_WINDOW = 12  # hue units (2 degrees each) either side of a click's dominant hue
MIN_RIM_SHARE = 0.08  # of the annulus that must be saturated for a click to count
HUE_MARGIN = 3
MIN_HALF_WIDTH = 6
BACKGROUND_SHARE = 0.002  # of the table's unclicked pixels a learned range may take


class ClickError(ColourConfigError):
    """A click that cannot teach a colour: off the image or table, or on nothing saturated."""

    code = "bad_click"


@dataclass(frozen=True)
class LearnResult:
    """The learned settings, and notes for the player (clicks not found back as bases), as
    messages."""

    config: ColourConfig
    notes: tuple[Message, ...]
    samples: Mapping[str, int]  # rim pixels used per side

    def to_json(self) -> dict[str, Any]:
        return {"colours": self.config.to_json(), "notes": [n.text("en") for n in self.notes],
                "notes_words": [n.to_json() for n in self.notes],
                "samples": dict(self.samples)}


def learn_colours(image_bgr: Image, calibration: Calibration,
                  clicks: Mapping[str, Sequence[Sequence[float]]],
                  base: ColourConfig = DEFAULT_COLOURS) -> LearnResult:
    """Settings with the clicked sides' colours learned (other sides keep `base`'s)."""
    if not clicks:
        raise ClickError(Message("camera.learn.no_clicks"), "clicks")
    ppi = base.px_per_in
    hsv = hsv_table(image_bgr, calibration, ppi)
    strength = chroma(hsv)
    config = replace(base, sides=())
    samples: dict[str, int] = {}
    notes: list[Message] = []
    background = _without_clicks(hsv, calibration, clicks, base, ppi)
    for side, points in clicks.items():
        if not points:
            raise ClickError(Message("camera.learn.side_no_clicks", {"side": side_word(side)}),
                             f"clicks.{side}")
        base_mm = _base_mm(base, side)
        pixels = [_rim_pixels(hsv, strength, calibration, side, n, p, base_mm, ppi)
                  for n, p in enumerate(points)]
        pooled = np.concatenate(pixels)
        samples[side] = int(len(pooled))
        learned = SideColour(side, (_range(pooled, background, strength, notes, side),),
                             base_mm)
        try:
            config = config.with_side(learned)
        except ColourConfigError as error:
            raise ColourConfigError(Message("camera.learn.unusable", {
                "side": side_word(side), "why": error.words or error.message}),
                f"clicks.{side}") from None
    # Sides not clicked keep their ranges only if they do not clash with the learned ones.
    for other in base.sides:
        if other.side in clicks:
            continue
        try:
            config = config.with_side(other)
        except ColourConfigError as error:
            notes.append(Message("camera.learn.dropped", {
                "side": side_word(other.side), "why": error.words or error.message}))
    notes += _check_found(image_bgr, calibration, config, clicks)
    return LearnResult(config, tuple(notes), samples)


def _without_clicks(hsv: Image, calibration: Calibration,
                    clicks: Mapping[str, Sequence[Sequence[float]]], config: ColourConfig,
                    ppi: float) -> Image:
    """The rectified table with the clicked bases blanked (grey): what must stay unmatched."""
    out = hsv.copy()
    for side, points in clicks.items():
        r = int(math.ceil(1.5 * base_radius(max(_sizes(_base_mm(config, side)))) * ppi))
        for p in points:
            try:
                xy = calibration.image_to_table(np.array([[float(p[0]), float(p[1])]]))
            except (TypeError, ValueError, IndexError):
                continue  # reported with its position by _rim_pixels
            cu, cv = (rectify_matrix(calibration.layout, ppi) @ np.array([*xy[0], 1.0]))[:2]
            if math.isfinite(cu) and math.isfinite(cv):
                out[max(int(cv) - r, 0):max(int(cv) + r + 1, 0),
                    max(int(cu) - r, 0):max(int(cu) + r + 1, 0)] = 0
    return out


def _sizes(base_mm: float) -> tuple[float, ...]:
    """The base sizes a click may be on: the common ones and the settings' own."""
    return tuple(sorted(set(COMMON_BASE_MM) | {float(base_mm)}))


def _base_mm(config: ColourConfig, side: str) -> float:
    for s in config.sides:
        if s.side == side:
            return s.base_mm
    return DEFAULT_COLOURS.sides[0].base_mm


def _rim_pixels(hsv: Image, strength: Image, calibration: Calibration, side: str, n: int,
                click: Sequence[float], base_mm: float, ppi: float) -> FloatArray:
    """(hue, sat, val, chroma) rows of the rim's pixels around one click."""
    where = f"clicks.{side}[{n}]"
    if (len(click) != 2 or not all(isinstance(v, int | float) and not isinstance(v, bool)
                                   and math.isfinite(v) for v in click)):
        raise ClickError(Message("camera.learn.click_format", {"where": where,
                                                                "got": shown(click)}), where)
    u, v = float(click[0]), float(click[1])
    pu, pv = f"{u:g}", f"{v:g}"  # the pixel as the click gave it
    w, h = calibration.image_size
    if not (0 <= u < w and 0 <= v < h):
        raise ClickError(Message("camera.learn.click_outside", {
            "where": where, "u": pu, "v": pv, "size": _size(w, h)}), where)
    x, y = (float(c) for c in calibration.image_to_table(np.array([[u, v]]))[0])
    layout = calibration.layout
    if not (0 <= x <= layout.table_width and 0 <= y <= layout.table_depth):
        raise ClickError(Message("camera.learn.click_off_table", {
            "where": where, "u": pu, "v": pv, "x": x, "y": y,
            "width": float(layout.table_width), "depth": float(layout.table_depth)}), where)
    cu, cv = (rectify_matrix(layout, ppi) @ np.array([x, y, 1.0]))[:2]
    big = base_radius(max(_sizes(base_mm))) * ppi
    x0, x1 = int(max(cu - 1.4 * big, 0)), int(min(cu + 1.4 * big + 1, hsv.shape[1]))
    y0, y1 = int(max(cv - 1.4 * big, 0)), int(min(cv + 1.4 * big + 1, hsv.shape[0]))
    yy, xx = np.mgrid[y0:y1, x0:x1]
    dist = np.hypot(xx - cu, yy - cv)
    strong = ((hsv[y0:y1, x0:x1, 1] >= SATURATED_S)
              & (strength[y0:y1, x0:x1] >= SATURATED_C))
    # The base's size is not known: the annulus of the size whose rim band is the most
    # saturated (a 25 mm ring holds no part of a 40 mm base's rim, and the other way round
    # a 40 mm ring holds mostly table around a 25 mm base).
    best_ring, best_share = None, -1.0
    for mm in _sizes(base_mm):
        r = base_radius(mm) * ppi
        ring = (dist >= 0.4 * r) & (dist <= 1.3 * r)
        share = float(np.count_nonzero(strong & ring)) / max(int(ring.sum()), 1)
        if share > best_share:
            best_ring, best_share = ring, share
    assert best_ring is not None
    ring = best_ring
    patch = hsv[y0:y1, x0:x1][ring].astype(np.float64)
    c = strength[y0:y1, x0:x1][ring].astype(np.float64)
    rows = np.column_stack((patch, c))
    sat = rows[(rows[:, 1] >= SATURATED_S) & (rows[:, 3] >= SATURATED_C)]
    if len(sat) < MIN_RIM_SHARE * max(int(ring.sum()), 1):
        raise ClickError(Message("camera.learn.click_grey", {"where": where, "x": x, "y": y}),
                         where)
    peak = _dominant_hue(sat[:, 0])
    near = sat[np.abs(_hue_diff(sat[:, 0], peak)) <= HUE_WINDOW]
    # The rim's core: blurred edge pixels (rim mixed with mat or miniature) are left out, so
    # the ranges describe the paint itself and the margins below decide how far they reach.
    core: FloatArray = near[near[:, 3] >= 0.5 * np.percentile(near[:, 3], 90)]
    return core


def _size(w: int, h: int) -> str:
    return f"{w}x{h}"


def _hue_diff(hue: FloatArray, ref: float) -> FloatArray:
    """Signed hue difference on OpenCV's 180-unit circle, in -90..90."""
    out: FloatArray = (hue - ref + 90.0) % 180.0 - 90.0
    return out


def _dominant_hue(hue: FloatArray) -> float:
    hist = np.bincount(np.clip(hue.astype(np.intp), 0, 179), minlength=180).astype(np.float64)
    kernel = np.ones(7)
    smooth = np.convolve(np.concatenate((hist[-3:], hist, hist[:3])), kernel, mode="valid")
    return float(np.argmax(smooth))


def _range(rows: FloatArray, background: Image, strength: Image,
           notes: list[Message], side: str) -> HsvRange:
    """HSV range covering the pooled rim pixels with margins, tightened step by step (hue
    margins narrowed, saturation and chroma floors raised) until it takes at most
    `BACKGROUND_SHARE` of the table's unclicked pixels."""
    hue = rows[:, 0]
    ang = hue * (2.0 * math.pi / 180.0)
    mean = (math.atan2(float(np.sin(ang).mean()), float(np.cos(ang).mean()))
            * 180.0 / (2.0 * math.pi)) % 180.0
    dev = _hue_diff(hue, mean)
    sat_core = float(np.percentile(rows[:, 1], 10))
    chroma_core = float(np.median(rows[:, 3]))
    val_min = int(np.clip(np.percentile(rows[:, 2], 2) * 0.5, 20, 200))
    area = max(1, background.shape[0] * background.shape[1])
    # Unclicked bases of this colour are in the background too: matches next to what the
    # strictest range takes (rims, and the blurred edges of rims) are not counted.
    strict = HsvRange(int(math.floor(mean + float(np.percentile(dev, 5)))) % 180,
                      int(math.ceil(mean + float(np.percentile(dev, 95)))) % 180,
                      int(np.clip(sat_core * 0.9, 50, 230)), 255, val_min, 255,
                      int(np.clip(chroma_core * 0.7, 20, 200)))
    near_rims = cv2.dilate(side_mask(background, (strict,), strength),
                           np.ones((7, 7), np.uint8))
    candidate = None
    share = 1.0
    for k in np.linspace(0.0, 1.0, 9):
        margin = HUE_MARGIN * (1.0 - k)
        half = MIN_HALF_WIDTH * (1.0 - k / 2.0)
        lo_dev = min(float(np.percentile(dev, 2 + 4 * k)) - margin, -half)
        hi_dev = max(float(np.percentile(dev, 98 - 4 * k)) + margin, half)
        lo = int(math.floor(mean + lo_dev)) % 180
        hi = int(math.ceil(mean + hi_dev)) % 180
        # Half-rim pixels (the blurred edge) sit at about half the core's chroma: the mask
        # edge then lies where the paint ends, whatever is next to it.
        sat_min = int(np.clip(sat_core * (0.7 + 0.25 * k), 50, 230))
        chroma_min = int(np.clip(chroma_core * (0.5 + 0.3 * k), 20, 200))
        candidate = HsvRange(lo, hi, sat_min, 255, val_min, 255, chroma_min)
        taken = side_mask(background, (candidate,), strength)
        share = float(np.count_nonzero(cv2.subtract(taken, near_rims))) / area
        if share <= BACKGROUND_SHARE:
            break
    assert candidate is not None
    if share > BACKGROUND_SHARE:
        notes.append(Message("camera.learn.background", {"side": side_word(side),
                                                         "share": 100.0 * share}))
    return candidate


def _check_found(image_bgr: Image, calibration: Calibration, config: ColourConfig,
                 clicks: Mapping[str, Sequence[Sequence[float]]]) -> list[Message]:
    """Notes for clicks where the learned settings find no base of that side."""
    found = find_bases(image_bgr, calibration, config).bases
    notes = []
    for side, points in clicks.items():
        xy = calibration.image_to_table(np.asarray(points, dtype=np.float64))
        for n, (x, y) in enumerate(xy):
            if not any(b.side == side and math.hypot(b.x - x, b.y - y) <= 1.2 * b.radius
                       for b in found):
                where = f"clicks.{side}[{n}]"
                notes.append(Message("camera.learn.not_found", {"where": where,
                                                                "side": side_word(side)}))
    return notes


# --- files ---------------------------------------------------------------------------------


def save_colours(path: str | Path, config: ColourConfig) -> None:
    """Write the settings as the ``"colours"`` object of `path`, keeping the file's other
    objects (a calibration file's ``"table"`` and ``"layout"``) when it already exists."""
    p = Path(path)
    data: dict[str, Any] = {}
    if p.exists():
        try:
            loaded = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            raise ColourConfigError(Message("camera.learn.cannot_add", {"file": str(p)}),
                                    str(p)) from None
        if not isinstance(loaded, dict):
            raise ColourConfigError(Message("camera.learn.not_object", {"file": str(p)}), str(p))
        data = loaded
    data["colours"] = config.to_json()
    try:
        p.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    except OSError as error:
        raise ColourConfigError(Message("camera.file.cannot_write", {
            "file": str(p), "reason": os_reason(error)}), str(p)) from None


def load_colours(path: str | Path) -> ColourConfig:
    """The ``"colours"`` object of a JSON file (a calibration file or a colours file)."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as error:
        raise ColourConfigError(Message("camera.file.unreadable", {
            "file": str(p), "reason": os_reason(error)}), str(p)) from None
    except UnicodeDecodeError:
        raise ColourConfigError(Message("camera.file.not_utf8", {"file": str(p)}),
                                str(p)) from None
    except json.JSONDecodeError as error:
        raise ColourConfigError(Message("camera.file.not_json", {
            "file": str(p), "line": error.lineno, "column": error.colno}), str(p)) from None
    if not isinstance(data, dict) or "colours" not in data:
        raise ColourConfigError(Message("camera.learn.no_colours", {"file": str(p)}),
                                f"{p}:colours")
    return ColourConfig.from_json(data["colours"], f"{p}:colours")

