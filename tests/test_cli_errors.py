"""The command line refuses bad input with one clear line and exit status 2, never a
traceback, and refuses what it used to accept (issue 17, finding 11); it imports only what
the command it runs needs (finding 14)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scenarios.play import start_scenario
from service import cli
from service.cli import asked_command, main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = json.loads((ROOT / "docs" / "examples" / "arbitrate.json").read_text(encoding="utf-8"))


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line on stderr of a refused command (status 2, no traceback)."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.strip(), err
    return err


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_odd_json_is_refused_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    one = {**EXAMPLE, "questions": EXAMPLE["questions"][:1]}
    deep = _file(tmp_path, "deep.json", "[" * 5000 + "]" * 5000)
    digits = _file(tmp_path, "digits.json", json.dumps(one).replace(
        '"x": 5.0', '"x": 5' + "0" * 5000, 1))
    lone = _file(tmp_path, "lone.json", json.dumps(one).replace("Lucas", "Lu\\ud800cas", 1))
    for path in (deep, digits, lone):
        for command in (["arbitrate"], ["replay"], ["band", "check"], ["campaign", "show"]):
            refused([*command, path], capsys)
    blank = _file(tmp_path, "none.json", json.dumps({"scene": EXAMPLE["scene"]}))
    assert "questions" in refused(["arbitrate", blank], capsys)


def test_unusable_databases_are_refused_before_serving(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    err = refused(["serve", "--port", "8143", "--db", "mysql://me:secret@db/games"], capsys)
    assert "mysql://" in err and "PostgreSQL" in err and "secret" not in err
    err = refused(["serve", "--port", "8143", "--db", "postgresql://me:pw@127.0.0.1:1/x"],
                  capsys)
    assert "127.0.0.1:1" in err and "pw" not in err.replace("postgresql", "")
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    refused(["serve", "--port", "8143", "--db", f"sqlite:///{blocker}/games.sqlite3"], capsys)


@pytest.mark.parametrize("argv", [
    ["scenario", "setup", "nettoyage", "--seed", "-1"],
    ["campaign", "draw", "--seed", "-1", "--length", "3"],
    ["simulate", "--scenario", "nettoyage", "--games", "1", "--seed", "-1"],
    ["scenario", "setup", "nettoyage", "--seed", str(2**53 + 1)],
    ["scenario", "setup", "nettoyage", "--seed", "1" + "0" * 5000],
])
def test_seeds_out_of_range_are_refused(argv: list[str], capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's own refusal (not a whole number)
        code = int(stop.code or 0)
    assert code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_a_record_naming_a_figure_twice_is_refused(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    record = start_scenario("nettoyage", None, 3).export()
    path = _file(tmp_path, "good.json", json.dumps(record))
    assert main(["replay", "--json", path]) == 0
    capsys.readouterr()
    figures = record["start"]["figures"]
    record["start"]["figures"] = [*figures, dict(figures[0], x=figures[0]["x"] + 3)]
    err = refused(["replay", _file(tmp_path, "twice.json", json.dumps(record))], capsys)
    assert figures[0]["id"] in err


def test_a_missing_optional_package_is_named(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    find = importlib.util.find_spec

    def without(name: str, *args: Any) -> Any:
        return None if name in ("distributed", "matplotlib") else find(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", without)
    err = refused(["simulate", "--scenario", "nettoyage", "--games", "1", "--seed", "1",
                   "--cluster", "tcp://127.0.0.1:1"], capsys)
    assert "survive-us[cluster]" in err
    err = refused(["balance", "--cards", "nettoyage", "--points", "10", "--games", "1",
                   "--plot", "x.svg"], capsys)
    assert "survive-us[plot]" in err


def test_each_command_is_found_in_its_module() -> None:
    for name, commands in cli.MODULES.items():
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        cli.command_module(name).register(sub, cli.HelpText("en"))
        assert tuple(sub.choices) == commands, name
    assert asked_command(["--lang", "fr", "arbitrate", "x"]) == "arbitrate"
    assert asked_command(["--lang=fr", "scenario", "show"]) == "scenario"
    assert asked_command(["--help"]) is None and asked_command(["nope"]) is None
    assert asked_command([]) is None and asked_command(["--la", "en", "serve"]) == "serve"


HEAVY = ("flask", "apiflask", "sqlalchemy", "alembic", "scipy", "cv2", "lightgbm",
         "matplotlib", "distributed", "waitress", "babel.messages")


def test_arbitrate_imports_only_what_it_needs(tmp_path: Path) -> None:
    """One question through `survive-us arbitrate`: none of the service's heavy packages
    is imported (the HTTP app, the database, the camera, the AI's model, the plots)."""
    path = _file(tmp_path, "one.json", json.dumps({**EXAMPLE, "questions":
                                                   EXAMPLE["questions"][:1]}))
    probe = ("import contextlib, io, sys\nfrom service.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             f"    assert main(['arbitrate', {path!r}]) == 0\n"
             "print(sorted({m for m in sys.modules if m.split('.')[0] in " + repr(
                 {h.split(".")[0] for h in HEAVY}) + "}))")
    # the catalogs read once (their cache written), then the run that counts
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                              text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr[-3000:]
    loaded = json.loads(done.stdout.strip().replace("'", '"'))
    assert [m for m in loaded if m.startswith(HEAVY)] == []
