"""What a person calls a scenario's things, as message parameters (`i18n`): zones, exits,
civilian groups, items, crates, terrain pieces, table edges, events; never their ids.

Each function gives a name in both languages (`{"fr", "en"}`, from the card or the rules
catalog) or a message standing for one; the notes, refusals and results of `scenarios/`
take their parameters from here. Figures are named by `rules.names.figure_name`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from i18n import Message, Name
from rules.names import number_of
from rules.words import who as figure  # a figure as a person calls it

if TYPE_CHECKING:
    from rules.catalog import Catalog
    from rules.state import GameState
    from scenarios.cards import Card, Text

__all__ = ["Words", "text", "zone", "exit_", "group", "item", "zombie", "skill", "archetype",
           "figure", "piece", "crate", "marker", "edge", "event", "quoted", "who"]

Words = Name | Message  # a name in both languages, or a message standing for one


def text(value: Text) -> Name:
    """A card's French and English text as a name."""
    return {"fr": value.fr, "en": value.en}


def zone(card: Card, zone_id: str) -> Words:
    try:
        return text(card.zone(zone_id).name)
    except KeyError:
        return Message("scenario.unnamed.zone")


def exit_(card: Card, exit_id: str) -> Words:
    try:
        return text(card.exit(exit_id).name)
    except KeyError:
        return Message("scenario.unnamed.exit")


def group(card: Card, group_id: str) -> Words:
    """A group of civilians of the card ("Réfugié" / "Refugee")."""
    try:
        return text(card.civilian_group(group_id).name)
    except KeyError:
        return Message("scenario.unnamed.civilians")


def item(card: Card | None, catalog: Catalog | None, item_id: str) -> Words:
    """A scenario item of the card, or an item of the rules catalog."""
    for own in card.items if card is not None else ():
        if own.id == item_id:
            return text(own.name)
    found = catalog.equipment.get(item_id) if catalog is not None else None
    if found is not None:
        return found.names
    return Message("scenario.unnamed.item")


def zombie(catalog: Catalog, kind: str) -> Words:
    found = catalog.zombies.get(kind)
    if found is None:
        return Message("scenario.unnamed.zombie")
    return found.names


def skill(catalog: Catalog, skill_id: str) -> Words:
    found = catalog.skills.get(skill_id)
    if found is None:
        return Message("scenario.unnamed.skill")
    return found.names


def archetype(catalog: Catalog, archetype_id: str) -> Words:
    """An archetype's heading: "Militaire (F)" / "Soldier (F)"."""
    found = catalog.archetypes.get(archetype_id)
    if found is None:
        return Message("scenario.unnamed.archetype")
    return {"fr": found.label, "en": found.label_en}


def piece(game: GameState, piece_id: str) -> Words:
    """A terrain piece by the name the scene gives it, else by its kind ("la porte")."""
    for raw in game.scene_json.get("terrain", []):
        if raw.get("id") != piece_id:
            continue
        name = raw.get("name")
        if isinstance(name, str) and name.strip():
            english = raw.get("name_en")
            return Message("scenario.quoted", {"name": {
                "fr": name, "en": english if isinstance(english, str) and english else name}})
        if raw.get("kind") == "door":
            return Message("scenario.piece.door")
        if raw.get("kind") == "wall":
            return Message("scenario.piece.wall")
        break
    return Message("scenario.piece.other")


def crate(crate_id: str) -> Message:
    """A crate by its number ("la caisse 2" / "crate 2")."""
    number = number_of(crate_id)
    return Message("scenario.crate", {"n": int(number)}) if number else Message(
        "scenario.crate.one")


def marker(game: GameState, card: Card | None, marker_id: str) -> Words:
    """A marker on the table: a crate, or the scenario items lying there."""
    data: dict[str, Any] = game.markers.get(marker_id) or {}
    if data.get("kind") == "crate" or (not data and marker_id.startswith("crate")):
        return crate(marker_id)
    items = list(data.get("items", {}))
    if len(items) == 1:
        return item(card, game.catalog, items[0])
    return Message("scenario.marker.items")


def edge(edge_id: str) -> Message:
    """A table edge, seen from the survivors' side."""
    edges = {"near": Message("scenario.edge.near"), "far": Message("scenario.edge.far"),
             "left": Message("scenario.edge.left"), "right": Message("scenario.edge.right")}
    return edges.get(edge_id, Message("scenario.edge.other"))


def event(event_id: str) -> Message:
    """What a special rule made happen, as a sentence."""
    events = {"helicopter_left": Message("scenario.event.helicopter_left"),
              "freed": Message("scenario.event.freed")}
    return events.get(event_id, Message("scenario.event.other"))


def quoted(name: Words) -> Message:
    """A name set off in the sentence: « La chapelle » / “The chapel”."""
    return Message("scenario.quoted", {"name": name})


def who(side: str) -> Message:
    """A side as the noun of a count: "survivants" / "survivors"."""
    return Message("scenario.who.civilians") if side == "civilians" else Message(
        "scenario.who.survivors")
