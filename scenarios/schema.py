"""Typed reading of nested TOML data into frozen dataclasses, with errors naming the field.

The scenario cards are deeper than the rules catalog (zones, objectives, tables of rolls), so
instead of reading field by field, `Builder.build(cls, raw)` walks the dataclass's type hints:
`str`, `int`, `float`, `bool`, `Literal[...]`, unions, `tuple[T, ...]`, pairs, `Mapping[str, T]`,
nested dataclasses, and tagged unions (a base class whose subclasses carry a `type` tag).
`Annotated[T, Ref("zone")]` records an id to check against the rest of the data afterwards;
`Annotated[int, Range(1, 6)]` bounds a number. Errors read
``scenarios/data/scenario_evacuation.toml: entry 'evacuation', field 'crates.loot[2].item': ...``.
"""

from __future__ import annotations

import dataclasses
import math
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import (
    Annotated,
    Any,
    ClassVar,
    Literal,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)

from geometry.errors import DataError
from rules.catalog_schema import ID_PATTERN, Location, quote

__all__ = [
    "Ref", "Range", "Ident", "DiceExpr", "Tagged", "Builder", "DICE_PATTERN", "toml_name",
    "to_json", "PIECE_NAMES", "check_piece_names",
]

#: The names a terrain piece of a data file carries for people: French, then English.
PIECE_NAMES = ("name", "name_en")

#: Dice expressions: "D3", "D6", "2D6", "D6+1", "D3-1".
DICE_PATTERN = re.compile(r"([1-9]?)D([36])([+-][0-9])?")

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Ref:
    """Marks a string as the id of something defined elsewhere: a zone, an item, a skill..."""

    kind: str


@dataclass(frozen=True, slots=True)
class Range:
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True, slots=True)
class Ident:
    """Marks a string as an ascii snake_case id."""


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """Marks a string as a dice expression ("D3", "2D6"...) or accepts a whole number."""


@dataclass(frozen=True)
class Tagged:
    """Base of a tagged union: subclasses set `type`; TOML picks one with ``type = "..."``."""

    type: ClassVar[str] = ""
    registry: ClassVar[dict[str, Any]]  # tag -> subclass, one registry per family

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "registry" in cls.__dict__:
            return
        if not cls.__dict__.get("type"):  # an abstract family root: gets its own registry
            cls.registry = {}
            return
        cls.registry[cls.type] = cls

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = to_json(self)
        return out


def toml_name(python_name: str) -> str:
    """The key in the data files: `from_` is written `from`, `class_` is `class`."""
    return python_name.rstrip("_")


def to_json(value: Any) -> Any:
    """Plain JSON of a built value (dataclasses as objects, tuples as lists)."""
    if isinstance(value, Tagged):
        out: dict[str, Any] = {"type": value.type}
        out.update(_fields_json(value))
        return out
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _fields_json(value)
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


