"""The `survive-us` command line. Each command lives in its own `service/cmd_*.py` module."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

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
from service.jsonio import environment_language, language, set_language

COMMANDS = (cmd_arbitrate, cmd_rules, cmd_odds, cmd_band, cmd_replay, cmd_demo, cmd_scenarios,
            cmd_campaign, cmd_simulate, cmd_balance, cmd_vision, cmd_markers, cmd_serve)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="survive-us", description="Table service for the Survive Us miniatures game."
    )
    parser.add_argument("--lang", choices=["fr", "en"], default=None,
                        help="the language of what the commands say (default: the "
                             "environment's locale, English when it is neither)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
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
