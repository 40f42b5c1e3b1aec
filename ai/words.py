"""What the AI's messages call things, and an action in words (DESIGN.md: never an id).

Figures by `rules.names` ("Rôdeur 4" / "Walker 4", "Lucas"); the rules' things (items,
skills, zombie types, archetypes) and the card's items, exits and zones by their French and
English names; a marker as the page calls it ("Caisse 2"); a move to a point as a distance
and a compass direction ("se déplace de 4,5 ps vers le nord-est"), north being away from
the survivors' edge, as on the page. `action_message` says an action as a message; `said`
joins a choice's messages in one language.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from i18n import Message, Name, joined
from rules import legal
from rules.actions import (
    Action,
    Carry,
    Contaminate,
    Decline,
    Door,
    EndActivations,
    Exit,
    Give,
    Heal,
    Interact,
    Melee,
    Move,
    Pass,
    Revive,
    Shoot,
    Special,
    Take,
    UseSkill,
    actor,
)
from rules.names import number_of
from rules.words import who  # a figure as a person calls it ("Rôdeur 4"; "Lucas")

if TYPE_CHECKING:
    from rules.game import Game

__all__ = ["who", "thing", "place", "side_name", "direction", "action_message", "said",
           "Said"]

Said = Name | Message  # what a message may name a thing with
UNKNOWN = Message("names.unknown")
SIDES = {"zombies": Message("ai.side.zombies"), "survivors": Message("ai.side.survivors"),
         "civilians": Message("ai.side.civilians")}
# east first, then a quarter turn at a time counter-clockwise (as `math.atan2` goes)
DIRECTIONS = (Message("dir.east"), Message("dir.north_east"), Message("dir.north"),
              Message("dir.north_west"), Message("dir.west"), Message("dir.south_west"),
              Message("dir.south"), Message("dir.south_east"))


def thing(game: Game, key: str) -> Said:
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
    for item in getattr(card, "items", ()):
        if item.id == key:
            return {"fr": item.name.fr, "en": item.name.en}
    return UNKNOWN


def place(game: Game, key: str) -> Said:
    """Whatever an action names by id: a figure, a terrain piece, an exit or zone of the
    card, a marker on the table."""
    if key in game.figures:
        return who(game, key)
    for piece in game.terrain:
        if piece.id == key:
            return {"fr": piece.name, "en": piece.name_en or piece.name} if piece.name \
                else UNKNOWN
    card = getattr(game.referee, "card", None)
    for found in (*getattr(card, "exits", ()), *getattr(card, "zones", ())):
        if found.id == key:
            return {"fr": found.name.fr, "en": found.name.en}
    marker = game.markers.get(key)
    if marker is not None:
        if marker.get("kind") == "crate":
            return Message("marker.crate_n", {"n": number_of(key) or "?"})
        items = [thing(game, i) for i in marker.get("items") or {}]
        return Message("ai.things", {"things": items}) if items else Message("marker.items")
    return UNKNOWN


def side_name(side: str) -> Message:
    """'the zombies' / 'les zombies'."""
    return SIDES.get(side, SIDES["survivors"])


def direction(start: tuple[float, float], end: tuple[float, float]) -> Message:
    """The compass direction from `start` to `end` ("vers le nord-est"), as on the page."""
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    return DIRECTIONS[round(angle / (math.pi / 4)) % 8]


def _distance(game: Game, a: str, b: str) -> float | None:
    fa, fb = game.figures.get(a), game.figures.get(b)
    if fa is None or fb is None or not fa.on_table or not fb.on_table:
        return None
    return game.distance(a, b)


def action_message(game: Game, act: Action) -> Message:
    """The action in words: who does what to whom, and how far away it is."""
    if isinstance(act, Decline):
        return Message("ai.act.decline", {"side": side_name(game.current_side())})
    if isinstance(act, Pass):
        return Message("ai.act.pass", {"side": side_name(game.current_side()),
                                       "ap": game.pools.get(game.to_act, 0)})
    if isinstance(act, EndActivations):
        return Message("ai.act.end", {"side": side_name(game.current_side())})
    fig = actor(act)
    name = who(game, fig)
    if isinstance(act, Move):
        return _move(game, act, name)
    if isinstance(act, Melee):
        params: dict[str, Any] = {"figure": name, "target": who(game, act.target),
                                  "ap": act.ap}
        if act.weapon:
            return Message("ai.act.melee_weapon", {**params, "weapon": thing(game, act.weapon)})
        return Message("ai.act.melee", params)
    if isinstance(act, Shoot):
        far = _distance(game, fig, act.target)
        params = {"figure": name, "target": who(game, act.target),
                  "weapon": thing(game, act.weapon)}
        if far:
            return Message("ai.act.shoot_at", {**params, "d": round(far, 1)})
        return Message("ai.act.shoot", params)
    if isinstance(act, Contaminate):
        return Message("ai.act.contaminate", {"figure": name, "target": who(game, act.target)})
    if isinstance(act, Heal):
        if act.target == fig:
            return Message("ai.act.heal_self", {"figure": name})
        return Message("ai.act.heal", {"figure": name, "target": who(game, act.target)})
    if isinstance(act, Revive):
        return Message("ai.act.revive", {"figure": name, "target": who(game, act.target)})
    if isinstance(act, Carry):
        return Message("ai.act.carry", {"figure": name, "target": who(game, act.target)})
    if isinstance(act, Exit):
        return Message("ai.act.exit", {"figure": name, "exit": place(game, act.exit)})
    if isinstance(act, Interact):
        return Message("ai.act.interact", {"figure": name, "marker": place(game, act.marker)})
    if isinstance(act, Take):
        return Message("ai.act.take", {"figure": name, "item": thing(game, act.item),
                                       "marker": place(game, act.marker)})
    return Message("act.by", {"who": name, "what": _phrase(game, act)})


def _move(game: Game, act: Move, name: Name) -> Message:
    if legal.is_hold(game, act):
        return Message("ai.act.hold", {"figure": name})
    if isinstance(act.toward, str):
        target = place(game, act.toward)
        far = _distance(game, act.figure, act.toward)
        if far:
            return Message("ai.act.toward_at", {"figure": name, "target": target,
                                                "d": round(far, 1)})
        return Message("ai.act.toward", {"figure": name, "target": target})
    spot = act.to or act.toward
    fig = game.figures.get(act.figure)
    if spot is None or fig is None or not fig.on_table:
        return Message("ai.act.move", {"figure": name})
    end = (float(spot[0]), float(spot[1]))
    far, way = math.dist(fig.centre, end), direction(fig.centre, end)
    if far > fig.move:  # the engine walks it its move's worth that way, not all the way
        return Message("ai.act.move_dir", {"figure": name, "dir": way})
    return Message("ai.act.move_by", {"figure": name, "d": round(far, 1), "dir": way})


def _phrase(game: Game, act: Action) -> Message:
    """The rarer actions as the page says them (its `act.*` phrases), after the figure."""
    if isinstance(act, Door):
        return Message("act.door", {"door": place(game, act.door)})
    if isinstance(act, Give):
        return Message("act.give", {"item": thing(game, act.item),
                                    "target": who(game, act.target)})
    if isinstance(act, UseSkill):
        return Message("act.skill", {"skill": thing(game, act.skill)})
    if isinstance(act, Special):
        p: dict[str, Any] = {}
        if act.target is not None:
            p["target"] = place(game, act.target)
        if act.marker is not None:
            p["marker"] = place(game, act.marker)
        return _special(act.rule, p)
    return Message("act.other")


def _special(rule: str, p: dict[str, Any]) -> Message:
    """A scenario card's own action, by its rule (the page's words)."""
    known = {"treat": Message("act.special.treat", p),
             "deliver": Message("act.special.deliver", p),
             "escort": Message("act.special.escort", p),
             "exit_with": Message("act.special.exit_with", p),
             "cross": Message("act.special.cross", p),
             "barricade": Message("act.special.barricade", p),
             "sewer": Message("act.special.sewer", p),
             "collect": Message("act.special.collect", p),
             "lead": Message("act.special.lead", p),
             "ally": Message("act.special.ally", p)}
    return known.get(rule) or Message("act.special", {"what": p.get("target")
                                                      or p.get("marker") or ""})


def said(messages: Iterable[Message], lang: str = "en") -> str:
    """Messages joined in one language ("...; ..." / "... ; ...")."""
    return joined(messages, lang)
