"""The bundled demo tables (`scenarios/tables/*.json`), loaded as validated scenes, every
name in French and English."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from geometry.errors import SceneError
from geometry.scene import Scene, load_scene
from i18n import Message
from rules.catalog_schema import Location, source_label
from scenarios.schema import PIECE_NAMES, Builder, check_piece_names

__all__ = ["TABLES_DIR", "table_names", "table_data", "load_table"]

TABLES_DIR = Path(__file__).parent / "tables"


def table_names() -> list[str]:
    return sorted(p.stem for p in TABLES_DIR.glob("*.json"))


def table_data(name: str, directory: Path = TABLES_DIR) -> dict[str, Any]:
    """The table's scene JSON, its names for people checked: the table's and each terrain
    piece's `name` (French) and `name_en` (English), a `DataError` naming the piece if not."""
    path = directory / f"{name}.json"
    if not path.is_file():
        raise SceneError(Message("scenario.unknown_table", {
            "table": name, "known": [_title(t) for t in table_names()]}), name)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    builder = Builder(Location(source_label(path), path.name, name))
    for key in PIECE_NAMES:
        value = data.get(key)
        if key not in data:
            raise builder.fail(key, "missing required field")
        if not isinstance(value, str) or not value.strip():
            raise builder.bad(key, "a non-empty string", value)
    terrain = data.get("terrain", [])
    check_piece_names(builder, "terrain", tuple(terrain) if isinstance(terrain, list) else ())
    return data


def _title(name: str) -> dict[str, str]:
    """A demo table's name in French and English."""
    data = json.loads((TABLES_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return {"fr": str(data.get("name") or name), "en": str(data.get("name_en") or name)}


def load_table(name: str) -> Scene:
    data = table_data(name)  # an unknown table is said as such, not as a bad one
    try:
        return load_scene(data)
    except SceneError as error:
        raise SceneError(Message("scenario.bad_table", {
            "table": _title(name), "problem": error.words or error.message}),
            error.where) from None
