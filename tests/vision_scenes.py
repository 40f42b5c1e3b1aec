"""Synthetic frames shared by the vision tests, each rendered once per test session.

4K frames take 1-2 s to draw, so every builder is cached; tests must not modify the images
they get (copy first).
"""

from __future__ import annotations

import random
from functools import cache

from synth_frames import Block, Camera, Effects, Figure, Frame, random_figures, render

from vision.layout import Layout

BASE_IN = 25.0 / 25.4
REALISTIC = Effects(blur_sigma=0.8, noise_sigma=3.0, gradient=0.3, jpeg_quality=90)
BLOCKS = (Block(8.0, 8.0, 12.0, 11.0, 2.5), Block(18.0, 20.0, 23.0, 22.0, 1.5))
#: A tall block near the middle with figures behind it, from mostly to barely hidden (seen
#: from the hard frame's camera, the block's top edge hides tags up to y = 21.9).
TALL = Block(10.0, 16.0, 16.0, 20.0, 4.0, shade=95)
BEHIND = {40: (10.6, 21.5), 41: (11.8, 21.75), 42: (13.0, 21.95), 43: (14.2, 22.15),
          44: (15.4, 22.35)}
TOUCHING = {30: (5.0, 5.0), 31: (5.0 + BASE_IN, 5.0), 32: (5.0 + BASE_IN / 2,
                                                          5.0 + BASE_IN * 0.8660254)}
#: A 12 x 12 in table: tags are big enough in a 1280 x 720 frame, for fast pipeline tests.
SMALL = Layout(table_width=12.0, table_depth=12.0)
SMALL_JSON = {"table_width": 12.0, "table_depth": 12.0}
SMALL_CAMERA = Camera(1280, 720, tilt_deg=18.0)


@cache
def accuracy_frame() -> Frame:
    """4K, 46 tags at random, two blocks, blur, noise, uneven light and JPEG, tilted camera."""
    figures = random_figures(46, random.Random(1), blocks=BLOCKS)
    return render(figures, BLOCKS, Camera(tilt_deg=22.0, yaw_deg=4.0, roll_deg=1.5),
                  REALISTIC, seed=1)


@cache
def hard_frame() -> Frame:
    """4K: a hand over corner marker 1, three touching bases, figures behind a tall block."""
    figures = [Figure(x, y, tag=t, angle_deg=20.0 * t) for t, (x, y) in TOUCHING.items()]
    figures += [Figure(x, y, tag=t, angle_deg=33.0 * t) for t, (x, y) in BEHIND.items()]
    keep_out = (TALL, Block(3, 3, 8, 8, 0.1), Block(9, 16, 17, 24, 0.1))
    others = random_figures(10, random.Random(7), blocks=keep_out, first_tag=4)
    figures += others
    return render(figures, (TALL,), Camera(tilt_deg=20.0), REALISTIC, hidden_markers=(1,),
                  seed=2)


@cache
def empty_frame() -> Frame:
    """4K, no figures, terrain only."""
    return render([], BLOCKS, Camera(tilt_deg=15.0), REALISTIC, seed=3)


def small_figures(moves: dict[int, tuple[float, float]] | None = None) -> list[Figure]:
    pos = {4: (3.0, 3.5), 5: (6.0, 6.0), 6: (8.5, 4.0), 7: (4.0, 8.5)}
    pos.update(moves or {})
    return [Figure(x, y, tag=t, angle_deg=37.0 * t) for t, (x, y) in pos.items()]


@cache
def small_frame(moved: tuple[tuple[int, float, float], ...] = (),
                hidden: tuple[int, ...] = (), drop: tuple[int, ...] = (),
                camera: Camera = SMALL_CAMERA) -> Frame:
    """1280 x 720 of the 12 in table with tags 4-7; `moved` (tag, x, y) changes positions,
    `hidden` lays a hand over corner markers, `drop` removes figures."""
    figs = [f for f in small_figures({t: (x, y) for t, x, y in moved}) if f.tag not in drop]
    return render(figs, (), camera, Effects(noise_sigma=2.0, jpeg_quality=92),
                  layout=SMALL, hidden_markers=hidden, seed=4)
