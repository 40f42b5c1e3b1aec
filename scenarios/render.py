"""Small SVG maps of the scenario cards, drawn from the data (one user unit = one inch).

    python -m scenarios.render docs/img/scenarios --markdown docs/scenarios.md

writes one `<card id>.svg` per card: the card's table (for the random town, the town of
seed 1), its zones, exits, and the set-up of seed 1 with the default band (crates, items,
civilians, survivors; zombies are left out so the zones stay readable) with the camera's
corner markers it keeps clear, and with `--markdown` the page presenting the cards
(`scenarios.docs`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path
from typing import Any

from shapely.geometry import LineString

from geometry.corners import keep_out_squares, marker_squares
from geometry.units import TABLE_INCHES

__all__ = ["svg_map", "setup_map", "render_card", "main"]

MARGIN = 0.6
PIXELS = 420
ZONE_COLOURS = {
    "deployment": "#2f6fd6",
    "zombies": "#c62828",
    "objective": "#f9a825",
    "refuge": "#2e9d4f",
    "light": "#ffd54f",
    "scatter": "#8e6bbf",
    "delivery": "#00897b",
}
SIDE_COLOURS = {"survivors": "#2f6fd6", "zombies": "#c62828", "civilians": "#2e9d4f"}
EDGE_COLOUR = "#2e9d4f"


def _fmt(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


class _Canvas:
    def __init__(self, width: float, depth: float, margin: float = MARGIN) -> None:
        self.width, self.depth, self.margin = width, depth, margin
        self.parts: list[str] = []

    def pt(self, x: float, y: float) -> str:
        return f"{_fmt(x + self.margin)},{_fmt(self.depth - y + self.margin)}"

    def polygon(self, points: Iterable[Sequence[float]], style: str, title: str = "") -> None:
        pts = " ".join(self.pt(p[0], p[1]) for p in points)
        tip = f"<title>{escape(title)}</title>" if title else ""
        self.parts.append(f'<polygon points="{pts}" {style}>{tip}</polygon>')

    def text(self, x: float, y: float, words: str, size: float = 0.7,
             colour: str = "#222", anchor: str = "middle", extra: str = "") -> None:
        self.parts.append(
            f'<text x="{_fmt(x + self.margin)}" y="{_fmt(self.depth - y + self.margin)}" '
            f'font-size="{_fmt(size)}" font-family="sans-serif" fill="{colour}" '
            f'text-anchor="{anchor}"{extra}>{escape(words)}</text>')

    def circle(self, x: float, y: float, r: float, style: str, title: str = "") -> None:
        tip = f"<title>{escape(title)}</title>" if title else ""
        self.parts.append(f'<circle cx="{_fmt(x + self.margin)}" '
                          f'cy="{_fmt(self.depth - y + self.margin)}"'
                          f' r="{_fmt(r)}" {style}>{tip}</circle>')

    def line(self, a: Sequence[float], b: Sequence[float], style: str) -> None:
        m = self.margin
        x1, y1 = _fmt(a[0] + m), _fmt(self.depth - a[1] + m)
        x2, y2 = _fmt(b[0] + m), _fmt(self.depth - b[1] + m)
        self.parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {style}/>')

    def svg(self, title: str) -> str:
        w, d = self.width + 2 * self.margin, self.depth + 2 * self.margin
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_fmt(w)} {_fmt(d)}" '
                f'width="{PIXELS}" height="{round(PIXELS * d / w)}">')
        body = "\n".join(self.parts)
        return f"{head}\n<title>{escape(title)}</title>\n{body}\n</svg>\n"


def _terrain_style(piece: dict[str, Any]) -> str:
    if piece.get("surface") == "road":
        return 'fill="#d4d2cc" stroke="none"'
    if piece.get("surface") == "plaza":
        return 'fill="#e3dac4" stroke="none"'
    if piece.get("role") in ("zone", "marker"):
        return ""
    sight = piece.get("blocks_sight", True)
    move = piece.get("blocks_movement", True)
    if piece["kind"] == "door":
        return 'fill="#8d5a2b" stroke="#5d3a1a" stroke-width="0.04"'
    if sight and move:
        return 'fill="#5f6368" stroke="#3c4043" stroke-width="0.04"'
    if move:
        return 'fill="#d9984a" stroke="#9a6424" stroke-width="0.04"'
    if sight:
        return 'fill="#7aa45c" fill-opacity="0.6" stroke="#4e7a35" stroke-width="0.04"'
    return 'fill="none" stroke="#bbb" stroke-width="0.03"'


def _footprint_points(piece: dict[str, Any]) -> list[tuple[float, ...]]:
    if piece["kind"] == "polygon":
        return [tuple(p) for p in piece["polygon"]]
    shape = LineString(piece["line"]).buffer(piece["thickness"] / 2, cap_style="flat",
                                             join_style="mitre")
    return [tuple(p) for p in shape.exterior.coords][:-1]


def _camera_corners(canvas: _Canvas, titles: Sequence[str]) -> None:
    """The camera's corner markers on their white paper, the squares a set-up keeps clear
    (docs/rules.md D41), each with its tooltip."""
    papers = keep_out_squares(canvas.width, canvas.depth)
    for paper, marker, title in zip(papers, marker_squares(canvas.width, canvas.depth), titles,
                                    strict=False):
        canvas.polygon(paper.exterior.coords[:-1], 'fill="#fff" stroke="#777" '
                       'stroke-width="0.06" stroke-dasharray="0.3 0.2"', title)
        canvas.polygon(marker.exterior.coords[:-1], 'fill="#333" stroke="none"')
        canvas.polygon(marker.buffer(-1 / 3, join_style="mitre").exterior.coords[:-1],
                       'fill="#fff" stroke="none"')


def svg_map(scene: dict[str, Any], *, title: str, zones: Sequence[dict[str, Any]] = (),
            exits: Sequence[dict[str, Any]] = (), markers: Sequence[dict[str, Any]] = (),
            show_zombies: bool = True, corners: bool = False) -> str:
    """The table seen from above, survivors' edge at the bottom; with `corners`, the
    camera's corner markers the set-up kept clear."""
    table = scene.get("table", {})
    canvas = _Canvas(float(table.get("width", TABLE_INCHES)), float(table.get("depth",
                                                                               TABLE_INCHES)))
    w, d = canvas.width, canvas.depth
    canvas.polygon([(0, 0), (w, 0), (w, d), (0, d)], 'fill="#f3efe4" stroke="#333" '
                   'stroke-width="0.08"')
    pieces = [p for p in scene.get("terrain", []) if p.get("role") not in ("zone", "marker")]
    pieces.sort(key=lambda p: 0 if p.get("surface") else 1)
    for piece in pieces:
        canvas.polygon(_footprint_points(piece), _terrain_style(piece),  # docs are English
                       str(piece.get("name_en") or piece.get("name") or piece["id"]))
    if corners:
        _camera_corners(canvas, [f"Camera marker {n}: keep this square clear"
                                 for n in range(4)])
    for zone in zones:
        colour = ZONE_COLOURS.get(zone["kind"], "#555")
        canvas.polygon(zone["polygon"], f'fill="{colour}" fill-opacity="0.18" stroke="{colour}"'
                       ' stroke-width="0.1" stroke-dasharray="0.4 0.25"', zone["name"])
        xs = [p[0] for p in zone["polygon"]]
        ys = [p[1] for p in zone["polygon"]]
        cx = (min(xs) + max(xs)) / 2
        cy = (min(ys) + max(ys)) / 2
        canvas.text(cx, cy - 0.25, zone["label"], 0.8, colour)
    for exit_ in exits:
        a, b = exit_["segment"]
        canvas.line(a, b, f'stroke="{EDGE_COLOUR}" stroke-width="0.45" stroke-linecap="butt"')
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        inward = {"near": (0, 1.3), "far": (0, -1.6), "left": (1.2, 0), "right": (-1.2, 0)}
        dx, dy = inward[exit_["edge"]]
        canvas.text(mid[0] + dx, mid[1] + dy, exit_["label"], 0.75, EDGE_COLOUR,
                    "start" if exit_["edge"] == "left" else
                    "end" if exit_["edge"] == "right" else "middle")
    for marker in markers:
        x, y = marker["x"], marker["y"]
        if marker["kind"] == "crate":
            s = 0.45
            canvas.polygon([(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)],
                           'fill="#a1662f" stroke="#4e2f12" stroke-width="0.08"', marker["id"])
            canvas.line((x - s, y - s), (x + s, y + s), 'stroke="#4e2f12" stroke-width="0.06"')
            canvas.line((x - s, y + s), (x + s, y - s), 'stroke="#4e2f12" stroke-width="0.06"')
        else:
            canvas.circle(x, y, 0.42, 'fill="#00897b" stroke="#004d40" stroke-width="0.08"',
                          marker["id"])
            canvas.text(x, y - 0.2, marker.get("letter", "?"), 0.55, "#fff")
    for figure in scene.get("figures", []):
        if figure["side"] == "zombies" and not show_zombies:
            continue
        r = float(figure.get("base_mm", 25)) / 25.4 / 2
        colour = SIDE_COLOURS[figure["side"]]
        canvas.circle(figure["x"], figure["y"], r, f'fill="{colour}" stroke="#111" '
                      'stroke-width="0.05"', figure["id"])
        canvas.text(figure["x"], figure["y"] - 0.17, figure["id"], 0.42, "#fff")
    return canvas.svg(title)


