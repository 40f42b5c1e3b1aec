"""Reading JSON input for the command line, with errors in the project's format."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from geometry.errors import SurviveUsError

__all__ = ["InputError", "read_json", "print_json", "print_error"]


class InputError(SurviveUsError, ValueError):
    """Input that is not readable JSON."""

    code = "invalid_json"


def read_json(path: str | None) -> Any:
    """Parse JSON from a file, or from standard input when `path` is None or '-'."""
    name = "stdin" if path in (None, "-") else str(path)
    try:
        text = sys.stdin.read() if name == "stdin" else Path(name).read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot read {name}: {error.strerror}", name) from None
    except UnicodeDecodeError:
        raise InputError(f"{name} is not UTF-8 text", name) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        where = f"{name}: line {error.lineno} column {error.colno}"
        raise InputError(f"{name} is not valid JSON: {error.msg} at {where}", where) from None


def print_json(data: Any, pretty: bool = True) -> None:
    json.dump(data, sys.stdout, indent=2 if pretty else None, ensure_ascii=False)
    sys.stdout.write("\n")


def print_error(error: SurviveUsError) -> int:
    """Print the error body on stdout, a one-line message on stderr; exit status 2."""
    print_json(error.to_json())
    print(f"survive-us: {error.message}", file=sys.stderr)
    return 2
