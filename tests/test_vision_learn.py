"""Learning rim colours from clicked bases; saving them in the calibration file."""

from __future__ import annotations

import dataclasses
import json
import math
import random
from pathlib import Path

import numpy as np
import pytest
import synth_colour as sc
import synth_frames as sf

from vision.calibration import Calibration, calibrate
from vision.colour import detect_bases
from vision.colour_config import DEFAULT_COLOURS, ColourConfigError
from vision.learn import ClickError, learn_colours, load_colours, save_colours

#: A table painted with other colours than the defaults: magenta survivors, orange zombies.
PAINT = {"survivors": (170, 40, 160), "zombies": (20, 110, 235)}


@pytest.fixture(scope="module")
def painted() -> tuple[sc.ColourFrame, Calibration]:
    rng = random.Random(11)
    figs = sc.random_colour_figures({"survivors": 6, "zombies": 10}, rng)
    figs = [dataclasses.replace(f, rim_bgr=PAINT[f.side]) for f in figs]
    frame = sc.render_colour(figs, effects=sf.Effects(blur_sigma=0.8, noise_sigma=2.0,
                                                      gradient=0.25, jpeg_quality=85), seed=2)
    return frame, calibrate(frame.image)


def clicks_on(frame: sc.ColourFrame, per_side: int = 3,
              jitter: float = 0.12) -> dict[str, list[list[float]]]:
    """Where a player would click: near the middle of a few bases (on the miniature)."""
    rng = random.Random(5)
    out: dict[str, list[list[float]]] = {}
    for f in frame.figures:
        if len(out.get(f.side, [])) < per_side:
            at = np.array([[f.x + rng.uniform(-jitter, jitter), f.y + rng.uniform(-jitter, jitter),
                            0.4]])
            u, v = frame.frame.project(at)[0]
            out.setdefault(f.side, []).append([float(u), float(v)])
    return out


def test_learned_colours_find_every_base(painted: tuple[sc.ColourFrame, Calibration]) -> None:
    frame, cal = painted
    assert not [b for b in detect_bases(frame.image, cal) if b.side == "survivors"]
    learned = learn_colours(frame.image, cal, clicks_on(frame))
    found = detect_bases(frame.image, cal, learned.config)
    assert len(found) == len(frame.figures)
    for side, x, y in frame.truth:
        nearest = min(math.hypot(b.x - x, b.y - y) for b in found if b.side == side)
        assert nearest < 0.1
    assert learned.samples["survivors"] > 100 and learned.samples["zombies"] > 100
    # Orange zombies overlap the default yellow civilians, which are dropped with a note.
    assert [s.side for s in learned.config.sides] == ["survivors", "zombies"]
    dropped = [n for n in learned.notes if n.code == "camera.learn.dropped"]
    assert len(dropped) == 1 and "civilian bases are left out" in dropped[0].text("en")
    assert dropped[0].text("fr").startswith("les socles de civil sont laissés de côté")
    assert learned.to_json()["notes_words"][0]["code"] == learned.notes[0].code
    zombie_range = learned.config.side("zombies").ranges[0]
    assert zombie_range.hue_lo < 15 < zombie_range.hue_hi  # orange: OpenCV hue ~13


def test_bad_clicks_are_named(painted: tuple[sc.ColourFrame, Calibration]) -> None:
    frame, cal = painted
    good = clicks_on(frame)
    with pytest.raises(ClickError, match=r"clicks.zombies\[1\].*outside the 1920x1080 image"):
        learn_colours(frame.image, cal, {**good, "zombies": [good["zombies"][0], [2500, 10]]})
    # A pixel in the frame but beyond the table's edge.
    beyond = cal.table_to_image(np.array([[-3.0, 15.0]]))[0]
    with pytest.raises(ClickError, match="off the table"):
        learn_colours(frame.image, cal, {"zombies": [[float(beyond[0]), float(beyond[1])]]})
    # The bare mat: nothing saturated there.
    mat = cal.table_to_image(np.array([[15.7, 2.2]]))[0]
    with pytest.raises(ClickError, match=r"clicks.survivors\[0\].*nothing saturated"):
        learn_colours(frame.image, cal, {"survivors": [[float(mat[0]), float(mat[1])]]})
    with pytest.raises(ClickError, match="expected \\[x, y\\]"):
        learn_colours(frame.image, cal, {"survivors": [[1.0]]})
    with pytest.raises(ClickError, match="no clicks"):
        learn_colours(frame.image, cal, {})


def test_two_sides_clicked_on_the_same_colour_are_refused(
        painted: tuple[sc.ColourFrame, Calibration]) -> None:
    frame, cal = painted
    zombies = clicks_on(frame)["zombies"]
    with pytest.raises(ColourConfigError, match="overlap"):
        learn_colours(frame.image, cal, {"zombies": zombies[:2], "civilians": zombies[2:]})


def test_save_into_a_calibration_file_and_load(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({"version": 1, "table": {"keep": True}}), encoding="utf-8")
    save_colours(path, DEFAULT_COLOURS)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["table"] == {"keep": True} and "colours" in data
    assert load_colours(path) == DEFAULT_COLOURS
    fresh = tmp_path / "colours.json"
    save_colours(fresh, DEFAULT_COLOURS)
    assert load_colours(fresh) == DEFAULT_COLOURS
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(ColourConfigError, match="not valid JSON"):
        load_colours(broken)
    with pytest.raises(ColourConfigError, match="no 'colours'"):
        load_colours(_without_colours(tmp_path))


def _without_colours(tmp_path: Path) -> Path:
    p = tmp_path / "bare.json"
    p.write_text("{}", encoding="utf-8")
    return p


def test_learned_on_bases_of_several_sizes() -> None:
    """Clicks on 40 and 50 mm bases teach the colour as well as on 25 mm ones (the rim is
    looked for at every common size around the click)."""
    rng = random.Random(12)
    figs = sc.random_colour_figures({"survivors": 4, "zombies": 5}, rng, gap=0.9)
    sizes = [40.0, 50.0, 25.0, 32.0]
    figs = [dataclasses.replace(f, rim_bgr=PAINT[f.side], base_mm=sizes[n % 4])
            for n, f in enumerate(figs)]
    frame = sc.render_colour(figs, effects=sf.Effects(blur_sigma=0.8, noise_sigma=2.0,
                                                      jpeg_quality=85), seed=3)
    cal = calibrate(frame.image)
    learned = learn_colours(frame.image, cal, clicks_on(frame, per_side=2))
    found = detect_bases(frame.image, cal, learned.config)
    assert not learned.notes or all(n.code == "camera.learn.dropped" for n in learned.notes)
    for f in frame.figures:
        near = [b for b in found if b.side == f.side and math.hypot(b.x - f.x, b.y - f.y) < 0.1]
        assert len(near) == 1 and near[0].base_mm == f.base_mm, (f, near)
