"""The `survive-us` command line. Each command lives in its own `service/cmd_*.py` module."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from i18n import LANGS, language_of
from service import (
    cmd_arbitrate,
    cmd_balance,
    cmd_band,
    cmd_campaign,
    cmd_demo,
    cmd_markers,
    cmd_odds,
    cmd_replay,
    cmd_rules,
    cmd_scenarios,
    cmd_serve,
    cmd_simulate,
    cmd_vision,
)
from service.helptext import HelpText, Parser
from service.jsonio import environment_language, language, set_language

COMMANDS = (cmd_arbitrate, cmd_rules, cmd_odds, cmd_band, cmd_replay, cmd_demo, cmd_scenarios,
            cmd_campaign, cmd_simulate, cmd_balance, cmd_vision, cmd_markers, cmd_serve)


def build_parser(lang: str | None = None) -> argparse.ArgumentParser:
    """The command line in `lang` (default: the environment's locale): its help texts, usage
    lines and parse errors (service/helptext.py)."""
    lang = language_of(lang or environment_language())
    t = HelpText(lang)
    parser = Parser(lang=lang, prog="survive-us", description=t("help.description"))
    parser.add_argument("--lang", choices=["fr", "en"], default=None, help=t("help.lang"))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub, t)
    return parser


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
    parser = build_parser(asked_language(argv))
    args = parser.parse_args(argv)
    set_language(args.lang or environment_language())
    args.lang = language()
    try:
        result: int = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`survive-us ... | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return result
