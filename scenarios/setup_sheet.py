"""A scenario's set-up as a player lays it out on the real table: the printable set-up sheet
and the card's map on the page.

Everything is read off a game at its start (`scenarios.play.start_scenario`, or a stored game
replayed to its start), so the sheet of a seed and the game of that seed are one set-up.
Each figure and marker is placed by the two nearest table edges, one across and one along
(the left or right edge, the survivors' or the far edge), measured to the centre of its base
as a player measures with a tape; zones and terrain by the stretch they cover from the
nearer edges. What a crate holds is never in it: a crate is a crate until it is opened.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from geometry.corners import keep_out_squares
from i18n import Message, Name
from rules.game import Game
from rules.names import figure_names
from scenarios.cards import Card
from scenarios.render import setup_map
from scenarios.setup import exit_segment
from scenarios.town import TILE_INCHES

__all__ = ["SIDES", "sheet", "map_svg", "spot"]

SIDES = ("survivors", "zombies", "civilians")
ZONE_GROUPS = {"deployment": "survivors", "zombies": "zombies"}  # the rest are objectives
ROUND = 2  # decimals kept in the answer; the page says one


def _number(ident: str) -> int | None:
    """The number a player paints on a base or a marker: the end of its id ("z12" -> 12)."""
    found = re.search(r"(\d+)$", ident)
    return int(found.group(1)) if found else None


def spot(x: float, y: float, width: float, depth: float) -> list[dict[str, Any]]:
    """Where a point is, as a tape measures it: from the nearer of the left and right edges,
    then from the nearer of the survivors' (near) and far edges."""
    across = ("left", x) if x <= width - x else ("right", width - x)
    along = ("near", y) if y <= depth - y else ("far", depth - y)
    return [{"edge": edge, "inches": round(max(0.0, value), ROUND)}
            for edge, value in (across, along)]


def _span(low: float, high: float, size: float, low_edge: str,
          high_edge: str) -> dict[str, Any]:
    """A stretch along one axis, measured from the edge nearer its middle."""
    if (low + high) / 2 <= size / 2:
        return {"edge": low_edge, "from": round(max(0.0, low), ROUND),
                "to": round(min(size, high), ROUND)}
    return {"edge": high_edge, "from": round(max(0.0, size - high), ROUND),
            "to": round(min(size, size - low), ROUND)}


def extent(points: Sequence[Sequence[float]], width: float, depth: float) -> list[dict[str, Any]]:
    """The box a shape covers: across from the left or right edge, along from the
    survivors' or far edge."""
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return [_span(min(xs), max(xs), width, "left", "right"),
            _span(min(ys), max(ys), depth, "near", "far")]


def _footprint(piece: dict[str, Any]) -> list[Sequence[float]]:
    if piece["kind"] == "polygon":
        return list(piece["polygon"])
    half = float(piece.get("thickness", 0.25)) / 2
    xs = [p[0] for p in piece["line"]]
    ys = [p[1] for p in piece["line"]]
    return [(min(xs) - half, min(ys) - half), (max(xs) + half, max(ys) + half)]


def _name(piece: dict[str, Any]) -> Name:
    fr = str(piece.get("name") or piece.get("name_en") or "")
    return {"fr": fr, "en": str(piece.get("name_en") or fr)}


def _what(piece: dict[str, Any]) -> str:
    """What a terrain piece does, for the terrain list: a door (open or closed), a piece that
    blocks sight and movement, one that blocks movement only (glass, a low wall), one that
    blocks sight only (a hedge), or ground."""
    if piece["kind"] == "door":
        return "door_open" if piece.get("open") else "door"
    sight = piece.get("blocks_sight", True)
    move = piece.get("blocks_movement", True)
    return ("blocks" if sight and move else "see_through" if move
            else "hides" if sight else "ground")


def _zones(game: Game, width: float, depth: float) -> list[dict[str, Any]]:
    return [{"id": p.get("zone", p["id"]), "kind": p.get("zone_kind", "objective"),
             "name": _name(p), "polygon": p["polygon"],
             "extent": extent(p["polygon"], width, depth)}
            for p in game.scene_json.get("terrain", []) if p.get("role") == "zone"]


