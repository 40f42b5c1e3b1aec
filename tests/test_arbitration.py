"""Arbitration: golden cases with hand-computed answers, errors, and the CLI contract."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

from geometry.errors import SurviveUsError
from rules.arbitration import arbitrate
from service.cli import main

GOLDEN = sorted((Path(__file__).parent / "golden" / "arbitration").glob("*.json"))
R = 12.5 / 25.4


def matches(got: Any, want: Any, tol: float) -> bool:
    if isinstance(want, bool) or want is None:
        return bool(got is want)
    if isinstance(want, float | int):
        return isinstance(got, float | int) and math.isclose(got, want, abs_tol=tol)
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(
            matches(g, w, tol) for g, w in zip(got, want, strict=True))
    if isinstance(want, dict):
        return all(k in got and matches(got[k], w, tol) for k, w in want.items())
    return bool(got == want)


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden(path: Path) -> None:
    case = json.loads(path.read_text())
    tol = case.get("tolerance", {}).get("fraction", 1e-9)
    got = arbitrate(case["request"])["answers"]
    for i, (g, w) in enumerate(zip(got, case["expected"]["answers"], strict=True)):
        assert matches(g, w, tol), f"question {i}: got {g}, want {w}"
        assert isinstance(g.get("explain"), str) and g["explain"]


def scene(*figures: dict[str, Any], terrain: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"terrain": terrain or [], "figures": list(figures)}


S1 = {"id": "s1", "side": "survivors", "x": 5.0, "y": 5.0}
Z1 = {"id": "z1", "side": "zombies", "x": 15.0, "y": 5.0}
BOX = {"id": "box", "kind": "polygon", "polygon": [[9, 2], [11, 2], [11, 8], [9, 8]]}


def test_path_goes_around_terrain_and_never_beats_the_straight_line() -> None:
    req = {"scene": scene(S1, Z1, terrain=[BOX]),
           "questions": [{"ask": "path", "figure": "s1", "to": [20.0, 5.0]}]}
    got = arbitrate(req)["answers"][0]
    assert got["reachable"] is True
    assert got["length"] > 15.0
    assert got["waypoints"][0] == [5.0, 5.0] and got["waypoints"][-1] == [20.0, 5.0]


def test_path_into_terrain_is_unreachable_and_says_why() -> None:
    req = {"scene": scene(S1, terrain=[BOX]),
           "questions": [{"ask": "path", "figure": "s1", "to": [10.0, 5.0]}]}
    got = arbitrate(req)["answers"][0]
    assert got["reachable"] is False and got["waypoints"] == [] and got["length"] is None
    assert "box" in got["explain"]


@pytest.mark.parametrize(
    ("request_", "where", "words"),
    [
        ({"scene": scene(S1), "questions": [{"ask": "distance", "a": "s1", "b": "zz"}]},
         "questions[0].b", 'no figure "zz"'),
        ({"scene": scene(S1), "questions": [{"ask": "distanse", "a": "s1", "b": "s1"}]},
         "questions[0].ask", 'no question "distanse"'),
        ({"scene": scene(S1), "questions": [{"ask": "distance", "a": "s1"}]},
         "questions[0].b", "needs “b”"),
        ({"scene": scene(S1), "questions": [{"ask": "engaged", "figure": "s1", "x": 1}]},
         "questions[0].x", "no field “x”"),
        ({"scene": scene(S1, Z1), "questions": [
            {"ask": "shooting_targets", "shooter": "s1", "range": "far"}]},
         "questions[0].range", "a number is expected"),
        ({"scene": scene(S1, Z1), "questions": [
            {"ask": "shooting_targets", "shooter": "z1", "range": 10}]},
         "questions[0].shooter", "zombies do not shoot"),
        ({"scene": scene(S1), "questions": [{"ask": "path", "figure": "s1", "to": [1]}]},
         "questions[0].to", "[x, y] pair"),
        ({"scene": scene(S1, {**Z1, "x": 5.2})}, "scene.figures[1]",
         "overlaps the base of figures[0] (“s1”)"),
        ({"scene": scene(S1), "questions": {}}, "questions", "is a list of questions"),
        ({"questions": []}, "scene", "needs “scene”"),
        ([], "", "is an object"),
    ],
)
def test_bad_requests_name_what_is_wrong(request_: Any, where: str, words: str) -> None:
    with pytest.raises(SurviveUsError) as caught:
        arbitrate(request_)
    assert caught.value.where == where
    assert words in caught.value.message
    assert isinstance(caught.value, ValueError)
    assert caught.value.words is not None  # said in French too
    assert caught.value.text("fr") != caught.value.text("en")


def run_cli(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch,
            capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def test_cli_reads_stdin(monkeypatch: pytest.MonkeyPatch,
                         capsys: pytest.CaptureFixture[str]) -> None:
    req = {"scene": scene(S1, Z1), "questions": [{"ask": "distance", "a": "s1", "b": "z1"}]}
    code, out = run_cli(["arbitrate"], json.dumps(req), monkeypatch, capsys)
    assert code == 0
    assert out["answers"][0]["inches"] == pytest.approx(10 - 2 * R)


def test_cli_reads_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = json.loads(GOLDEN[0].read_text())
    path = tmp_path / "req.json"
    path.write_text(json.dumps(case["request"]))
    assert main(["arbitrate", str(path)]) == 0
    assert len(json.loads(capsys.readouterr().out)["answers"]) == len(case["request"]["questions"])


@pytest.mark.parametrize(
    ("stdin", "code"),
    [("{not json", "invalid_json"),
     (json.dumps({"scene": {"figures": [{"id": "a", "side": "x", "x": 1, "y": 1}]}}),
      "invalid_scene"),
     (json.dumps({"scene": {"figures": []}, "questions": [{"ask": "?"}]}), "invalid_question")],
)
def test_cli_bad_request_exits_2_with_error_json(
    stdin: str, code: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_cli(["arbitrate"], stdin, monkeypatch, capsys)
    assert status == 2
    assert set(out["error"]) >= {"code", "message", "where"}
    assert out["error"]["code"] == code


def test_cli_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arbitrate", "/nonexistent/req.json"]) == 2
    assert "cannot read" in json.loads(capsys.readouterr().out)["error"]["message"]


def test_the_readme_example_request_answers(capsys: pytest.CaptureFixture[str]) -> None:
    example = Path(__file__).parent.parent / "docs" / "examples" / "arbitrate.json"
    assert main(["arbitrate", str(example)]) == 0
    assert len(json.loads(capsys.readouterr().out)["answers"]) == 6


EXPLAIN = Path(__file__).parent / "golden" / "explain"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_cli_explanations_are_said_as_before(lang: str, capsys: pytest.CaptureFixture[str]
                                             ) -> None:
    """`arbitrate --explain` word for word (named figures and places, French elisions and
    contractions, numbers, lists): the words were made faster and must read the same."""
    assert main(["--lang", lang, "arbitrate", "--explain", str(EXPLAIN / "request.json")]) == 0
    assert capsys.readouterr().out == (EXPLAIN / f"{lang}.txt").read_text(encoding="utf-8")
