"""Reading JSON input for the command line and the service, with errors in the project's
format, and the language the command line speaks (`survive-us --lang fr|en`, else the
environment's locale, else English).

`parse_json` is the one strict reader of JSON from outside (a request body, a file): it
refuses, naming where, what no stored record could be read back from: nesting deeper than
`MAX_DEPTH` (Python's own reader overflows its stack near 1,000), `NaN` and `Infinity`
(not JSON; PostgreSQL refuses them), numbers beyond a float or longer than `MAX_DIGITS`
digits, and text holding a NUL character (no PostgreSQL text can) or a lone UTF-16
surrogate (no UTF-8 can encode it).
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import sys
from itertools import accumulate
from pathlib import Path
from typing import Any

from geometry.errors import SurviveUsError
from i18n import Message, language_of

__all__ = ["InputError", "JsonRefused", "read_json", "parse_json", "text_problem",
           "print_json", "print_rows", "print_error", "language", "set_language",
           "environment_language",
           "os_reason", "MAX_DEPTH", "MAX_DIGITS"]

MAX_DEPTH = 32  # objects and lists inside each other; the deepest real record is 11
MAX_DIGITS = 30  # an integer's digits (a seed is at most 16)

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
        return parse_json(text, name, colon=True)
    except json.JSONDecodeError as error:
        where = f"{name}: line {error.lineno} column {error.colno}"
        raise InputError(Message("cli.file.not_json", {
            "file": name, "line": error.lineno, "column": error.colno}), where) from None


class JsonRefused(InputError):
    """Readable JSON the service will not take (`code`: invalid_json for NaN and Infinity,
    which are not JSON; too_deep, invalid_number, invalid_text for the others)."""

    def __init__(self, message: Message, where: str, code: str) -> None:
        super().__init__(message, where)
        self.code = code


class _Refused:
    """A literal the reader met and refused, kept in place until the walk names where."""

    __slots__ = ("literal", "kind")

    def __init__(self, literal: str, kind: str) -> None:
        self.literal = literal
        self.kind = kind


# Each a pass of C code over the body's UTF-8 bytes (bytes.translate, `in`), so that a body
# holding nothing odd (nearly every one) is read about as fast as by `json.loads` alone; the
# walk item by item runs only on a suspect, to name where the problem is.
_LONE = re.compile("[\ud800-\udfff]")
_ESCAPED_LONE = re.compile(rb"\\u[dD][89abcdefABCDEF]")  # \udXXX (a pair passes the walk)
_RAW_LONE = re.compile(rb"\xed[\xa0-\xbf]")  # a surrogate in UTF-8 (surrogatepass)
_NUMBERS = bytes.maketrans(b"0123456789E+", b"9999999999e-")  # a long number: read with hooks
_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1


def _suspect(raw: bytes) -> bool:
    """Whether the text may hold a NUL or a lone surrogate, raw or escaped."""
    return (b"\x00" in raw or b"\\u0000" in raw
            or (b"\\u" in raw and _ESCAPED_LONE.search(raw) is not None)
            or (b"\xed" in raw and _RAW_LONE.search(raw) is not None))


def _long_number(raw: bytes) -> bool:
    """Whether a number may have more than `MAX_DIGITS` digits or a 3-digit exponent."""
    shape = raw.translate(_NUMBERS)
    return b"9" * (MAX_DIGITS + 1) in shape or b"e999" in shape or b"e-999" in shape


def _deep(raw: bytes) -> bool:
    """Whether the brackets nest deeper than `MAX_DEPTH` (brackets inside strings counted
    too: the walk that follows is exact)."""
    brackets = raw.translate(None, _BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > MAX_DEPTH


def _safe(text: str) -> str:
    """A text as it may be said back: a NUL or a lone surrogate written as its escape."""
    return re.sub("[\x00\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)


def _shown(literal: str) -> str:
    return literal if len(literal) <= 24 else f"{literal[:20]}... ({len(literal)} characters)"


def text_problem(text: str, where: str) -> JsonRefused | None:
    """Why a text cannot be stored (a NUL character, a lone surrogate), or None."""
    if "\x00" in text:
        return JsonRefused(Message("service.json.nul", {"where": where}), where, "invalid_text")
    lone = _LONE.search(text)
    if lone is not None:
        return JsonRefused(Message("service.json.surrogate", {
            "where": where, "value": _safe(lone.group())}), where, "invalid_text")
    return None


def parse_json(text: str | bytes, root: str = "json", *, colon: bool = False) -> Any:
    """JSON from outside, refused with `JsonRefused` where it holds what cannot be stored
    and read back (see the module's words); a syntax error is `json.JSONDecodeError`.
    Places are named from `root` (`json.roster.name`; `file.json: roster.name` with
    `colon`)."""
    if isinstance(text, bytes):
        try:
            text = text.decode(json.detect_encoding(text), "surrogatepass")
        except UnicodeDecodeError:
            raise JsonRefused(Message("service.json.encoding", {"where": root}), root,
                              "invalid_json") from None
    refused: list[_Refused] = []

    def number(literal: str) -> Any:
        value = float(literal)
        if math.isfinite(value):
            return value
        refused.append(_Refused(literal, "number"))
        return refused[-1]

    def whole(literal: str) -> Any:
        if len(literal) - literal.startswith("-") <= MAX_DIGITS:
            return int(literal)
        refused.append(_Refused(literal, "number"))
        return refused[-1]

    def constant(literal: str) -> Any:
        refused.append(_Refused(literal, "constant"))
        return refused[-1]

    raw = text.encode("utf-8", "surrogatepass")
    hooks: dict[str, Any] = {"parse_float": number, "parse_int": whole} \
        if _long_number(raw) else {}
    try:
        data = json.loads(text, parse_constant=constant, **hooks)
    except RecursionError:
        raise JsonRefused(Message("service.json.too_deep", {"where": root, "n": MAX_DEPTH}),
                          root, "too_deep") from None
    if refused or _suspect(raw) or _deep(raw):
        _walk(data, root, colon)  # names the first problem met
    return data


def _place(root: str, path: tuple[Any, ...], colon: bool) -> str:
    if not path:
        return root
    inside = ".".join(_safe(str(p)) for p in path)
    return f"{root}: {inside}" if colon else f"{root}.{inside}"


def _walk(data: Any, root: str, colon: bool) -> None:
    """Check the depth of every container, every text and every refused literal, naming
    the first problem met."""
    stack: list[tuple[Any, tuple[Any, ...], int]] = [(data, (), 1)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, dict):
            items: Any = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            _scalar(value, root, path, colon)
            continue
        if depth > MAX_DEPTH:
            where = _place(root, path, colon)
            raise JsonRefused(Message("service.json.too_deep", {"where": where,
                                                                "n": MAX_DEPTH}),
                              where, "too_deep")
        for key, item in items:
            if isinstance(key, str):
                _scalar(key, root, (*path, key), colon)
            stack.append((item, (*path, key), depth + 1))


def _scalar(value: Any, root: str, path: tuple[Any, ...], colon: bool) -> None:
    if isinstance(value, str):
        problem = text_problem(value, _place(root, path, colon))
        if problem is not None:
            raise problem
    elif isinstance(value, _Refused):
        where = _place(root, path, colon)
        if value.kind == "constant":
            raise JsonRefused(Message("service.json.constant", {"where": where,
                                                                "value": value.literal}),
                              where, "invalid_json")
        raise JsonRefused(Message("service.json.number", {
            "where": where, "value": _shown(value.literal), "n": MAX_DIGITS}),
            where, "invalid_number")


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


def _message(value: Any) -> Any:
    """A message met by the encoder, as its JSON."""
    if isinstance(value, Message):
        return value.to_json()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# `json.dumps(x, ensure_ascii=False)`, its encoder made once (a thousand rows made a
# thousand); what it writes is the service's own answers, which hold no reference cycle.
_ROW = json.JSONEncoder(ensure_ascii=False, check_circular=False, default=_message).encode


def print_rows(data: dict[str, Any]) -> None:
    """An object whose lists may be long (a thousand answers): one line per list item; a
    message in it (`i18n.Message`) is written as its JSON.

    Still one JSON document, and as easy to read or diff as an indented one, but written by
    json's C encoder: indenting forces its pure-Python one, which costs more than answering
    a thousand sight questions; messages are written as they are met, not copied first."""
    out = sys.stdout
    out.write("{")
    for n, (key, value) in enumerate(data.items()):
        out.write(("," if n else "") + "\n  " + json.dumps(key) + ": ")
        if isinstance(value, list) and value:
            out.write("[\n    " + ",\n    ".join([_ROW(item) for item in value]) + "\n  ]")
        else:
            out.write(_ROW(value))
    out.write("\n}\n")


def print_error(error: SurviveUsError, *, as_json: bool) -> int:
    """A one-line message on stderr, and the error body (`{"error": {"code", "message",
    "where", "words"}}`) on stdout when the command's output is JSON (`as_json`: `--json`,
    or `arbitrate`), so that a program reading it gets JSON either way and a person never
    meets it; exit status 2."""
    if as_json:
        print_json(error.to_json(language()))
    print(f"survive-us: {error.text(language())}", file=sys.stderr)
    return 2