def _inside(x: float, y: float, polygon: Sequence[Sequence[float]]) -> bool:
    """Whether the point lies in the polygon (even-odd rule; zones are simple shapes)."""
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _terrain(game: Game, width: float, depth: float) -> list[dict[str, Any]]:
    """The terrain pieces in the order a player lays them: tile by tile for the random town
    (its tile named by its road), else as the table lists them."""
    pieces = [p for p in game.scene_json.get("terrain", []) if p.get("role") not in
              ("zone", "marker")]
    out: list[dict[str, Any]] = []
    tiles: dict[str, Name | None] = {str(p["tile"]): None for p in pieces if p.get("tile")}
    for piece in pieces:  # a tile with a road or a square is named by it
        if piece.get("surface"):
            points = piece["polygon"]
            cx = sum(p[0] for p in points) / len(points)
            cy = sum(p[1] for p in points) / len(points)
            tiles[f"{int(cx // TILE_INCHES)},{int(cy // TILE_INCHES)}"] = _name(piece)
    for piece in pieces:
        if piece.get("surface"):
            continue
        tile = piece.get("tile")
        out.append({"name": _name(piece), "what": _what(piece),
                    "extent": extent(_footprint(piece), width, depth), "tile": tile})
    if not tiles:
        return [{"tile": None, "name": None, "extent": None, "pieces": out}]
    grouped = []
    for key in sorted(tiles, key=lambda k: (int(k.split(",")[1]), int(k.split(",")[0]))):
        column, row = (int(v) for v in key.split(","))
        box = [(column * TILE_INCHES, row * TILE_INCHES),
               ((column + 1) * TILE_INCHES, (row + 1) * TILE_INCHES)]
        grouped.append({"tile": {"column": column + 1, "row": row + 1}, "name": tiles[key],
                        "extent": extent(box, width, depth),
                        "pieces": [p for p in out if p["tile"] == key]})
    loose = [p for p in out if p["tile"] not in tiles]
    if loose:
        grouped.append({"tile": None, "name": None, "extent": None, "pieces": loose})
    return grouped


def _item_names(card: Card, game: Game) -> dict[str, Name]:
    names: dict[str, Name] = {i.id: {"fr": i.name.fr, "en": i.name.en} for i in card.items}
    for key, item in game.catalog.equipment.items():
        names.setdefault(key, {"fr": item.name, "en": item.name_en or item.name})
    return names


def sheet(game: Game, card: Card) -> dict[str, Any]:
    """The set-up of `game` (at its start) as a player lays it out: each side's figures with
    where they stand, the crates (never what they hold), the card's items on the ground,
    the zones, exits and terrain, the weather, the turns and the card's special rules; and
    the squares kept clear for the camera's corner markers (`camera_corners`, docs/rules.md
    D41) when the game keeps them."""
    width, depth = game.table.width, game.table.depth
    names = figure_names(game)
    zones = _zones(game, width, depth)

    def zone_of(x: float, y: float, kinds: Sequence[str]) -> Name | None:
        for zone in zones:
            if zone["kind"] in kinds and _inside(x, y, zone["polygon"]):
                return zone["name"]  # type: ignore[no-any-return]
        return None

    figures: dict[str, list[dict[str, Any]]] = {side: [] for side in SIDES}
    for fig in game.figures.values():
        if fig.side not in figures:
            continue
        figures[fig.side].append({
            "id": fig.id, "name": names[fig.id], "number": _number(fig.id), "type": fig.kind,
            "x": round(fig.x, ROUND), "y": round(fig.y, ROUND),
            "at": spot(fig.x, fig.y, width, depth),
            "zone": zone_of(fig.x, fig.y, ("zombies",) if fig.side == "zombies"
                            else ("deployment",))})
    for listed in figures.values():
        listed.sort(key=lambda f: (_number(f["id"]) is None, _number(f["id"]) or 0, f["id"]))
    items = _item_names(card, game)
    crates, ground = [], []
    for marker in game.markers.values():
        where = {"id": marker["id"], "number": _number(marker["id"]),
                 "x": round(marker["x"], ROUND), "y": round(marker["y"], ROUND),
                 "at": spot(marker["x"], marker["y"], width, depth)}
        if marker.get("kind") == "crate":
            crates.append(where)  # what it holds stays hidden
        else:
            held = [items.get(k, {"fr": k, "en": k}) for k in marker.get("items", {})]
            ground.append({**where, "names": held})
    exits = []
    for e in card.to_json().get("exits", []):
        whole = e.get("to") is None and not e.get("from")
        exits.append({"id": e["id"], "name": e["name"], "edge": e["edge"], "who": e["who"],
                      "whole": whole, "from": e.get("from", 0.0),
                      "to": e["to"] if e.get("to") is not None
                      else width if e["edge"] in ("near", "far") else depth,
                      "segment": exit_segment(e["edge"], float(e.get("from", 0.0)),
                                              e.get("to"), width, depth)})
    referee = getattr(game, "referee", None)
    state = getattr(referee, "state", {}) if referee is not None else {}
    weather = state.get("weather") if isinstance(state, dict) else None
    return {
        "scenario": {"id": card.id, "name": {"fr": card.name.fr, "en": card.name.en},
                     "kind": card.kind, "number": card.number},
        "table": {"width": round(width, ROUND), "depth": round(depth, ROUND),
                  "name": {"fr": str(game.scene_json.get("name", "")),
                           "en": str(game.scene_json.get("name_en")
                                     or game.scene_json.get("name", ""))}},
        "turns": {"limit": game.max_turns,
                  "end_roll": None if card.turns.end_roll is None else {
                      "from_turn": card.turns.end_roll.from_turn,
                      "ends_on": card.turns.end_roll.ends_on}},
        "weather": None if not isinstance(weather, dict) else {
            "name": weather.get("name"),
            "sight_limit": (weather.get("effects") or {}).get("sight_limit")},
        "figures": figures,
        "crates": sorted(crates, key=lambda c: (c["number"] or 0, c["id"])),
        "items": sorted(ground, key=lambda c: (c["number"] or 0, c["id"])),
        "zones": [{k: z[k] for k in ("id", "kind", "name", "extent")} for z in zones],
        "exits": exits,
        "terrain": _terrain(game, width, depth),
        "objectives": {side: {"fr": getattr(card.objectives, side).text.fr,
                              "en": getattr(card.objectives, side).text.en}
                       for side in ("survivors", "zombies")},
        "deployment": {"survivors": {"fr": card.survivors.text.fr,
                                     "en": card.survivors.text.en},
                       "zombies": {"fr": card.zombies.text.fr, "en": card.zombies.text.en}},
        "rules_words": [r.words(card, game.catalog).to_json() for r in card.special_rules],
        "camera_corners": [
            {"marker": n, "square": [round(v, ROUND) for v in square.bounds]}
            for n, square in enumerate(keep_out_squares(width, depth))
        ] if game.settings.camera_corners_clear else [],
    }


