"""`survive-us band check|cost FILE`: check a band (roster) against the building rules.

`band check FILE` prints every problem (errors and warnings, each with its fix) and the costs;
it exits 0 when the band is legal, 1 when it has errors, 2 when the file is malformed (the
reason on stderr; with `--json`, the body `{"error": {"code", "message", "where"}}` too).
`band cost FILE` prints the costs only. FILE '-' reads standard input. `--settings FILE`
reads changed settings (JSON object, docs/rules.md names); `--limit N` sets
`band_points_limit`. The text is in the
command's language (`--lang`), members by their names; with `--json` each problem says its
`message` and `fix` in that language and keeps them as messages (`words`, `fix_words`).
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from geometry.errors import SurviveUsError
from i18n import Message, render_text
from rules.catalog import Catalog, load_catalog
from rules.settings import Settings
from rules.warband import Roster, RosterError, cost_breakdown, member_name, points, validate
from service.cli.helptext import HelpText
from service.jsonio import language, print_error, print_json, read_json
from service.words import localized, said

__all__ = ["register", "costs"]


def register(sub: Any, t: HelpText) -> None:
    parser: argparse.ArgumentParser = sub.add_parser("band", help=t("help.band"))
    actions = parser.add_subparsers(dest="band_command", required=True, metavar="ACTION")
    check = actions.add_parser("check", help=t("help.band.check"),
                               description=t("help.band.check.description"))
    cost = actions.add_parser("cost", help=t("help.band.cost"))
    for action, func in ((check, run_check), (cost, run_cost)):
        action.add_argument("file", help=t("help.band.file"))
        action.add_argument("--json", action="store_true", help=t("help.json"))
        action.add_argument("--settings", metavar="FILE", help=t("help.band.settings"))
        action.add_argument("--limit", type=int, metavar="POINTS", help=t("help.band.limit"))
        action.set_defaults(func=func)


def _read(args: argparse.Namespace) -> tuple[Roster, Settings]:
    roster = Roster.from_json(read_json(args.file))
    settings = Settings.from_json(read_json(args.settings)) if args.settings else Settings()
    if args.limit is not None:
        if args.limit < 0:
            raise RosterError(Message("cli.band.limit", {"got": args.limit}), "limit")
        settings = replace(settings, band_points_limit=args.limit)
    return roster, settings


def costs(roster: Roster, catalog: Catalog, settings: Settings) -> dict[str, Any]:
    """`{"band": total or None, "limit", "members": [{"id", ...breakdown}]}`.

    A figure that cannot be priced (unknown archetype, skill or item) has `"total": null`
    and the band total is null.
    """
    members: list[dict[str, Any]] = []
    for member in roster.members:
        try:
            members.append({"id": member.id, **cost_breakdown(member, catalog, settings)})
        except RosterError:
            members.append({"id": member.id, "total": None})
    totals = [m["total"] for m in members]
    band = None if None in totals else sum(totals)
    return {"band": band, "limit": settings.band_points_limit, "members": members}


def run_check(args: argparse.Namespace) -> int:
    try:
        roster, settings = _read(args)
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
    catalog = load_catalog()
    problems = validate(roster, catalog, settings)
    errors = sum(p.severity == "error" for p in problems)
    priced = costs(roster, catalog, settings)
    if args.json:
        print_json(
            {
                "name": roster.name,
                "legal": errors == 0,
                "errors": errors,
                "warnings": len(problems) - errors,
                "problems": [localized(p.to_json(), language()) for p in problems],
                "cost": priced,
            }
        )
    else:
        lang = language()
        warnings = len(problems) - errors
        print(render_text("cli.band.legal", {"name": roster.names, "warnings": warnings}, lang)
              if errors == 0 else render_text("cli.band.illegal", {
                  "name": roster.names, "errors": errors, "warnings": warnings}, lang))
        for p in problems:
            data = p.to_json()
            # the message names the member; the path (`where`) is for programs (--json)
            line = {"message": said(data, "message", lang)}
            print("  " + (render_text("cli.band.error", line, lang) if p.severity == "error"
                          else render_text("cli.band.warning", line, lang)))
            print("      " + render_text("cli.band.fix", {"fix": said(data, "fix", lang)},
                                         lang))
        print(_cost_text(priced, roster, catalog, lang))
    return 0 if errors == 0 else 1


def run_cost(args: argparse.Namespace) -> int:
    try:
        roster, settings = _read(args)
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
    catalog = load_catalog()
    priced = costs(roster, catalog, settings)
    if args.json:
        print_json({"name": roster.name, "cost": priced})
    else:
        print(roster.names[language()])
        print(_cost_text(priced, roster, catalog, language()))
    return 0 if priced["band"] is not None else 1


def _free(n: int) -> Message:
    """'no free points', '1 free point', '3 free points'."""
    if n == 0:
        return Message("cli.band.free.none")
    if n == 1:
        return Message("cli.band.free.one", {"n": n})
    return Message("cli.band.free.other", {"n": n})


def _cost_text(priced: dict[str, Any], roster: Roster, catalog: Catalog, lang: str) -> str:
    """Each member's cost by its name, then the band's, in `lang`."""
    lines = []
    for member, m in zip(roster.members, priced["members"], strict=True):
        name = member_name(member, roster, catalog)
        if m["total"] is None:
            lines.append("  " + render_text("cli.band.unpriced", {"member": name}, lang))
            continue
        lines.append("  " + render_text("cli.band.cost", {
            "member": name, "total": points(m["total"]), "base": m["base"],
            "skills": m["skill"] + m["second_skill"], "equipment": m["equipment"],
            "carried": m["carried"], "capacity": m["capacity"],
            "free": _free(m["free"])}, lang))
    if priced["band"] is None:
        lines.append("  " + render_text("cli.band.total_unknown", {}, lang))
    elif priced["limit"] is None:
        lines.append("  " + render_text("cli.band.total", {"total": points(priced["band"])},
                                        lang))
    else:
        lines.append("  " + render_text("cli.band.total_limit", {
            "total": points(priced["band"]), "limit": points(priced["limit"])}, lang))
    return "\n".join(lines)
