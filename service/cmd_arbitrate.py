"""`survive-us arbitrate [FILE]`: answer arbitration questions about a scene (DESIGN.md).

Each answer's `explain` is said in the command's language (`--lang`) and kept as messages
under `explain_words`; `--explain` prints the explanations alone, one line a question.
"""

from __future__ import annotations

import argparse
from typing import Any

from ai.words import said
from geometry.errors import SurviveUsError
from i18n import Message
from service.explain import arbitrate_explained
from service.helptext import HelpText
from service.jsonio import language, print_error, print_json, read_json


def register(sub: Any, t: HelpText) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "arbitrate", help=t("help.arbitrate"), description=t("help.arbitrate.description"))
    parser.add_argument("file", nargs="?", help=t("help.arbitrate.file"))
    parser.add_argument("--json", action="store_true", help=t("help.arbitrate.json"))
    parser.add_argument("--explain", action="store_true", help=t("help.arbitrate.explain"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        result = arbitrate_explained(read_json(args.file))
    except SurviveUsError as error:
        return print_error(error, as_json=not args.explain)
    lang = language()
    for item in result["answers"]:
        item["explain"] = said([Message.from_json(m) for m in item["explain_words"]], lang)
    if args.explain:
        for i, item in enumerate(result["answers"]):
            print(f"{i + 1}. {item['explain']}")
        return 0
    print_json(result)
    return 0
