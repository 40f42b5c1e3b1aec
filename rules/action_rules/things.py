"""Things on the table: doors, crates and items on markers, and items handed to a friend (D31)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

import shapely

from geometry.units import CONTACT_INCHES as CONTACT
from i18n import Message
from rules import inventory, words
from rules.action_rules.base import ActionRule, Listing, friend, refuse
from rules.actions import Action, Door, Give, Interact, Take

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["DoorRule", "InteractRule", "TakeRule", "GiveRule"]

_DOOR_NOTES = (Message("engine.closes_door"), Message("engine.opens_door"))  # by open


def _near_bounds(bounds: tuple[float, float, float, float], fig: Fig) -> bool:
    """A quick test before the exact one: the base is near the piece's bounding box."""
    reach = fig.radius + CONTACT + 0.01
    x0, y0, x1, y1 = bounds
    return x0 - reach <= fig.x <= x1 + reach and y0 - reach <= fig.y <= y1 + reach


def _standing(game: GameState, fig: Fig) -> None:
    """Opening, taking and giving are done standing."""
    if not fig.standing:
        raise refuse(Message("refusal.must_stand", {"who": words.who(game, fig)}), "action")


class DoorRule(ActionRule[Door]):
    """Open or close a door the figure's base touches (1 AP); an open doorway with a base
    in it cannot be closed."""

    action = Door
    kind: ClassVar[str] = "door"

    def check(self, game: GameState, fig: Fig, act: Door) -> None:
        piece = next((t for t in game.terrain if t.id == act.door), None)
        if piece is None:
            raise refuse(Message("refusal.no_such_door", {"id": act.door}), "action.door")
        if piece.kind != "door":
            raise refuse(Message("refusal.not_a_door", {"piece": piece.words}), "action.door")
        gap = shapely.distance(piece.footprint, shapely.Point(fig.centre)) - fig.radius
        if gap > CONTACT + 1e-9:
            raise refuse(Message("refusal.door_too_far", {
                "who": words.who(game, fig), "door": piece.words, "d": float(gap)}),
                "action.door")
        if piece.open:
            for other in game.figures.values():
                if other.on_table and shapely.distance(
                        piece.footprint, shapely.Point(other.centre)) < other.radius - 1e-9:
                    raise refuse(Message("refusal.doorway_blocked", {
                        "who": words.who(game, other), "door": piece.words}), "action.door")

    def candidates(self, game: GameState, fig: Fig, listing: Listing) -> Iterable[Door]:
        if fig.is_zombie:
            return []
        return [Door(fig.id, t.id) for t in game.terrain
                if t.kind == "door" and _near_bounds(t.footprint.bounds, fig)]

    def resolve(self, game: GameState, fig: Fig, act: Door) -> None:
        door = words.piece(game, act.door)
        for item in game.edit_scene().get("terrain", []):
            if item.get("id") == act.door:
                item["open"] = not item.get("open", False)
                said = _DOOR_NOTES[bool(item["open"])]
                game.note(Message(said.code, {"who": words.who(game, fig), "door": door}))
        game.reload_terrain()

    def words(self, game: GameState, act: Door) -> Message:
        return Message("act.by", {"who": words.who(game, act.figure), "what": Message(
            "act.door", {"door": words.place(game, act.door)})})


class InteractRule(ActionRule[Interact]):
    """Open a crate the figure touches (the marker's cost in AP; an Intelligence test if
    the card asks one). The listing offers, marker by marker, the crates to open and the
    items to take (`TakeRule`)."""

    action = Interact
    kind: ClassVar[str] = "interact"

    def cost(self, game: GameState, act: Interact) -> int:
        marker = game.markers.get(act.marker, {})
        return int(marker.get("cost", 1))

    def check(self, game: GameState, fig: Fig, act: Interact) -> None:
        _standing(game, fig)
        marker = inventory.check_marker(game, fig, act.marker)
        if marker["kind"] != "crate":
            raise refuse(Message("refusal.nothing_to_open", {
                "marker": words.marker(game, marker)}), "action.marker")

    def candidates(self, game: GameState, fig: Fig, listing: Listing) -> Iterable[Action]:
        if fig.is_zombie or not game.markers:
            return []
        out: list[Action] = []
        for marker in game.markers.values():
            if inventory.marker_gap(fig, marker) > CONTACT + 1e-9:
                continue
            if marker["kind"] == "crate":
                out.append(Interact(fig.id, marker["id"]))
            else:
                out += [Take(fig.id, marker["id"], item) for item in marker.get("items", {})]
        return out

    def resolve(self, game: GameState, fig: Fig, act: Interact) -> None:
        inventory.open_crate(game, fig, game.own_marker(act.marker))

    def words(self, game: GameState, act: Interact) -> Message:
        return Message("ai.act.interact", {"figure": words.who(game, act.figure),
                                           "marker": words.place(game, act.marker)})


