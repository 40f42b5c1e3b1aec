"""Arbitration answers a position uncertainty could flip are flagged "check with the tape"."""

from __future__ import annotations

import math
from typing import Any

import pytest

from geometry.errors import QuestionError, SceneError
from geometry.units import CONTACT_INCHES, base_radius
from i18n import Message
from rules.arbitration import ACTIVATION_INCHES, arbitrate
from rules.uncertain import review

R = base_radius(25.0)
HOUSE = {"id": "house", "kind": "polygon", "polygon": [[10, 10], [14, 10], [14, 14], [10, 14]]}


def fig(fid: str, side: str, x: float, y: float) -> dict[str, Any]:
    return {"id": fid, "side": side, "x": x, "y": y}


def ask(scene: dict[str, Any], questions: list[dict[str, Any]],
        uncertainty: dict[str, float]) -> list[dict[str, Any]]:
    answers: list[dict[str, Any]] = review(
        {"scene": scene, "questions": questions, "uncertainty": uncertainty})["answers"]
    return answers


def edge_to_edge(d: float) -> float:
    """Centre gap giving an edge-to-edge distance `d` between two 25 mm bases."""
    return d + 2 * R


def test_answers_are_arbitration_answers_plus_flags() -> None:
    scene = {"figures": [fig("s1", "survivors", 3, 3),
                         fig("z1", "zombies", 3 + edge_to_edge(10), 3)]}
    q = [{"ask": "distance", "a": "s1", "b": "z1"}, {"ask": "activatable_zombies"}]
    plain = arbitrate({"scene": scene, "questions": q})["answers"]
    flagged = ask(scene, q, {"s1": 0.1, "z1": 0.1})
    for a, b in zip(plain, flagged, strict=True):
        assert {k: v for k, v in b.items() if k in a} == a
        assert b["check_with_tape"] is False and b["tape_reasons"] == []


@pytest.mark.parametrize(("inches", "u", "flagged"), [
    (19.9, 0.1, True),     # 19.9 +- 0.2 straddles 20
    (20.15, 0.1, True),    # just out of range, could be in
    (15.0, 0.1, False),    # clearly in
    (19.9, 0.04, False),   # 19.9 +- 0.08 stays within 20
    (19.9, 0.0, False),    # exact positions: nothing to check
])
def test_activation_range(inches: float, u: float, flagged: bool) -> None:
    scene = {"figures": [fig("s1", "survivors", 3, 3),
                         fig("z1", "zombies", 3 + edge_to_edge(inches), 3)]}
    q = [{"ask": "distance", "a": "s1", "b": "z1"}, {"ask": "activatable_zombies"}]
    dist, active = ask(scene, q, {"s1": u, "z1": u})
    assert math.isclose(dist["inches"], inches, abs_tol=1e-9)
    assert dist["plus_minus"] == pytest.approx(2 * u)
    assert dist["check_with_tape"] is flagged
    assert active["check_with_tape"] is flagged
    assert (active["uncertain_zombies"] == ["z1"]) is flagged
    if flagged:
        assert f"{ACTIVATION_INCHES:g} in" in active["tape_reasons"][0]
        assert "s1" in active["tape_reasons"][0]


def test_the_reasons_in_words_name_the_figures_as_people_do() -> None:
    scene = {"figures": [{**fig("s1", "survivors", 3, 3), "name": "Lucas"},
                         {**fig("z1", "zombies", 3 + edge_to_edge(19.9), 3), "name": "Rôdeur",
                          "name_en": "Walker"}]}
    active = ask(scene, [{"ask": "activatable_zombies"}], {"s1": 0.1, "z1": 0.1})[0]
    said = [Message.from_json(m) for m in active["tape_reasons_words"]]
    assert len(said) == len(active["tape_reasons"]) == 1
    assert said[0].text("fr") == ("Rôdeur 1 : l'humain le plus proche, Lucas, est à 19,9 ps à "
                                  "5 mm près, face aux 20,0 ps en deçà desquels un zombie "
                                  "s'active")
    assert said[0].text("en").startswith("Walker 1: the nearest human, Lucas, is 19.9 in away")
    plain = {"figures": [{k: v for k, v in f.items() if not k.startswith("name")}
                         for f in scene["figures"]]}
    active = ask(plain, [{"ask": "activatable_zombies"}], {"s1": 0.1, "z1": 0.1})[0]
    assert Message.from_json(active["tape_reasons_words"][0]).text("en").startswith(
        "zombie 1: the nearest human, survivor 1, is")


