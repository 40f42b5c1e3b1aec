"""`survive-us balance`: the zombie points at which a zombie player wins half the games, per
scenario card (see `ai.balance`).

`--cards all|ID,ID --points P,P,.. | --factors F,F,.. --games N --seed S [--zombies POLICY]
[--survivors POLICY] [--band B] [--jobs K | --cluster ADDRESS] [--plot FILE.svg|png]
[--out FILE.md] [--save FILE.json] [--json]` plays every card at every level (game i of a
level from seed S + i) as one batch with a progress bar on a terminal, then prints the
table (or the JSON report), writes the plot, the markdown table and the JSON report where
asked. `--from FILE.json` (repeatable) redraws the table and plot of saved reports without
playing: a study split by cards (one evening each, or one machine each) joins up again.
Bad input, or a scheduler that cannot be reached, exits with status 2. The table and the
plot are in the command's language (`--lang`); the JSON report keeps its English notes and
adds them as messages (`note_words`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from geometry.errors import SurviveUsError
from i18n import Message
from service import lookup
from service.cli.batch_options import add_batch_options, check_batch_options, progress_bar
from service.cli.helptext import HelpText
from service.cli.simulate import require_extra
from service.jsonio import language, os_reason, print_error, print_json, read_json

__all__ = ["register", "BalanceError"]


class BalanceError(SurviveUsError, ValueError):
    code = "bad_balance"


def register(sub: Any, t: HelpText) -> None:
    cmd: argparse.ArgumentParser = sub.add_parser(
        "balance", help=t("help.balance"), description=t("help.balance.description"))
    cmd.add_argument("--cards", default="all", help=t("help.balance.cards"))
    levels = cmd.add_mutually_exclusive_group()
    levels.add_argument("--points", help=t("help.balance.points"))
    levels.add_argument("--factors", help=t("help.balance.factors"))
    cmd.add_argument("--games", type=int, metavar="N", help=t("help.balance.games"))
    cmd.add_argument("--seed", type=int, default=0, help=t("help.balance.seed"))
    add_batch_options(cmd, t)
    cmd.add_argument("--plot", metavar="FILE", help=t("help.balance.plot"))
    cmd.add_argument("--out", metavar="FILE", help=t("help.balance.out"))
    cmd.add_argument("--save", metavar="FILE", help=t("help.balance.save"))
    cmd.add_argument("--from", dest="source", metavar="FILE", action="append",
                     help=t("help.balance.from"))
    cmd.add_argument("--json", action="store_true", help=t("help.balance.json"))
    cmd.set_defaults(func=run)


def _numbers(text: str, kind: type, name: str) -> list[Any]:
    try:
        values = [kind(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise BalanceError(Message("cli.balance.numbers", {"option": name, "got": text}),
                           name) from None
    if not values:
        raise BalanceError(Message("cli.balance.no_levels", {"option": name, "got": text}),
                           name)
    if min(values) < 0:
        raise BalanceError(Message("cli.balance.negative", {"option": name,
                                                            "got": min(values)}), name)
    return values


def _card(name: str, cards: list[lookup.Choice]) -> str:
    def unknown(known: list[Message]) -> BalanceError:
        return BalanceError(Message("cli.balance.card", {"name": name, "known": known}),
                            "cards")

    return lookup.resolve(name, cards, unknown)


def _cards(text: str) -> list[str]:
    """The cards of `--cards`, by their ids (given by id or name)."""
    cards = lookup.cards()
    if text == "all":
        return [c.id for c in cards]
    chosen = [_card(c.strip(), cards) for c in text.split(",") if c.strip()]
    if not chosen:
        raise BalanceError(Message("cli.balance.no_card"), "cards")
    return chosen


def _play(args: argparse.Namespace) -> Any:
    from ai.balance import sweep

    cards = _cards(args.cards)
    if args.points is None and args.factors is None:
        raise BalanceError(Message("cli.balance.levels"), "points")
    points = _numbers(args.points, int, "points") if args.points else []
    factors = _numbers(args.factors, float, "factors") if args.factors else []
    if args.games is None or args.games < 1:
        raise BalanceError(Message("cli.simulate.games", {"got": args.games}), "games")
    check_batch_options(args, BalanceError)
    if args.cluster:
        require_extra("distributed", "--cluster", "cluster", BalanceError)

    return sweep(cards, args.games, args.seed, points=points, factors=factors,
                 zombies=args.zombies, survivors=args.survivors, band=args.band,
                 jobs=args.jobs, cluster=args.cluster, progress=progress_bar)


def _joined(paths: list[str]) -> Any:
    """The saved reports as one: the same players, band, seed and games a level, other
    cards."""
    from ai.balance import BalanceReport

    reports = []
    for path in paths:
        try:
            reports.append(BalanceReport.from_json(read_json(path)))
        except (KeyError, TypeError, IndexError) as error:
            raise BalanceError(Message("cli.balance.not_report", {"file": path,
                                                                  "detail": str(error)}),
                               path) from None
    first = reports[0]
    cards: list[Any] = []
    for path, report in zip(paths, reports, strict=True):
        how = (report.zombies, report.survivors, report.band, report.seed, report.games)
        if how != (first.zombies, first.survivors, first.band, first.seed, first.games):
            raise BalanceError(Message("cli.balance.otherwise", {"file": path,
                                                                 "first": paths[0]}), path)
        for card in report.cards:
            if any(c.card == card.card for c in cards):
                raise BalanceError(Message("cli.balance.twice", {"file": path,
                                                                 "card": card.card}), path)
            cards.append(card)
    return BalanceReport(first.zombies, first.survivors, first.band, first.seed, first.games,
                         tuple(cards))


def run(args: argparse.Namespace) -> int:
    from ai.balance import markdown_table, plot

    try:
        if args.plot:
            require_extra("matplotlib", "--plot", "plot", BalanceError)
        report = _joined(args.source) if args.source else _play(args)
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
    except (KeyError, OSError) as error:
        from service.cli.simulate import band_problem

        return print_error(BalanceError(band_problem(args.band, error), "band"),
                           as_json=args.json)
    lang = language()
    table = markdown_table(report, lang)
    try:
        if args.plot:
            plot(report, args.plot, lang)
        if args.out:
            Path(args.out).write_text(table, encoding="utf-8")
        if args.save:
            Path(args.save).write_text(json.dumps(report.to_json(), indent=1) + "\n",
                                       encoding="utf-8")
    except (OSError, ValueError) as error:
        detail = os_reason(error) if isinstance(error, OSError) else str(error)
        return print_error(BalanceError(Message("cli.balance.write", {"detail": detail}),
                                        "out"), as_json=args.json)
    if args.json:
        print_json(report.to_json())
    else:
        sys.stdout.write(table)
    return 0
