"""Identities across frames: optimal assignment, gating, ambiguity, newcomers and missing."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from vision.errors import VisionError
from vision.match import KnownFigure, match_figures


@dataclass(frozen=True)
class Seen:
    side: str
    x: float
    y: float
    uncertainty: float = 0.05


def z(fid: str, x: float, y: float, move: float = 4.0) -> KnownFigure:
    return KnownFigure(fid, "zombies", x, y, move)


def s(fid: str, x: float, y: float, move: float = 4.0) -> KnownFigure:
    return KnownFigure(fid, "survivors", x, y, move)


def test_still_figures_keep_their_ids_with_a_wide_margin() -> None:
    known = [z("z1", 5, 5), z("z2", 6.1, 5), s("s1", 10, 10)]
    seen = [Seen("survivors", 10.02, 9.97), Seen("zombies", 6.08, 5.01), Seen("zombies", 5, 5.03)]
    got = match_figures(known, seen)
    assert {a.figure: a.detection for a in got.matched} == {"s1": 0, "z2": 1, "z1": 2}
    assert not got.unknown and not got.appeared and not got.vanished
    # Swapping two touching zombies would cost ~2.2 in of movement more: a sure match.
    assert min(a.margin for a in got.matched if a.figure.startswith("z")) > 2.0


def test_gating_resolves_what_nearest_neighbour_gets_wrong() -> None:
    # z1 moved 4 in right to (4, 0); z2 moved 4 in right to (7, 0). The nearest known figure
    # to (4, 0) is z2 (1 in), but z1 cannot have reached (7, 0) (7 in > its 4 in move + 1).
    known = [z("z1", 0, 0), z("z2", 3, 0)]
    seen = [Seen("zombies", 4, 0), Seen("zombies", 7, 0)]
    got = match_figures(known, seen)
    assert got.identity(0) == "z1" and got.identity(1) == "z2"
    assert not got.unknown


def test_swap_like_moves_that_cost_the_same_are_unknown() -> None:
    # Two zombies 2 in apart both moved to points equally far from each: either assignment
    # explains the frame, so neither detection gets an id.
    known = [z("z1", 10, 10), z("z2", 12, 10)]
    seen = [Seen("zombies", 11, 11), Seen("zombies", 11, 9)]
    got = match_figures(known, seen)
    assert not got.matched
    assert [u.detection for u in got.unknown] == [0, 1]
    assert all(set(u.candidates) == {"z1", "z2"} for u in got.unknown)
    assert got.unknown[0].reason.code == "camera.match.ambiguous"
    assert "check which figure is which" in got.unknown[0].reason.text("en")
    assert "vérifiez quelle figurine est laquelle" in got.unknown[0].reason.text("fr")
    assert not got.vanished  # both are among the candidates, not gone


def test_ambiguity_margin_decides() -> None:
    known = [z("z1", 10, 10), z("z2", 12, 10)]
    # Best: each moved 1.35 in (2.69 total); swapped: 1.49 in each (2.97): 0.28 in worse.
    seen = [Seen("zombies", 10.9, 11), Seen("zombies", 11.1, 9)]
    near = match_figures(known, seen, ambiguity=0.5)
    assert len(near.unknown) == 2
    strict = match_figures(known, seen, ambiguity=0.05)
    assert {a.figure for a in strict.matched} == {"z1", "z2"} and not strict.unknown


def test_appeared_and_vanished() -> None:
    known = [z("z1", 5, 5, move=4), z("z2", 20, 20, move=4), s("s1", 3, 3)]
    seen = [Seen("zombies", 5.5, 5), Seen("zombies", 28, 5), Seen("survivors", 3, 3)]
    got = match_figures(known, seen)
    assert got.identity(0) == "z1" and got.identity(2) == "s1"
    assert got.appeared == (1,)
    assert got.vanished == ("z2",)
    assert [n.code for n in got.notes] == ["camera.match.too_far"]
    assert "a zombie base at (28.0, 5.0) is farther than any zombie figure could have moved" \
        in got.notes[0].text("en")
    assert "un socle de zombie en (28,0 ; 5,0)" in got.notes[0].text("fr")
    assert got.to_json()["notes_words"] == [got.notes[0].to_json()]


def test_sides_never_mix() -> None:
    known = [z("z1", 5, 5)]
    seen = [Seen("survivors", 5, 5)]
    got = match_figures(known, seen)
    assert got.appeared == (0,) and got.vanished == ("z1",) and not got.matched


def test_optimal_not_greedy() -> None:
    # Greedy by distance would give d0 (1.0 from z1) to z1 and leave z2 with d1 3.9 away;
    # the optimum moves both 2.0 (total 4.0 < 4.9).
    known = [z("z1", 0, 0), z("z2", 4, 0)]
    seen = [Seen("zombies", 1, 0), Seen("zombies", -2, 0)]
    got = match_figures(known, seen, ambiguity=0.1)
    assert got.identity(0) == "z2" and got.identity(1) == "z1"


def test_detection_uncertainty_widens_the_gate() -> None:
    known = [z("z1", 0, 0, move=2)]
    far = Seen("zombies", 3.2, 0, uncertainty=0.05)
    assert match_figures([*known], [far]).appeared == (0,)
    unsure = Seen("zombies", 3.2, 0, uncertainty=0.5)
    got = match_figures(known, [unsure], ambiguity=0.1)
    assert got.identity(0) == "z1"


def test_a_vanished_figure_and_a_newcomer_do_not_undercut_two_moves() -> None:
    # z1 -> (4, 0) and z2 -> (8, 0), both 4 in: keeping both beats "z2 took (4, 0), z1 is
    # gone and a new zombie stands at (8, 0)".
    known = [z("z1", 0, 0), z("z2", 4.5, 0)]
    got = match_figures(known, [Seen("zombies", 4, 0), Seen("zombies", 8.5, 0)])
    assert got.identity(0) == "z1" and got.identity(1) == "z2"
    assert not got.appeared and not got.vanished


def test_bad_input() -> None:
    with pytest.raises(VisionError, match="given twice"):
        match_figures([z("z1", 0, 0), z("z1", 1, 1)], [])
    with pytest.raises(VisionError, match="max_move"):
        z("z1", 0, 0, move=-1)
    with pytest.raises(VisionError, match="must not be negative"):
        match_figures([], [], ambiguity=-1)


def test_json() -> None:
    got = match_figures([z("z1", 0, 0)], [Seen("zombies", 0.1, 0)])
    data = got.to_json()
    assert data["matched"][0]["figure"] == "z1" and data["matched"][0]["margin"] > 4
    assert data["appeared"] == [] and data["vanished"] == []


def test_colour_detections_and_scene_figures() -> None:
    from vision.colour import BaseDetection
    from vision.match import known_from_scene

    scene = [{"id": "s1", "side": "survivors", "x": 3, "y": 3},
             {"id": "z1", "side": "zombies", "x": 10, "y": 10}]
    known = known_from_scene(scene, {"z1": 4.0}, default_move=6.0)
    assert [(k.id, k.max_move) for k in known] == [("s1", 6.0), ("z1", 4.0)]
    seen = [BaseDetection("zombies", 12.5, 11, 0.49, 0.05, 0.9, 0.9, 0.01),
            BaseDetection("survivors", 8.5, 3, 0.49, 0.05, 0.9, 0.9, 0.01)]
    got = match_figures(known, seen)
    assert got.identity(0) == "z1" and got.identity(1) == "s1"
    with pytest.raises(VisionError, match=r"figures\[0\]: needs id, side, x and y"):
        known_from_scene([{"id": "s1"}], {}, 6.0)


@dataclass(frozen=True)
class Sized:
    side: str
    x: float
    y: float
    base_mm: float
    size_measured: bool = True
    uncertainty: float = 0.05


def test_base_sizes_tell_figures_apart() -> None:
    # A 40 mm zombie and a 25 mm one swapped places: by distance alone the two answers cost
    # the same (unknown); the sizes seen say which is which.
    known = [KnownFigure("big", "zombies", 10, 10, 4.0, base_mm=40),
             KnownFigure("small", "zombies", 12, 10, 4.0, base_mm=25)]
    plain = match_figures(known, [Seen("zombies", 11, 11), Seen("zombies", 11, 9)])
    assert not plain.matched and len(plain.unknown) == 2
    got = match_figures(known, [Sized("zombies", 11, 11, 25), Sized("zombies", 11, 9, 40)])
    assert {a.figure: a.detection for a in got.matched} == {"small": 0, "big": 1}
    assert not got.unknown
    # A 40 mm base is never the 25 mm figure, however near: it appeared, and the note says
    # its size is why.
    got = match_figures([KnownFigure("small", "zombies", 5, 5, 4.0, base_mm=25)],
                        [Sized("zombies", 5.1, 5, 40)])
    assert not got.matched and got.appeared == (0,) and got.vanished == ("small",)
    assert got.notes[0].code == "camera.match.other_size"
    assert "40.0 mm" in got.notes[0].text("en") and "40,0 mm" in got.notes[0].text("fr")
    # What the camera cannot tell apart still matches: 28 mm measured for a 25 mm figure, a
    # partial arc read as 32 mm for a 40 mm one, a base without a size (tags, old answers).
    assert match_figures([KnownFigure("a", "zombies", 5, 5, 4.0, base_mm=25)],
                         [Sized("zombies", 5, 5, 28)]).identity(0) == "a"
    assert match_figures([KnownFigure("a", "zombies", 5, 5, 4.0, base_mm=40)],
                         [Sized("zombies", 5, 5, 32, size_measured=False)]).identity(0) == "a"
    assert match_figures([KnownFigure("a", "zombies", 5, 5, 4.0, base_mm=40)],
                         [Seen("zombies", 5, 5)]).identity(0) == "a"
    assert match_figures([KnownFigure("a", "zombies", 5, 5, 4.0)],
                         [Sized("zombies", 5, 5, 50)]).identity(0) == "a"


def test_sizes_agree_and_size_of() -> None:
    from vision.match import size_of, sizes_agree

    assert sizes_agree(25, 28, True) and not sizes_agree(25, 30, True)
    assert sizes_agree(40, 32, False) and not sizes_agree(25, 40, False)
    assert sizes_agree(None, 40, True) and sizes_agree(25, None, False)
    assert size_of({"base_mm": 32, "size_measured": True}) == (32.0, True)
    assert size_of({"x": 1}) == (None, False) and size_of(Seen("zombies", 1, 1)) == (None, False)
    assert size_of({"base_mm": True}) == (None, False)
    with pytest.raises(VisionError):
        KnownFigure("a", "zombies", 1, 1, 4.0, base_mm=float("nan"))