EDGE_MARGIN = 1.3  # room outside the table for the edges' names
PAGE_SIDE_COLOURS = {**SIDE_COLOURS, "civilians": "#c98a00"}  # as the game screen draws them
HALO = ' stroke="#fff" stroke-width="0.14" stroke-opacity="0.85" paint-order="stroke"'


def setup_map(scene: dict[str, Any], *, width: float, depth: float, title: str,
              zones: Sequence[dict[str, Any]], exits: Sequence[dict[str, Any]],
              markers: Sequence[dict[str, Any]], figures: Sequence[dict[str, Any]],
              edges: dict[str, str], lang: str, corners: Sequence[str] = ()) -> str:
    """A set-up's table for a player (the page's map, the printable set-up sheet): terrain
    named in `lang` (a tooltip), zones and exits by their `label`, crates and items by the
    number of their `label`, each figure by the number on its base (`label`) with its name
    as its `title`, and the four edges named outside the table; the camera's corner markers
    when `corners` gives their tooltips (markers 0-3). Every word comes in said."""
    canvas = _Canvas(width, depth, EDGE_MARGIN)
    canvas.polygon([(0, 0), (width, 0), (width, depth), (0, depth)],
                   'fill="#f3efe4" stroke="#333" stroke-width="0.08"')
    pieces = [p for p in scene.get("terrain", []) if p.get("role") not in ("zone", "marker")]
    pieces.sort(key=lambda p: 0 if p.get("surface") else 1)
    for piece in pieces:
        name = piece.get("name_en") if lang == "en" else piece.get("name")
        canvas.polygon(_footprint_points(piece), _terrain_style(piece),
                       str(name or piece.get("name") or ""))
    _camera_corners(canvas, corners)
    for zone in zones:
        colour = ZONE_COLOURS.get(zone["kind"], "#555")
        canvas.polygon(zone["polygon"], f'fill="{colour}" fill-opacity="0.16" stroke="{colour}"'
                       ' stroke-width="0.1" stroke-dasharray="0.4 0.25"', zone["label"])
    for exit_ in exits:
        a, b = exit_["segment"]
        canvas.line(a, b, f'stroke="{EDGE_COLOUR}" stroke-width="0.45" stroke-linecap="butt"')
    for marker in markers:
        x, y = marker["x"], marker["y"]
        if marker["kind"] == "crate":
            s = 0.45
            canvas.polygon([(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)],
                           'fill="#a1662f" stroke="#4e2f12" stroke-width="0.08"',
                           marker["title"])
        else:
            canvas.circle(x, y, 0.42, 'fill="#00897b" stroke="#004d40" stroke-width="0.08"',
                          marker["title"])
        canvas.text(x, y - 0.18, marker["label"], 0.5, "#fff")
    for figure in figures:
        r = float(figure.get("base_mm", 25)) / 25.4 / 2
        canvas.circle(figure["x"], figure["y"], r, f'fill="{PAGE_SIDE_COLOURS[figure["side"]]}" '
                      'stroke="#111" stroke-width="0.05"', figure["title"])
        canvas.text(figure["x"], figure["y"] - 0.18, figure["label"], 0.5, "#fff")
    placed: list[tuple[float, float, float]] = []
    for zone in zones:  # over the figures, at the top of the zone, clear of each other
        colour = ZONE_COLOURS.get(zone["kind"], "#555")
        xs = [p[0] for p in zone["polygon"]]
        ys = [p[1] for p in zone["polygon"]]
        half = 0.2 * len(zone["label"]) + 0.1  # about half the label's width at size 0.75
        x = min(max((min(xs) + max(xs)) / 2, half + 0.2), width - half - 0.2)
        y = min(max(ys), depth) - 0.85
        while any(abs(py - y) < 0.8 and abs(px - x) < half + ph for px, py, ph in placed):
            y -= 0.85
        placed.append((x, y, half))
        canvas.text(x, y, zone["label"], 0.75, colour, extra=HALO)
    for exit_ in exits:
        a, b = exit_["segment"]
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        inward = {"near": (0, 1.3), "far": (0, -1.6), "left": (1.2, 0), "right": (-1.2, 0)}
        dx, dy = inward[exit_["edge"]]
        canvas.text(mid[0] + dx, mid[1] + dy, exit_["label"], 0.75, EDGE_COLOUR,
                    "start" if exit_["edge"] == "left" else
                    "end" if exit_["edge"] == "right" else "middle", extra=HALO)
    m = canvas.margin
    canvas.text(width / 2, -0.9, edges["near"], 0.7, "#333")
    canvas.text(width / 2, depth + 0.45, edges["far"], 0.7, "#333")
    for edge, x, turn in (("left", -0.45, -90), ("right", width + 0.45, 90)):
        sx, sy = _fmt(x + m), _fmt(depth / 2 + m)
        canvas.text(x, depth / 2, edges[edge], 0.7, "#333",
                    extra=f' transform="rotate({turn} {sx} {sy})" dominant-baseline="middle"')
    return canvas.svg(title)


