"""`python -m i18n check [--unused]`: see `i18n.check`."""

from __future__ import annotations

import argparse
import sys

from i18n.check import problems, unused


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m i18n", description=__doc__)
    parser.add_argument("command", choices=["check"])
    parser.add_argument("--unused", action="store_true",
                        help="also list the codes no code names literally")
    args = parser.parse_args(argv)
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
