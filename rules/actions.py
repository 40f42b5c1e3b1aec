"""The actions players take, as small frozen values with a JSON form.

`{"type": "move", "figure": "s1", "to": [12.0, 8.5]}` moves exactly there (the path must be
at most M long); `{"type": "move", "figure": "s1", "toward": "z3"}` goes as far as M allows
along the shortest path, stopping in base contact. Every action parses from JSON with an
`InvalidActionError` naming the bad field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from geometry.errors import shown as _shown
from geometry.scene import xy_pair
from i18n import Message
from rules.errors import InvalidActionError

__all__ = [
    "Action", "Move", "Shoot", "Melee", "Heal", "Revive", "Carry", "Door", "Interact", "Take",
    "Give", "Exit", "Special", "Contaminate",
    "UseSkill", "Decline", "Pass", "EndActivations", "parse_action", "ACTION_TYPES", "actor",
]

Point = tuple[float, float]


@dataclass(frozen=True)
class Action:
    type: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class Move(Action):
    """Move up to M inches: to an exact point, or toward a figure or point."""

    type: ClassVar[str] = "move"
    figure: str
    to: Point | None = None
    toward: str | Point | None = None


@dataclass(frozen=True)
class Shoot(Action):
    type: ClassVar[str] = "shoot"
    figure: str
    target: str
    weapon: str


@dataclass(frozen=True)
class Melee(Action):
    """Attack an enemy in base contact (or at the weapon's reach), spending `ap` AP."""

    type: ClassVar[str] = "melee"
    figure: str
    target: str
    ap: int = 1
    weapon: str | None = None


@dataclass(frozen=True)
class Heal(Action):
    type: ClassVar[str] = "heal"
    figure: str
    target: str


@dataclass(frozen=True)
class Revive(Action):
    type: ClassVar[str] = "revive"
    figure: str
    target: str


@dataclass(frozen=True)
class Carry(Action):
    """Carry a fallen comrade in base contact: a move at M - 1, the comrade placed alongside."""

    type: ClassVar[str] = "carry"
    figure: str
    target: str
    toward: str | Point | None = None
    to: Point | None = None


@dataclass(frozen=True)
class Door(Action):
    """Open or close a door the figure's base touches (1 AP)."""

    type: ClassVar[str] = "door"
    figure: str
    door: str


@dataclass(frozen=True)
class Interact(Action):
    """Open a crate (or whatever the scenario put on a marker) the figure touches."""

    type: ClassVar[str] = "interact"
    figure: str
    marker: str


@dataclass(frozen=True)
class Take(Action):
    """Pick up one item from a marker the figure touches, dropping `drop` there if full."""

    type: ClassVar[str] = "take"
    figure: str
    marker: str
    item: str
    drop: str | None = None


@dataclass(frozen=True)
class Give(Action):
    """Hand one item to a friend in base contact who has room for it."""

    type: ClassVar[str] = "give"
    figure: str
    target: str
    item: str


@dataclass(frozen=True)
class Exit(Action):
    """Leave the table by one of the scenario's exits, base touching its edge (1 AP)."""

    type: ClassVar[str] = "exit"
    figure: str
    exit: str


@dataclass(frozen=True)
class Special(Action):
    """An action the scenario card adds (`rule` names it): treat the sick, free a prisoner..."""

    type: ClassVar[str] = "special"
    figure: str
    rule: str
    target: str | None = None
    marker: str | None = None


@dataclass(frozen=True)
class Contaminate(Action):
    type: ClassVar[str] = "contaminate"
    figure: str
    target: str


@dataclass(frozen=True)
class UseSkill(Action):
    """A skill used as an action or at a moment the game offers (sprinter, chanceuse...)."""

    type: ClassVar[str] = "skill"
    figure: str
    skill: str
    target: str | None = None
    to: Point | None = None


@dataclass(frozen=True)
class Decline(Action):
    """Let an offered opportunity pass (a 2-AP reaction, a contamination, a skill window)."""

    type: ClassVar[str] = "decline"


@dataclass(frozen=True)
class Pass(Action):
    """The side to act passes, keeping its AP; two passes in a row end the turn (D16)."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True)
class EndActivations(Action):
    """The side to act gives up the rest of its AP this turn."""

    type: ClassVar[str] = "end_activations"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (Move, Shoot, Melee, Heal, Revive, Carry, Door, Interact, Take, Give, Exit,
                Special, Contaminate, UseSkill, Decline,
                Pass, EndActivations)
}


def actor(act: Action) -> str:
    """The id of the figure doing `act` ('' for side-level actions like end_activations)."""
    figure = getattr(act, "figure", "")
    return figure if isinstance(figure, str) else ""


def _point(value: Any, where: str) -> Point:
    point = xy_pair(value)
    if point is None:
        raise InvalidActionError(Message("refusal.action.bad_point", {
            "field": where, "value": _shown(value)}), where)
    return point


def parse_action(data: Any, where: str = "action") -> Action:
    """An action from its JSON form; malformed input names the field."""
    if isinstance(data, Action):
        return data
    if not isinstance(data, Mapping):
        raise InvalidActionError(Message("refusal.action.not_object", {
            "value": _shown(data)}), where)
    kind = data.get("type")
    if kind not in ACTION_TYPES:
        raise InvalidActionError(Message("refusal.action.unknown_type", {
            "value": _shown(kind), "known": list(ACTION_TYPES)}), f"{where}.type")
    cls = ACTION_TYPES[kind]
    spec = {f.name: f for f in fields(cls)}
    extra = sorted(set(data) - set(spec) - {"type"})
    if extra:
        raise InvalidActionError(Message("refusal.action.unknown_field", {
            "field": extra[0], "type": kind}), f"{where}.{extra[0]}")
    values: dict[str, Any] = {}
    for name, f in spec.items():
        here = f"{where}.{name}"
        if name not in data:
            if f.default is MISSING:
                raise InvalidActionError(Message("refusal.action.missing_field", {
                    "field": name, "type": kind}), here)
            continue
        value = data[name]
        if name in ("to",):
            values[name] = None if value is None else _point(value, here)
        elif name == "toward":
            values[name] = value if isinstance(value, str) else _point(value, here)
        elif name == "ap":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidActionError(Message("refusal.action.bad_ap", {
                    "value": _shown(value)}), here)
            values[name] = value
        else:
            if not isinstance(value, str) or not value:
                if value is None and f.default is None:
                    continue
                raise InvalidActionError(Message("refusal.action.bad_id", {
                    "field": name, "value": _shown(value)}), here)
            values[name] = value
    return cls(**values)
