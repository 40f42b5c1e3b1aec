"""Setting up a scenario card from a seed: the table, the random conditions, both bands placed.

The scenario sequence of the rulebook (L44-51, D20): roll the random conditions (crate
contents, weather, zombie deployment), buy the zombies with the points the card gives for
the band's final cost, then lay the table and deploy. Everything comes from the seed, in
three independent streams (dice, town, placement), and every die is recorded with its
purpose, so the same seed always gives the same set-up and a table can type its own dice in
through `dice`.

Crate contents are rolled at set-up and kept hidden until a crate is opened (the same odds as
rolling when it is opened, and the set-up stays reproducible). Markers and civilians are
placed first so they always fit; then the survivors group in their deployment zone, nearest
its centre first; then the zombies by the deployment roll. When the zombies' area is full, the
rest go in wider rings around it, never within 8 in of a survivor.

Under `camera_corners_clear` (the default, docs/rules.md D41) the square at each table corner
where the camera's marker lies (`geometry.corners`) is kept clear: terrain reaching into it is
moved or cut (`scenarios.corners`, listed in the answer's `layout.corners`), and nothing is
placed there, whatever zone the card gives.
"""

from __future__ import annotations

import functools
import math
import random
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

from geometry.corners import keep_out
from geometry.scene import load_scene
from geometry.units import DEFAULT_BASE_MM, TABLE_INCHES, base_radius
from i18n import Message
from rules.catalog import Catalog, load_catalog
from rules.dice import Dice, Roll
from rules.settings import Settings
from rules.warband import Roster, band_cost, example_bands
from scenarios import words
from scenarios.cards import (
    TOWN,
    Card,
    Deployment,
    RandomTables,
    RollEntry,
    load_cards,
    load_random_tables,
)
from scenarios.corners import clear_corners
from scenarios.placement import Placer, Spot
from scenarios.schema import to_json
from scenarios.tables import table_data
from scenarios.town import TILE_INCHES, generate_town

__all__ = ["DEFAULT_BAND", "setup_scenario", "buy_zombies", "exit_segment", "roll_dice"]

DEFAULT_BAND = "cops_and_kids"
SURVIVOR_GAP = 0.3  # inches between deployed survivors
ZOMBIE_GAP = 0.1
FALLBACK_KEEP_AWAY = 8.0  # zombies spilling out of their area stay this far from survivors
CRATE_SPACING = 3.0
TOKEN_RADIUS = 0.45
CRATE_HALF = 0.45
ITEM_HALF = TOKEN_RADIUS * 0.8
CRATE_REACH = CRATE_HALF * math.sqrt(2)  # a square token's corners, kept off the camera's
ITEM_REACH = max(TOKEN_RADIUS, ITEM_HALF * math.sqrt(2))  # corner squares
MAX_TOWNS = 20
CLOSED_IN_KEPT = 16  # tables whose closed-in ground is kept


