"""Camera benchmarks: one frame end to end (decode, calibrate, locate), each beside detection
on the raw frame without rectification, in the same run.

Frames come from the synthetic generator of the tests (`tests/synth_frames.py`, loaded by
path: it is test code, not part of the installed package), seeded, so runs compare.
"""

from __future__ import annotations

import importlib
import math
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

from bench.geometry_bench import Row
from bench.timing import measure
from vision.calibration import calibrate
from vision.cv import cv2
from vision.imageio import decode_image
from vision.locate import colour_available, locate
from vision.markers import detect
from vision.tags import locate_tags
from vision.types import Image

TESTS = Path(__file__).resolve().parent.parent / "tests"


def _synth() -> Any:
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    return importlib.import_module("synth_frames")


def _errors(found: dict[int, tuple[float, float]],
            truth: dict[int, tuple[float, float]]) -> list[float]:
    return [math.hypot(x - truth[t][0], y - truth[t][1]) for t, (x, y) in found.items()
            if t in truth]


def _summary(found: dict[int, tuple[float, float]], truth: dict[int, tuple[float, float]]) -> str:
    err = _errors(found, truth)
    wrong = sum(1 for t in found if t not in truth)
    mean = f"{np.mean(err):.3f}" if err else "-"
    worst = f"{max(err):.3f}" if err else "-"
    extra = f", {wrong} false" if wrong else ""
    return f"{len(err)}/{len(truth)} found, error mean {mean} / max {worst} in{extra}"


def tags_rows() -> list[Row]:
    synth = _synth()
    blocks = (synth.Block(8.0, 8.0, 12.0, 11.0, 2.5), synth.Block(18.0, 20.0, 23.0, 22.0, 1.5))
    figures = synth.random_figures(46, random.Random(1), blocks=blocks)
    frame = synth.render(figures, blocks, synth.Camera(tilt_deg=22.0, yaw_deg=4.0),
                         synth.Effects(blur_sigma=0.8, noise_sigma=3.0, gradient=0.3,
                                       jpeg_quality=90), seed=1)
    data: bytes = synth.encode_jpeg(frame.image, 90)
    truth: dict[int, tuple[float, float]] = frame.truth

    def ours() -> dict[int, tuple[float, float]]:
        image = decode_image(data, grey=True)
        result = locate(image, "tags")
        return {f["tag"]: (f["x"], f["y"]) for f in result.figures}

    def raw_tuned() -> dict[int, tuple[float, float]]:
        image = decode_image(data, grey=True)
        result = locate_tags(image, calibrate(image), rectify=False)
        return {f.tag: (f.x, f.y) for f in result.figures}

    def raw_default() -> dict[int, tuple[float, float]]:
        """OpenCV's default detector on the raw frame, centres mapped by the homography and
        corrected for height like ours."""
        image = decode_image(data, grey=True)
        cal = calibrate(image)
        det = cv2.aruco.ArucoDetector(
            cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
            cv2.aruco.DetectorParameters())
        out = {}
        for d in detect(det, image):
            if d.id in cal.layout.tag_ids:
                xy = cal.image_to_table(d.centre.reshape(1, 2), cal.layout.base_height)[0]
                out[d.id] = (float(xy[0]), float(xy[1]))
        return out

    t_ours = measure(ours, runs=15, warmup=2)
    t_tuned = measure(raw_tuned, runs=15, warmup=2)
    t_default = measure(raw_default, runs=15, warmup=2)
    return [
        Row("4K tags frame, end to end (JPEG decode, calibrate, rectify, detect, parallax)",
            "< 150 ms", t_ours.ms(), "raw frame, same tuned detector", t_tuned.ms(),
            f"ours: {_summary(ours(), truth)}; raw tuned: {_summary(raw_tuned(), truth)}"),
        Row("4K tags frame: raw-frame detection with OpenCV's default parameters", "-",
            t_ours.ms(), "raw frame, default DetectorParameters", t_default.ms(),
            f"default: {_summary(raw_default(), truth)}"),
    ]


def colour_rows() -> list[Row]:
    if not colour_available():
        return [Row("1080p colour frame", "< 50 ms", "unavailable", "-", "-",
                    "vision.colour missing in this build")]
    synth = _synth()
    rng = random.Random(5)
    placed = synth.random_figures(30, rng)
    blue, red, body = (220, 90, 20), (30, 30, 210), (60, 70, 80)
    figures = [synth.Figure(f.x, f.y, rim_bgr=blue if n < 10 else red, body_bgr=body)
               for n, f in enumerate(placed)]
    sides = ["survivors" if n < 10 else "zombies" for n in range(len(figures))]
    frame = synth.render(figures, (), synth.Camera(1920, 1080, tilt_deg=20.0),
                         synth.Effects(blur_sigma=0.7, noise_sigma=2.0, gradient=0.2,
                                       jpeg_quality=90), seed=5)
    data: bytes = synth.encode_jpeg(frame.image, 90)
    truth = {n: (f.x, f.y) for n, f in enumerate(figures)}

    def ours() -> list[dict[str, Any]]:
        return locate(decode_image(data), "colour").figures

    def raw_blobs() -> list[tuple[str, float, float]]:
        """The naive peer: each side's HSV mask on the raw frame, blob centroids mapped
        through the homography (no rectification, no circle fit, no parallax)."""
        image = decode_image(data)
        cal = calibrate(image)
        hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
        out = []
        for side, boxes in (("survivors", [((95, 110, 50), (130, 255, 255))]),
                            ("zombies", [((0, 110, 50), (8, 255, 255)),
                                         ((170, 110, 50), (179, 255, 255))])):
            mask: Image | None = None
            for lo, hi in boxes:
                m = cv2.inRange(hsv, np.array(lo, np.uint8), np.array(hi, np.uint8))
                mask = m if mask is None else cv2.bitwise_or(mask, m)
            assert mask is not None
            n, _labels, stats, centroids = cv2.connectedComponentsWithStats(mask)
            for k in range(1, n):
                if stats[k, cv2.CC_STAT_AREA] >= 30:
                    xy = cal.image_to_table(centroids[k].reshape(1, 2))[0]
                    out.append((side, float(xy[0]), float(xy[1])))
        return out

    def matched(points: list[tuple[str, float, float]]) -> str:
        err = []
        for n, (x, y) in truth.items():
            near = [math.hypot(px - x, py - y) for s, px, py in points if s == sides[n]]
            if near and min(near) < 0.5:
                err.append(min(near))
        return (f"{len(err)}/{len(truth)} within 0.5 in, mean {np.mean(err):.3f} in"
                if err else f"0/{len(truth)}")

    t_ours = measure(ours, runs=20, warmup=2)
    t_raw = measure(raw_blobs, runs=20, warmup=2)
    ours_pts = [(f["side"], f["x"], f["y"]) for f in ours()]
    return [Row("1080p colour frame, end to end (decode, calibrate, rectify, fit)", "< 50 ms",
                t_ours.ms(), "raw-frame HSV blobs, centroids", t_raw.ms(),
                f"ours: {matched(ours_pts)}; raw blobs: {matched(raw_blobs())}")]


def run() -> list[Row]:
    return tags_rows() + colour_rows()


if __name__ == "__main__":
    for r in run():
        print(r)