def test_activation_needs_every_near_human_to_be_in_doubt() -> None:
    # z1 is 19.9 in from s1 but 13 in from c1: activatable whatever the uncertainty.
    scene = {"figures": [fig("s1", "survivors", 3, 3),
                         fig("c1", "civilians", 3 + edge_to_edge(19.9), 3 + edge_to_edge(13)),
                         fig("z1", "zombies", 3 + edge_to_edge(19.9), 3)]}
    active = ask(scene, [{"ask": "activatable_zombies"}], {"s1": 0.2, "z1": 0.2, "c1": 0.2})[0]
    assert active["zombies"] == ["z1"] and not active["check_with_tape"]


def test_base_contact() -> None:
    scene = {"figures": [fig("s1", "survivors", 5, 5), fig("z1", "zombies", 5 + 2 * R + 0.02, 5),
                         fig("z2", "zombies", 5, 5 + 2 * R + 1.0)]}
    q = [{"ask": "engaged", "figure": "s1"}, {"ask": "distance", "a": "s1", "b": "z1"}]
    engaged, dist = ask(scene, q, {"s1": 0.05, "z1": 0.05, "z2": 0.05})
    assert engaged["with"] == ["z1"] and engaged["check_with_tape"]
    assert engaged["uncertain_with"] == ["z1"]
    assert f"{CONTACT_INCHES:g} in" in engaged["tape_reasons"][0]
    assert dist["check_with_tape"]
    sure = ask(scene, q, {"s1": 0.01, "z1": 0.01, "z2": 0.01})[0]
    assert not sure["check_with_tape"]


def grazing_scene(offset: float) -> dict[str, Any]:
    """Observer at (8, 8); the sight line to the house's corner (14, 10) runs on to the
    target, whose base is tangent to it (offset 1.0) on the shadowed side, inside it (<1) or
    just clear (> 1)."""
    ux, uy = 6 / math.hypot(6, 2), 2 / math.hypot(6, 2)
    nx, ny = -uy, ux  # toward the house's shadow
    cx, cy = 20 + nx * R * offset, 12 + ny * R * offset
    return {"terrain": [HOUSE], "figures": [fig("s1", "survivors", 8, 8),
                                            fig("z1", "zombies", cx, cy)]}


@pytest.mark.parametrize("offset", [1.002, 0.995])
def test_grazing_line_of_sight_is_flagged(offset: float) -> None:
    q = [{"ask": "line_of_sight", "from": "s1", "to": "z1"}]
    sight = ask(grazing_scene(offset), q, {"s1": 0.1, "z1": 0.1})[0]
    assert sight["visible"] is (offset < 1.0)
    assert sight["check_with_tape"]
    assert "grazes terrain" in sight["tape_reasons"][0]
    exact = ask(grazing_scene(offset), q, {"s1": 0.0, "z1": 0.0})[0]
    assert not exact["check_with_tape"]


def test_clear_line_of_sight_is_not_flagged() -> None:
    scene = {"terrain": [HOUSE], "figures": [fig("s1", "survivors", 3, 3),
                                             fig("z1", "zombies", 8, 3),
                                             fig("z2", "zombies", 12, 20)]}
    q = [{"ask": "line_of_sight", "from": "s1", "to": "z1"},
         {"ask": "line_of_sight", "from": "s1", "to": "z2"}]
    got = ask(scene, q, {"s1": 0.2, "z1": 0.2, "z2": 0.2})
    assert [a["visible"] for a in got] == [True, True]
    assert not any(a["check_with_tape"] for a in got)


def test_hidden_line_of_sight_is_not_flagged() -> None:
    scene = {"terrain": [HOUSE], "figures": [fig("s1", "survivors", 8, 12),
                                             fig("z1", "zombies", 16, 12)]}
    sight = ask(scene, [{"ask": "line_of_sight", "from": "s1", "to": "z1"}],
                {"s1": 0.2, "z1": 0.2})[0]
    assert not sight["visible"] and not sight["check_with_tape"]


def test_shooting_range_and_priority() -> None:
    scene = {"figures": [fig("s1", "survivors", 3, 3),
                         fig("z1", "zombies", 3 + edge_to_edge(11.95), 3),
                         fig("z2", "zombies", 3, 3 + edge_to_edge(11.8)),
                         fig("z3", "zombies", 3 + edge_to_edge(5.0), 20)]}
    q = [{"ask": "shooting_targets", "shooter": "s1", "range": 12}]
    shot = ask(scene, q, {"s1": 0.05, "z1": 0.05, "z2": 0.05, "z3": 0.05})[0]
    assert shot["legal"] == ["z2"]
    assert shot["check_with_tape"]
    reasons = " | ".join(shot["tape_reasons"])
    assert "12 in range" in reasons  # z1 at 11.95 +- 0.1 (z2 at 11.8 is sure)
    assert "could be as near" in reasons  # z1 could be nearer than z2
    assert set(shot["uncertain_targets"]) == {"z1", "z2"}
    sure = ask(scene, [{"ask": "shooting_targets", "shooter": "s1", "range": 15}],
               {"s1": 0.01, "z1": 0.01, "z2": 0.01, "z3": 0.01})[0]
    assert not sure["check_with_tape"]


