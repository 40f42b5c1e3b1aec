"""The `survive-us demo` command (being written)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser("demo", help="(being written)")
    parser.set_defaults(func=lambda args: 0)
