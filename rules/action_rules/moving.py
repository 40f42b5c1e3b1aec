"""Moving: a move (to a point, or toward a figure or point) and carrying a fallen friend."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from i18n import Message, Name
from rules import words
from rules.action_rules.base import ActionRule, Listing, friend, refuse
from rules.actions import Carry, Move
from rules.movement import (
    carry_length,
    do_move,
    goals_toward,
    is_hold,
    may_go_toward,
    place_carried,
    plan_move,
)

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["MoveRule", "CarryRule", "MOVE_TARGETS", "home"]

MOVE_TARGETS = 3  # "toward" moves listed per figure: the nearest enemies (and fallen friends)


def home(game: GameState) -> tuple[float, float]:
    """The survivors' own table edge, for carrying the fallen back."""
    return (game.table.width / 2, 0.6)


def _distance(game: GameState, a: str, b: str) -> float | None:
    fa, fb = game.figures.get(a), game.figures.get(b)
    if fa is None or fb is None or not fa.on_table or not fb.on_table:
        return None
    return game.distance(a, b)


class MoveRule(ActionRule[Move]):
    """Move up to M inches. Listed as moves toward the nearest enemies (and, for a survivor,
    fallen friends), whose route the game finds when the move is made; a player may also
    move to any exact point, which `check` verifies."""

    action = Move
    kind: ClassVar[str] = "move"
    zombies = True
    listed_legal = True  # a move toward a figure the terrain leaves a way to is legal

    def check(self, game: GameState, fig: Fig, act: Move) -> None:
        plan_move(game, fig, act.to, act.toward, fig.move)

    def candidates(self, game: GameState, fig: Fig, listing: Listing) -> Iterable[Move]:
        if not fig.on_table:
            return []
        targets = [f.id for _, f in listing.enemies[:MOVE_TARGETS]]
        if not fig.is_zombie:
            targets += [f.id for f in game.figures.values()
                        if f.side == "survivors" and f.band == fig.band and f.status == "down"]
        out = []
        for t in targets:
            if game.in_contact(fig.id, t) or listing.pool < 1:
                continue
            # the route itself is found when the move is made
            if may_go_toward(game, fig, goals_toward(game, fig, t)):
                out.append(Move(fig.id, toward=t))
        return out

    def resolve(self, game: GameState, fig: Fig, act: Move) -> None:
        do_move(game, fig, act, fig.move)

    def words(self, game: GameState, act: Move) -> Message:
        name: Name = words.who(game, act.figure)
        if is_hold(game, act):
            return Message("ai.act.hold", {"figure": name})
        if isinstance(act.toward, str):
            target = words.place(game, act.toward)
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
        far, way = math.dist(fig.centre, end), words.direction(fig.centre, end)
        if far > fig.move:  # the engine walks it its move's worth that way, not all the way
            return Message("ai.act.move_dir", {"figure": name, "dir": way})
        return Message("ai.act.move_by", {"figure": name, "d": round(far, 1), "dir": way})


class CarryRule(ActionRule[Carry]):
    """Carry a fallen comrade in base contact: a move at M - 1, the comrade placed alongside
    (listed toward the survivors' own edge)."""

    action = Carry
    kind: ClassVar[str] = "carry"
    heroic = False

    def check(self, game: GameState, fig: Fig, act: Carry) -> None:
        target = friend(game, fig, act.target)
        if target.status != "down":
            raise refuse(Message("refusal.carry_not_down", {"target": words.who(game, target)}),
                         "action.target")
        plan_move(game, fig, act.to, act.toward, carry_length(game, fig), ignore=(target.id,))

    def for_friend(self, game: GameState, fig: Fig, other: Fig) -> Carry | None:
        """The carry the listing offers toward the survivors' edge, if `other` is down."""
        if other.status == "down" and fig.standing:
            return Carry(fig.id, other.id, toward=home(game))
        return None

    def resolve(self, game: GameState, fig: Fig, act: Carry) -> None:
        target = game.figures[act.target]
        start = fig.centre
        if do_move(game, fig, act, carry_length(game, fig), ignore=(target.id,)):
            place_carried(game, fig, target, start)

    def words(self, game: GameState, act: Carry) -> Message:
        return Message("ai.act.carry", {"figure": words.who(game, act.figure),
                                        "target": words.who(game, act.target)})
