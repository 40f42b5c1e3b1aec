"""`survive-us arbitrate [FILE]`: answer arbitration questions about a scene (DESIGN.md).

The request is held to the service's limits (`rules.limits`: figures, terrain, questions;
and 10 s of computation): a request over one exits with status 2 and the error naming it.
Each answer's `explain` is said in the command's language (`--lang`) and kept as messages
under `explain_words`; `--explain` prints the explanations alone, one line a question.
"""

from __future__ import annotations

import argparse
import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from geometry.errors import SurviveUsError
from i18n import joined
from rules.limits import check_arbitration
from service.cli.helptext import HelpText
from service.explain import explained
from service.jsonio import language, print_error, print_rows, read_json
from service.workers import time_budget

ARBITRATE_BUDGET = 10.0  # seconds, as the service's arbitration workers (service/app.py)


def register(sub: Any, t: HelpText) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "arbitrate", help=t("help.arbitrate"), description=t("help.arbitrate.description"))
    parser.add_argument("file", nargs="?", help=t("help.arbitrate.file"))
    parser.add_argument("--json", action="store_true", help=t("help.arbitrate.json"))
    parser.add_argument("--explain", action="store_true", help=t("help.arbitrate.explain"))
    parser.set_defaults(func=run)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused while the answers are made and written: they hold no
    reference cycle, and scanning the thousands of new objects again and again cost about a
    twentieth of a thousand sight questions. Freed as ever when their last reference goes."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def run(args: argparse.Namespace) -> int:
    with _no_cycle_collection():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        request = read_json(args.file)
        check_arbitration(request)  # the service's limits (docs/api.md, "Limits")
        with time_budget(ARBITRATE_BUDGET):
            answers = explained(request)
    except SurviveUsError as error:
        return print_error(error, as_json=not args.explain)
    lang = language()
    if args.explain:
        for i, (_item, words) in enumerate(answers):
            print(f"{i + 1}. {joined(words, lang)}")
        return 0
    # Said from the messages themselves, which print_rows writes as their JSON beside (as
    # `POST /arbitrate` has them).
    for item, words in answers:
        item["explain_words"] = words
        item["explain"] = joined(words, lang)
    print_rows({"answers": [item for item, _words in answers]})
    return 0