def test_shooting_threat_rule() -> None:
    # z1 is the nearest (6 in); z2 farther (9 in) is legal only if within 2 in of a survivor:
    # it stands 2.05 in from s2.
    scene = {"figures": [fig("s1", "survivors", 3, 3),
                         fig("z1", "zombies", 3 + edge_to_edge(6), 3),
                         fig("z2", "zombies", 3, 3 + edge_to_edge(9)),
                         fig("s2", "survivors", 3 + edge_to_edge(2.05), 3 + edge_to_edge(9))]}
    q = [{"ask": "shooting_targets", "shooter": "s1", "range": 12}]
    shot = ask(scene, q, {"s1": 0.05, "z1": 0.05, "z2": 0.05, "s2": 0.05})[0]
    assert shot["legal"] == ["z1"]
    assert shot["check_with_tape"] and "threat" in shot["tape_reasons"][0]
    assert shot["uncertain_targets"] == ["z2"]


def test_uncertainty_from_the_scene_and_errors() -> None:
    scene = {"figures": [{**fig("s1", "survivors", 3, 3), "uncertainty": 0.1},
                         {**fig("z1", "zombies", 3 + edge_to_edge(19.9), 3), "uncertainty": 0.1}]}
    got = review({"scene": scene, "questions": [{"ask": "activatable_zombies"}]})["answers"]
    assert got[0]["check_with_tape"]
    with pytest.raises(QuestionError, match='not on the table: "zz"'):
        ask(scene, [], {"zz": 0.1})
    with pytest.raises(QuestionError, match="a number of inches, 0 or more"):
        ask(scene, [], {"s1": -1})
    with pytest.raises(QuestionError, match="no field “answers”"):
        review({"scene": scene, "questions": [], "answers": []})
    with pytest.raises(QuestionError, match="no question"):
        ask(scene, [{"ask": "nope"}], {})


def test_paths_are_not_assessed() -> None:
    scene = {"figures": [fig("s1", "survivors", 3, 3)]}
    got = ask(scene, [{"ask": "path", "figure": "s1", "to": [10, 10]}], {"s1": 0.3})[0]
    assert got["reachable"] and got["check_with_tape"] is False


def test_answers_given_with_a_malformed_question() -> None:
    from geometry.scene import load_scene
    from geometry.space import Space
    from rules.uncertain import flag_answers

    space = Space(load_scene({"figures": [fig("s1", "survivors", 3, 3)]}))
    with pytest.raises(QuestionError,
                       match=r"questions\[0\]: the uncertainty of this question cannot be weighed"):
        flag_answers(space, {}, [{"ask": "distance", "a": "s1"}], [{"inches": 0.0}])
    with pytest.raises(QuestionError, match="1 answers for 0 questions"):
        flag_answers(space, {}, [], [{"inches": 0.0}])


def test_bases_measured_a_hair_into_each_other_are_settled() -> None:
    # The camera put two touching bases 0.03 in into each other and one 0.02 in into a wall.
    wall = {"id": "wall", "kind": "polygon", "polygon": [[0, 10], [5, 10], [5, 12], [0, 12]]}
    scene = {"terrain": [wall],
             "figures": [fig("s1", "survivors", 10, 10),
                         fig("z1", "zombies", 10 + 2 * R - 0.03, 10),
                         fig("s2", "survivors", 5 + R - 0.02, 11)]}
    got = review({"scene": scene, "questions": [{"ask": "engaged", "figure": "s1"}],
                  "uncertainty": {"s1": 0.04, "z1": 0.04, "s2": 0.04}})
    engaged = got["answers"][0]
    assert engaged["with"] == ["z1"] and engaged["check_with_tape"]
    moved = {m["id"]: m["moved"] for m in got["settled"]}
    assert set(moved) == {"s1", "z1", "s2"}
    assert moved["s1"] == pytest.approx(0.015, abs=1e-3)
    assert moved["s2"] == pytest.approx(0.02, abs=1e-3)
    # More overlap than the uncertainty allows is still an invalid scene.
    with pytest.raises(SceneError, match="overlaps the base of figures\\[0\\] \\(“s1”\\)"):
        review({"scene": scene, "questions": [],
                "uncertainty": {"s1": 0.01, "z1": 0.01, "s2": 0.04}})
