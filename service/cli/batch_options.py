"""What `simulate` and `balance` share: who plays, where the games run, the progress bar."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from typing import Any

from geometry.errors import SurviveUsError
from i18n import Message, render_text
from service import lookup
from service.cli.helptext import HelpText

__all__ = ["add_batch_options", "check_batch_options", "progress_bar"]


def add_batch_options(cmd: argparse.ArgumentParser, t: HelpText) -> None:
    """--zombies, --survivors, --band, --jobs and --cluster."""
    cmd.add_argument("--zombies", default="tactician", metavar="AI",
                     help=t("help.batch.zombies"))
    cmd.add_argument("--survivors", default="bot", metavar="AI", help=t("help.batch.survivors"))
    cmd.add_argument("--band", help=t("help.batch.band"))
    cmd.add_argument("--jobs", type=int, default=1, metavar="N", help=t("help.batch.jobs"))
    cmd.add_argument("--cluster", metavar="ADDRESS", help=t("help.batch.cluster"))


def check_batch_options(args: argparse.Namespace,
                        error: Callable[[Message, str], SurviveUsError]) -> None:
    """Refuse a bad --jobs or an unknown policy with the command's own error type."""
    from ai.policy import make_policy

    if args.band is not None:  # an example band by its name as well as its id
        args.band = lookup.band_file_or_example(args.band) or args.band
    if args.jobs < 1:
        raise error(Message("cli.batch.jobs", {"got": args.jobs}), "jobs")
    for side in ("zombies", "survivors"):
        try:
            make_policy(getattr(args, side), side, 0)
        except ValueError as problem:
            words = getattr(problem, "words", None)
            raise error(words if isinstance(words, Message) else Message(
                "cli.batch.policy", {"side": side, "detail": str(problem)}), side) from None


def progress_bar(it: Iterable[Any], total: int) -> Iterable[Any]:
    """A tqdm bar of games on stderr, shown only on a terminal."""
    from tqdm import tqdm  # type: ignore[import-untyped]

    from service.jsonio import language

    unit = " " + render_text("cli.progress.unit", {}, language())
    shown: Iterable[Any] = tqdm(it, total=total, disable=None, file=sys.stderr, unit=unit)
    return shown