class _Record:
    """The dice of the set-up, each with what it was for, and the choices made by default:
    `purpose` in English (for programs), `words` the same as a message for a person."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.rolls: list[dict[str, Any]] = []

    def d6(self, purpose: str, said: Message) -> int:
        return self.dice.roll(Roll(purpose, words=said))

    def note(self, purpose: Message, dice: list[int], result: Any) -> None:
        self.rolls.append({"purpose": purpose.text("en"), "words": purpose.to_json(),
                           "dice": dice, "result": result})


def roll_dice(expression: int | str, roll: Any) -> tuple[int, list[int]]:
    """A dice expression ("D3", "2D6", "D6+1", or a number) rolled with `roll(purpose)`."""
    if isinstance(expression, int):
        return expression, []
    head, _, rest = expression.partition("D")
    times = int(head or 1)
    faces = int(rest[0])
    modifier = int(rest[1:] or 0)
    dice = [roll(expression) for _ in range(times)]
    values = [math.ceil(d / 2) if faces == 3 else d for d in dice]
    return max(0, sum(values) + modifier), dice


def buy_zombies(points: int, mix: Mapping[str, float], catalog: Catalog) -> dict[str, int]:
    """The default purchase: each type gets its share of the points (rounded down), the rest
    buys the cheapest type of the mix; never more than `points`."""
    counts = {z: 0 for z in catalog.zombies}
    for zombie, share in mix.items():
        counts[zombie] = int(points * share + 1e-9) // catalog.zombies[zombie].cost
    left = points - sum(catalog.zombies[z].cost * n for z, n in counts.items())
    cheapest = min(mix, key=lambda z: (catalog.zombies[z].cost, z))
    cost = catalog.zombies[cheapest].cost
    counts[cheapest] += left // cost
    left -= (left // cost) * cost
    for zombie in sorted(catalog.zombies, key=lambda z: catalog.zombies[z].cost):
        while left >= catalog.zombies[zombie].cost:
            counts[zombie] += 1
            left -= catalog.zombies[zombie].cost
    return {z: n for z, n in counts.items() if n}


def exit_segment(edge: str, start: float, end: float | None,
                 width: float = TABLE_INCHES, depth: float = TABLE_INCHES) -> list[list[float]]:
    """The stretch of table edge an exit covers, as two [x, y] points."""
    if edge in ("near", "far"):
        stop = width if end is None else end
        y = 0.0 if edge == "near" else depth
        return [[start, y], [stop, y]]
    stop = depth if end is None else end
    x = 0.0 if edge == "left" else width
    return [[x, start], [x, stop]]


def _interleave(counts: Mapping[str, int]) -> list[str]:
    """Zombie types in turn (ignoble, slasher, rôdeur, ignoble...), so every area gets a mix."""
    left = dict(sorted(counts.items(), key=lambda kv: kv[0]))
    out: list[str] = []
    while any(left.values()):
        for zombie in sorted(left):
            if left[zombie]:
                out.append(zombie)
                left[zombie] -= 1
    return out


def _roster(band: Roster | None) -> Roster:
    return band if band is not None else example_bands()[DEFAULT_BAND]


def _layout_scene(card: Card, table: str, rng: random.Random) -> tuple[dict[str, Any],
                                                                        dict[str, Any]]:
    if table == TOWN:
        start_tile = card.layout.start_tile if card.layout.table == TOWN else None
        start_cell = card.layout.start_cell if card.layout.table == TOWN else None
        town = generate_town(rng, start_tile=start_tile or "carrefour", start_cell=start_cell)
        scene = town.scene_json(f"Ville au hasard pour {card.name.fr}",
                                f"Random town for {card.name.en}")
        return scene, {"table": TOWN, "town": town.to_json()}
    data = table_data(table)
    return {k: v for k, v in data.items() if k != "figures"} | {"figures": []}, {"table": table}


def setup_scenario(card: Card | str, seed: int, band: Roster | None = None, *,
                   table: str | None = None, settings: Settings | None = None,
                   catalog: Catalog | None = None, dice: Sequence[int] = ()) -> dict[str, Any]:
    """Everything needed to start playing `card` with `band` (the default example band when
    None): see the module docstring. `table` replaces the card's layout (a demo table or
    "town"); `dice` are dice typed in, used before the seeded ones."""
    catalog = catalog or load_catalog()
    settings = settings or Settings()
    card = load_cards()[card] if isinstance(card, str) else card
    roster = _roster(band)
    layout = table or card.layout.table
    record = _Record(Dice(rng=random.Random(f"{seed}:dice"), typed=list(dice)))
    town_rng = random.Random(f"{seed}:town")
    place_rng = random.Random(f"{seed}:placement")
    tables = _random_tables()

    # I. random conditions: crates, weather, zombie deployment (L46-48, D20)
    crate_loot = []
    for i in range(card.crates.count):
        die = record.d6(f"crate {i + 1} contents", Message("scenario.roll.crate", {
            "crate": words.crate(f"crate{i + 1}")}))
        entry = _face(card.crates.loot, die)
        crate_loot.append((die, entry.value.to_json()))
        record.note(Message("scenario.setup.crate", {"crate": words.crate(f"crate{i + 1}")}),
                    [die], entry.value.to_json())
    weather = _roll_weather(card, settings, record)
    deployment = _roll_deployment(card, settings, record, tables.deployment)

    # II. the zombie band (L49-50): points from the band's final cost
    cost = band_cost(roster, catalog, settings)
    if isinstance(settings.zombie_points, int):
        points = settings.zombie_points
    else:
        points = card.zombies.points.points(cost)
    bought = buy_zombies(points, card.zombies.mix, catalog)
    spent = sum(catalog.zombies[z].cost * n for z, n in bought.items())

    # III. set-up: terrain, markers and civilians, survivors, zombies
    for attempt in range(1, MAX_TOWNS + 1):
        scene_json, layout_info = _layout_scene(card, layout, town_rng)
        extra = list(card.extra_terrain)
        before = None
        if settings.camera_corners_clear:  # the card's pieces too, then nothing to add
            before = list(scene_json.get("terrain", [])) + extra
            scene_json["terrain"], changes = _clear_corners(scene_json, extra, layout)
            layout_info["corners"] = {"kept_clear": True, "terrain": changes}
            extra = []
        try:
            placed = _deploy(card, roster, scene_json, extra, bought, deployment, place_rng,
                             record, catalog, before, random.Random(f"{seed}:corners"))
            break
        except _NoRoom as no_room:
            if layout != TOWN or attempt == MAX_TOWNS:
                raise no_room.error() from None
    layout_info["attempts"] = attempt
    scene_json["terrain"] = (list(scene_json.get("terrain", [])) + extra
                             + _zone_pieces(card) + placed["marker_pieces"])
    scene_json["figures"] = placed["figures"]
    load_scene(scene_json)  # the set-up must be a valid scene

    crates = [{**m, "loot_roll": die, "loot": loot}
              for m, (die, loot) in zip(placed["crates"], crate_loot, strict=True)]
    return {
        "scenario": {"id": card.id, "name": to_json(card.name), "kind": card.kind,
                     "number": card.number, "draw_roll": list(card.draw_roll)},
        "seed": seed,
        "layout": layout_info,
        "band": {"name": roster.name, "names": roster.names, "cost": cost,
                 "members": len(roster.members)},
        "rolls": record.rolls,
        "weather": weather,
        "zombie_deployment": placed["deployment"],
        "zombie_points": {"band_cost": cost, **to_json(card.zombies.points), "points": points},
        "zombies": {"bought": bought, "spent": spent, "points": points,
                    "figures": sum(bought.values()), "placed": placed["zombies_placed"]},
        "reinforcements": [
            {**to_json(r), "turns": list(r.turns(card.turns.limit))}
            for r in card.zombies.reinforcements
        ],
        "turns": to_json(card.turns),
        "objectives": {
            "survivors": _victory_json(card.objectives.survivors, card),
            "zombies": _victory_json(card.objectives.zombies, card),
            "ends_when": [{**c.to_json(), "words": c.words(card).to_json()}
                          for c in card.objectives.ends_when],
        },
        "zones": [to_json(z) for z in card.zones],
        "exits": [{**to_json(e), "segment": exit_segment(e.edge, e.from_, e.to)}
                  for e in card.exits],
        "crates": crates,
        "markers": placed["crates"] + placed["items"],
        "items": [to_json(i) for i in card.items],
        "special_rules": [_rule_json(r, card, catalog) for r in card.special_rules],
        "consequences": [{"roll": [e.low, e.high], **e.value.to_json(),
                          "words": e.value.words(catalog).to_json()}
                         for e in card.consequences],
        "rewards": {side: [{**c.to_json(), "words": c.words(catalog).to_json()} for c in given]
                    for side, given in (("survivors_win", card.rewards.survivors_win),
                                        ("zombies_win", card.rewards.zombies_win))},
        "scene": scene_json,
    }


@functools.lru_cache(maxsize=1)
def _random_tables() -> RandomTables:
    """The shared random tables, read once (reading the TOML took longer than the rest of a
    fixed table's set-up); they are frozen, as the cards `load_cards` keeps are."""
    return load_random_tables()


def _table_size(scene_json: Mapping[str, Any]) -> tuple[float, float]:
    table = scene_json.get("table", {})
    return float(table.get("width", TABLE_INCHES)), float(table.get("depth", TABLE_INCHES))


def _clear_corners(scene_json: Mapping[str, Any], extra: Sequence[Mapping[str, Any]],
                   layout: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The layout's terrain and the card's, moved or cut off the camera's corner squares."""
    width, depth = _table_size(scene_json)
    terrain = [dict(t) for t in scene_json.get("terrain", [])] + [dict(t) for t in extra]
    return clear_corners(terrain, width, depth,
                         tile_size=TILE_INCHES if layout == TOWN else None)


def _rule_json(rule: Any, card: Card, catalog: Catalog) -> dict[str, Any]:
    """A special rule as data, its text in French and English and its message."""
    said = rule.words(card, catalog)
    return {**rule.to_json(), "text": {"fr": said.text("fr"), "en": said.text("en")},
            "words": said.to_json()}


def _victory_json(victory: Any, card: Card) -> dict[str, Any]:
    return {"text": to_json(victory.text), "mode": victory.mode,
            "conditions": [{**c.to_json(), "words": c.words(card).to_json()}
                           for c in victory.conditions]}


def _face(table: Sequence[RollEntry[Any]], die: int) -> RollEntry[Any]:
    return next(e for e in table if e.covers(die))


def _roll_weather(card: Card, settings: Settings, record: _Record) -> dict[str, Any]:
    if settings.weather == "clear":
        chosen = _random_tables().weather_by_id("clear")
        assert chosen is not None
        record.note(Message("scenario.setup.weather_setting", {
            "weather": words.text(chosen.name)}), [], "clear")
        return {"roll": None, "fixed": True, "id": chosen.id, **to_json(chosen)}
    if settings.weather != "roll":
        fixed = _random_tables().weather_by_id(settings.weather)
        if fixed is not None:
            record.note(Message("scenario.setup.weather_setting", {
                "weather": words.text(fixed.name)}), [], fixed.id)
            return {"roll": None, "fixed": True, **to_json(fixed)}
    if len(card.weather) == 1:
        only = card.weather[0].value
        record.note(Message("scenario.setup.weather_card", {"weather": words.text(only.name)}),
                    [], only.id)
        return {"roll": None, "fixed": True, **to_json(only)}
    die = record.d6("weather", Message("scenario.roll.weather"))
    entry = _face(card.weather, die).value
    record.note(Message("scenario.setup.weather", {"weather": words.text(entry.name)}),
                [die], entry.id)
    return {"roll": die, "fixed": False, **to_json(entry)}


def _roll_deployment(card: Card, settings: Settings, record: _Record,
                     table: Sequence[RollEntry[Deployment]]) -> tuple[int | None, Deployment]:
    zones_entry = next(e.value for e in table if e.value.method == "zones")
    card_only = card.zombies.deployment == "zones" or settings.zombie_deployment == "card"
    if card_only and card.zombies.zones:
        record.note(Message("scenario.setup.deployment_card"), [], "zones")
        return None, zones_entry
    die = record.d6("zombie deployment", Message("scenario.roll.deployment"))
    entry = _face(table, die).value
    if entry.method == "zones" and not card.zombies.zones:
        entry = next(e.value for e in table if e.value.method == "far_edge")
    record.note(Message("scenario.setup.deployment", {"method": words.text(entry.name)}),
                [die], entry.method)
    return die, entry


class _NoRoom(Exception):
    def __init__(self, what: Message, where: str) -> None:
        super().__init__(what.text("en"))
        self.what, self.where = what, where

    def error(self) -> Exception:
        from geometry.errors import SceneError

        return SceneError(Message("scenario.setup.no_room", {"what": self.what}), self.where)


def _zone_pieces(card: Card) -> list[dict[str, Any]]:
    """Zones as scene terrain that blocks nothing, so a game's scene carries them."""
    return [{"id": f"zone_{z.id}", "kind": "polygon", "polygon": [list(p) for p in z.polygon],
             "blocks_sight": False, "blocks_movement": False, "role": "zone", "zone": z.id,
             "zone_kind": z.kind, "name": z.name.fr, "name_en": z.name.en} for z in card.zones]


def _deploy(card: Card, roster: Roster, scene_json: dict[str, Any],
            extra: Sequence[Mapping[str, Any]], bought: Mapping[str, int],
            deployment: tuple[int | None, Deployment], rng: random.Random,
            record: _Record, catalog: Catalog, uncleared: list[dict[str, Any]] | None,
            corner_rng: random.Random) -> dict[str, Any]:
    """Place everything; with the corners kept clear, `uncleared` is the terrain before they
    were (the spots are drawn in the order it gives, so only what the corners forbid moves)."""
    base_scene = load_scene({**scene_json, "terrain": list(scene_json.get("terrain", []))
                             + list(extra), "figures": []})
    if uncleared is None:
        placer = Placer(base_scene)
    else:  # (no piece changed: the same terrain orders the spots, no need to load it again)
        same = uncleared == list(scene_json.get("terrain", [])) + list(extra)
        placer = Placer(base_scene, keep_out=keep_out(base_scene.table.width,
                                                      base_scene.table.depth),
                        order_scene=base_scene if same else load_scene({
                            **scene_json, "terrain": uncleared, "figures": []}))
    width, depth = base_scene.table.width, base_scene.table.depth
    r = base_radius(DEFAULT_BASE_MM)
    zones = {z.id: Polygon(z.polygon) for z in card.zones}
    marker_pieces: list[dict[str, Any]] = []

    crates: list[dict[str, Any]] = []
    crate_regions = [zones[z] for z in card.crates.zones]
    for i in range(card.crates.count):
        region = crate_regions[i % len(crate_regions)]
        spots = placer.place(region, 1, TOKEN_RADIUS, rng=rng, spacing=CRATE_SPACING,
                             gap=CRATE_SPACING, reach=CRATE_REACH)
        if not spots:
            spots = placer.place(region, 1, TOKEN_RADIUS, rng=rng, gap=0.2, reach=CRATE_REACH)
        if not spots:
            raise _NoRoom(words.crate(f"crate{i + 1}"), "crates.zones")
        crates.append({"id": f"crate{i + 1}", "kind": "crate", "x": spots[0].x,
                       "y": spots[0].y})
        marker_pieces.append(_marker_piece(f"crate{i + 1}", spots[0], "crate", name={
            "fr": f"Caisse {i + 1}", "en": f"Crate {i + 1}"}))
    items: list[dict[str, Any]] = []
    for group in card.markers:
        spots = placer.place(zones[group.zone], group.count, TOKEN_RADIUS, rng=rng, gap=0.6,
                             reach=ITEM_REACH)
        if len(spots) < group.count:
            raise _NoRoom(Message("scenario.setup.items", {
                "n": group.count, "item": words.item(card, catalog, group.item)}),
                f"markers.{group.item}")
        for n, spot in enumerate(spots, start=1):
            marker_id = f"{group.item}{n}"
            items.append({"id": marker_id, "kind": "item", "item": group.item, "x": spot.x,
                          "y": spot.y})
            marker_pieces.append(_marker_piece(marker_id, spot, "item", group.item,
                                               words.item(card, catalog, group.item)))

    figures: list[dict[str, Any]] = []
    for civilians in card.civilians:
        spots = placer.place(zones[civilians.zone], civilians.count, r, rng=rng,
                             gap=SURVIVOR_GAP)
        if len(spots) < civilians.count:
            raise _NoRoom(Message("scenario.setup.civilians", {
                "n": civilians.count, "group": words.text(civilians.name)}),
                f"civilians.{civilians.id}")
        for n, spot in enumerate(spots, start=1):
            figures.append({"id": f"{civilians.id}{n}", "side": "civilians", "x": spot.x,
                            "y": spot.y, "base_mm": DEFAULT_BASE_MM, "type": civilians.kind,
                            "group": civilians.id, "name": civilians.name.fr,
                            "name_en": civilians.name.en})

    home = zones[card.survivors.deployment]
    closed_in = _closed_in(base_scene, r)  # the band deploys on the open ground if it fits
    spots = placer.place(home, len(roster.members), r, gap=SURVIVOR_GAP, avoid=closed_in)
    if len(spots) < len(roster.members):
        placer.taken = [s for s in placer.taken if s not in spots]
        spots = placer.place(home, len(roster.members), r, gap=SURVIVOR_GAP)
    if len(spots) < len(roster.members):
        raise _NoRoom(Message("scenario.setup.survivors", {"n": len(roster.members)}),
                      "survivors.deployment")
    survivors = list(spots)
    for member, spot in zip(roster.members, spots, strict=True):
        archetype = catalog.archetypes[member.archetype]
        figures.append({"id": member.id, "side": "survivors", "x": spot.x, "y": spot.y,
                        "base_mm": DEFAULT_BASE_MM, "archetype": member.archetype,
                        "name": member.name or archetype.label,
                        "name_en": member.name or archetype.label_en})

    die, method = deployment
    avoid = shapely.union_all([zones[z] for z in card.zombies.avoid]) if card.zombies.avoid \
        else None
    order = _interleave(bought)
    areas, info = _zombie_areas(card, method, zones, width, depth, len(order), rng, record)
    away: list[tuple[Spot, float]] = []
    if method.method == "anywhere":
        away = [(s, method.min_distance) for s in survivors]
    keep_away = [(s, FALLBACK_KEEP_AWAY) for s in survivors]
    placed_zombies: list[tuple[str, Spot]] = []
    if method.method == "side_edges":  # the first half (the bigger one) goes left...
        queues = [order[0::2], order[1::2]]
        if info.get("odd_one") == "right":  # ...unless the odd one goes right
            queues.reverse()
    else:
        queues = [order[i::len(areas)] for i in range(len(areas))]
    for area, queue in zip(areas, queues, strict=True):
        slots = placer.place_slots(area, len(queue), r, rng=rng, gap=ZOMBIE_GAP, away=away,
                                   avoid=avoid)
        missing = len(queue) - sum(s is not None for s in slots)
        # the area was full without the corners too: the same draw further out; else the
        # places the corners took are found with a stream of their own
        further = rng if len(slots) < len(queue) else corner_rng
        more = placer.place_near(area, missing, r, rng=further,
                                 steps=(1.5, 3.0, 5.0, 8.0, 12.0, 20.0, 40.0),
                                 gap=ZOMBIE_GAP, away=[*away, *keep_away],
                                 avoid=avoid) if missing else []
        open_places = min(slots.count(None), len(more))  # they take the last found further
        fill, more = more[len(more) - open_places:], more[:len(more) - open_places]  # out
        spots = [s if s is not None else fill.pop(0) for s in slots if s is not None or fill]
        spots += more
        if len(spots) < len(queue):
            raise _NoRoom(Message("scenario.setup.zombies", {
                "n": len(queue), "method": words.text(method.name)}), "zombies")
        placed_zombies += list(zip(queue, spots, strict=False))
    for n, (zombie, spot) in enumerate(placed_zombies, start=1):
        figures.append({"id": f"z{n}", "side": "zombies", "x": spot.x, "y": spot.y,
                        "base_mm": DEFAULT_BASE_MM, "type": zombie})
    info.update({"roll": die, "method": method.method, "name": to_json(method.name)})
    return {"figures": figures, "crates": crates, "items": items,
            "marker_pieces": marker_pieces, "deployment": info,
            "zombies_placed": len(placed_zombies)}


_CLOSED_IN: OrderedDict[tuple[Any, ...], bytes | None] = OrderedDict()
_CLOSED_IN_LOCK = threading.Lock()


def _closed_in(scene: Any, r: float) -> BaseGeometry | None:
    """Where a base centre would be shut off from the open ground (the largest connected
    area a base can walk, doors as they are): a yard between two houses, a closed room.
    Kept for the table (its size and the blockers' exact WKB): it comes back every game;
    kept as WKB, so that each caller has a geometry of its own (no thread shares one)."""
    blockers = [t.footprint for t in scene.movement_blockers]
    if not blockers:
        return None
    key = (scene.table.width, scene.table.depth, r,
           tuple(shapely.to_wkb(np.array(blockers, dtype=object))))
    with _CLOSED_IN_LOCK:
        known = key in _CLOSED_IN
        if known:
            _CLOSED_IN.move_to_end(key)
            wkb = _CLOSED_IN[key]
    if not known:
        found = _closed_in_of(blockers, scene.table.width, scene.table.depth, r)
        wkb = None if found is None else bytes(found.wkb)
        with _CLOSED_IN_LOCK:
            _CLOSED_IN[key] = wkb
            while len(_CLOSED_IN) > CLOSED_IN_KEPT:
                _CLOSED_IN.popitem(last=False)
    return None if wkb is None else shapely.from_wkb(wkb)


def _closed_in_of(blockers: Sequence[BaseGeometry], width: float, depth: float,
                  r: float) -> BaseGeometry | None:
    """`_closed_in` worked out (None when the open ground is all one)."""
    table = box(r, r, width - r, depth - r)
    grown = shapely.buffer(np.array(blockers, dtype=object), r, quad_segs=16)  # as .buffer(r)
    free = shapely.difference(table, shapely.union_all(grown))
    parts = list(getattr(free, "geoms", [free]))
    if len(parts) < 2:
        return None
    return shapely.difference(box(0, 0, width, depth), max(parts, key=lambda p: p.area))


def _zombie_areas(card: Card, method: Deployment, zones: Mapping[str, Polygon], width: float,
                  depth: float, count: int, rng: random.Random,
                  record: _Record) -> tuple[list[BaseGeometry], dict[str, Any]]:
    info: dict[str, Any] = {}
    if method.method == "far_edge":
        return [box(0, depth - method.depth, width, depth)], info
    if method.method == "zones":
        info["zones"] = list(card.zombies.zones)
        return [zones[z] for z in card.zombies.zones], info
    if method.method == "side_edges":
        far_two_thirds = depth / 3
        odd = None
        if count % 2:
            odd = rng.choice(["left", "right"])
            record.note(Message("scenario.setup.odd_zombie", {"edge": words.edge(odd)}),
                        [], odd)
        info["odd_one"] = odd
        return [box(0, far_two_thirds, method.depth, depth),
                box(width - method.depth, far_two_thirds, width, depth)], info
    info["min_distance"] = method.min_distance
    return [box(0, 0, width, depth)], info


def _marker_piece(marker_id: str, spot: Spot, kind: str, item: str | None = None,
                  name: words.Words | None = None) -> dict[str, Any]:
    h = CRATE_HALF if kind == "crate" else ITEM_HALF
    x, y = spot.x, spot.y
    piece: dict[str, Any] = {
        "id": marker_id, "kind": "polygon",
        "polygon": [[round(x - h, 4), round(y - h, 4)], [round(x + h, 4), round(y - h, 4)],
                    [round(x + h, 4), round(y + h, 4)], [round(x - h, 4), round(y + h, 4)]],
        "blocks_sight": False, "blocks_movement": False, "role": "marker", "marker": kind,
    }
    if item:
        piece["item"] = item
    if isinstance(name, dict):  # what a person calls it (the scene's name and name_en)
        piece["name"], piece["name_en"] = name["fr"], name["en"]
    return piece

