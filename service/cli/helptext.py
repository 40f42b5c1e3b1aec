"""The command line's help in the player's language: the help texts of `survive-us` and
argparse's own words ("usage:", "options:", "invalid choice", ...), from `help.po`.

The commands write `help=t("help.band.check")`, `t` a `HelpText` of the chosen language.
argparse puts its own words through `gettext` (CPython's Lib/argparse.py calls `_()` and
`ngettext`, module globals it imported from `gettext`), and gettext picks its language from
the environment, in compiled `.mo` files. So `argparse_speaks(lang)` puts our catalogs in
those two names for the length of a block and gives gettext's back after, also when the block
ends in SystemExit (`--help`, a parse error); a `Parser` runs every call that builds, parses
or formats inside that block, so it speaks its language however it is used. Its metavars
("FILE" -> "FICHIER", `help.metavar.*`) and the names argparse gives int and float values
when it refuses one ("a whole number", `help.argparse.type_*`) are in that language too.
"""

from __future__ import annotations

import argparse
import functools
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

from i18n import catalog, render_text

__all__ = ["ARGPARSE_PLURALS", "ARGPARSE_WORDS", "HelpText", "Parser", "argparse_speaks"]

# Every text argparse (Python 3.11) translates, by its English msgid; the catalog texts keep
# argparse's own %-placeholders, which argparse fills.
ARGPARSE_WORDS = {
    "usage: ": "help.argparse.usage",
    "argument %(argument_name)s: %(message)s": "help.argparse.argument",
    ".__call__() not defined": "help.argparse.call_not_defined",
    "conflicting subparser: %s": "help.argparse.conflicting_subparser",
    "conflicting subparser alias: %s": "help.argparse.conflicting_alias",
    "unknown parser %(parser_name)r (choices: %(choices)s)": "help.argparse.unknown_parser",
    'argument "-" with mode %r': "help.argparse.dash_mode",
    "can't open '%(filename)s': %(error)s": "help.argparse.cannot_open",
    "cannot merge actions - two groups are named %r": "help.argparse.cannot_merge",
    "'required' is an invalid argument for positionals": "help.argparse.required_positional",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r":
        "help.argparse.invalid_option_string",
    "dest= is required for options like %r": "help.argparse.dest_required",
    "invalid conflict_resolution value: %r": "help.argparse.conflict_resolution",
    "mutually exclusive arguments must be optional": "help.argparse.exclusive_optional",
    "positional arguments": "help.argparse.positionals",
    "options": "help.argparse.options",
    "show this help message and exit": "help.argparse.help",
    "cannot have multiple subparser arguments": "help.argparse.multiple_subparsers",
    "subcommands": "help.argparse.subcommands",
    "unrecognized arguments: %s": "help.argparse.unrecognized",
    "not allowed with argument %s": "help.argparse.not_allowed_with",
    "ignored explicit argument %r": "help.argparse.ignored_explicit",
    "the following arguments are required: %s": "help.argparse.required",
    "one of the arguments %s is required": "help.argparse.one_required",
    "expected one argument": "help.argparse.expected_one",
    "expected at most one argument": "help.argparse.expected_at_most_one",
    "expected at least one argument": "help.argparse.expected_at_least_one",
    "ambiguous option: %(option)s could match %(matches)s": "help.argparse.ambiguous",
    "unexpected option string: %s": "help.argparse.unexpected_option",
    "%r is not callable": "help.argparse.not_callable",
    "invalid %(type)s value: %(value)r": "help.argparse.invalid_value",
    "invalid choice: %(value)r (choose from %(choices)s)": "help.argparse.invalid_choice",
    "%(prog)s: error: %(message)s\n": "help.argparse.error",
}
# ngettext's singular msgid -> the code whose `.one` and `.other` texts are the two forms
ARGPARSE_PLURALS = {
    "conflicting option string: %s": "help.argparse.conflicting_options",
    "expected %s argument": "help.argparse.expected_n",
}


