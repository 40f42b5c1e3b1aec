"""`survive-us arbitrate [FILE]`: answer arbitration questions about a scene (DESIGN.md)."""

from __future__ import annotations

import argparse
from typing import Any

from geometry.errors import SurviveUsError
from rules.arbitration import arbitrate
from service.jsonio import print_error, print_json, read_json


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
        result = arbitrate(read_json(args.file))
    except SurviveUsError as error:
        return print_error(error)
    if args.explain:
        for i, item in enumerate(result["answers"]):
            print(f"{i + 1}. {item.get('explain', '')}")
        return 0
    print_json(result)
    return 0
