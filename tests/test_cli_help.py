"""The command line's help, usage lines and parse errors speak one language, French or
English, never a mix (service/cli/helptext.py, i18n/locale/*/LC_MESSAGES/help.po).

The words come from the catalogs, not a list kept here: every help text of the chosen
language is shown somewhere, and no English text that differs from its French one shows
in French (and the other way round)."""

from __future__ import annotations

import argparse
import ast
import inspect
import re
from collections.abc import Iterator

import pytest

from i18n.catalogs import LOCALE, read_file
from service.cli import asked_language, build_parser, main
from service.cli.helptext import ARGPARSE_PLURALS, ARGPARSE_WORDS, argparse_speaks

HELP = {lang: read_file(LOCALE / lang / "LC_MESSAGES" / "help.po", lang) for lang in ("fr", "en")}
OTHER = {"fr": "en", "en": "fr"}
# what fills a text in: argparse's %(name)s and %s, the catalogs' {name}
_PLACEHOLDER = re.compile(r"%\(\w+\)[sr]|%[sr]|\{\w+(?::\w+)?\}")


def commands(parser: argparse.ArgumentParser,
             path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command and sub-command, as the words that name it on the command line."""
    yield path
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from commands(child, (*path, name))


def flat(text: str) -> str:
    return " ".join(text.split())


def fragments(text: str) -> list[str]:
    """The fixed words of a catalog text, between its placeholders."""
    return [flat(part) for part in _PLACEHOLDER.split(text) if re.search(r"[^\W\d_]{3}", part)]


def help_output(lang: str, path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        main(["--lang", lang, *path, "--help"])
    assert stop.value.code == 0
    out, err = capsys.readouterr()
    assert not err
    return flat(out)


ALL = list(commands(build_parser("en")))


def test_every_command_is_walked() -> None:
    assert ("band", "check") in ALL and ("vision", "watch") in ALL and () in ALL
    assert len(ALL) > 30


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_help_speaks_one_language(lang: str, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "10000")  # no wrapping: a text stays on one line
    outputs = {path: help_output(lang, path, capsys) for path in ALL}
    ours, theirs = HELP[lang], HELP[OTHER[lang]]
    foreign = {piece for code, text in theirs.items() if text != ours[code]
               for piece in fragments(text) if piece not in flat(ours[code])}
    for path, out in outputs.items():
        found = [piece for piece in foreign if re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", out)]
        assert not found, (path, found)
    shown = " | ".join(outputs.values())
    for code, text in ours.items():
        if code.startswith("help.argparse.") and code not in {
                "help.argparse.usage", "help.argparse.help"}:
            continue  # argparse's errors: test_parse_errors_speak_the_language
        for piece in fragments(text.rstrip(":")):
            assert piece in shown, (code, piece)
    assert flat(ours["help.argparse.positionals"]) in shown
    assert flat(ours["help.argparse.options"]) in shown


def test_no_help_text_is_left_untranslated() -> None:
    assert [code for code in HELP["en"] if HELP["en"][code] == HELP["fr"][code]] == []


def test_every_help_text_is_a_catalog_text() -> None:
    """No help text is written in the source, or left a code the catalogs lack."""
    parser = build_parser("fr")
    patterns = [re.compile(".*".join(re.escape(part) for part in _PLACEHOLDER.split(text)),
                           re.DOTALL) for text in HELP["fr"].values()]

    def texts(parser: argparse.ArgumentParser) -> Iterator[str]:
        yield from filter(None, [parser.description, parser.epilog])
        for action in parser._actions:
            if action.help:
                yield action.help
            if isinstance(action, argparse._SubParsersAction):
                yield from (choice.help for choice in action._choices_actions if choice.help)
                for child in action.choices.values():
                    yield from texts(child)

    for text in texts(parser):
        assert any(pattern.fullmatch(text) for pattern in patterns), text


@pytest.mark.parametrize(("lang", "argv", "words"), [
    ("fr", ["band", "frob"], ["utilisation :", "erreur :", "choix invalide : 'frob'",
                              "(choisir parmi 'check', 'cost')"]),
    ("en", ["band", "frob"], ["usage:", "error:", "invalid choice: 'frob'",
                              "(choose from 'check', 'cost')"]),
    ("fr", ["campaign", "draw"], ["les arguments suivants sont requis : --length, --seed"]),
    ("en", ["campaign", "draw"], ["the following arguments are required: --length, --seed"]),
    ("fr", ["campaign", "draw", "--length", "x"],
     ["argument --length : un nombre entier était attendu, pas « x »"]),
    ("en", ["campaign", "draw", "--length", "x"],
     ["argument --length: a whole number was expected, not 'x'"]),
    ("fr", ["vision", "watch", "0", "--every", "x"],
     ["un nombre était attendu, pas « x »"]),
    ("fr", ["serve", "--port"], ["argument --port : un argument attendu"]),
    ("fr", ["rules", "dump", "extra"], ["arguments non reconnus : extra"]),
    ("fr", ["balance", "--points", "1", "--factors", "1"],
     ["argument --factors : interdit avec l'argument --points"]),
])
def test_parse_errors_speak_the_language(lang: str, argv: list[str], words: list[str],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--lang", lang, *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    for word in words:
        assert word in err
    if lang == "fr":
        assert "usage" not in err and "error" not in err and "required" not in err
    assert not re.search(r"\b(int|float)\b", err)  # Python's type names


def test_the_language_is_known_before_parsing(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert asked_language(["--lang", "fr", "band"]) == "fr"
    assert asked_language(["--lang=en", "band"]) == "en"
    assert asked_language(["--la", "fr", "-h"]) == "fr"  # argparse takes the abbreviation
    assert asked_language(["--lang", "de"]) is None
    assert asked_language(["band", "check", "--lang", "fr"]) is None  # not the command's
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    with pytest.raises(SystemExit):
        main(["band", "--help"])
    assert "utilisation :" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--lang=en", "band", "--help"])
    assert "usage:" in capsys.readouterr().out


def test_argparse_words_are_put_back() -> None:
    before = vars(argparse)["_"]
    with pytest.raises(SystemExit), argparse_speaks("fr"):
        assert vars(argparse)["_"]("usage: ") == "utilisation : "
        raise SystemExit(0)
    assert vars(argparse)["_"] is before
    build_parser("fr").format_help()
    assert vars(argparse)["_"] is before
    assert argparse.ArgumentParser(prog="x").format_help().startswith("usage: x")


def test_every_word_argparse_translates_is_in_the_catalogs() -> None:
    """Read off this Python's argparse: each `_("...")` and `ngettext("...")` text."""
    tree = ast.parse(inspect.getsource(argparse))
    said = {(node.func.id, node.args[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("_", "ngettext") and node.args
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)}
    assert said, "argparse no longer translates with _() and ngettext()"
    for function, msgid in said:
        assert msgid in (ARGPARSE_WORDS if function == "_" else ARGPARSE_PLURALS), msgid
    codes = [*ARGPARSE_WORDS.values()] + [f"{code}.{form}" for code in ARGPARSE_PLURALS.values()
                                           for form in ("one", "other")]
    for code in codes:
        # argparse fills the same placeholders in (a text may say one as %s or %r: «x», 'x')
        kept = [sorted(re.findall(r"%\((\w+)\)[sr]|%[sr]", HELP[lang][code])) for lang in HELP]
        assert kept[0] == kept[1], code


def test_every_option_says_what_it_is_for() -> None:
    """No option or argument is listed bare in a --help."""
    def bare(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> Iterator[str]:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    yield from bare(child, (*path, name))
            elif not action.help:
                yield " ".join((*path, *(action.option_strings or [action.dest])))

    assert list(bare(build_parser("en"), ())) == []


@pytest.mark.parametrize(("path", "fr", "en"), [
    ((), "COMMANDE", "COMMAND"),
    (("band", "check"), "FICHIER", "FILE"),
    (("odds",), "--attacker PROFIL", "--attacker PROFILE"),
    (("scenario", "play"), "--seed GRAINE", "--seed SEED"),
    (("vision", "watch"), "N|FICHIER|DOSSIER", "N|FILE|FOLDER"),
])
def test_the_placeholders_of_the_usage_are_in_the_language(
        path: tuple[str, ...], fr: str, en: str, capsys: pytest.CaptureFixture[str]) -> None:
    french = help_output("fr", path, capsys)
    english = help_output("en", path, capsys)
    assert fr in french and en in english
    assert not re.search(rf"(?<![\w-]){re.escape(en)}(?![\w-])", french)