class HelpText:
    """The help texts in one language: `t("help.serve.db")`, `t("help.demo.table", names=...)`
    (placeholders as in every catalog, docs/translation.md)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, code: str, **params: Any) -> str:
        return render_text(code, params, self.lang)


def _keep_spaces(msgid: str, text: str) -> str:
    """`text` with the spaces and newline around `msgid` ("usage: ", "...%(message)s\\n"):
    argparse needs them, a translator need not keep them."""
    body = msgid.strip()
    start = msgid.find(body)
    return msgid[:start] + text.strip() + msgid[start + len(body):]


def _translator(lang: str) -> tuple[Callable[[str], str], Callable[[str, str, int], str]]:
    """gettext and ngettext for argparse, in `lang`; a text not in the tables stays as it is."""

    def gettext(msgid: str) -> str:
        # argparse asks `_(None)` too, for the description of sub-commands given none
        code = ARGPARSE_WORDS.get(msgid) if isinstance(msgid, str) else None
        return msgid if code is None else _keep_spaces(msgid, render_text(code, {}, lang))

    def ngettext(singular: str, plural: str, n: int) -> str:
        code = ARGPARSE_PLURALS.get(singular)
        if code is None:
            return singular if n == 1 else plural
        from babel import Locale  # here: only a parse error needs it, and it is slow to import

        form = "one" if Locale.parse(lang).plural_form(n) == "one" else "other"
        return _keep_spaces(singular, render_text(f"{code}.{form}", {}, lang))

    return gettext, ngettext


@contextmanager
def argparse_speaks(lang: str) -> Iterator[None]:
    """argparse's own words in `lang` while the block runs (see the module's docstring). The
    swap is the process's while it lasts: one parse at a time, as a command line does."""
    names = ("_", "ngettext")
    saved = [getattr(argparse, name) for name in names]
    for name, function in zip(names, _translator(lang), strict=True):
        setattr(argparse, name, function)
    try:
        yield
    finally:
        for name, function in zip(names, saved, strict=True):
            setattr(argparse, name, function)


class _Formatter(argparse.HelpFormatter):
    """Catalog texts are written as the reader sees them. A '%' in a help text is a percent
    sign ("50 %"), though argparse %-formats every help string (for `%(default)s`, which no
    text of ours uses). A section title keeps its colon, spaced the language's way
    ("options :"), though argparse adds one itself."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        return None if action.help is None else action.help.replace("%", "%%")

    def start_section(self, heading: str | None) -> None:
        super().start_section(heading[:-1] if heading and heading.endswith(":") else heading)


_A = TypeVar("_A", bound=argparse.Action)
_WORD = re.compile(r"[A-Z][A-Z_]*")


def metavar_words(metavar: str, lang: str) -> str:
    """A metavar in `lang`: each upper-case word by its `help.metavar.*` text ("FILE" ->
    "FICHIER", "N|FILE|FOLDER" -> "N|FICHIER|DOSSIER"); a word without one stays."""
    words = catalog(lang)
    return _WORD.sub(lambda m: words.get(f"help.metavar.{m.group(0).lower()}") or m.group(0),
                     metavar)


class _Typed:
    """`int` or `float` under the name argparse's refusal says: argparse writes
    "invalid %(type)s value" with the type's `__name__` ("int"), which a player should not
    meet; this one's is "a whole number" / "un nombre entier"."""

    def __init__(self, kind: Callable[[str], Any], name: str) -> None:
        self.kind = kind
        self.__name__ = name

    def __call__(self, text: str) -> Any:
        return self.kind(text)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that speaks `lang`: its sub-commands' parsers too, and argparse's
    own words whenever it is built, parses, prints its help or fails; its metavars and the
    names of its value types too (`_add_action`)."""

    def __init__(self, *args: Any, lang: str, **kwargs: Any) -> None:
        self.lang = lang
        kwargs.setdefault("formatter_class", _Formatter)
        with argparse_speaks(lang):
            super().__init__(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> Any:
        kwargs.setdefault("parser_class", functools.partial(Parser, lang=self.lang))
        if isinstance(kwargs.get("metavar"), str):
            kwargs["metavar"] = metavar_words(kwargs["metavar"], self.lang)
        with argparse_speaks(self.lang):
            return super().add_subparsers(**kwargs)

    def _add_action(self, action: _A) -> _A:
        """An option or argument as the reader sees it: the metavar in the language (the
        one given, else the one argparse would make of its name), and int and float values
        named in words when argparse refuses one (help.argparse.type_*)."""
        if action.nargs != 0 and action.choices is None and not isinstance(
                action.metavar, tuple):
            shown = action.metavar or action.dest.upper()
            action.metavar = metavar_words(shown, self.lang)
        if action.type is int:
            action.type = _Typed(int, render_text("help.argparse.type_int", {}, self.lang))
        elif action.type is float:
            action.type = _Typed(float, render_text("help.argparse.type_float", {}, self.lang))
        return super()._add_action(action)

    def parse_args(self, args: Iterable[str] | None = None,
                   namespace: Any = None) -> Any:
        with argparse_speaks(self.lang):
            return super().parse_args(args, namespace)

    def parse_known_args(self, args: Iterable[str] | None = None,
                         namespace: Any = None) -> Any:
        with argparse_speaks(self.lang):
            return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        with argparse_speaks(self.lang):
            return super().format_usage()

    def format_help(self) -> str:
        with argparse_speaks(self.lang):
            return super().format_help()

    def error(self, message: str) -> NoReturn:
        with argparse_speaks(self.lang):
            super().error(message)
