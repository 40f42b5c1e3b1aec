"""`survive-us replay FILE`: rebuild a game exactly from its export (start + actions + dice)."""

from __future__ import annotations

import argparse
from typing import Any

from geometry.errors import SurviveUsError
from i18n import note_text
from rules.errors import InvalidActionError
from rules.game import Game
from scenarios import play as _scenario_play  # noqa: F401  (rebuilds refereed games)
from service.jsonio import language, print_error, print_json, read_json


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "replay", help="rebuild a game from its exported record",
        description="FILE is what a game exports: {\"start\": STATE, \"log\": [...]}. "
        "Prints the final state (--json) or the story of the game.")
    p.add_argument("file", nargs="?", help="the record (default: stdin)")
    p.add_argument("--json", action="store_true", help="print the rebuilt state as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        record = read_json(args.file)
        if not isinstance(record, dict) or "start" not in record or "log" not in record:
            raise InvalidActionError("a game record has 'start' and 'log'", "record")
        game = Game.replay(record)
    except (SurviveUsError, KeyError, TypeError) as error:
        if not isinstance(error, SurviveUsError):
            error = InvalidActionError(f"malformed game record: missing or bad {error}",
                                       "record")
        return print_error(error)
    if args.json:
        print_json(game.to_json())
        return 0
    for i, entry in enumerate(game.log):
        print(f"{i:3d}. {entry['action']}")
        for note in entry.get("notes", []):
            print(f"       {note_text(note, language())}")
    outcome = game.outcome
    print(f"turn {game.turn}, pools {game.pools}, "
          + (f"{outcome['winner']} won: {outcome['reason']}" if outcome else "in progress"))
    return 0