class TakeRule(ActionRule[Take]):
    """Pick up one item from a marker the figure touches, dropping `drop` there if full
    (listed with the crates, `InteractRule`)."""

    action = Take
    kind: ClassVar[str] = "interact"

    def check(self, game: GameState, fig: Fig, act: Take) -> None:
        _standing(game, fig)
        who = words.who(game, fig)
        marker = inventory.check_marker(game, fig, act.marker)
        place = words.marker(game, marker)
        if marker["kind"] == "crate":
            raise refuse(Message("refusal.crate_closed", {
                "marker": place, "ap": int(marker.get("cost", 1))}), "action.marker")
        if marker.get("items", {}).get(act.item, 0) < 1:
            raise refuse(Message("refusal.not_on_marker", {
                "item": words.item(game, act.item), "marker": place}), "action.item")
        if act.drop is not None and fig.items.get(act.drop, 0) < 1:
            raise refuse(Message("refusal.carries_no", {
                "who": who, "item": words.item(game, act.drop)}), "action.drop")
        if not inventory.room_for(game, fig, act.item, act.drop):
            carried, allowed = inventory.load(game, fig)
            raise refuse(Message("refusal.too_heavy", {
                "who": who, "carried": carried, "allowed": allowed,
                "item": words.item(game, act.item)}), "action.drop")

    def resolve(self, game: GameState, fig: Fig, act: Take) -> None:
        marker: dict[str, Any] = game.own_marker(act.marker)
        if act.drop is not None:
            items, units = marker.setdefault("items", {}), marker.setdefault("units", {})
            per_item = game.catalog.equipment[act.drop].units
            if act.drop in fig.units:
                moved = min(fig.units[act.drop], per_item)
                units[act.drop] = units.get(act.drop, 0) + moved
                fig.units = fig.counted("units", act.drop, fig.units[act.drop] - moved)
            fig.items = fig.counted("items", act.drop, fig.items[act.drop] - 1)
            items[act.drop] = items.get(act.drop, 0) + 1
            game.note(Message("engine.drops", {"who": words.who(game, fig),
                                               "item": words.item(game, act.drop),
                                               "marker": words.marker(game, marker)}))
        inventory.move_item(game, marker, fig, act.item)
        game.note(Message("engine.takes", {"who": words.who(game, fig),
                                           "item": words.item(game, act.item),
                                           "marker": words.marker(game, marker)}))
        if not marker["items"]:
            del game.markers[act.marker]

    def words(self, game: GameState, act: Take) -> Message:
        return Message("ai.act.take", {"figure": words.who(game, act.figure),
                                       "item": words.thing(game, act.item),
                                       "marker": words.place(game, act.marker)})


class GiveRule(ActionRule[Give]):
    """Hand one item to a standing friend in base contact who has room for it."""

    action = Give

    def check(self, game: GameState, fig: Fig, act: Give) -> None:
        _standing(game, fig)
        who = words.who(game, fig)
        target = friend(game, fig, act.target)
        if target.id == fig.id:
            raise refuse(Message("refusal.give_self", {"who": who}), "action.target")
        if not target.standing:
            raise refuse(Message("refusal.cannot_take", {"target": words.who(game, target)}),
                         "action.target")
        if fig.items.get(act.item, 0) < 1:
            raise refuse(Message("refusal.carries_no", {
                "who": who, "item": words.item(game, act.item)}), "action.item")
        if not inventory.room_for(game, target, act.item):
            carried, allowed = inventory.load(game, target)
            raise refuse(Message("refusal.no_room", {
                "target": words.who(game, target), "item": words.item(game, act.item),
                "carried": carried, "allowed": allowed}), "action.item")

    def resolve(self, game: GameState, fig: Fig, act: Give) -> None:
        target = game.figures[act.target]
        inventory.move_item(game, fig, target, act.item)
        game.note(Message("engine.gives", {"who": words.who(game, fig),
                                           "item": words.item(game, act.item),
                                           "target": words.who(game, target)}))

    def words(self, game: GameState, act: Give) -> Message:
        return Message("act.by", {"who": words.who(game, act.figure), "what": Message(
            "act.give", {"item": words.thing(game, act.item),
                         "target": words.who(game, act.target)})})
