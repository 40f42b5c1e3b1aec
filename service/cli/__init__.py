"""The `survive-us` command line. Each command lives in its own `service/cli/*.py` module."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from i18n import LANGS, language_of, render_text
from service.cli.helptext import HelpText, Parser
from service.jsonio import environment_language, language, set_language

# Each command's module (service/cli/*.py), in the order the help lists them, with the
# commands it registers. A run imports only its command's module: the others (the HTTP
# app, the database, the camera, the AI's model) cost start-up time for nothing.
MODULES: dict[str, tuple[str, ...]] = {
    "arbitrate": ("arbitrate",), "rules": ("rules",), "odds": ("odds",),
    "band": ("band",), "replay": ("replay",), "demo": ("demo",),
    "scenarios": ("scenarios", "scenario"), "campaign": ("campaign",),
    "simulate": ("simulate",), "balance": ("balance",), "vision": ("vision",),
    "markers": ("markers",), "serve": ("serve",),
}
MAX_SEED = 2**53  # the largest seed the HTTP API takes (service/schemas.py, Seed)
COMMAND_MODULES = {command: name for name, commands in MODULES.items() for command in commands}


def command_module(name: str) -> ModuleType:
    return importlib.import_module(f"service.cli.{name}")


def build_parser(lang: str | None = None, command: str | None = None) -> argparse.ArgumentParser:
    """The command line in `lang` (default: the environment's locale): its help texts, usage
    lines and parse errors (service/cli/helptext.py). With `command` (one of ours), only that
    command's module is imported and registered; otherwise all of them."""
    lang = language_of(lang or environment_language())
    t = HelpText(lang)
    parser = Parser(lang=lang, prog="survive-us", description=t("help.description"))
    parser.add_argument("--lang", choices=["fr", "en"], default=None, help=t("help.lang"))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    names = [COMMAND_MODULES[command]] if command in COMMAND_MODULES else list(MODULES)
    for name in names:
        command_module(name).register(sub, t)
    return parser


def asked_command(argv: Sequence[str]) -> str | None:
    """The command `argv` runs (its first word after `--lang` and its value), when it is
    one of ours; None for the top-level help, any other option before the command, or a
    word argparse should refuse (they need the whole parser)."""
    words = iter(argv)
    for word in words:
        if not word.startswith("-"):
            return word if word in COMMAND_MODULES else None
        name, equals, _value = word.partition("=")
        if not (len(name) > 2 and "--lang".startswith(name)):
            return None
        if not equals:
            next(words, "")
    return None


def asked_language(argv: Sequence[str]) -> str | None:
    """The `--lang` of `argv` (`--lang X`, `--lang=X`, or an abbreviation argparse accepts
    such as `--la X`), read before the parser exists so that its help and errors are in that
    language; None when absent or not a language of ours (argparse then reports it)."""
    asked = None
    words = iter(argv)
    for word in words:
        if word == "--" or not word.startswith("-"):
            break  # the command: what follows is its own
        name, equals, value = word.partition("=")
        if len(name) > 2 and "--lang".startswith(name):
            asked = value if equals else next(words, "")
    return asked if asked in LANGS else None


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(asked_language(argv), asked_command(argv))
    args = parser.parse_args(argv)
    set_language(args.lang or environment_language())
    args.lang = language()
    seed = getattr(args, "seed", None)
    if isinstance(seed, int) and not 0 <= seed <= MAX_SEED:  # as the service's seeds
        print("survive-us: " + render_text("cli.seed_range", {"max": MAX_SEED, "got": seed},
                                           args.lang),
              file=sys.stderr)
        return 2
    try:
        result: int = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`survive-us ... | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return result
