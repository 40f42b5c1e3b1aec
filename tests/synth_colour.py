"""Synthetic colour-mode frames: coloured base rims with a standing miniature on each base.

Built on `tests/synth_frames.py` (camera, table texture, corner markers, effects). The rims
come from its `rim_bgr`; this module adds what colour mode must cope with: a miniature that
stands up from the middle of the base (a cylinder `body_height` tall, projected in 3-D, so in a
tilted view it leans over the far part of the rim), an optional foot or scenic blob lying over
part of the rim, terrain drawn after the figures (it hides what is behind it), then the effects
(blur, noise, light gradient, JPEG).

API: ``ColourFigure``, ``RIM_BGR`` (side -> BGR), ``random_colour_figures(counts, rng, ...)``,
``render_colour(figures, blocks=(), camera=..., effects=..., seed=0) -> ColourFrame`` whose
`truth` lists (side, x, y) in figure order.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import synth_frames as sf

from vision.cv import cv2
from vision.layout import DEFAULT_LAYOUT, Layout
from vision.types import Image

#: Rim paint per side, BGR: a saturated blue, red and yellow.
RIM_BGR: dict[str, tuple[int, int, int]] = {
    "survivors": (190, 90, 25),
    "zombies": (35, 35, 185),
    "civilians": (30, 200, 225),
}
#: Muted miniature paints (browns, greys, flesh, dull green): not rim colours.
BODY_BGR = [(60, 70, 90), (90, 90, 90), (110, 130, 160), (70, 95, 80), (50, 55, 60),
            (130, 120, 115)]

HD = sf.Camera(width=1920, height=1080)
NO_EFFECTS = sf.Effects()


@dataclass(frozen=True)
class ColourFigure:
    side: str
    x: float
    y: float
    base_mm: float = 25.0
    rim_width_in: float = 0.1
    body_bgr: tuple[int, int, int] = (90, 90, 90)
    body_fraction: float = 0.5  # body diameter / base diameter
    body_height: float = 1.1  # inches
    foot_angle_deg: float | None = None  # a foot / scenic blob over the rim in this direction
    rim_bgr: tuple[int, int, int] | None = None  # default: RIM_BGR[side]

    @property
    def radius(self) -> float:
        return self.base_mm / 25.4 / 2.0


@dataclass
class ColourFrame:
    frame: sf.Frame
    figures: list[ColourFigure]

    @property
    def image(self) -> Image:
        return self.frame.image

    @property
    def truth(self) -> list[tuple[str, float, float]]:
        return [(f.side, f.x, f.y) for f in self.figures]


def random_colour_figures(counts: Mapping[str, int], rng: random.Random,
                          blocks: Sequence[sf.Block] = (), gap: float = 0.25,
                          layout: Layout = DEFAULT_LAYOUT) -> list[ColourFigure]:
    """Figures of each side at random, not overlapping (positions from synth_frames)."""
    total = sum(counts.values())
    spots = sf.random_figures(total, rng, layout, blocks, gap=gap)
    sides = [s for s, n in counts.items() for _ in range(n)]
    out = []
    for side, spot in zip(sides, spots, strict=True):
        foot = rng.uniform(0, 360) if rng.random() < 0.5 else None
        out.append(ColourFigure(side, spot.x, spot.y, body_bgr=rng.choice(BODY_BGR),
                                body_fraction=rng.uniform(0.4, 0.6),
                                body_height=rng.uniform(0.8, 1.3), foot_angle_deg=foot))
    return out


def render_colour(figures: Sequence[ColourFigure], blocks: Sequence[sf.Block] = (),
                  camera: sf.Camera = HD, effects: sf.Effects = NO_EFFECTS,
                  layout: Layout = DEFAULT_LAYOUT, seed: int = 0) -> ColourFrame:
    """Draw a colour-mode frame (see the module docstring)."""
    bases = [sf.Figure(f.x, f.y, base_mm=f.base_mm, rim_bgr=f.rim_bgr or RIM_BGR[f.side],
                       rim_width_in=f.rim_width_in) for f in figures]
    frame = sf.render(bases, (), camera, sf.Effects(), layout, seed=seed)
    img = frame.image
    centre = frame.camera_centre
    base_h = layout.base_height
    order = sorted(figures, key=lambda f: -math.hypot(f.x - centre[0], f.y - centre[1]))
    for fig in order:
        _miniature(img, frame, fig, base_h)
    for b in blocks:
        _block(img, frame, b)
    rng = np.random.default_rng(seed + 1)
    frame.image = sf._effects(img, effects, rng)
    frame.blocks = list(blocks)
    return ColourFrame(frame, list(figures))


def _circle(x: float, y: float, r: float, z: float, n: int = 32) -> np.ndarray:
    t = np.linspace(0.0, 2.0 * math.pi, n, endpoint=False)
    return np.column_stack((x + r * np.cos(t), y + r * np.sin(t), np.full(n, z)))


def _miniature(img: Image, frame: sf.Frame, fig: ColourFigure, base_h: float) -> None:
    r = fig.radius
    if fig.foot_angle_deg is not None:
        a = math.radians(fig.foot_angle_deg)
        foot = _circle(fig.x + 0.62 * r * math.cos(a), fig.y + 0.62 * r * math.sin(a),
                       0.38 * r, base_h + 0.01)
        pts = frame.project(foot)
        cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], fig.body_bgr,
                     lineType=cv2.LINE_AA, shift=4)
    body_r = fig.body_fraction * r
    bottom = _circle(fig.x, fig.y, body_r, base_h)
    top = _circle(fig.x, fig.y, body_r * 0.8, base_h + fig.body_height)
    sil = frame.project(np.concatenate((bottom, top)))
    hull = cv2.convexHull(np.round(sil * 16).astype(np.int32))
    cv2.fillConvexPoly(img, hull, fig.body_bgr, lineType=cv2.LINE_AA, shift=4)
    head = frame.project(_circle(fig.x, fig.y, body_r * 0.55, base_h + fig.body_height + 0.1))
    shade = tuple(min(255, c + 25) for c in fig.body_bgr)
    cv2.fillPoly(img, [np.round(head * 16).astype(np.int32)], shade, lineType=cv2.LINE_AA,
                 shift=4)


def _block(img: Image, frame: sf.Frame, b: sf.Block) -> None:
    """A terrain box as synth_frames draws it: silhouette, then the lit top."""
    bottom = [(b.x0, b.y0, 0), (b.x1, b.y0, 0), (b.x1, b.y1, 0), (b.x0, b.y1, 0)]
    top_face = [(x, y, b.height) for x, y, _ in bottom]
    sil = frame.project(np.array(bottom + top_face, dtype=np.float64))
    hull = cv2.convexHull(np.round(sil * 16).astype(np.int32))
    cv2.fillConvexPoly(img, hull, (b.shade - 35,) * 3, lineType=cv2.LINE_AA, shift=4)
    tp = np.round(frame.project(np.array(top_face, dtype=np.float64)) * 16).astype(np.int32)
    cv2.fillConvexPoly(img, tp, (b.shade,) * 3, lineType=cv2.LINE_AA, shift=4)


def with_side(figures: Sequence[ColourFigure], side: str) -> list[ColourFigure]:
    return [replace(f, side=side) for f in figures]


# -- measuring (python tests/synth_colour.py [--frames N] [--terrain]) -----------------------
def measure(frames: int = 8, terrain: bool = False) -> dict[str, float]:
    """Colour-mode accuracy over random webcam frames: found, false, mean/max error, the share
    within the reported uncertainty, and detection CPU time (ms, median)."""
    import dataclasses
    import time

    from vision.calibration import calibrate
    from vision.colour import find_bases

    errors: list[float] = []
    within: list[bool] = []
    total = false = 0
    cpu: list[float] = []
    for seed in range(frames):
        rng = random.Random((50 if terrain else 0) + seed)
        blocks: list[sf.Block] = []
        if terrain:
            for _ in range(5):
                x, y = rng.uniform(4, 25), rng.uniform(4, 25)
                blocks.append(sf.Block(x, y, x + rng.uniform(1, 4), y + rng.uniform(0.3, 3),
                                       height=rng.uniform(0.5, 4)))
        figs = random_colour_figures({"survivors": 7, "zombies": 15, "civilians": 3}, rng,
                                     blocks=blocks)
        if terrain:
            fx = sf.Effects(blur_sigma=1.0, noise_sigma=3, gradient=0.3, jpeg_quality=80)
            cam = dataclasses.replace(HD, tilt_deg=rng.uniform(10, 35),
                                      yaw_deg=rng.uniform(-20, 20))
        else:
            fx = sf.Effects(blur_sigma=rng.uniform(0.5, 1.2), noise_sigma=rng.uniform(1, 4),
                            gradient=rng.uniform(0, 0.4), jpeg_quality=rng.choice([75, 85, 92]))
            cam = dataclasses.replace(HD, tilt_deg=rng.uniform(0, 25),
                                      yaw_deg=rng.uniform(-10, 10))
        frame = render_colour(figs, blocks, camera=cam, effects=fx, seed=seed)
        cal = calibrate(frame.image)
        start = time.process_time()
        result = find_bases(frame.image, cal)
        cpu.append((time.process_time() - start) * 1000)
        used: set[int] = set()
        for side, x, y in frame.truth:
            total += 1
            options = [(math.hypot(b.x - x, b.y - y), k) for k, b in enumerate(result.bases)
                       if b.side == side and k not in used]
            if options and min(options)[0] < 0.3:
                d, k = min(options)
                used.add(k)
                errors.append(d)
                within.append(d <= result.bases[k].uncertainty)
        false += len(result.bases) - len(used)
    return {"bases": total, "found": len(errors), "false": false,
            "mean_in": float(np.mean(errors)), "max_in": float(np.max(errors)),
            "within_uncertainty": float(np.mean(within)), "cpu_ms": float(np.median(cpu))}


if __name__ == "__main__":
    import argparse
    import json

    parser = argparse.ArgumentParser(description="colour-mode accuracy on synthetic frames")
    parser.add_argument("--frames", type=int, default=8)
    parser.add_argument("--terrain", action="store_true", help="terrain blocks, steep views")
    args = parser.parse_args()
    print(json.dumps(measure(args.frames, args.terrain), indent=2))