def render_card(card_id: str, seed: int = 1) -> str:
    """The card's map: its zones and exits over the seed's set-up, zombies left out."""
    from scenarios.setup import setup_scenario

    setup = setup_scenario(card_id, seed)
    zones = [{"kind": z["kind"], "polygon": z["polygon"], "name": z["name"]["en"],
              "label": z["name"]["fr"]} for z in setup["zones"]]
    exits = [{"edge": e["edge"], "segment": e["segment"], "label": e["name"]["fr"]}
             for e in setup["exits"]]
    markers = [{"id": m["id"], "kind": m["kind"], "x": m["x"], "y": m["y"],
                "letter": m.get("item", "?")[:1].upper()} for m in setup["markers"]]
    title = f"{setup['scenario']['name']['fr']} ({setup['scenario']['name']['en']})"
    return svg_map(setup["scene"], title=title, zones=zones, exits=exits, markers=markers,
                   show_zombies=False, corners="corners" in setup["layout"])


def main(argv: Sequence[str] | None = None) -> int:
    from scenarios.cards import load_cards

    parser = argparse.ArgumentParser(prog="python -m scenarios.render",
                                     description="Write an SVG map of every scenario card.")
    parser.add_argument("directory", type=Path, help="where to write <card id>.svg")
    parser.add_argument("--seed", type=int, default=1, help="the set-up shown (default 1)")
    parser.add_argument("--markdown", type=Path, help="also write the cards' page here")
    args = parser.parse_args(argv)
    args.directory.mkdir(parents=True, exist_ok=True)
    for card_id in load_cards():
        path = args.directory / f"{card_id}.svg"
        path.write_text(render_card(card_id, args.seed), encoding="utf-8")
        print(path)
    if args.markdown is not None:
        from scenarios.docs import markdown

        args.markdown.write_text(markdown(), encoding="utf-8")
        print(args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