def _fields_json(value: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(value):
        if f.name.startswith("_") or not f.repr:
            continue
        item = getattr(value, f.name)
        if item is None:
            continue
        out[toml_name(f.name)] = to_json(item)
    return out


@dataclass
class Builder:
    """Builds typed values for one entry of one data file; collects the ids to cross-check."""

    location: Location
    refs: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, id, field path)

    def fail(self, path: str, problem: str) -> DataError:
        return self.location.error(path or "(entry)", problem)

    def bad(self, path: str, expected: str, value: object) -> DataError:
        return self.location.bad_value(path or "(entry)", expected, value)

    # --- entry points ----------------------------------------------------------------

    def build(self, cls: type[T], raw: object, path: str = "") -> T:
        return cast(T, self.value(cls, raw, path))

    def value(self, hint: Any, raw: object, path: str) -> Any:
        origin = get_origin(hint)
        if origin is Annotated:
            base, *marks = get_args(hint)
            return self._annotated(base, marks, raw, path)
        if hint is Any:
            return _plain(raw)
        if origin is Literal:
            return self._literal(get_args(hint), raw, path)
        if origin in (Union, types.UnionType):
            return self._union(get_args(hint), raw, path)
        if origin is tuple:
            return self._tuple(get_args(hint), raw, path)
        if origin is Mapping or origin is dict:
            key_hint, value_hint = get_args(hint)
            return self._mapping(key_hint, value_hint, raw, path)
        if hint is str:
            if not isinstance(raw, str) or not raw.strip():
                raise self.bad(path, "a non-empty string", raw)
            return raw
        if hint is bool:
            if not isinstance(raw, bool):
                raise self.bad(path, "true or false", raw)
            return raw
        if hint is int:
            if not isinstance(raw, int) or isinstance(raw, bool):
                raise self.bad(path, "a whole number", raw)
            return raw
        if hint is float:
            if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
                raise self.bad(path, "a number", raw)
            return float(raw)
        if isinstance(hint, type) and issubclass(hint, Tagged) and not hint.type:
            return self._tagged(hint, raw, path)
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return self._dataclass(hint, raw, path)
        raise TypeError(f"schema: cannot read {hint!r} at {path}")  # a bug in the schema

    # --- kinds of value ----------------------------------------------------------------

    def _annotated(self, base: Any, marks: list[Any], raw: object, path: str) -> Any:
        if any(isinstance(m, DiceExpr) for m in marks):
            return self._dice(raw, path)
        value = self.value(base, raw, path)
        for mark in marks:
            if isinstance(mark, Ident) and not ID_PATTERN.fullmatch(value):
                raise self.bad(path, "an ascii snake_case id", value)
            if isinstance(mark, Range):
                low, high = mark.low, mark.high
                if (low is not None and value < low) or (high is not None and value > high):
                    raise self.bad(path, _range_words(base, low, high), value)
            if isinstance(mark, Ref):
                for i, item in enumerate(value if isinstance(value, tuple) else (value,)):
                    where = f"{path}[{i}]" if isinstance(value, tuple) else path
                    self.refs.append((mark.kind, item, where))
        return value

    def _dice(self, raw: object, path: str) -> int | str:
        if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0:
            return raw
        if isinstance(raw, str) and DICE_PATTERN.fullmatch(raw):
            return raw
        raise self.bad(path, 'a whole number >= 0 or dice such as "D3", "D6", "2D6", "D6+1"', raw)

    def _literal(self, choices: tuple[Any, ...], raw: object, path: str) -> Any:
        for choice in choices:
            if raw == choice and type(raw) is type(choice):
                return choice
        raise self.bad(path, "one of " + ", ".join(map(quote, choices)), raw)

    def _union(self, options: tuple[Any, ...], raw: object, path: str) -> Any:
        options = tuple(o for o in options if o is not type(None))
        errors: list[DataError] = []
        for option in options:
            try:
                return self.value(option, raw, path)
            except DataError as error:
                errors.append(error)
        expected = " or ".join(_expected_words(e) for e in errors)
        raise self.bad(path, expected, raw)

    def _tuple(self, args: tuple[Any, ...], raw: object, path: str) -> tuple[Any, ...]:
        if not isinstance(raw, list):
            raise self.bad(path, "a list", raw)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(self.value(args[0], v, f"{path}[{i}]") for i, v in enumerate(raw))
        if len(raw) != len(args):
            raise self.bad(path, f"a list of {len(args)} values", raw)
        pairs = enumerate(zip(args, raw, strict=True))
        return tuple(self.value(a, v, f"{path}[{i}]") for i, (a, v) in pairs)

    def _mapping(self, key_hint: Any, value_hint: Any, raw: object, path: str) -> Any:
        if not isinstance(raw, dict):
            raise self.bad(path, "a table", raw)
        out = {}
        for key, item in raw.items():
            where = f"{path}.{key}" if path else str(key)
            out[self.value(key_hint, key, where)] = self.value(value_hint, item, where)
        return types.MappingProxyType(out)

    def _tagged(self, root: type[Tagged], raw: object, path: str) -> Tagged:
        if not isinstance(raw, dict):
            raise self.bad(path, "a table with a 'type'", raw)
        tag = raw.get("type")
        cls = root.registry.get(tag) if isinstance(tag, str) else None
        if cls is None:
            known = ", ".join(map(quote, sorted(root.registry)))
            raise self.bad(f"{path}.type" if path else "type", f"one of {known}", tag)
        body = {k: v for k, v in raw.items() if k != "type"}
        return cast(Tagged, self._dataclass(cls, body, path))

    def _dataclass(self, cls: type[Any], raw: object, path: str) -> Any:
        if not isinstance(raw, dict):
            raise self.bad(path, "a table", raw)
        hints = get_type_hints(cls, include_extras=True)
        known = {toml_name(f.name): f for f in dataclasses.fields(cls) if f.init}
        for key, item in raw.items():
            if key not in known:
                allowed = ", ".join(known) or "none"
                where = f"{path}.{key}" if path else key
                raise self.fail(where, f"unknown field (allowed: {allowed}), got {quote(item)}")
        kwargs = {}
        for key, f in known.items():
            where = f"{path}.{key}" if path else key
            if key in raw:
                kwargs[f.name] = self.value(hints[f.name], raw[key], where)
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise self.fail(where, "missing required field")
        return cls(**kwargs)


def check_piece_names(builder: Builder, path: str, pieces: tuple[Any, ...]) -> None:
    """Every scene terrain piece of a data file names itself in French (`name`) and English
    (`name_en`), non-empty; the scene copies both, so the page can show either."""
    for i, piece in enumerate(pieces):
        if not isinstance(piece, dict):
            continue  # the scene loader's error names it better
        label = f" (piece {piece['id']!r})" if isinstance(piece.get("id"), str) else ""
        for key in PIECE_NAMES:
            where = f"{path}[{i}].{key}"
            if key not in piece:
                raise builder.fail(where, f"missing required field{label}")
            value = piece[key]
            if not isinstance(value, str) or not value.strip():
                raise builder.bad(where, f"a non-empty string{label}", value)


def _plain(raw: object) -> Any:
    """Free-form data (scene terrain pieces), copied as plain JSON-like values."""
    if isinstance(raw, dict):
        return {str(k): _plain(v) for k, v in raw.items()}
    if isinstance(raw, list):
        return [_plain(v) for v in raw]
    return raw


def _range_words(base: Any, low: float | None, high: float | None) -> str:
    noun = "a whole number" if base is int else "a number"
    if low is not None and high is not None:
        return f"{noun} from {low:g} to {high:g}"
    if low is not None:
        return f"{noun} >= {low:g}"
    return f"{noun} <= {high:g}"


def _expected_words(error: DataError) -> str:
    """The 'expected X' part of a bad-value message, to combine union alternatives."""
    message = error.message
    start = message.find("expected ")
    end = message.rfind(", got ")
    if start < 0 or end < 0:
        return message
    return message[start + len("expected "):end]
