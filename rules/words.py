"""The game's things in words for the engine's messages: figures, sides, items, skills,
terrain pieces, markers and exits, each as a message parameter (a {"fr", "en"} name or a
message), never an id (DESIGN.md: ids never reach a person).

The notes and refusals of `rules/` take their parameters from here, so that a name is said
the same way everywhere. Figures are named by `rules.names`. `thing` and `place` name
whatever an action names by id (the words of an action, `rules.rulebook.action_message`:
a marker as the page calls it, "Caisse 2"), `direction` a move to a point as a compass
direction ("vers le nord-est"), north being away from the survivors' edge, as on the page.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from i18n import Message, Name
from rules.names import figure_name, number_of

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["who", "by_side", "item", "skill", "piece", "marker", "exit_name", "zombie_kind",
           "Words", "thing", "place", "side_name", "direction"]

Words = Name | Message  # a name in both languages, or a message standing for one
UNKNOWN = Message("names.unknown")
SIDES = {"zombies": Message("ai.side.zombies"), "survivors": Message("ai.side.survivors"),
         "civilians": Message("ai.side.civilians")}
# east first, then a quarter turn at a time counter-clockwise (as `math.atan2` goes)
DIRECTIONS = (Message("dir.east"), Message("dir.north_east"), Message("dir.north"),
              Message("dir.north_west"), Message("dir.west"), Message("dir.south_west"),
              Message("dir.south"), Message("dir.south_east"))


def who(game: GameState, figure: Fig | str) -> Name:
    """A figure's name ("Rôdeur 32" / "Walker 32", "Lucas")."""
    return figure_name(game, figure if isinstance(figure, str) else figure.id)


def by_side(side_id: str, said: dict[str, Message], **params: Any) -> Message:
    """One of a sentence's wordings by side (`said` keyed "survivors", "zombies", "band"):
    French and English agree the verb and the article with the side, so each has its own
    text. A band's sentence gets its letter as `band`."""
    if side_id in ("A", "B"):
        return Message(said["band"].code, {"band": side_id, **params})
    return Message(said.get(side_id, said["survivors"]).code, params)


def item(game: GameState, item_id: str | None) -> Words:
    """An item of the catalog (or of the scenario) by its names; "bare hands" for None."""
    if item_id is None:
        return Message("engine.item.bare_hands")
    found = game.catalog.equipment.get(item_id)
    if found is None:
        return Message("engine.item.unknown")
    return found.names


def skill(game: GameState, skill_id: str) -> Words:
    found = game.catalog.skills.get(skill_id)
    if found is None:
        return Message("engine.skill.unknown")
    return found.names


def zombie_kind(game: GameState, kind: str) -> Words:
    found = game.catalog.zombies.get(kind)
    if found is None:
        return Message("engine.zombie.unknown")
    return found.names


def piece(game: GameState, piece_id: str) -> Words:
    """A terrain piece by its name, or a word for its kind ("the wall")."""
    for p in game.terrain:
        if p.id == piece_id:
            return p.words
    return Message("scene.piece.other")


def marker(game: GameState, marker_data: dict[str, Any] | str) -> Words:
    """A marker on the table: its name if the scenario gave one, a crate with its number,
    a fallen figure's gear, else "the pile of items"."""
    data = game.markers.get(marker_data, {}) if isinstance(marker_data, str) else marker_data
    marker_id = str(data.get("id", marker_data if isinstance(marker_data, str) else ""))
    name = data.get("name")
    if isinstance(name, dict) and name:
        return {k: str(v) for k, v in name.items() if k in ("fr", "en")}
    if isinstance(name, str) and name:
        return {"fr": name, "en": str(data.get("name_en") or name)}
    if marker_id.endswith("-gear"):
        owner = marker_id[: -len("-gear")]
        return Message("engine.marker.gear", {"who": who(game, owner)})
    if data.get("kind") == "crate":
        number = number_of(marker_id)
        if number:
            return Message("engine.marker.crate_n", {"n": number})
        return Message("engine.marker.crate")
    return Message("engine.marker.items")


def exit_name(game: GameState, exit_id: str) -> Words:
    """A scenario exit by its name, when the referee can give it (`exit_name`)."""
    named = getattr(game.referee, "exit_name", None)
    if callable(named):
        found = named(exit_id)
        if isinstance(found, dict | Message):
            return found
    return Message("engine.exit.unnamed")


def thing(game: GameState, key: str) -> Words:
    """An item, skill, zombie type or archetype of the rules, or an item of the card."""
    catalog = game.catalog
    for table in (catalog.equipment, catalog.skills, catalog.zombies):
        entry = table.get(key)
        if entry is not None:
            return entry.names
    archetype = catalog.archetypes.get(key)
    if archetype is not None:
        return {"fr": archetype.label, "en": archetype.label_en}
    card = getattr(game.referee, "card", None)
    for found in getattr(card, "items", ()):
        if found.id == key:
            return {"fr": found.name.fr, "en": found.name.en}
    return UNKNOWN


def place(game: GameState, key: str) -> Words:
    """Whatever an action names by id: a figure, a terrain piece, an exit or zone of the
    card, a marker on the table."""
    if key in game.figures:
        return who(game, key)
    for p in game.terrain:
        if p.id == key:
            return {"fr": p.name, "en": p.name_en or p.name} if p.name else UNKNOWN
    card = getattr(game.referee, "card", None)
    for found in (*getattr(card, "exits", ()), *getattr(card, "zones", ())):
        if found.id == key:
            return {"fr": found.name.fr, "en": found.name.en}
    data = game.markers.get(key)
    if data is not None:
        if data.get("kind") == "crate":
            return Message("marker.crate_n", {"n": number_of(key) or "?"})
        items = [thing(game, i) for i in data.get("items") or {}]
        return Message("ai.things", {"things": items}) if items else Message("marker.items")
    return UNKNOWN


def side_name(side: str) -> Message:
    """'the zombies' / 'les zombies'."""
    return SIDES.get(side, SIDES["survivors"])


def direction(start: tuple[float, float], end: tuple[float, float]) -> Message:
    """The compass direction from `start` to `end` ("vers le nord-est"), as on the page."""
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    return DIRECTIONS[round(angle / (math.pi / 4)) % 8]
