"""The command line's language: `--lang`, else the environment's locale, else English."""

from __future__ import annotations

import pytest

from geometry.errors import SceneError
from i18n import Message, render
from service import jsonio
from service.cli import main


@pytest.mark.parametrize(("env", "lang"), [
    ({"LC_ALL": "fr_FR.UTF-8"}, "fr"), ({"LANG": "fr_CA.UTF-8"}, "fr"),
    ({"LANG": "en_GB.UTF-8"}, "en"), ({"LANG": "de_DE.UTF-8"}, "en"), ({"LANG": "C"}, "en"),
    ({}, "en"), ({"LC_ALL": "en_US.UTF-8", "LANG": "fr_FR.UTF-8"}, "en"),
    ({"LC_MESSAGES": "fr_FR", "LANG": "en_US"}, "fr")])
def test_the_environment_s_locale_picks_the_language(
        monkeypatch: pytest.MonkeyPatch, env: dict[str, str], lang: str) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert jsonio.environment_language() == lang


def test_lang_overrides_the_environment(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    assert main(["--lang", "fr", "rules", "dump"]) == 0
    assert jsonio.language() == "fr"
    capsys.readouterr()
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    assert main(["rules", "dump"]) == 0
    assert jsonio.language() == "fr"
    assert main(["--lang", "en", "rules", "dump"]) == 0
    assert jsonio.language() == "en"


def test_an_error_is_printed_in_the_command_s_language(
        capsys: pytest.CaptureFixture[str]) -> None:
    words = Message("ai.decline")
    jsonio.set_language("fr")
    try:
        assert jsonio.print_error(SceneError(words, "here"), as_json=True) == 2
        out, err = capsys.readouterr()
        assert render(words, "fr") in err and render(words, "fr") in out
        assert '"code": "ai.decline"' in out  # the JSON keeps the code and its parameters
        # a command whose output is text prints the sentence alone, never the JSON body
        assert jsonio.print_error(SceneError(words, "here"), as_json=False) == 2
        out, err = capsys.readouterr()
        assert out == "" and err == f"survive-us: {render(words, 'fr')}\n"
    finally:
        jsonio.set_language("en")
