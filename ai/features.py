"""What the evaluation reads off a position: one row of numbers, the same for every card.

`features(game)` gives `len(NAMES)` floats, in the order of `NAMES`: the card (one-hot), the
clock (turn, turns left, who acts, the AP pools), how far each side's objective is from
holding (`scenarios.play_conditions.remaining`), the band (standing, down, out, evacuated,
PV, shooters with ammunition), how far the standing survivors are from where the card sends
them (as the scenario bots read the card), and the zombies' grip on them (zombies that can
reach each survivor this activation, the nearest zombie, zombies standing between a
survivor and its goal). Distances are the engine's edge-to-edge distances, or straight
lines to a goal point; the look-ahead plays moves by the real route, so the leaves it
scores already carry the walls.

Nothing here depends on the order the figures are listed in: every per-figure number is
sorted or summed.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from geometry.units import CONTACT_INCHES

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.game import Game

__all__ = ["CARDS", "NAMES", "Goals", "features", "goal_point", "goal_target", "goals_of"]

CARDS = ("caisses", "convoi", "escorte", "evacuation", "helico", "nettoyage", "nuit",
         "refuge", "remede", "sauvetage")
FAR = 60.0  # a distance with nothing there (no goal, no zombie) reads as this
RUNNERS = 4  # the nearest survivors to their goal, one feature each
NEAREST = 4  # the survivors nearest a zombie, one feature each

NAMES: tuple[str, ...] = (
    *(f"card_{c}" for c in CARDS), "card_other",
    "turn", "turns_left", "end_roll_from", "zombies_to_act", "window_open",
    "pool_survivors", "pool_zombies",
    "band", "standing", "down", "out", "evacuated", "pv_standing", "pv_lost", "wounded",
    "pv_min", "defence_mean", "shooters",
    "surv_conditions", "surv_mode_all", "surv_remaining_sum", "surv_remaining_min",
    "surv_remaining_max", "surv_holds",
    "zomb_conditions", "zomb_mode_all", "zomb_remaining_sum", "zomb_remaining_min",
    "zomb_remaining_max", "zomb_holds",
    *(f"goal_{k}" for k in range(RUNNERS)), "goal_mean", "goal_within_4", "goal_within_8",
    "goal_within_16", "goal_none",
    "civilians", "civilians_needed", "civilian_nearest_zombie",
    "zombies", "zombies_reaching", "zombies_in_contact", "reach_max", "reach_sum",
    *(f"zombie_gap_{k}" for k in range(NEAREST)), "survivors_engaged", "survivors_alone",
    "blockers", "blockers_on_runner", "runner_reach",
)


def goal_target(game: Game, h: Fig) -> str | tuple[float, float] | None:
    """Where the card sends this survivor, as the scenario bots read it: a figure's id (the
    civilian it fetches or treats, the trapped one it frees), or a point (its exit spot, a
    zone's centre, the crate or item it goes for); None if nowhere."""
    from scenarios.play import ScenarioReferee
    from scenarios.play_policy import FETCH, ZONE, survivor_goal

    ref = game.referee
    if not isinstance(ref, ScenarioReferee):
        return None
    try:
        goal = survivor_goal(game, ref, h)
    except (KeyError, ValueError):
        return None
    if isinstance(goal, tuple) and goal and goal[0] == FETCH:
        goal = goal[1]
    if isinstance(goal, tuple) and goal and goal[0] == ZONE:
        try:
            poly = ref.card.zone(goal[1]).polygon
        except KeyError:
            return None
        return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))
    if isinstance(goal, str):
        other = game.figures.get(goal)
        return None if other is None or not other.on_table else goal
    if isinstance(goal, tuple) and len(goal) == 2 and all(
            isinstance(c, int | float) for c in goal):
        return (float(goal[0]), float(goal[1]))
    return None


def goal_point(game: Game, h: Fig) -> tuple[float, float] | None:
    """The point a standing survivor heads for (`goal_target`; a figure's centre)."""
    if not h.standing:
        return None
    goal = goal_target(game, h)
    return game.figures[goal].centre if isinstance(goal, str) else goal


