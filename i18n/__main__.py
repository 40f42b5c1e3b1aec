"""`python -m i18n check [--unused]` (see `i18n.check`) and
`python -m i18n add FILE CODE --en TEXT --fr TEXT` (see `i18n.edit`)."""

from __future__ import annotations

import argparse
import sys

from i18n.catalogs import catalog
from i18n.check import problems, unused
from i18n.edit import EditError, add


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m i18n", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="report every missing or mismatched text")
    check.add_argument("--unused", action="store_true",
                       help="also list the codes no code names literally")
    new = commands.add_parser("add", help="add a code in both languages")
    new.add_argument("file", help="the catalog file, without .po (engine, page, ai, ...)")
    new.add_argument("code")
    new.add_argument("--en", required=True)
    new.add_argument("--fr", required=True)
    args = parser.parse_args(argv)
    if args.command == "add":
        try:
            add(args.file, args.code, {"en": args.en, "fr": args.fr})
        except EditError as exc:
            print(exc, file=sys.stderr)
            return 2
        catalog.cache_clear()
        return 0
    found = problems()
    for line in found:
        print(line)
    if args.unused:
        for code in unused():
            print(f"unused? {code}")
    print(f"{len(found)} problem(s)" if found else "the catalogs are complete",
          file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
