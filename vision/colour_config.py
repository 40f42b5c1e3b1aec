"""Colour mode settings: which HSV colours mark each side's base rims, and how to fit them.

Hues follow OpenCV's 8-bit HSV: hue 0-179 (degrees / 2), saturation and value 0-255. A range
whose `hue_lo` is above its `hue_hi` wraps around 0 (red: 170..8 is 170-179 and 0-8). The
settings are saved as JSON, on their own or as the ``"colours"`` object of a calibration file.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from geometry.units import DEFAULT_BASE_MM
from i18n import Message
from vision.errors import VisionError
from vision.words import shown
from vision.words import side as side_word

__all__ = ["HsvRange", "SideColour", "ColourConfig", "DEFAULT_COLOURS", "ColourConfigError"]


class ColourConfigError(VisionError):
    """Colour settings that fail validation (the field is named in `where`)."""

    code = "invalid_colours"


@dataclass(frozen=True)
class HsvRange:
    """One box in OpenCV HSV space; hue wraps when `hue_lo > hue_hi`.

    `chroma_min` bounds the chroma (max - min of B, G, R, i.e. S * V / 255) from below. Where
    a rim meets something dark (the base's own side, a black undercoat), a blurred mix of the
    two keeps the rim's saturation although it holds little rim colour, so a saturation floor
    alone lets the rim spread toward dark neighbours and shifts the fitted centre; chroma falls
    in proportion to the share of rim colour in the pixel whatever the neighbour.
    """

    hue_lo: int
    hue_hi: int
    sat_min: int = 110
    sat_max: int = 255
    val_min: int = 50
    val_max: int = 255
    chroma_min: int = 40

    def __post_init__(self) -> None:
        for name, top in (("hue_lo", 179), ("hue_hi", 179), ("sat_min", 255), ("sat_max", 255),
                          ("val_min", 255), ("val_max", 255), ("chroma_min", 255)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
                raise ColourConfigError(Message("camera.colour.integer", {
                    "field": name, "top": str(top), "got": shown(value)}), name)
        if self.sat_min > self.sat_max or self.val_min > self.val_max:
            sat, val = f"{self.sat_min}-{self.sat_max}", f"{self.val_min}-{self.val_max}"
            raise ColourConfigError(Message("camera.colour.empty_range", {"sat": sat, "val": val}),
                                    "sat_min")

    @property
    def wraps(self) -> bool:
        return self.hue_lo > self.hue_hi

    def boxes(self) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
        """(low, high) HSV corners for cv2.inRange: two boxes when the hue wraps."""
        lo_sv, hi_sv = (self.sat_min, self.val_min), (self.sat_max, self.val_max)
        if not self.wraps:
            return [((self.hue_lo, *lo_sv), (self.hue_hi, *hi_sv))]
        return [((self.hue_lo, *lo_sv), (179, *hi_sv)), ((0, *lo_sv), (self.hue_hi, *hi_sv))]

    def hues(self) -> set[int]:
        if self.wraps:
            return set(range(self.hue_lo, 180)) | set(range(0, self.hue_hi + 1))
        return set(range(self.hue_lo, self.hue_hi + 1))

    def to_json(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class SideColour:
    """How one side's bases look: rim colour ranges and the base size (mm across)."""

    side: str
    ranges: tuple[HsvRange, ...]
    base_mm: float = DEFAULT_BASE_MM

    def to_json(self) -> dict[str, Any]:
        return {"ranges": [r.to_json() for r in self.ranges], "base_mm": self.base_mm}


@dataclass(frozen=True)
class ColourConfig:
    """Colour mode settings.

    `px_per_in` is the scale of the rectified table image the bases are found on;
    `radius_tolerance` the relative difference between fitted and expected radius beyond which
    a blob is refused; `min_coverage` the share of the rim circumference that must be seen.
    """

    sides: tuple[SideColour, ...]
    px_per_in: float = 24.0
    radius_tolerance: float = 0.15
    min_coverage: float = 0.3

    def __post_init__(self) -> None:
        names = [s.side for s in self.sides]
        if len(set(names)) != len(names):
            twice = next(n for n in names if names.count(n) > 1)
            raise ColourConfigError(Message("camera.colour.twice", {"side": shown(twice)}),
                                    "sides")
        checks = (("px_per_in", 4.0, 200.0), ("radius_tolerance", 0.01, 1.0),
                  ("min_coverage", 0.05, 1.0))
        for name, lo, hi in checks:
            value = getattr(self, name)
            if not (isinstance(value, int | float) and lo <= value <= hi):
                raise ColourConfigError(Message("camera.colour.between", {
                    "field": name, "lo": shown(lo), "hi": shown(hi), "got": shown(value)}), name)
        for s in self.sides:
            if not s.ranges:
                raise ColourConfigError(Message("camera.colour.no_range", {
                    "side": shown(s.side)}), f"sides.{s.side}.ranges")
            if not (math.isfinite(s.base_mm) and 5.0 <= s.base_mm <= 200.0):
                raise ColourConfigError(Message("camera.colour.base_mm", {
                    "side": shown(s.side), "got": shown(s.base_mm)}), f"sides.{s.side}.base_mm")
        for n, a in enumerate(self.sides):
            for b in self.sides[n + 1:]:
                clash = _overlap(a, b)
                if clash is not None:
                    raise ColourConfigError(Message("camera.colour.overlap", {
                        "a": side_word(a.side), "b": side_word(b.side), "lo": str(clash[0]),
                        "hi": str(clash[1])}), f"sides.{b.side}.ranges")

    def side(self, name: str) -> SideColour:
        for s in self.sides:
            if s.side == name:
                return s
        raise ColourConfigError(Message("camera.colour.no_side", {"side": side_word(name)}),
                                f"sides.{name}")

    def with_side(self, colour: SideColour) -> ColourConfig:
        """These settings with one side's colour replaced (or added)."""
        kept = tuple(s for s in self.sides if s.side != colour.side)
        return replace(self, sides=(*kept, colour))

    def to_json(self) -> dict[str, Any]:
        return {"sides": {s.side: s.to_json() for s in self.sides}, "px_per_in": self.px_per_in,
                "radius_tolerance": self.radius_tolerance, "min_coverage": self.min_coverage}

    @classmethod
    def from_json(cls, data: Any, where: str = "colours") -> ColourConfig:
        """Settings from JSON; fields left out keep their defaults (the default sides too)."""
        if not isinstance(data, Mapping):
            raise ColourConfigError(Message("camera.json.not_object", {"where": where}), where)
        known = {"sides", "px_per_in", "radius_tolerance", "min_coverage"}
        extra = sorted(set(data) - known)
        if extra:
            raise ColourConfigError(_unknown(where, extra[0], sorted(known)),
                                    f"{where}.{extra[0]}")
        changes: dict[str, Any] = {}
        for key in ("px_per_in", "radius_tolerance", "min_coverage"):
            if key in data:
                value = data[key]
                if isinstance(value, bool) or not isinstance(value, int | float):
                    field = f"{where}.{key}"
                    raise ColourConfigError(Message("camera.json.number", {
                        "where": field, "got": shown(value)}), field)
                changes[key] = float(value)
        if "sides" in data:
            raw = data["sides"]
            if not isinstance(raw, Mapping) or not raw:
                field = f"{where}.sides"
                raise ColourConfigError(Message("camera.colour.sides", {"where": field}), field)
            changes["sides"] = tuple(_side(name, value, f"{where}.sides.{name}")
                                     for name, value in raw.items())
        try:
            return replace(DEFAULT_COLOURS, **changes)
        except ColourConfigError as error:
            at = error.where if error.where.startswith(where) else f"{where}.{error.where}"
            raise ColourConfigError(error.words or error.message, at) from None


def _unknown(where: str, name: str, known: list[str]) -> Message:
    return Message("camera.json.unknown_field", {"where": where, "field": shown(name),
                                                 "known": known})


def _side(name: Any, value: Any, where: str) -> SideColour:
    if not isinstance(name, str) or not name:
        raise ColourConfigError(Message("camera.colour.side_name", {"where": where}), where)
    if not isinstance(value, Mapping):
        raise ColourConfigError(Message("camera.colour.side_object", {"where": where}), where)
    extra = sorted(set(value) - {"ranges", "base_mm"})
    if extra:
        raise ColourConfigError(_unknown(where, extra[0], ["ranges", "base_mm"]),
                                f"{where}.{extra[0]}")
    ranges = value.get("ranges")
    if not isinstance(ranges, list) or not ranges:
        field = f"{where}.ranges"
        raise ColourConfigError(Message("camera.colour.ranges", {"where": field}), field)
    parsed = []
    names = [f.name for f in fields(HsvRange)]
    for n, r in enumerate(ranges):
        at = f"{where}.ranges[{n}]"
        if not isinstance(r, Mapping):
            raise ColourConfigError(Message("camera.json.not_object", {"where": at}), at)
        unknown = sorted(set(r) - set(names))
        if unknown:
            raise ColourConfigError(_unknown(at, unknown[0], names), f"{at}.{unknown[0]}")
        try:
            parsed.append(HsvRange(**r))
        except TypeError:
            raise ColourConfigError(Message("camera.colour.range_fields", {"where": at}),
                                    at) from None
        except ColourConfigError as error:
            words = error.words
            if words is not None and "field" in words.params:
                field = f"{at}.{words.params['field']}"
                words = Message(words.code, {**words.params, "field": field})
            raise ColourConfigError(words or error.message, f"{at}.{error.where}") from None
    base_mm = value.get("base_mm", DEFAULT_BASE_MM)
    if isinstance(base_mm, bool) or not isinstance(base_mm, int | float):
        field = f"{where}.base_mm"
        raise ColourConfigError(Message("camera.json.number", {
            "where": field, "got": shown(base_mm)}), field)
    return SideColour(name, tuple(parsed), float(base_mm))


BLUE_SAT_MIN = 90  # the default survivors' (blue) saturation floor, see DEFAULT_COLOURS


def _overlap(a: SideColour, b: SideColour) -> tuple[int, int] | None:
    """The hues where two sides' HSV boxes intersect (lowest, highest), or None."""
    for ra in a.ranges:
        for rb in b.ranges:
            hues = ra.hues() & rb.hues()
            sat = max(ra.sat_min, rb.sat_min) <= min(ra.sat_max, rb.sat_max)
            val = max(ra.val_min, rb.val_min) <= min(ra.val_max, rb.val_max)
            if hues and sat and val:
                return min(hues), max(hues)
    return None


#: Survivors blue, zombies red, civilians yellow (OpenCV hue: blue ~120, red ~0, yellow ~30).
#: Blue takes a lower saturation floor: a thin blue rim blurred into a bright mat (sand, a
#: pale street) keeps its chroma but loses saturation, and no mat is blue, while red and
#: yellow sit among the mats' own hues (mud, dry grass, sand) and keep the higher floor.
DEFAULT_COLOURS = ColourConfig(sides=(
    SideColour("survivors", (HsvRange(98, 130, sat_min=BLUE_SAT_MIN),)),
    SideColour("zombies", (HsvRange(168, 10),)),
    SideColour("civilians", (HsvRange(20, 36),)),
))
