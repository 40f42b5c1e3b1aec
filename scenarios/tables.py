"""The bundled demo tables (`scenarios/tables/*.json`), loaded as validated scenes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from geometry.errors import SceneError
from geometry.scene import Scene, load_scene

__all__ = ["TABLES_DIR", "table_names", "table_data", "load_table"]

TABLES_DIR = Path(__file__).parent / "tables"


def table_names() -> list[str]:
    return sorted(p.stem for p in TABLES_DIR.glob("*.json"))


def table_data(name: str) -> dict[str, Any]:
    path = TABLES_DIR / f"{name}.json"
    if not path.is_file():
        known = ", ".join(table_names())
        raise SceneError(f"no demo table {name!r} (known: {known})", name)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def load_table(name: str) -> Scene:
    try:
        return load_scene(table_data(name))
    except SceneError as error:
        raise SceneError(f"scenarios/tables/{name}.json: {error.message}", error.where) from None
