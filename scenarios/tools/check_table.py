"""Check (and optionally draw) scene JSON tables, independently of the project's loader.

Usage: python scenarios/tools/check_table.py FILE... [--png DIR] [--gap 0.1]

Validates each file against docs/scene.schema.json, then checks with shapely that ids are
unique, polygons are valid, every base lies on the table and clears movement-blocking
terrain and the other bases. With --png, draws each table (needs matplotlib).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import LineString, Point, Polygon, box

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "docs" / "scene.schema.json"
DEFAULT_SIZE = 31.4961


def footprint(item: dict[str, Any]) -> shapely.Geometry:
    """The terrain item's footprint: polygon area, or centre line buffered flat and mitred."""
    if item["kind"] == "polygon":
        return Polygon(item["polygon"])
    return LineString(item["line"]).buffer(
        item["thickness"] / 2, cap_style="flat", join_style="mitre"
    )


def blocks_movement(item: dict[str, Any]) -> bool:
    if item["kind"] == "door" and item.get("open", False):
        return False
    return bool(item.get("blocks_movement", True))


def blocks_sight(item: dict[str, Any]) -> bool:
    if item["kind"] == "door" and item.get("open", False):
        return False
    return bool(item.get("blocks_sight", True))


def radius(fig: dict[str, Any]) -> float:
    return float(fig.get("base_mm", 25)) / 25.4 / 2


def problems(scene: dict[str, Any], gap: float = 0.1) -> list[str]:
    """Everything wrong with the scene, as messages naming the item; empty when it is fine."""
    import jsonschema

    schema = json.loads(SCHEMA.read_text())
    out = [
        f"schema: {'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
        for e in jsonschema.Draft202012Validator(schema).iter_errors(scene)
    ]
    if out:
        return out
    table = scene.get("table", {})
    width, depth = table.get("width", DEFAULT_SIZE), table.get("depth", DEFAULT_SIZE)
    surface = box(0, 0, width, depth)
    ids = [t["id"] for t in scene["terrain"]] + [f["id"] for f in scene["figures"]]
    out += [f"duplicate id {i!r}" for i in sorted({i for i in ids if ids.count(i) > 1})]
    blocking = []
    for item in scene["terrain"]:
        shape = footprint(item)
        if not shape.is_valid or shape.area <= 0:
            reason = shapely.is_valid_reason(shape)
            out.append(f"terrain {item['id']!r}: invalid footprint ({reason})")
            continue
        if not surface.contains(shape):
            out.append(f"terrain {item['id']!r}: leaves the table")
        if blocks_movement(item):
            blocking.append((item["id"], shape))
    figures = scene["figures"]
    for fig in figures:
        base = Point(fig["x"], fig["y"]).buffer(radius(fig), quad_segs=64)
        if not surface.contains(base):
            out.append(f"figure {fig['id']!r}: base off the table")
        for tid, shape in blocking:
            clearance = shape.distance(Point(fig["x"], fig["y"])) - radius(fig)
            if clearance < gap:
                out.append(f"figure {fig['id']!r}: base {clearance:.2f} in from terrain {tid!r}")
    for i, a in enumerate(figures):
        for b in figures[i + 1 :]:
            edge = math.dist((a["x"], a["y"]), (b["x"], b["y"])) - radius(a) - radius(b)
            if edge < gap:
                out.append(f"figures {a['id']!r} and {b['id']!r}: bases {edge:.2f} in apart")
    return out


def draw(scene: dict[str, Any], png: Path) -> None:
    """Draw the table: grey blocks both (brown: closed door), blue sight, orange movement."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, Rectangle

    table = scene.get("table", {})
    width, depth = table.get("width", DEFAULT_SIZE), table.get("depth", DEFAULT_SIZE)
    fig, ax = plt.subplots(figsize=(10, 10))
    ax.add_patch(Rectangle((0, 0), width, depth, fc="#e9e4d4", ec="k"))
    colours = {(True, True): "#555555", (True, False): "#4a78c2", (False, True): "#e08a2c"}
    for item in scene["terrain"]:
        shape = footprint(item)
        key = (blocks_sight(item), blocks_movement(item))
        colour = colours.get(key, "#bbbbbb")
        if item["kind"] == "door" and key == (True, True):
            colour = "#8b4513"
        style = "--" if key == (False, False) else "-"
        xs, ys = shape.exterior.xy
        ax.fill(xs, ys, fc=colour, ec="k", lw=0.5, alpha=0.85, ls=style)
        c = shape.representative_point()
        ax.text(c.x, c.y, item["id"], fontsize=5, ha="center", va="center", color="#222")
    side_colour = {"survivors": "#1f4fd1", "zombies": "#c81e1e", "civilians": "#1e9c3c"}
    for f in scene["figures"]:
        ax.add_patch(Circle((f["x"], f["y"]), radius(f), fc=side_colour[f["side"]], ec="k"))
        ax.text(f["x"], f["y"], f["id"], fontsize=6, ha="center", va="center", color="white")
    ax.set_xlim(-0.5, width + 0.5)
    ax.set_ylim(-0.5, depth + 0.5)
    ax.set_aspect("equal")
    ax.set_xticks(range(0, int(width) + 1, 2))
    ax.set_yticks(range(0, int(depth) + 1, 2))
    ax.grid(lw=0.2)
    ax.set_title(scene.get("name", png.stem))
    fig.savefig(png, dpi=90, bbox_inches="tight")
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--png", type=Path, help="directory for drawings")
    parser.add_argument("--gap", type=float, default=0.1, help="minimum clearance, inches")
    args = parser.parse_args(argv)
    failed = False
    for path in args.files:
        scene = json.loads(path.read_text(encoding="utf-8"))
        found = problems(scene, args.gap)
        failed |= bool(found)
        counts = f"{len(scene.get('terrain', []))} terrain, {len(scene.get('figures', []))} figures"
        print(f"{path}: {'ok' if not found else f'{len(found)} problem(s)'} ({counts})")
        for p in found:
            print(f"  {p}")
        if args.png:
            args.png.mkdir(parents=True, exist_ok=True)
            draw(scene, args.png / f"{path.stem}.png")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
