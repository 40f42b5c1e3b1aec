"""Checking a card's conditions on a game being played: what is counted and how.

Each condition type of `scenarios.objectives` is read off the game (figures, markers) and the
referee's record (exits and zones left by, crates opened, the sick cared for, the trapped
freed, items delivered, events). Counting words follow D22: "half" is half of the group at the
start of the scenario, rounded up; survivors counted are the starting band's members unless
the setting `victory_counts` is "any_members" (a freed prisoner then counts too).
A `carry` counts the items delivered into its `to` zone wherever they were found (a crate of
the card may hold one too); `survive_turns` is asked when the scenario ends, whatever ended it.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from shapely import prepared
from shapely.geometry import Point, Polygon

from rules.figures import Fig
from scenarios.cards import Card, Victory
from scenarios.objectives import (
    Carry,
    Condition,
    Contaminate,
    Escort,
    Event,
    Exit,
    Free,
    Heal,
    HoldZone,
    KillAll,
    KillCivilians,
    OpenCrates,
    Reach,
    SurviveTurns,
    SurvivorsFail,
    TakeOut,
    ZombiesInZone,
    count_needed,
)

if TYPE_CHECKING:
    from rules.state import GameState

__all__ = ["holds", "remaining", "victory", "in_zone", "carry_key", "survivors_counted",
           "condition_text"]


@functools.lru_cache(maxsize=256)
def _zone_shape(points: tuple[tuple[float, float], ...]) -> Any:
    return prepared.prep(Polygon(points))


# The prepared zones are shared by every game and server thread, and prepared GEOS
# geometries are not thread-safe (libgeos issue 825): one query at a time.
_ZONES_LOCK = threading.Lock()


def in_zone(card: Card, zone_id: str, fig: Fig) -> bool:
    """A figure is in a zone when its base centre is inside it or on its border."""
    with _ZONES_LOCK:
        return bool(_zone_shape(card.zone(zone_id).polygon).covers(Point(fig.x, fig.y)))


def carry_key(item: str, zone: str) -> str:
    """The referee's count of `item` delivered into `zone`."""
    return f"{item}@{zone}"


def survivors_counted(game: GameState, state: dict[str, Any]) -> list[Fig]:
    """The survivors whose fate counts: the starting band (D22), or every band member with
    `victory_counts` = "any_members"; contaminated ones are zombies now and still listed."""
    if game.settings.victory_counts == "any_members":
        band = set(state["band"]) | {f.id for f in game.figures.values()
                                     if f.side == "survivors"}
    else:
        band = set(state["band"])
    return [f for f in game.figures.values() if f.id in band]


def _group(game: GameState, state: dict[str, Any], group: str) -> list[Fig]:
    return [game.figures[i] for i in state["civilians"].get(group, []) if i in game.figures]


def _all_civilians(game: GameState, state: dict[str, Any]) -> list[Fig]:
    return [game.figures[i] for ids in state["civilians"].values() for i in ids
            if i in game.figures]


def _gone(fig: Fig) -> bool:
    """Dead, removed, or risen as a zombie."""
    return fig.status in ("dead", "removed", "contaminated") or fig.side == "zombies"


def holds(cond: Condition, game: GameState, card: Card, state: dict[str, Any]) -> bool:
    """Whether `cond` holds now (end-of-scenario conditions are asked when it ends)."""
    return remaining(cond, game, card, state) == 0


def remaining(cond: Condition, game: GameState, card: Card, state: dict[str, Any]) -> int:
    """How far `cond` is from holding, counted in what it counts (survivors still to
    leave, crates still to open, zombies still on the table...): 0 when it holds. A
    condition on a group that is empty can never hold (1). The AI's evaluation reads the
    progress of a card off it."""
    if isinstance(cond, KillAll):
        return sum(1 for f in game.figures.values() if f.is_zombie and f.on_table)
    if isinstance(cond, HoldZone):
        standing, zombies = _in_zone(game, card, cond.zone)
        return (max(cond.survivors_at_least - standing, 0)
                + max(zombies - cond.zombies_at_most, 0))
    if isinstance(cond, SurvivorsFail):
        return int(victory(card.objectives.survivors, game, card, state))
    if isinstance(cond, Event):
        return int(cond.event not in state["events"])
    counted = tally(cond, game, card, state)
    if counted is None:
        raise TypeError(f"no check for condition {cond.type!r}")
    return _short(*counted)


