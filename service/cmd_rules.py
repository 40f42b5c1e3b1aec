"""The `survive-us rules` command: show the loaded rules data.

`rules dump --json` prints the catalog document (see `rules.catalog.Catalog.to_json`);
without `--json` it prints a summary to read at the table. `--data-dir` checks another
copy of the data files, e.g. one being edited. Bad data exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from geometry.errors import DataError
from rules.catalog import Catalog, load_catalog

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add `rules` and its actions to the CLI's subparsers."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "rules", help="show the rules data (archetypes, zombies, equipment, skills)"
    )
    actions = parser.add_subparsers(dest="rules_command", required=True, metavar="ACTION")
    dump = actions.add_parser("dump", help="print the loaded and validated rules data")
    dump.add_argument("--json", action="store_true", help="print JSON")
    dump.add_argument(
        "--data-dir", type=Path, default=None, help="read the TOML files from this directory"
    )
    dump.set_defaults(func=run_dump)


def run_dump(args: argparse.Namespace) -> int:
    try:
        catalog = load_catalog(args.data_dir)
    except DataError as exc:
        if args.json:
            print(json.dumps(exc.to_json(), ensure_ascii=False, indent=2))
        else:
            print(f"survive-us rules: {exc.message}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(catalog.to_json(), ensure_ascii=False, indent=2))
    else:
        print(summary(catalog))
    return 0


def summary(catalog: Catalog) -> str:
    """A plain-text listing, one line per entry, in the rulebook's abbreviations; each name
    in French, then in English."""
    lines = [f"Archetypes ({len(catalog.archetypes)})"]
    for a in catalog.archetypes.values():
        skills = ", ".join(s.name for s in catalog.skills_of(a))
        lines.append(
            f"  {a.label:<20} {a.label_en:<18} {a.class_:<8} {_points(a.cost):>6}"
            f"  M{a.move} PV{a.wounds} A{a.attack}"
            f" D{a.defense}+ I{a.intelligence}+ P{a.panic}+ E{a.encumbrance}  {skills}"
        )
    lines.append(f"\nZombies ({len(catalog.zombies)})")
    for z in catalog.zombies.values():
        lines.append(
            f"  {z.name:<20} {z.name_en:<18} {_points(z.cost):<6}"
            f" M{z.move} PV{z.wounds} A{z.attack} D{z.defense}+"
            f"  (a contaminated {z.from_class} becomes one)"
        )
    lines.append(f"\nEquipment ({len(catalog.equipment)})")
    for e in catalog.equipment.values():
        rarity = "X" if e.rarity is None else e.rarity
        lines.append(f"  {e.name:<22} {e.name_en:<18} {e.kind:<10} E{e.encumbrance} "
                     f"R{rarity:<2}  {e.text_fr}")
    lines.append(f"\nSkills ({len(catalog.skills)})")
    for s in catalog.skills.values():
        lines.append(f"  {s.name:<18} {s.name_en:<16} {_points(s.cost):<6} {s.text_fr}")
    return "\n".join(lines)


def _points(n: int) -> str:
    return f"{n} pt" if n == 1 else f"{n} pts"