def _say(name: Name | None, lang: str) -> str:
    if not name:
        return ""
    return name.get(lang) or name.get("en") or name.get("fr") or ""


EDGE_WORDS = {"near": Message("setup.map.edge.near"), "far": Message("setup.map.edge.far"),
              "left": Message("setup.map.edge.left"), "right": Message("setup.map.edge.right")}


def map_svg(game: Game, card: Card, lang: str, *, zombies: bool = True) -> str:
    """The table of `game` at its start seen from above, survivors' edge at the bottom, every
    word in `lang`: the card's title, the zones, exits and edges by name, each figure by the
    number on its base (its name as its tooltip), the crates by number, never their
    contents."""
    data = sheet(game, card)
    width, depth = game.table.width, game.table.depth
    zones = [{"kind": z["kind"], "polygon": z["polygon"], "label": _say(z["name"], lang)}
             for z in _zones(game, width, depth)]
    exits = [{"edge": e["edge"], "segment": e["segment"], "label": _say(e["name"], lang)}
             for e in data["exits"]]
    markers = [{"kind": "crate", "x": c["x"], "y": c["y"], "label": str(c["number"] or ""),
                "title": Message("setup.map.crate", {"n": c["number"] or 0}).text(lang)}
               for c in data["crates"]]
    markers += [{"kind": "items", "x": m["x"], "y": m["y"], "label": str(m["number"] or ""),
                 "title": ", ".join(_say(n, lang) for n in m["names"])}
                for m in data["items"]]
    figures = [{"side": side, "x": f["x"], "y": f["y"], "label": str(f["number"] or ""),
                "title": _say(f["name"], lang), "base_mm": game.figures[f["id"]].base_mm}
               for side in SIDES for f in data["figures"][side]
               if zombies or side != "zombies"]
    edges = {edge: words.text(lang) for edge, words in EDGE_WORDS.items()}
    title = _say(data["scenario"]["name"], lang)
    corners = [Message("setup.map.camera_corner", {"n": c["marker"]}).text(lang)
               for c in data["camera_corners"]]
    return setup_map(game.scene_json, width=width, depth=depth, title=title, zones=zones,
                     exits=exits, markers=markers, figures=figures, edges=edges, lang=lang,
                     corners=corners)
