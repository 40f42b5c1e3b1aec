"""Reading JSON input for the command line, with errors in the project's format, and the
language the command line speaks (`survive-us --lang fr|en`, else the environment's locale,
else English)."""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path
from typing import Any

from geometry.errors import SurviveUsError
from i18n import Message, language_of

__all__ = ["InputError", "read_json", "print_json", "print_error", "language", "set_language",
           "environment_language", "os_reason"]

_LANG = ["en"]


def environment_language() -> str:
    """The language of the environment's locale (LC_ALL, LC_MESSAGES, LANG, as gettext reads
    them); English when it is neither French nor English ("C", unset)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return language_of(value)
    return "en"


def set_language(lang: str) -> None:
    _LANG[0] = language_of(lang)


def language() -> str:
    """The language this command speaks."""
    return _LANG[0]


class InputError(SurviveUsError, ValueError):
    """Input that is not readable JSON."""

    code = "invalid_json"


def read_json(path: str | None) -> Any:
    """Parse JSON from a file, or from standard input when `path` is None or '-'."""
    name = "stdin" if path in (None, "-") else str(path)
    try:
        text = sys.stdin.read() if name == "stdin" else Path(name).read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(Message("cli.file.unreadable", {"file": name,
                                                         "reason": os_reason(error)}),
                         name) from None
    except UnicodeDecodeError:
        raise InputError(Message("cli.file.not_utf8", {"file": name}), name) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        where = f"{name}: line {error.lineno} column {error.colno}"
        raise InputError(Message("cli.file.not_json", {
            "file": name, "line": error.lineno, "column": error.colno}), where) from None


def os_reason(error: OSError) -> Message:
    """Why the system refused a file, in words ("no such file", "permission denied")."""
    if error.errno == errno.ENOENT:
        return Message("cli.os.missing")
    if error.errno in (errno.EACCES, errno.EPERM):
        return Message("cli.os.denied")
    if error.errno == errno.EISDIR:
        return Message("cli.os.directory")
    if error.errno == errno.ENOSPC:
        return Message("cli.os.full")
    if error.errno == errno.EADDRINUSE:
        return Message("cli.os.in_use")
    return Message("cli.os.other", {"n": error.errno or 0})


def print_json(data: Any, pretty: bool = True) -> None:
    json.dump(data, sys.stdout, indent=2 if pretty else None, ensure_ascii=False)
    sys.stdout.write("\n")


def print_error(error: SurviveUsError, *, as_json: bool) -> int:
    """A one-line message on stderr, and the error body (`{"error": {"code", "message",
    "where", "words"}}`) on stdout when the command's output is JSON (`as_json`: `--json`,
    or `arbitrate`), so that a program reading it gets JSON either way and a person never
    meets it; exit status 2."""
    if as_json:
        print_json(error.to_json(language()))
    print(f"survive-us: {error.text(language())}", file=sys.stderr)
    return 2
