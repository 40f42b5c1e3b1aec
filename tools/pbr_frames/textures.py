"""Images the scenes are painted with, all made here with numpy (and OpenCV for the ArUco
patterns): the gaming mat, the wooden desk, terrain stone, the corner markers and the tags.

Every array is linear RGB float32 in [0, 1], rows from the top of the picture, ready for
``mi.Bitmap``. Colours are written in sRGB (as a painter would pick them) and converted.
"""

from __future__ import annotations

import cv2
import numpy as np

INK = 0.03  # linear reflectance of printed black
PAPER = 0.80  # linear reflectance of white paper


def srgb_to_linear(c: np.ndarray | tuple[float, ...]) -> np.ndarray:
    c = np.asarray(c, dtype=np.float64)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(c: np.ndarray) -> np.ndarray:
    c = np.clip(c, 0.0, 1.0)
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * np.power(c, 1 / 2.4) - 0.055)


def fractal_noise(shape: tuple[int, int], rng: np.random.Generator, octaves: int = 6,
                  base_cells: int = 4, persistence: float = 0.55) -> np.ndarray:
    """Value noise summed over octaves (each a random grid upsampled smoothly), in [0, 1]."""
    h, w = shape
    out = np.zeros(shape, np.float64)
    amp, total = 1.0, 0.0
    for o in range(octaves):
        cells = base_cells * 2 ** o
        grid = rng.random((cells + 1, int(cells * w / h) + 2)).astype(np.float32)
        up = cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
        out += amp * up
        total += amp
        amp *= persistence
    out /= total
    lo, hi = np.percentile(out, [1, 99])
    return np.clip((out - lo) / max(hi - lo, 1e-6), 0.0, 1.0)


def mat_texture(style: str, size: int, rng: np.random.Generator) -> np.ndarray:
    """A printed gaming mat: broad patches, mottling and fine grain, in one of a few styles."""
    styles = {  # (dark sRGB, light sRGB, grain strength)
        "grass": ((0.20, 0.26, 0.14), (0.42, 0.47, 0.26), 0.10),
        "city": ((0.28, 0.28, 0.29), (0.55, 0.54, 0.52), 0.12),
        "sand": ((0.66, 0.58, 0.44), (0.90, 0.84, 0.70), 0.07),
        "night": ((0.10, 0.11, 0.12), (0.26, 0.25, 0.24), 0.10),
        "mud": ((0.25, 0.19, 0.13), (0.50, 0.41, 0.30), 0.10),
    }
    dark, light, grain_k = styles[style]
    broad = fractal_noise((size, size), rng, octaves=4, base_cells=3)
    mottle = fractal_noise((size, size), rng, octaves=5, base_cells=24, persistence=0.6)
    t = 0.65 * broad + 0.35 * mottle
    grain = rng.normal(0.0, 1.0, (size, size)).astype(np.float32)
    grain = cv2.GaussianBlur(grain, (0, 0), 0.7)
    t = np.clip(t + grain_k * grain, 0.0, 1.0)
    dark_l, light_l = srgb_to_linear(dark), srgb_to_linear(light)
    img = dark_l[None, None, :] + t[..., None] * (light_l - dark_l)[None, None, :]
    if style == "city":  # paving lines: a faint grid of slabs
        step = size // 24
        lines = np.zeros((size, size), bool)
        lines[::step, :] = True
        lines[:, ::step] = True
        lines = cv2.dilate(lines.astype(np.uint8), np.ones((2, 2), np.uint8)) > 0
        img[lines] *= 0.7
    if style == "grass":  # a few dirt paths
        paths = fractal_noise((size, size), rng, octaves=3, base_cells=2) > 0.78
        img[paths] = img[paths] * 0.5 + srgb_to_linear((0.45, 0.36, 0.25)) * 0.5
    return img.astype(np.float32)


def wood_texture(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """Planks of a wooden desk: grain streaks stretched along the planks, a few darker growth
    lines bent by noise, planks of slightly different tone and the gaps between them."""
    planks = 6
    yy = np.mgrid[0:height, 0:width][0].astype(np.float32)
    plank = np.minimum((yy * planks / height).astype(int), planks - 1)
    streak = fractal_noise((height, max(8, width // 24)), rng, octaves=6, base_cells=6)
    streak = cv2.resize(streak.astype(np.float32), (width, height),
                        interpolation=cv2.INTER_CUBIC)
    bend = fractal_noise((height, width), rng, octaves=3, base_cells=2) * 60.0
    lines = np.abs(np.sin((yy + bend + plank * 53.0) * 0.11)) ** 12
    t = np.clip(0.75 * streak + 0.25 * (1 - lines), 0, 1)
    tone = rng.uniform(0.85, 1.15, planks)[plank]
    dark, light = srgb_to_linear((0.33, 0.20, 0.11)), srgb_to_linear((0.60, 0.42, 0.25))
    img = dark[None, None, :] + t[..., None] * (light - dark)[None, None, :]
    img *= tone[..., None]
    gaps = (yy * planks / height) % 1.0 < 0.004
    img[gaps] *= 0.35
    return np.clip(img, 0, 1).astype(np.float32)


def stone_texture(size: int, rng: np.random.Generator, tint: tuple[float, float, float]
                  ) -> np.ndarray:
    n = fractal_noise((size, size), rng, octaves=6, base_cells=4)
    cracks = fractal_noise((size, size), rng, octaves=3, base_cells=6)
    n = np.where(np.abs(cracks - 0.5) < 0.015, n * 0.4, n)
    base = srgb_to_linear(tint)
    img = base[None, None, :] * (0.55 + 0.7 * n[..., None])
    return np.clip(img, 0, 1).astype(np.float32)


def aruco_pattern(marker_id: int, cell_px: int) -> np.ndarray:
    """The printed square of a DICT_4X4_50 marker (black border included, 6 x 6 cells) as
    linear reflectance, top row of the array = the marker's top edge."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    img = cv2.aruco.generateImageMarker(dictionary, marker_id, 6 * cell_px, borderBits=1)
    refl = np.where(img > 127, PAPER, INK).astype(np.float32)
    return np.repeat(refl[..., None], 3, axis=2)
