"""The camera pipeline on photos no one here generated: the physically rendered set.

tests/data/pbr/ holds frames path traced with Mitsuba 3 from a 3D scene of the table
(tools/pbr_frames/), each with its ground truth (true positions, visibility by ray casting).
`bench.vision_pbr` scores the pipeline on them, and issue 16's targets ("Done means") are
asserted: every visible tag, every base size, no false detection. The set is held out: the
pipeline is tuned on other renders of the same generator (`make_set.py --variant N`), never on
these frames, so what they measure is how it does on photos it has not seen.
"""

from __future__ import annotations

import hashlib
import json
import math

import pytest

from bench import vision_pbr as pbr

pytestmark = pytest.mark.skipif(not (pbr.DATA / "manifest.json").exists(),
                                reason="tests/data/pbr is missing")


@pytest.fixture(scope="module")
def scores() -> list[pbr.FrameScore]:
    # every frame in its own mode; the cross check (frames of the other mode) on a few
    own = pbr.evaluate(runs=1, cross=False)
    cross = [pbr.score_frame(name, mode) for name, mode in (
        ("tags_street_a.jpg", "colour"), ("tags_crowd_b.jpg", "colour"),
        ("colour_field_b.jpg", "tags"), ("colour_crowd_a.jpg", "tags"))]
    return own + cross


def test_set_matches_its_manifest() -> None:
    entries = pbr.manifest()
    assert {e["mode"] for e in entries} == {"tags", "colour"}
    total = 0
    for e in entries:
        blob = (pbr.DATA / e["frame"]).read_bytes()
        total += len(blob)
        assert hashlib.sha256(blob).hexdigest() == e["sha256"], e["frame"]
        truth = pbr.load_truth(e["frame"])
        assert truth["mode"] == e["mode"]
        assert (truth["image"]["width"], truth["image"]["height"]) == (e["width"], e["height"])
    assert total < 30e6


def test_truth_is_consistent() -> None:
    """Positions on the table, bases apart, visibility flags from their fractions, and the
    camera model agreeing with the corner markers OpenCV finds in the photo."""
    offsets = []
    for e in pbr.manifest():
        truth = pbr.load_truth(e["frame"])
        figs = truth["figures"]
        ids = [f["id"] for f in figs]
        assert len(set(ids)) == len(ids)
        everyone = figs + truth["props"]
        for i, f in enumerate(everyone):
            r = f["base_mm"] / 25.4 / 2
            assert r <= f["x"] <= 31.4961 - r and r <= f["y"] <= 31.4961 - r
            for g in everyone[i + 1:]:
                gap = math.hypot(f["x"] - g["x"], f["y"] - g["y"]) - r - g["base_mm"] / 50.8
                assert gap > 0, (e["frame"], f["name"], g["name"])
        for f in figs:
            frac = f["visible_fraction"]
            assert f["hidden"] == (frac == 0.0)
            assert f["visible"] == (frac == 1.0 if truth["mode"] == "tags" else frac >= 0.5)
        check = truth["render"]["marker_check"]
        for mid in check["found"]:
            offsets.append(check["centre_error_px"][str(mid)])
            assert math.hypot(*offsets[-1]) < 0.8, (e["frame"], mid)
        # what OpenCV finds in the photo, the rays see (at least in part)
        seen = {m["id"] for m in truth["markers"] if m["visible_fraction"] > 0}
        assert set(check["found"]) <= seen
    # no bias between the truth's camera model and the picture (e.g. half a pixel)
    bias = [sum(o[k] for o in offsets) / len(offsets) for k in (0, 1)]
    assert math.hypot(*bias) < 0.15