def _in_zone(game: GameState, card: Card, zone: str) -> tuple[int, int]:
    """Standing survivors (base centre) and zombies in a zone."""
    standing = sum(1 for f in game.figures.values() if f.side == "survivors"
                   and f.standing and in_zone(card, zone, f))
    zombies = sum(1 for f in game.figures.values() if f.is_zombie and f.on_table
                  and in_zone(card, zone, f))
    return standing, zombies


def tally(cond: Condition, game: GameState, card: Card, state: dict[str, Any]
          ) -> tuple[int, int, int] | None:
    """A counting condition as it stands: (done, needed, out of), e.g. 2 survivors out of
    the 3 needed, of a band of 6; None for a condition that does not count (no zombie left,
    a zone held, an event). `remaining` and the page's objective tracker both read it."""
    band = len(state["band"])
    if isinstance(cond, Exit | Reach):
        if cond.who == "survivors":
            group, total = survivors_counted(game, state), band
        else:
            group = _all_civilians(game, state)
            total = sum(len(ids) for ids in state["civilians"].values())
        if isinstance(cond, Exit):
            out = sum(1 for f in group if f.status == "evacuated" and f.exit == cond.exit)
        else:
            out = sum(1 for f in group if f.status == "evacuated"
                      and state["evacuated_via"].get(f.id) == cond.zone)
        return out, count_needed(cond.at_least, total), total
    if isinstance(cond, Escort):
        group = _group(game, state, cond.civilians)
        total = len(state["civilians"].get(cond.civilians, []))
        out = sum(1 for f in group if f.status == "evacuated" and f.exit == cond.exit)
        return out, count_needed(cond.at_least, total), total
    if isinstance(cond, SurviveTurns):
        alive = sum(1 for f in survivors_counted(game, state) if f.side == "survivors"
                    and f.status in ("standing", "evacuated"))
        return alive, count_needed(cond.at_least, band), band
    if isinstance(cond, Carry):
        return (int(state["delivered"].get(carry_key(cond.item, cond.to), 0)), cond.count,
                cond.count)
    if isinstance(cond, Heal):
        sick = set(state["civilians"].get(cond.targets, []))
        return sum(1 for i in state["treated"] if i in sick), cond.count, len(sick)
    if isinstance(cond, OpenCrates):
        opened = len(state["crates_opened"])
        closed = sum(1 for m in game.markers.values() if m.get("kind") == "crate")
        return opened, cond.count, max(opened + closed, cond.count)
    if isinstance(cond, Free):
        ids = state["civilians"].get(cond.figure, [])
        return sum(1 for i in ids if i in state["freed"]), len(ids), len(ids)
    if isinstance(cond, TakeOut):
        out = sum(1 for f in survivors_counted(game, state)
                  if f.status in ("down", "dead") or _gone(f))
        return out, count_needed(cond.at_least, band), band
    if isinstance(cond, KillCivilians):
        group = _group(game, state, cond.civilians)
        total = len(state["civilians"].get(cond.civilians, []))
        return sum(1 for f in group if _gone(f)), count_needed(cond.at_least, total), total
    if isinstance(cond, Contaminate):
        turned = sum(1 for f in survivors_counted(game, state)
                     if f.status == "contaminated" or f.side == "zombies")
        return turned, cond.at_least, band
    if isinstance(cond, ZombiesInZone):
        inside = _in_zone(game, card, cond.zone)[1]
        return inside, cond.at_least, max(cond.at_least, 1)
    return None


def _short(have: int, need: int, total: int) -> int:
    """What a count over a group still lacks; a group that is empty never counts."""
    return max(need - have, 0) if total > 0 else max(need, 1)


def victory(side: Victory, game: GameState, card: Card, state: dict[str, Any]) -> bool:
    """A side's conditions, all or any of them (an empty list never wins)."""
    results: Iterable[bool] = (holds(c, game, card, state) for c in side.conditions)
    if not side.conditions:
        return False
    return all(results) if side.mode == "all" else any(results)


def condition_text(cond: Condition) -> str:
    """The condition for programs and older readers: its type and English wording with ids
    (a player reads `cond.words(card)`)."""
    return f"{cond.type}: {cond.describe()[1]}"