def _conditions(game: Game, side: str) -> list[float]:
    """Conditions, all-or-any, what they still lack (sum, least, most), how many hold."""
    from scenarios.play import ScenarioReferee
    from scenarios.play_conditions import remaining

    ref = game.referee
    if not isinstance(ref, ScenarioReferee):
        return [0.0] * 6
    victory = getattr(ref.card.objectives, side)
    left = [remaining(c, game, ref.card, ref.state) for c in victory.conditions] or [0]
    return [float(len(victory.conditions)), float(victory.mode == "all"), float(sum(left)),
            float(min(left)), float(max(left)), float(sum(1 for x in left if x == 0))]


def _padded(values: list[float], n: int) -> list[float]:
    return (sorted(values) + [FAR] * n)[:n]


def _seg_distance(p: np.ndarray, a: tuple[float, float], b: tuple[float, float]
                  ) -> np.ndarray:
    """Distance of each point of `p` (n x 2) to the segment a-b."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return np.hypot(p[:, 0] - ax, p[:, 1] - ay)
    t = np.clip(((p[:, 0] - ax) * dx + (p[:, 1] - ay) * dy) / length2, 0.0, 1.0)
    return np.hypot(p[:, 0] - (ax + t * dx), p[:, 1] - (ay + t * dy))


Goals = tuple[Any, dict[str, tuple[float, float] | None]]  # (what they depend on, goals)


def _goal_inputs(game: Game) -> Any:
    """What the survivors' goals depend on: where the humans are and what they carry, the
    markers, the referee's record; and the zombies' places on a card won by killing them
    all (a survivor there heads for the nearest zombie)."""
    ref = game.referee
    humans = tuple((f.id, f.x, f.y, f.status, f.side, tuple(sorted(f.items.items())))
                   for f in sorted(game.figures.values(), key=lambda f: f.id) if f.is_human)
    state = getattr(ref, "state", None)
    record = repr(sorted((k, v) for k, v in state.items() if k != "weather")) if isinstance(
        state, dict) else ""
    card = getattr(ref, "card", None)
    hunt = card is not None and any(c.type == "kill_all"
                                    for c in card.objectives.survivors.conditions)
    zombies = tuple((f.id, f.x, f.y) for f in game.figures.values() if f.is_zombie) if hunt \
        else ()
    return (humans, repr(sorted(game.markers.items())), record, zombies)


def goals_of(game: Game, known: Goals | None = None) -> Goals:
    """Each standing survivor's goal point, with what it depends on (`_goal_inputs`); when
    nothing it depends on changed since `known`, `known` itself (reading the card costs
    more than the rest of `features`, and the look-ahead's positions mostly differ by a
    zombie's step)."""
    inputs = _goal_inputs(game)
    if known is not None and known[0] == inputs:
        return known
    return inputs, {f.id: goal_point(game, f) for f in game.figures.values()
                    if f.side == "survivors" and f.standing}


def features(game: Game, known: Goals | None = None) -> list[float]:
    """The position as numbers, in the order of `NAMES` (`known`: see `goals_of`)."""
    from ai.cover import shooters
    from rules.attacks import defence_of

    ref = game.referee
    card = getattr(getattr(ref, "card", None), "id", None)
    out: list[float] = [float(card == c) for c in CARDS] + [float(card not in CARDS)]
    end_roll = getattr(getattr(getattr(ref, "card", None), "turns", None), "end_roll", None)
    out += [float(game.turn), float(game.max_turns - game.turn),
            float(end_roll.from_turn) if end_roll is not None else 0.0,
            float(game.current_side() == "zombies"), float(bool(game.pending)),
            float(game.pools.get("survivors", 0)), float(game.pools.get("zombies", 0))]

    figs = sorted(game.figures.values(), key=lambda f: f.id)
    band = [f for f in figs if f.side == "survivors" or f.origin]
    standing = [f for f in band if f.side == "survivors" and f.standing]
    pv = [f.pv for f in standing]
    out += [float(len(band)), float(len(standing)),
            float(sum(1 for f in band if f.side == "survivors" and f.status == "down")),
            float(sum(1 for f in band if f.status in ("dead", "removed") or f.origin)),
            float(sum(1 for f in band if f.status == "evacuated")),
            float(sum(pv)), float(sum(max(f.wounds - f.pv, 0) for f in standing)),
            float(sum(1 for f in standing if f.pv < f.wounds)),
            float(min(pv)) if pv else 0.0,
            float(np.mean([defence_of(f, game.settings) for f in standing])) if standing
            else 0.0,
            float(len(shooters(game)))]
    out += _conditions(game, "survivors") + _conditions(game, "zombies")

    goals = goals_of(game, known)[1]
    gaps = [math.dist(f.centre, p) for f in standing if (p := goals[f.id]) is not None]
    out += _padded(gaps, RUNNERS)
    out += [float(np.mean(gaps)) if gaps else FAR,
            *(float(sum(1 for d in gaps if d <= r)) for r in (4, 8, 16)),
            float(len(standing) - len(gaps))]

    zombies = [f for f in figs if f.is_zombie and f.on_table]
    civilians = [f for f in figs if f.side == "civilians" and f.on_table]
    needed = _needed(game)
    space = game.space()
    index, dist = space.scene.index, space.distances
    zi = [index[z.id] for z in zombies]

    def gaps_to(h: Fig) -> np.ndarray:
        return dist[index[h.id], zi] if zi else np.zeros(0)

    need_gap = [float(gaps_to(c).min()) for c in civilians if c.id in needed and zi]
    out += [float(len(civilians)), float(sum(1 for c in civilians if c.id in needed)),
            min(need_gap) if need_gap else FAR]

    moves = np.array([z.move for z in zombies], dtype=float)
    reach = [int(np.count_nonzero(gaps_to(h) <= moves + CONTACT_INCHES)) for h in standing]
    reaching = np.zeros(len(zombies), dtype=bool)
    touching = np.zeros(len(zombies), dtype=bool)
    nearest: list[float] = []
    engaged = alone = 0
    for h in standing:
        gap = gaps_to(h)
        if gap.size:
            reaching |= gap <= moves + CONTACT_INCHES
            touching |= gap <= CONTACT_INCHES + 1e-9
            nearest.append(float(gap.min()))
            engaged += int(gap.min() <= CONTACT_INCHES + 1e-9)
        alone += int(not any(o.id != h.id and dist[index[h.id], index[o.id]] < 5.0
                             for o in standing))
    out += [float(len(zombies)), float(reaching.sum()), float(touching.sum()),
            float(max(reach, default=0)), float(sum(reach)), *_padded(nearest, NEAREST),
            float(engaged), float(alone)]

    # zombies on the straight way from a survivor to its goal, and the grip on the runner
    # nearest its goal
    centres = np.array([z.centre for z in zombies], dtype=float).reshape(-1, 2)
    blockers, on_runner, runner_reach = 0, 0, 0
    runner = min((f for f in standing if goals[f.id] is not None),
                 key=lambda f: (math.dist(f.centre, goals[f.id] or f.centre), f.x, f.y),
                 default=None)
    for h in standing:
        goal = goals[h.id]
        if goal is None or not len(centres):
            continue
        near_path = _seg_distance(centres, h.centre, goal) <= 3.0
        blockers += int(near_path.sum())
        if h is runner:
            on_runner = int(near_path.sum())
            runner_reach = int(np.count_nonzero(gaps_to(h) <= moves + CONTACT_INCHES))
    out += [float(blockers), float(on_runner), float(runner_reach)]
    return out


def _needed(game: Game) -> set[str]:
    from scenarios.play import ScenarioReferee
    from scenarios.play_policy import protected_civilians

    ref = game.referee
    return set(protected_civilians(game, ref)) if isinstance(ref, ScenarioReferee) else set()