def test_the_set_covers_the_issue() -> None:
    """Every base size, a hand over a marker, hidden figures, rows in contact, both cameras."""
    sizes, hands, hidden, rows, tilts = set(), 0, 0, 0, []
    for e in pbr.manifest():
        truth = pbr.load_truth(e["frame"])
        sizes |= {f["base_mm"] for f in truth["figures"]}
        hands += truth["hand"] is not None and truth["hand"]["over_marker"] is not None
        hidden += sum(f["hidden"] for f in truth["figures"])
        rows = max(rows, sum(f["group"] == "row" for f in truth["figures"]))
        tilts.append(truth["camera"]["tilt_deg"])
        assert 90 <= truth["camera"]["height_cm"] <= 140
    assert sizes == {25, 28, 30, 32, 40, 50}
    assert hands >= 3 and hidden >= 5 and rows >= 5
    assert min(tilts) == 0 and max(tilts) == 35


# Measured when these tests were written (bench.vision_pbr on the whole set):
TAGS_NOW = ("307 of 307 visible tags found, mean 0.019 in, max 0.072 in, no false tag (was 286 "
            "of 307, mean 0.020, max 0.082)")
UNCERTAINTY_NOW = ("0 of 307 tags outside their stated uncertainty, which covers any base height "
                   "of 2-5 mm when it is not known (was 14 of 286, 11 of them on 5 mm bases)")
def test_no_false_tag(scores: list[pbr.FrameScore]) -> None:
    bad = {s.frame: s.false_detail for s in scores if s.mode == "tags" and s.false}
    assert not bad


def test_no_false_base(scores: list[pbr.FrameScore]) -> None:
    bad = {s.frame: s.false_detail for s in scores if s.mode == "colour" and s.false}
    assert not bad


def test_hidden_figures_are_not_reported(scores: list[pbr.FrameScore]) -> None:
    assert sum(s.hidden_reported for s in scores) == 0


def test_table_found_whenever_three_markers_are_visible(scores: list[pbr.FrameScore]) -> None:
    """Five frames have a hand over one corner marker."""
    lost = [s.frame for s in scores if len(s.markers_visible) >= 3 and not s.table_found]
    assert not lost


def test_what_is_found_today(scores: list[pbr.FrameScore]) -> None:
    """Floors under today's numbers (see TAGS_NOW) to catch a regression; the
    errors are held to the issue's budget, since finding harder figures may raise them."""
    tags, colour = pbr.summary(scores, "tags"), pbr.summary(scores, "colour")
    assert tags["found_share"] >= 0.9
    assert tags["mean_in"] <= pbr.TAGS_DONE["mean_in"] and tags["max_in"] <= pbr.TAGS_DONE["max_in"]
    assert colour["found_share"] >= 0.95
    assert colour["mean_in"] <= pbr.COLOUR_DONE["mean_in"]
    # every size is looked for and found (issue 16: 40 and 50 mm were never found)
    for mm, got in colour["by_base_mm"].items():
        assert got["found"] >= 0.9 * got["visible"], (mm, got)
    assert colour["false"] <= 1


def test_tags_within_their_uncertainty(scores: list[pbr.FrameScore]) -> None:
    """Issue 16 (UNCERTAINTY_NOW): every tag within its stated uncertainty."""
    assert pbr.summary(scores, "tags")["outside_uncertainty"] == 0


def test_tags_done(scores: list[pbr.FrameScore]) -> None:
    """Issue 16 (TAGS_NOW): at 4K every visible tag found, mean error <= 0.05 in, max <= 0.15
    in, no false tag."""
    sm = pbr.summary(scores, "tags")
    assert sm["found_visible"] == sm["visible"]
    assert sm["mean_in"] <= pbr.TAGS_DONE["mean_in"] and sm["max_in"] <= pbr.TAGS_DONE["max_in"]


def test_colour_done(scores: list[pbr.FrameScore]) -> None:
    """Issue 16: at 1080p >= 98% of the visible bases whatever their size, mean <= 0.08 in."""
    sm = pbr.summary(scores, "colour")
    assert sm["found_share"] >= pbr.COLOUR_DONE["found_share"]
    assert sm["mean_in"] <= pbr.COLOUR_DONE["mean_in"]


def test_report_reads() -> None:
    text = pbr.report([pbr.score_frame("colour_street_a.jpg", "colour")])
    assert "colour_street_a.jpg" in text and json.loads(text.split("`")[-2])["frames"] == 1
