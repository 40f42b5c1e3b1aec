"""Decision windows as typed values: moments when a side may (or may not) do something out
of turn. An open window waits in `GameState.pending`; while one is open only its actions
(or `decline`) are legal. Their rules (what each allows, how it resolves) are in
`rules.window_rules`; here they are small frozen values with the same JSON form records
have always kept (`{"kind": "reaction", "side": "zombies"}`).

- `Reaction`: after a survivor's 2-AP action, one zombie may act for 1 AP (D6); with
  `two_ap_reaction = before` the survivor's action waits in `deferred`;
- `Contamination`: a zombie that just put a survivor down may contaminate it (1 AP);
- `Reactivation`: entraîné / tireur rapide may act again (melee / shoot), AP paid as normal;
- `ThrowAgain`: the Molotov's second cocktail, when the first killed its target, may be
  thrown at another legal target (no AP: it was paid);
- `Savoir`: the scientist may cancel the zombie activation in `deferred`;
- `Didactique`: the scientist may re-roll the survivors' AP die;
- `Extremiste`: after a kill, a free move toward the nearest zombie;
- `Hysterique`: after a failed panic test, a free move where the player wants;
- `ZombieControl` (zombie_war): a band sets one zombie on the other band.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from geometry.errors import shown
from i18n import Message
from rules.actions import Action, parse_action
from rules.errors import InvalidActionError

__all__ = ["Window", "Reaction", "Contamination", "Reactivation", "ThrowAgain", "Savoir",
           "Didactique", "Extremiste", "Hysterique", "ZombieControl", "WINDOW_KINDS",
           "window_from_json"]


@dataclass(frozen=True)
class Window:
    """A window open for `side` (a side or a band)."""

    kind: ClassVar[str] = ""
    side: str

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    @property
    def figure_id(self) -> str:
        """The figure the window is about ('' when it is about a side)."""
        return str(getattr(self, "figure", ""))

    @property
    def target_id(self) -> str:
        """The figure the window's action would be done to ('' when none)."""
        return str(getattr(self, "target", ""))


@dataclass(frozen=True)
class Reaction(Window):
    kind: ClassVar[str] = "reaction"
    deferred: Action | None = None  # the survivor action that waits (two_ap_reaction before)
    again: bool = False  # the deferred action is a reactivation: it earns no further go

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "side": self.side}
        if self.deferred is not None:
            out["deferred"] = self.deferred.to_json()
        if self.again:
            out["again"] = True
        return out


@dataclass(frozen=True)
class Contamination(Window):
    kind: ClassVar[str] = "contaminate"
    figure: str
    target: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "figure": self.figure, "target": self.target,
                "side": self.side}


@dataclass(frozen=True)
class Reactivation(Window):
    kind: ClassVar[str] = "reactivate"
    figure: str
    action: str  # "melee" or "shoot": the kind of action it may make again

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "figure": self.figure, "action": self.action,
                "side": self.side}


@dataclass(frozen=True)
class ThrowAgain(Window):
    kind: ClassVar[str] = "throw_again"
    figure: str
    weapon: str
    dice: int  # the cocktails left to throw

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "figure": self.figure, "weapon": self.weapon,
                "dice": self.dice, "side": self.side}


@dataclass(frozen=True)
class Savoir(Window):
    kind: ClassVar[str] = "savoir"
    figure: str  # the scientist
    deferred: Action  # the zombie activation it may cancel
    then: Window | None = None  # the window that activation answered, to carry on with

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "figure": self.figure, "side": self.side,
                               "deferred": self.deferred.to_json()}
        if self.then is not None:
            out["then"] = self.then.to_json()
        return out


@dataclass(frozen=True)
class Didactique(Window):
    kind: ClassVar[str] = "didactique"
    figure: str
    die: int  # the AP die it may re-roll

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "figure": self.figure, "side": self.side, "die": self.die}


@dataclass(frozen=True)
class Extremiste(Window):
    kind: ClassVar[str] = "extremiste"
    figure: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "figure": self.figure, "side": self.side}


@dataclass(frozen=True)
class Hysterique(Window):
    kind: ClassVar[str] = "hysterique"
    figure: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "figure": self.figure, "side": self.side}


@dataclass(frozen=True)
class ZombieControl(Window):
    kind: ClassVar[str] = "zombie_control"
    enemy: str  # the band whose figures the zombie may be set on

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "enemy": self.enemy}


WINDOW_KINDS: dict[str, type[Window]] = {
    cls.kind: cls for cls in (Reaction, Contamination, Reactivation, ThrowAgain, Savoir,
                              Didactique, Extremiste, Hysterique, ZombieControl)}


def _bad(where: str, data: Any) -> InvalidActionError:
    return InvalidActionError(Message("refusal.bad_window", {"value": shown(data)}), where)


def window_from_json(data: Any, where: str = "pending") -> Window:
    """A window from its JSON form (a game's record); a malformed one names where it is."""
    if isinstance(data, Window):
        return data
    if not isinstance(data, Mapping) or data.get("kind") not in WINDOW_KINDS:
        raise _bad(where, data)
    try:
        kind, side = data["kind"], str(data["side"])
        if kind == "reaction":
            deferred = data.get("deferred")
            return Reaction(side, None if deferred is None else parse_action(
                deferred, f"{where}.deferred"), bool(data.get("again", False)))
        if kind == "contaminate":
            return Contamination(side, str(data["figure"]), str(data["target"]))
        if kind == "reactivate":
            return Reactivation(side, str(data["figure"]), str(data["action"]))
        if kind == "throw_again":
            return ThrowAgain(side, str(data["figure"]), str(data["weapon"]), int(data["dice"]))
        if kind == "savoir":
            then = data.get("then")
            return Savoir(side, str(data["figure"]),
                          parse_action(data["deferred"], f"{where}.deferred"),
                          None if then is None else window_from_json(then, f"{where}.then"))
        if kind == "didactique":
            return Didactique(side, str(data["figure"]), int(data["die"]))
        if kind == "extremiste":
            return Extremiste(side, str(data["figure"]))
        if kind == "hysterique":
            return Hysterique(side, str(data["figure"]))
        return ZombieControl(side, str(data["enemy"]))
    except (KeyError, TypeError, ValueError):
        raise _bad(where, data) from None
