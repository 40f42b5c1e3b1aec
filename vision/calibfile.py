"""The calibration file: layout overrides, the lens, and the last good table calibration.

```json
{"version": 1,
 "layout": {"tag_size": 0.6, "base_height_mm": 3.2, ...},   // overrides, all optional
 "intrinsics": {"camera_matrix": [[...]], "dist_coeffs": [...], "image_size": [w, h]},
 "table": {"homography": [[...]], "image_size": [w, h], "markers": [0, 1, 2, 3], ...},
 "colours": {...}}   // colour-mode settings, validated by vision.colour_config
```

Every section is optional. `table` lets a fixed camera go on working while a hand or terrain
hides corner markers (see `vision.calibration.calibrate(previous=...)`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from i18n import Message
from vision.calibration import Calibration
from vision.errors import CalibrationError
from vision.layout import DEFAULT_LAYOUT, Layout
from vision.pose import Intrinsics
from vision.words import os_reason, shown

__all__ = ["CalibrationFile", "load_calibration", "FILE_VERSION"]

FILE_VERSION = 1
SECTIONS = ("version", "layout", "intrinsics", "table", "colours")


@dataclass(frozen=True)
class CalibrationFile:
    layout: Layout = DEFAULT_LAYOUT
    intrinsics: Intrinsics | None = None
    table: Calibration | None = None
    layout_overrides: bool = False  # the file gave a layout (saved back as given)
    colours: Any = None  # the raw "colours" section, for colour mode to validate

    def with_table(self, table: Calibration) -> CalibrationFile:
        return replace(self, table=table)

    def with_intrinsics(self, intrinsics: Intrinsics) -> CalibrationFile:
        # a new lens invalidates a table fitted without it
        return replace(self, intrinsics=intrinsics, table=None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": FILE_VERSION}
        if self.layout_overrides or self.layout != DEFAULT_LAYOUT:
            out["layout"] = self.layout.to_json()
        if self.intrinsics is not None:
            out["intrinsics"] = self.intrinsics.to_json()
        if self.table is not None:
            out["table"] = self.table.to_json()
        if self.colours is not None:
            out["colours"] = self.colours
        return out

    def save(self, path: str | Path) -> None:
        try:
            Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            raise CalibrationError(Message("camera.file.cannot_write", {
                "file": str(path), "reason": os_reason(error)}), str(path)) from None

    @classmethod
    def from_json(cls, data: Any, name: str = "calibration") -> CalibrationFile:
        if not isinstance(data, dict):
            raise CalibrationError(Message("camera.json.not_object", {"where": name}), name)
        unknown = sorted(set(data) - set(SECTIONS))
        if unknown:
            raise CalibrationError(Message("camera.json.unknown_field", {
                "where": name, "field": shown(unknown[0]), "known": list(SECTIONS)}),
                f"{name}:{unknown[0]}")
        version = data.get("version", FILE_VERSION)
        if version != FILE_VERSION:
            raise CalibrationError(Message("camera.calibration.version", {
                "file": name, "version": shown(version), "expected": str(FILE_VERSION)}),
                f"{name}:version")
        layout = Layout.from_json(data["layout"], f"{name}:layout") if "layout" in data \
            else DEFAULT_LAYOUT
        intr = Intrinsics.from_json(data["intrinsics"], f"{name}:intrinsics") \
            if data.get("intrinsics") is not None else None
        table = Calibration.from_json(data["table"], layout, intr, f"{name}:table") \
            if data.get("table") is not None else None
        return cls(layout, intr, table, "layout" in data, data.get("colours"))


def load_calibration(path: str | Path) -> CalibrationFile:
    """Read and validate a calibration file; errors name the file and the field."""
    name = str(path)
    try:
        text = Path(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CalibrationError(Message("camera.calibration.missing", {"file": name}),
                               name) from None
    except UnicodeDecodeError:
        raise CalibrationError(Message("camera.file.not_utf8", {"file": name}), name) from None
    except OSError as error:
        raise CalibrationError(Message("camera.file.unreadable", {
            "file": name, "reason": os_reason(error)}), name) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise CalibrationError(Message("camera.file.not_json", {
            "file": name, "line": error.lineno, "column": error.colno}),
            f"{name}:{error.lineno}") from None
    return CalibrationFile.from_json(data, name)
