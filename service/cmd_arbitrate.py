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
from service.jsonio import language, print_error, print_json, read_json


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "arbitrate",
        help="answer distance, sight, activation, contact, shooting and path questions",
        description='Reads {"scene": SCENE, "questions": [...]} from FILE or stdin and '
        'prints {"answers": [...]}. A bad request prints {"error": ...} and exits 2.',
    )
    parser.add_argument("file", nargs="?", help="request JSON (default: stdin)")
    parser.add_argument("--json", action="store_true", help="accepted for symmetry; output is JSON")
    parser.add_argument("--explain", action="store_true", help="print the explanations as text")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        result = arbitrate_explained(read_json(args.file))
    except SurviveUsError as error:
        return print_error(error)
    lang = language()
    for item in result["answers"]:
        item["explain"] = said([Message.from_json(m) for m in item["explain_words"]], lang)
    if args.explain:
        for i, item in enumerate(result["answers"]):
            print(f"{i + 1}. {item['explain']}")
        return 0
    print_json(result)
    return 0
