"""Where the markers are: corner markers, figure tags and base sizes (DESIGN.md, Camera markers).

The default is the fixed layout of DESIGN.md. A calibration file may override any field under
its ``"layout"`` key; unknown fields and impossible values are refused with the field named.
All lengths are inches except `base_mm` and `base_height_mm`, which follow the scene format's
millimetre bases.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from geometry.units import DEFAULT_BASE_MM, MM_PER_INCH, TABLE_INCHES
from i18n import Message
from vision.errors import LayoutError
from vision.words import shown

__all__ = ["Layout", "DEFAULT_LAYOUT", "DICTIONARIES"]

#: ArUco dictionaries a layout may name, with how many ids each holds.
DICTIONARIES: dict[str, int] = {
    "DICT_4X4_50": 50, "DICT_4X4_100": 100, "DICT_4X4_250": 250, "DICT_4X4_1000": 1000,
    "DICT_5X5_50": 50, "DICT_5X5_100": 100, "DICT_6X6_50": 50, "DICT_6X6_100": 100,
}

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Layout:
    """The printed markers and how they sit on the table.

    `corner_centres` lists the centre of each corner marker in the order of `corner_ids`; left
    empty it is derived from `corner_inset` (DESIGN.md: 1.5 in from both edges at each corner,
    ids 0-3 counter-clockwise from the bottom-left). Corner markers are upright: the top edge
    of the printed marker faces +y.
    """

    table_width: float = TABLE_INCHES
    table_depth: float = TABLE_INCHES
    dictionary: str = "DICT_4X4_50"
    corner_ids: tuple[int, ...] = (0, 1, 2, 3)
    corner_size: float = 2.0
    corner_inset: float = 1.5
    corner_centres: tuple[tuple[float, float], ...] = field(default=())
    tag_first: int = 4
    tag_last: int = 49
    tag_size: float = 0.6
    base_mm: float = DEFAULT_BASE_MM
    base_height_mm: float = 3.2  # a 3 mm plastic base plus the sticker

    def __post_init__(self) -> None:
        if not self.corner_centres:
            w, d, i = self.table_width, self.table_depth, self.corner_inset
            object.__setattr__(self, "corner_centres",
                               ((i, i), (w - i, i), (w - i, d - i), (i, d - i)))
        self._validate()

    # -- derived values -------------------------------------------------------------------
    @property
    def base_height(self) -> float:
        """Height of a tag above the table, inches."""
        return self.base_height_mm / MM_PER_INCH

    @property
    def tag_ids(self) -> range:
        return range(self.tag_first, self.tag_last + 1)

    def corner_points(self, marker_id: int) -> FloatArray:
        """The four corners of corner marker `marker_id` in table inches, in ArUco's order
        (top-left, top-right, bottom-right, bottom-left of the upright printed marker)."""
        cx, cy = self.corner_centres[self.corner_ids.index(marker_id)]
        h = self.corner_size / 2.0
        return np.array([[cx - h, cy + h], [cx + h, cy + h], [cx + h, cy - h], [cx - h, cy - h]],
                        dtype=np.float64)

    # -- JSON -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["corner_ids"] = list(self.corner_ids)
        data["corner_centres"] = [list(c) for c in self.corner_centres]
        return data

    @classmethod
    def from_json(cls, data: Any, where: str = "layout") -> Layout:
        """Build a layout from a JSON object of overrides of the default layout."""
        if not isinstance(data, dict):
            raise LayoutError(Message("camera.json.not_object", {"where": where}), where)
        known = {f.name: f for f in fields(cls)}
        changes: dict[str, Any] = {}
        for key, value in data.items():
            at = f"{where}.{key}"
            if key not in known:
                raise LayoutError(Message("camera.json.unknown_field", {
                    "where": where, "field": shown(key), "known": list(known)}), at)
            if key == "dictionary":
                if not isinstance(value, str):
                    raise LayoutError(Message("camera.layout.dictionary_name", {
                        "where": at, "got": shown(value)}), at)
                changes[key] = value
            elif key == "corner_ids":
                changes[key] = tuple(_int_list(value, at, 4))
            elif key == "corner_centres":
                if not isinstance(value, list) or len(value) != 4:
                    raise LayoutError(Message("camera.layout.corner_centres", {
                        "where": at, "got": shown(value)}), at)
                changes[key] = tuple(tuple(_number_list(v, f"{at}[{n}]", 2))
                                     for n, v in enumerate(value))
            elif key in ("tag_first", "tag_last"):
                changes[key] = _int_list([value], at, 1)[0]
            else:
                changes[key] = _number_list([value], at, 1)[0]
        changes.setdefault("corner_centres", ())  # empty: derived from the table and inset
        try:
            return replace(cls(), **changes)
        except LayoutError as error:
            raise LayoutError(error.words or error.message, f"{where}.{error.where}") from None

    # -- checks ---------------------------------------------------------------------------
    def _validate(self) -> None:
        for name in ("table_width", "table_depth", "corner_size", "tag_size", "base_mm"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and value > 0):
                words = Message("camera.layout.positive_mm", {"field": name, "got": shown(value)}) \
                    if name == "base_mm" else \
                    Message("camera.layout.positive_in", {"field": name, "got": shown(value)})
                raise LayoutError(words, name)
        if not (math.isfinite(self.base_height_mm) and 0 <= self.base_height_mm <= 100):
            raise LayoutError(Message("camera.layout.base_height", {
                "got": shown(self.base_height_mm)}), "base_height_mm")
        size = DICTIONARIES.get(self.dictionary)
        if size is None:
            raise LayoutError(Message("camera.layout.dictionary", {
                "name": shown(self.dictionary), "known": list(DICTIONARIES)}), "dictionary")
        if len(self.corner_ids) != 4 or len(set(self.corner_ids)) != 4:
            raise LayoutError(Message("camera.layout.corner_ids", {
                "got": shown(list(self.corner_ids))}), "corner_ids")
        for mid in (*self.corner_ids, self.tag_first, self.tag_last):
            if not 0 <= mid < size:
                raise LayoutError(Message("camera.layout.id_outside", {
                    "id": str(mid), "dictionary": self.dictionary, "last": str(size - 1)}),
                    "corner_ids" if mid in self.corner_ids else "tag_first")
        if self.tag_first > self.tag_last:
            raise LayoutError(Message("camera.layout.tag_order", {
                "first": str(self.tag_first), "last": str(self.tag_last)}), "tag_first")
        clash = sorted(set(self.corner_ids) & set(self.tag_ids))
        if clash:
            raise LayoutError(Message("camera.layout.clash", {
                "ids": [str(i) for i in clash], "first": str(self.tag_first),
                "last": str(self.tag_last)}), "corner_ids")
        h = self.corner_size / 2.0
        for n, (cx, cy) in enumerate(self.corner_centres):
            if not (h <= cx <= self.table_width - h and h <= cy <= self.table_depth - h):
                raise LayoutError(Message("camera.layout.corner_off", {
                    "id": str(self.corner_ids[n]), "x": shown(cx), "y": shown(cy),
                    "width": float(self.table_width), "depth": float(self.table_depth)}),
                    f"corner_centres[{n}]")
        if self.tag_size * math.sqrt(2) > self.base_mm / MM_PER_INCH:
            raise LayoutError(Message("camera.layout.tag_too_big", {
                "given": shown(self.tag_size), "base": float(self.base_mm)}), "tag_size")


def _number_list(value: Any, where: str, n: int) -> list[float]:
    if not isinstance(value, list) or len(value) != n or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in value):
        got = shown(value[0] if n == 1 and isinstance(value, list) and value else value)
        raise LayoutError(Message("camera.json.number", {"where": where, "got": got}) if n == 1
                          else Message("camera.json.numbers", {"where": where, "n": n,
                                                               "got": got}), where)
    return [float(v) for v in value]


def _int_list(value: Any, where: str, n: int) -> list[int]:
    if not isinstance(value, list) or len(value) != n or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        got = shown(value[0] if n == 1 and isinstance(value, list) and value else value)
        raise LayoutError(Message("camera.json.integer", {"where": where, "got": got}) if n == 1
                          else Message("camera.json.integers", {"where": where, "n": n,
                                                                "got": got}), where)
    return [int(v) for v in value]


DEFAULT_LAYOUT = Layout()
