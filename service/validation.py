"""A request refused by its schema, in words: each field's problem as a message (a code and
its parameters), said in the request's language (docs/translation.md).

pydantic names each problem with a type (`missing`, `int_type`, `less_than_equal`...) and
its limits (`ctx`); its own sentences are English only, so they are not used: each type
has a message here, and a type without one says the value is not valid.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from i18n import Message

__all__ = ["field_problems", "json_problem"]

_QUOTED = re.compile(r"'([^']*)'")
_AT = re.compile(r"line (\d+) column (\d+)")


def _shown(value: Any) -> str | None:
    """A bad value as it may be quoted back: a short scalar's repr, else nothing."""
    if isinstance(value, bool | int | float) or value is None:
        return repr(value)
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    return None


def _problem(error: Mapping[str, Any], field: str) -> Message:
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    got = _shown(error.get("input"))
    p: dict[str, Any] = {"field": field}
    if kind == "missing":
        return Message("service.field.missing", p)
    if kind == "extra_forbidden":
        return Message("service.field.unknown", p)
    if kind == "literal_error":
        values = ", ".join(f"'{v}'" for v in _QUOTED.findall(str(ctx.get("expected", ""))))
        return _got(Message("service.field.one_of", {**p, "values": values}), got)
    if kind.startswith(("greater", "less")):
        bound = _bound(ctx, p)
        if bound is not None:
            return _got(bound, got)
    if kind in ("string_too_short", "too_short"):
        return Message("service.field.too_short", {**p, "n": int(ctx.get("min_length", 0))})
    if kind in ("string_too_long", "too_long"):
        return Message("service.field.too_long", {**p, "n": int(ctx.get("max_length", 0))})
    expected = _expected(kind, p)
    if expected is not None:
        return _got(expected, got)
    return _got(Message("service.field.invalid", p), got)


def _bound(ctx: Mapping[str, Any], p: dict[str, Any]) -> Message | None:
    """A number outside its limits: the limit it broke."""
    if "ge" in ctx:
        return Message("service.field.at_least", {**p, "limit": _number(ctx["ge"])})
    if "gt" in ctx:
        return Message("service.field.above", {**p, "limit": _number(ctx["gt"])})
    if "le" in ctx:
        return Message("service.field.at_most", {**p, "limit": _number(ctx["le"])})
    if "lt" in ctx:
        return Message("service.field.below", {**p, "limit": _number(ctx["lt"])})
    return None


def _expected(kind: str, p: dict[str, Any]) -> Message | None:
    """A value of the wrong type: what was expected."""
    if kind == "string_type":
        return Message("service.field.text", p)
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return Message("service.field.whole", p)
    if kind in ("float_type", "float_parsing", "finite_number"):
        return Message("service.field.number", p)
    if kind in ("bool_type", "bool_parsing"):
        return Message("service.field.bool", p)
    if kind == "list_type":
        return Message("service.field.list", p)
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return Message("service.field.object", p)
    return None


def _number(value: Any) -> Any:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else str(value)


def _got(message: Message, got: str | None) -> Message:
    """The problem, quoting the value sent when it is short enough."""
    if got is None:
        return message
    return Message("service.field.got", {"problem": message, "got": got})


def field_problems(location: str, errors: Sequence[Mapping[str, Any]]
                   ) -> list[tuple[str, Message]]:
    """(where, message) for each of pydantic's errors of one part of the request
    (`json`, `query`): where is `json.field.0`, as the body's `where` has always said."""
    out = []
    for error in errors:
        path = ".".join(str(part) for part in error.get("loc", ()))
        where = f"{location}.{path}" if path else location
        out.append((where, _problem(error, where)))
    return out


def json_problem(description: str) -> Message:
    """A body that is not JSON, with the line and column where reading stopped."""
    found = _AT.search(description)
    if found is None:
        return Message("service.bad_json")
    return Message("service.bad_json_at", {"line": int(found.group(1)),
                                           "column": int(found.group(2))})
