"""Field-by-field reading of TOML rules data, so every error names file, entry and field.

`rules.catalog` describes what each entry holds; this module knows only how to read and check
one value, and how to word the `DataError` when it is wrong.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from geometry.errors import DataError

__all__ = ["ID_PATTERN", "EntryReader", "Location", "quote", "read_entries", "source_label"]

#: Ids and engine keys: ascii snake_case, so they are safe in URLs, JSON keys and code.
ID_PATTERN = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")

_PROJECT_ROOT = Path(__file__).resolve().parent.parent
_MISSING = object()

T = TypeVar("T", bound=str)


def quote(value: object) -> str:
    """Render a bad value as it would read in TOML or JSON: -5, "abc", true, [1, 2]."""
    return json.dumps(value, ensure_ascii=False, default=str)


def source_label(path: Path) -> str:
    """The file as a reader would name it: relative to the project when inside it."""
    try:
        return path.resolve().relative_to(_PROJECT_ROOT).as_posix()
    except ValueError:
        return str(path)


@dataclass(frozen=True, slots=True)
class Location:
    """One entry of one data file; builds the errors about its fields."""

    source: str  # the file as shown in messages, e.g. "rules/data/archetypes.toml"
    file_name: str  # the file's bare name, for `where`
    entry: str  # the entry's id, or "#3" (1-based position) when it has no valid id

    def _entry_text(self) -> str:
        return self.entry if self.entry.startswith("#") else repr(self.entry)

    def error(self, field: str, problem: str) -> DataError:
        """A `DataError` about `field` of this entry; `problem` ends by quoting the value."""
        message = f"{self.source}: entry {self._entry_text()}, field {field!r}: {problem}"
        return DataError(message, where=f"{self.file_name}:{self.entry}.{field}")

    def bad_value(self, field: str, expected: str, value: object) -> DataError:
        return self.error(field, f"expected {expected}, got {quote(value)}")


def read_entries(path: Path, key: str) -> list[tuple[Location, dict[str, object]]]:
    """Parse `path`, which must hold exactly one array of tables `[[key]]`.

    Each entry's table comes with a provisional location, by position ("#3"), that
    `EntryReader.ident` renames once the entry's id is read.
    """
    source = source_label(path)
    try:
        with path.open("rb") as stream:
            document = tomllib.load(stream)
    except OSError as exc:
        raise DataError(f"{source}: cannot read the file: {exc.strerror}", where=path.name) from exc
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{source}: not valid TOML: {exc}", where=path.name) from exc
    extra = sorted(set(document) - {key})
    if extra:
        raise DataError(
            f"{source}: unknown top-level key {extra[0]!r}, expected only [[{key}]]",
            where=f"{path.name}:{extra[0]}",
        )
    tables = document.get(key)
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise DataError(
            f"{source}: expected an array of tables [[{key}]], got {quote(tables)}",
            where=f"{path.name}:{key}",
        )
    return [
        (Location(source, path.name, f"#{index}"), table)
        for index, table in enumerate(tables, start=1)
    ]


class EntryReader:
    """Takes the fields of one TOML table one at a time, checking type and range.

    `finish()` rejects whatever fields were not taken, so a typo never passes silently.
    """

    def __init__(self, location: Location, table: Mapping[str, object]) -> None:
        self.location = location
        self._table = dict(table)
        self._known: dict[str, None] = {}  # fields asked for, in order (an ordered set)

    def _has(self, field: str) -> bool:
        self._known[field] = None
        return field in self._table

    def _take(self, field: str, default: object) -> object:
        if self._has(field):
            return self._table[field]
        if default is _MISSING:
            raise self.location.error(field, "missing required field")
        return default

    def ident(self, field: str = "id") -> str:
        """An ascii snake_case id or key; reading the entry's own id also names the entry."""
        value = self._take(field, _MISSING)
        if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
            raise self.location.bad_value(field, "an ascii snake_case id", value)
        if field == "id":
            self.location = Location(self.location.source, self.location.file_name, value)
        return value

    def optional_ident(self, field: str) -> str | None:
        return self.ident(field) if self._has(field) else None

    def text(self, field: str) -> str:
        value = self._take(field, _MISSING)
        if not isinstance(value, str) or not value.strip():
            raise self.location.bad_value(field, "a non-empty string", value)
        return value

    def texts(self, field: str, *, count: int | None = None) -> tuple[str, ...]:
        """A list of distinct non-empty strings (empty when absent and `count` is None)."""
        value = self._take(field, [] if count is None else _MISSING)
        if (
            not isinstance(value, list)
            or not all(isinstance(v, str) and v.strip() for v in value)
            or len(set(value)) != len(value)
            or (count is not None and len(value) != count)
        ):
            size = "a list of" if count is None else f"a list of exactly {count}"
            raise self.location.bad_value(field, f"{size} distinct non-empty strings", value)
        return tuple(value)

    def integer(
        self, field: str, *, low: int, high: int | None = None, default: int | None = None
    ) -> int:
        """An integer in [low, high]; booleans are refused even though Python calls them ints."""
        value = self._take(field, _MISSING if default is None else default)
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or value < low
            or (high is not None and value > high)
        ):
            raise self.location.bad_value(field, _integer_wording(low, high), value)
        return value

    def optional_integer(self, field: str, *, low: int, high: int | None = None) -> int | None:
        return self.integer(field, low=low, high=high) if self._has(field) else None

    def optional_distance(
        self, field: str, *, low: float = 0.0, strict: bool = False
    ) -> float | None:
        """A distance in inches (int or float) above `low` (strictly when `strict`)."""
        if not self._has(field):
            return None
        value = self._table[field]
        if (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not math.isfinite(value)
            or value < low
            or (strict and value == low)
        ):
            wording = "a positive number of inches" if strict else f"a number of inches >= {low:g}"
            raise self.location.bad_value(field, wording, value)
        return float(value)

    def choice(self, field: str, choices: tuple[T, ...]) -> T:
        value = self._take(field, _MISSING)
        for choice in choices:
            if value == choice:
                return choice
        raise self.location.bad_value(field, "one of " + ", ".join(map(quote, choices)), value)

    def optional_choice(self, field: str, choices: tuple[T, ...]) -> T | None:
        return self.choice(field, choices) if self._has(field) else None

    def finish(self) -> None:
        """Reject any field that no reader method took."""
        for field, value in self._table.items():
            if field not in self._known:
                allowed = ", ".join(self._known)
                raise self.location.error(
                    field, f"unknown field (allowed: {allowed}), got {quote(value)}"
                )


def _integer_wording(low: int, high: int | None) -> str:
    if high is not None:
        return f"an integer from {low} to {high}"
    if low == 1:
        return "a positive integer"
    if low == 0:
        return "a non-negative integer"
    return f"an integer >= {low}"
