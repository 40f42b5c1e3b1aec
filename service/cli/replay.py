"""`survive-us replay FILE`: rebuild a game exactly from its export (start + actions + dice):
the record itself, or the API's answer to `GET /games/{id}/export` as it was saved.

Without `--json` it tells the game's story in the command's language (`--lang`): each
action in words (figures by their names, moves as a distance and a direction), what
happened (the log's notes), and how it stands at the end.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from ai.words import action_message, side_name
from geometry.errors import SurviveUsError
from i18n import Message, note_text, render, render_text
from rules.actions import parse_action
from rules.errors import InvalidActionError
from rules.game import Game
from scenarios import play as _scenario_play  # noqa: F401  (rebuilds refereed games)
from service.cli.helptext import HelpText
from service.jsonio import language, print_error, print_json, read_json
from service.words import said, side_word


def register(sub: Any, t: HelpText) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "replay", help=t("help.replay"), description=t("help.replay.description"))
    p.add_argument("file", nargs="?", help=t("help.replay.file"))
    p.add_argument("--json", action="store_true", help=t("help.replay.json"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        record = read_json(args.file)
        if isinstance(record, dict) and isinstance(record.get("export"), dict):
            record = record["export"]  # the answer of GET /games/{id}/export, as saved
        if not isinstance(record, dict) or "start" not in record or "log" not in record:
            raise InvalidActionError(Message("cli.replay.not_record"), "record")
        _check_start(record["start"])
        game = Game.replay(record)
    except (SurviveUsError, KeyError, TypeError) as error:
        if not isinstance(error, SurviveUsError):
            error = InvalidActionError(Message("cli.replay.malformed", {"detail": str(error)}),
                                       "record")
        return print_error(error, as_json=args.json)
    if args.json:
        print_json(game.to_json())
        return 0
    lang = language()
    for i, (what, notes) in enumerate(story(record)):
        print(f"{i:3d}. {render(what, lang)}")
        for note in notes:
            print(f"       {note_text(note, lang)}")
    print(render_text("cli.replay.end", {"turn": game.turn, "pools": [
        Message("cli.replay.pool", {"side": side_word(side), "n": n})
        for side, n in game.pools.items()], "result": _result(game.outcome, lang)}, lang))
    return 0


def _check_start(start: Any) -> None:
    """A record's start names each figure once (a game keeps its figures by id: a second
    entry would silently replace the first)."""
    figures = start.get("figures") if isinstance(start, dict) else None
    seen: set[Any] = set()
    for i, figure in enumerate(figures if isinstance(figures, list) else []):
        ident = figure.get("id") if isinstance(figure, dict) else None
        if isinstance(ident, str) and ident in seen:
            raise InvalidActionError(Message("cli.replay.twice", {"id": ident}),
                                     f"start.figures[{i}]")
        seen.add(ident)


def story(record: dict[str, Any]) -> Iterator[tuple[Message, list[Any]]]:
    """Each entry of the record's log: the action in words (said from the position it was
    played from) and its notes."""
    log = record["log"]
    what = Message("act.start")
    for i, game in enumerate(Game.replay_steps(record)):
        yield what, list(game.log[i].get("notes", []))
        if i + 1 < len(log):
            what = _action(game, log[i + 1]["action"])


def _action(game: Game, data: Any) -> Message:
    if isinstance(data, dict) and data.get("type") == "start":
        return Message("act.start")
    try:
        return action_message(game, parse_action(data, "log"))
    except SurviveUsError:
        return Message("act.other")


def _result(outcome: dict[str, Any] | None, lang: str) -> Message:
    if outcome is None:
        return Message("cli.replay.in_progress")
    reason = said(outcome, "reason", lang)
    if outcome.get("winner") in ("survivors", "zombies"):
        return Message("cli.replay.won", {"winner": side_name(outcome["winner"]),
                                          "reason": reason})
    return Message("cli.replay.draw", {"reason": reason})
