"""Who may act now: which figures a side may activate, and why another may not.

The first question of every action, asked before its own rule (`rules.action_rules`):
a zombie acts only within 20 in of a human, a survivor only standing, not panicked nor
resting (a Héroïque one down, once a turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from i18n import Message
from rules import words
from rules.arbitration import ACTIVATION_INCHES, activatable_zombies

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["nearest_human", "why_not_active", "activatable", "can_activate", "free_zombie",
           "enemies_by_distance"]

# the refusals, by why (each given its parameters by `why_not_active`)
_NOT_ON_TABLE = Message("refusal.not_on_table")
_NO_HUMAN = Message("refusal.no_human")
_TOO_FAR = Message("refusal.zombie_too_far")
_CIVILIAN = Message("refusal.civilian")
_DOWN = Message("refusal.is_down")
_PANICKED = Message("refusal.panicked")
_RESTING = Message("refusal.resting")
_GONE = {"dead": Message("refusal.is_dead"), "evacuated": Message("refusal.evacuated"),
         "contaminated": Message("refusal.is_contaminated")}


def nearest_human(game: GameState, zombie: Fig) -> tuple[str, float] | None:
    """The human nearest a zombie on the table and its distance: the arbitration's own
    answer (`activatable_zombies`), measured once for every zombie until something moves."""
    key = ("nearest human", game.version())
    nearest: dict[str, tuple[str, float] | None] | None = game.plans.get(key)
    if nearest is None:
        nearest = activatable_zombies(game.space())[1]
        game.plans[key] = nearest
    return nearest.get(zombie.id)


def _inactive(game: GameState, fig: Fig) -> tuple[Message, float | None] | None:
    """Why the figure may not be activated now (the refusal, and the distance to the nearest
    human for a zombie too far), or None when it may: the decision alone, without the
    figure's name, cheap enough to ask of every figure at every listing."""
    if fig.is_zombie:
        if not fig.on_table:
            return _NOT_ON_TABLE, None
        near = nearest_human(game, fig)
        if near is None:
            return _NO_HUMAN, None
        if near[1] > ACTIVATION_INCHES + 1e-9:
            return _TOO_FAR, float(near[1])
        return None
    if fig.side != "survivors":
        return _CIVILIAN, None
    if fig.status == "down":
        if fig.has("heroique") and not fig.used_turn.get("heroique"):
            return None
        return _DOWN, None
    if not fig.standing:
        return _GONE.get(fig.status, _NOT_ON_TABLE), None
    if fig.panicked:
        return _PANICKED, None
    if fig.resting:
        return _RESTING, None
    return None


def why_not_active(game: GameState, fig: Fig) -> Message | None:
    """None when the figure may be activated now, else why not."""
    reason = _inactive(game, fig)
    if reason is None:
        return None
    said, d = reason
    params: dict[str, object] = {"who": words.who(game, fig)}
    if d is not None:
        params["d"] = d
    return Message(said.code, params)


def activatable(game: GameState, side: str) -> list[Fig]:
    """Figures `side` may activate now (in zombie_war, a band's own survivors)."""
    return [f for f in game.figures.values()
            if game.side_of(f) == side and _inactive(game, f) is None]


def can_activate(game: GameState, side: str) -> bool:
    """May `side` activate someone now? With an empty pool only a sprint can be made (D14)."""
    if side in game.ended:
        return False
    if side == "zombies" and game.mode == "zombie_war":
        return False  # zombies only move when a band makes them (D23)
    figs = activatable(game, side)
    if game.pools.get(side, 0) > 0:
        return bool(figs)
    return any(f.standing and f.has("sprinter") and not f.used_game.get("sprinter")
               for f in figs)


def enemies_by_distance(game: GameState, fig: Fig) -> tuple[tuple[float, Fig], ...]:
    """The figure's enemies on the table, nearest first (ties in the figures' order), kept
    for this state's positions."""
    key = ("enemies", fig.id, game.version())
    kept = game.plans.get(key)
    # ties go by the figures' order: kept with the very figures it was read off (a copy
    # of the game that lists its figures otherwise reads them again)
    found: tuple[tuple[float, str], ...] | None = (
        kept[1] if kept is not None and kept[0] is game.figures else None)
    if found is None:  # ids, not figures: a copy of the game reads them as its own
        humans, zombies, bands = _on_table(game)
        if fig.is_zombie:
            ids = humans
        elif fig.side == "survivors" and len(bands) > 1:  # rival bands fight too
            ids = [f.id for f in game.figures.values() if f.on_table and fig.enemy_of(f)]
        else:
            ids = zombies
        out = list(zip(game.distances_from(fig.id, ids), ids, strict=True))
        out.sort(key=lambda p: p[0])
        found = tuple(out)
        game.plans[key] = (game.figures, found)
    return tuple((d, game.figures[i]) for d, i in found)


def _on_table(game: GameState) -> tuple[list[str], list[str], set[str]]:
    """The humans and the zombies on the table, in the figures' order, and the survivors'
    bands: whom each figure fights (`Fig.enemy_of`), sorted out once for the state."""
    key = ("on table", game.version())
    kept = game.plans.get(key)
    if kept is not None and kept[0] is game.figures:  # read off these very figures
        found: tuple[list[str], list[str], set[str]] = kept[1]
        return found
    on = [f for f in game.figures.values() if f.on_table]
    found = ([f.id for f in on if f.is_human], [f.id for f in on if f.is_zombie],
             {f.band for f in on if f.side == "survivors"})
    game.plans[key] = (game.figures, found)
    return found


def free_zombie(game: GameState, fig: Fig) -> bool:
    """In zombie_war a band moves zombies at no AP cost (D23)."""
    return fig.is_zombie and game.mode == "zombie_war"
