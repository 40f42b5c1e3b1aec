"""The game's things in words for the engine's messages: figures, sides, items, skills,
terrain pieces, markers and exits, each as a message parameter (a {"fr", "en"} name or a
message), never an id (DESIGN.md: ids never reach a person).

The notes and refusals of `rules/` take their parameters from here, so that a name is said
the same way everywhere. Figures are named by `rules.names`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from i18n import Message, Name
from rules.names import figure_name, number_of

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["who", "by_side", "item", "skill", "piece", "marker", "exit_name", "zombie_kind",
           "Words"]

Words = Name | Message  # a name in both languages, or a message standing for one


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
