"""What figures carry and what lies on the table: encumbrance, item markers, crates.

A marker is plain data in `GameState.markers`: `{"id", "kind": "crate" | "items", "x", "y",
"items": {id: count}, "units": {id: n}}`; a closed crate may also hold `"loot"` (the six
entries of its 1D6 loot table, each `{"item": id, "count": n}` or `{}` for nothing),
`"cost"` (AP to open, default 1) and `"test": "intelligence"` (D2). A dead survivor leaves its
equipment on a marker where it fell (D17). Markers never block movement or sight. Copies of
a game share their markers until one changes: change a marker only through
`GameState.own_marker`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from geometry.units import CONTACT_INCHES as CONTACT
from i18n import Message
from rules import words
from rules.dice import Roll, RollKind, succeeds
from rules.errors import IllegalActionError
from rules.figures import Fig

if TYPE_CHECKING:
    from rules.state import GameState

__all__ = ["MARKER_RADIUS", "load", "room_for", "marker_gap", "drop_all", "open_crate",
           "move_item", "check_marker"]

MARKER_RADIUS = 0.5  # a 25 mm token, in inches
PEDAGOGUE_INCHES = 6.0
_WHY = {"dead": Message("engine.why.dead"), "contaminated": Message("engine.why.contaminated")}


def _skill_value(game: GameState, fig: Fig, effect: str, field: str) -> int:
    total = 0
    for skill_id in fig.skills:
        skill = game.catalog.skills.get(skill_id)
        if skill is not None and skill.effect == effect:
            total += int(getattr(skill, field) or 0)
    return total


def load(game: GameState, fig: Fig, items: Mapping[str, int] | None = None) -> tuple[int, int]:
    """(encumbrance carried, encumbrance allowed): sac à dos adds room, trousse carries
    healing items for nothing (D35)."""
    items = fig.items if items is None else items
    free_heals = _skill_value(game, fig, "free_healing_items", "count")
    carried = 0
    for item_id, count in items.items():
        item = game.catalog.equipment[item_id]
        if item.kind == "healing":
            free = min(free_heals, count)
            free_heals -= free
            count -= free
        carried += item.encumbrance * count
    allowed = fig.encumbrance + _skill_value(game, fig, "free_extra_encumbrance", "bonus")
    return carried, allowed


def room_for(game: GameState, fig: Fig, item: str, drop: str | None = None) -> bool:
    after = dict(fig.items)
    if drop is not None:
        after[drop] = after.get(drop, 0) - 1
        if after[drop] <= 0:
            after.pop(drop)
    after[item] = after.get(item, 0) + 1
    carried, allowed = load(game, fig, after)
    return carried <= allowed


def marker_gap(fig: Fig, marker: dict[str, Any]) -> float:
    r = fig.radius
    return math.dist(fig.centre, (marker["x"], marker["y"])) - r - MARKER_RADIUS


def check_marker(game: GameState, fig: Fig, marker_id: str) -> dict[str, Any]:
    marker = game.markers.get(marker_id)
    if marker is None:
        raise IllegalActionError(Message("refusal.no_such_marker", {"id": marker_id}),
                                 "action.marker")
    gap = marker_gap(fig, marker)
    if gap > CONTACT + 1e-9:
        raise IllegalActionError(Message("refusal.marker_too_far", {
            "who": words.who(game, fig), "marker": words.marker(game, marker), "d": gap}),
            "action.marker")
    return marker


def drop_all(game: GameState, fig: Fig, why: str) -> None:
    """Everything the figure carried is left on a marker where it stands."""
    if not fig.items:
        return
    marker_id = f"{fig.id}-gear"
    game.add_marker({"id": marker_id, "kind": "items", "x": fig.x, "y": fig.y,
                     "items": dict(fig.items), "units": dict(fig.units)})
    game.note(Message("engine.gear_left", {"who": words.who(game, fig),
                                           "why": _WHY.get(why, why)}))
    fig.items, fig.units = {}, {}


def open_crate(game: GameState, fig: Fig, marker: dict[str, Any]) -> None:
    """Open a crate (a marker this game owns: `GameState.own_marker`): an Intelligence test
    if the card asks one (D2), then its loot roll."""
    if marker.get("test") == "intelligence" and game.settings.intelligence_tests == "scenario":
        place = words.marker(game, marker)
        if fig.has("debrouillard"):
            game.note(Message("engine.knows_how", {"who": words.who(game, fig),
                                                   "skill": words.skill(game, "debrouillard")}))
        else:
            label = f"intelligence {fig.intelligence}+ to open {marker['id']}"
            test = Message("engine.purpose.open", {"n": fig.intelligence, "marker": place})
            passed = succeeds(game.roll(Roll(label, fig.id, test, kind=RollKind.INTELLIGENCE,
                                             need=fig.intelligence)), fig.intelligence)
            teacher = _pedagogue(game, fig)
            if not passed and teacher is not None:
                game.note(Message("engine.explains", {
                    "who": words.who(game, teacher), "skill": words.skill(game, "pedagogue")}))
                again = Message("engine.purpose.open_again", {"n": fig.intelligence,
                                                              "marker": place})
                passed = succeeds(game.roll(Roll(label + ", re-roll", fig.id, again,
                                                 kind=RollKind.INTELLIGENCE,
                                                 need=fig.intelligence, again=True)),
                                  fig.intelligence)
            if not passed:
                game.note(Message("engine.cannot_open", {"who": words.who(game, fig),
                                                         "marker": place}))
                return
    place = words.marker(game, marker)
    marker["kind"] = "items"
    loot = marker.pop("loot", None)
    if loot:
        roll = game.roll(Roll(f"loot of {marker['id']}", fig.id,
                              Message("engine.purpose.loot", {"marker": place}),
                              kind=RollKind.LOOT))
        entry = loot[roll - 1]
        if entry.get("item"):
            item = game.catalog.equipment[entry["item"]]
            count = int(entry.get("count", 1))
            marker.setdefault("items", {})[item.id] = marker.get("items", {}).get(
                item.id, 0) + count
            if item.kind in ("ammunition", "healing", "throwing"):
                units = marker.setdefault("units", {})
                units[item.id] = units.get(item.id, 0) + item.units * count
    inside = [words.item(game, i) if n == 1 else Message("engine.how_many", {
        "n": n, "item": words.item(game, i)}) for i, n in marker.get("items", {}).items()]
    if inside:
        game.note(Message("engine.opens", {"who": words.who(game, fig), "marker": place,
                                           "inside": inside}))
    else:
        game.note(Message("engine.opens_empty", {"who": words.who(game, fig),
                                                 "marker": place}))


def _pedagogue(game: GameState, fig: Fig) -> Fig | None:
    for f in game.figures.values():
        if (f.id != fig.id and f.side == "survivors" and f.band == fig.band and f.standing
                and f.has("pedagogue")
                and game.distance(f.id, fig.id) <= PEDAGOGUE_INCHES + 1e-9):
            return f
    return None


def move_item(game: GameState, source: Fig | dict[str, Any], target: Fig, item_id: str) -> None:
    """One item (with its rounds, cocktails or heals) from `source` (a figure, or a marker
    this game owns: `GameState.own_marker`) to `target`."""
    if isinstance(source, dict):
        items, units_of = source["items"], source.setdefault("units", {})
    else:
        items, units_of = dict(source.items), dict(source.units)
    items[item_id] -= 1
    per_item = game.catalog.equipment[item_id].units
    if item_id in units_of:
        moved = min(units_of[item_id], per_item)
        units_of[item_id] -= moved
        target.units = target.counted("units", item_id, target.units.get(item_id, 0) + moved)
        if units_of[item_id] <= 0:
            units_of.pop(item_id)
    if items[item_id] <= 0:
        items.pop(item_id)
    target.items = target.counted("items", item_id, target.items.get(item_id, 0) + 1)
    if not isinstance(source, dict):
        source.items, source.units = items, units_of
