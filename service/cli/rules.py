"""The `survive-us rules` command: show the loaded rules data.

`rules dump --json` prints the catalog document (see `rules.catalog.Catalog.to_json`);
without `--json` it prints a summary to read at the table, in the command's language
(`--lang`). `--data-dir` checks another copy of the data files, e.g. one being edited. Bad
data exits with status 2.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from geometry.errors import DataError
from i18n import Message, render_text
from rules.catalog import Catalog, load_catalog
from rules.warband import class_name
from service.cli.helptext import HelpText
from service.jsonio import language, print_error

__all__ = ["register"]


def register(sub: Any, t: HelpText) -> None:
    """Add `rules` and its actions to the CLI's subparsers."""
    parser: argparse.ArgumentParser = sub.add_parser("rules", help=t("help.rules"))
    actions = parser.add_subparsers(dest="rules_command", required=True, metavar="ACTION")
    dump = actions.add_parser("dump", help=t("help.rules.dump"))
    dump.add_argument("--json", action="store_true", help=t("help.json"))
    dump.add_argument("--data-dir", type=Path, default=None, metavar="FOLDER",
                      help=t("help.rules.dump.data_dir"))
    dump.set_defaults(func=run_dump)


def run_dump(args: argparse.Namespace) -> int:
    try:
        catalog = load_catalog(args.data_dir)
    except DataError as exc:
        return print_error(exc, as_json=args.json)
    if args.json:
        print(json.dumps(catalog.to_json(), ensure_ascii=False, indent=2))
    else:
        print(summary(catalog, language()))
    return 0


def summary(catalog: Catalog, lang: str = "en") -> str:
    """A plain-text listing in `lang`, one line per entry, in the rulebook's abbreviations
    (M, PV, A, D, I, P, E, R), each name and text in that language."""
    lines = [render_text("cli.rules.archetypes", {"n": len(catalog.archetypes)}, lang)]
    for a in catalog.archetypes.values():
        skills = [s.names for s in catalog.skills_of(a)]
        lines.append("  " + render_text("cli.rules.archetype", {
            "name": _named(a.id, {"fr": a.label, "en": a.label_en}),
            "class": class_name(a.class_),
            "cost": _points(a.cost), "move": a.move, "wounds": a.wounds, "attack": a.attack,
            "defense": a.defense, "intelligence": a.intelligence, "panic": a.panic,
            "load": a.encumbrance, "skills": skills}, lang))
    lines += ["", render_text("cli.rules.zombies", {"n": len(catalog.zombies)}, lang)]
    for z in catalog.zombies.values():
        lines.append("  " + render_text("cli.rules.zombie", {
            "name": _named(z.id, z.names), "cost": _points(z.cost), "move": z.move,
            "wounds": z.wounds, "attack": z.attack, "defense": z.defense,
            "class": class_name(z.from_class)}, lang))
    lines += ["", render_text("cli.rules.equipment", {"n": len(catalog.equipment)}, lang)]
    for e in catalog.equipment.values():
        lines.append("  " + render_text("cli.rules.item", {
            "name": _named(e.id, e.names), "kind": _KINDS.get(e.kind, e.kind),
            "load": e.encumbrance, "rarity": "X" if e.rarity is None else str(e.rarity),
            "text": {"fr": e.text_fr, "en": e.text_en}}, lang))
    lines += ["", render_text("cli.rules.skills", {"n": len(catalog.skills)}, lang)]
    for s in catalog.skills.values():
        lines.append("  " + render_text("cli.rules.skill", {
            "name": _named(s.id, s.names), "cost": _points(s.cost),
            "text": {"fr": s.text_fr, "en": s.text_en}}, lang))
    return "\n".join(lines)


_KINDS = {"melee": Message("cli.rules.kind.melee"), "shooting": Message("cli.rules.kind.shooting"),
          "throwing": Message("cli.rules.kind.throwing"),
          "ammunition": Message("cli.rules.kind.ammunition"),
          "healing": Message("cli.rules.kind.healing"),
          "protection": Message("cli.rules.kind.protection")}


def _named(entry_id: str, names: dict[str, str]) -> Message:
    """An entry by its name and, beside it, the id the commands also take ("Rôdeur
    (rodeur)")."""
    from service.lookup import Choice, named

    return named(Choice(entry_id, names))


def _points(n: int) -> Message:
    from rules.warband import points

    return points(n)
