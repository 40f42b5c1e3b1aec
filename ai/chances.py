"""The players' chances over a game: the curve and its turning point, for the page.

`curve(game)` replays the game's record (`Game.export`) and reads the survivors' chance to
win after every action with the learned evaluation (`ai.evaluation`): one batch of
predictions, about a second for a whole game. `turning_point` names the action that moved
the chance most, with what happened in it, as a message (`i18n.Message`): "turn 4: Hugo
fell 3.1 in from the objective (survivors 61% → 22%)".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ai.evaluation import evaluation
from ai.features import NAMES as FEATURE_NAMES
from ai.features import Goals, features, goals_of
from ai.policy import action_message, who
from i18n import Message

if TYPE_CHECKING:
    from rules.game import Game

__all__ = ["Point", "curve", "turning_point"]

FATES = {"down": "ai.fate.down", "dead": "ai.fate.dead", "evacuated": "ai.fate.out",
         "contaminated": "ai.fate.turned", "removed": "ai.fate.dead"}
Before = dict[str, tuple[str, str, float | None]]  # status, side, inches from its goal


@dataclass(frozen=True)
class Point:
    """The survivors' chance after entry `index` of the record's log (0: the first turn's
    start)."""

    index: int
    turn: int
    survivors: float
    what: Message | None = None  # what the action did, for the turning point
    final: bool = False  # the game ended with it: the chance is the result

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "turn": self.turn, "survivors": round(self.survivors, 4)}


def curve(game: Game) -> list[Point]:
    """The survivors' chance at the start and after each action of the game so far."""
    from rules.actions import parse_action

    record = game.export()
    steps: list[tuple[int, int, Message | None, float | None]] = []
    rows: list[list[float]] = []
    before: Before = {}
    act_text: Message | str = ""
    known: Goals | None = None
    for i, replay in enumerate(type(game).replay_steps(record, game.catalog)):
        known = goals_of(replay, known)  # read again only when what they depend on moved
        entry = record["log"][i]
        started = entry["action"].get("type") == "start"
        what = None if started and i == 0 else (
            Message("ai.fate.turn", {"turn": replay.turn}) if started
            else _what(replay, before, act_text))
        done = None
        if replay.outcome is not None:
            w = replay.outcome["winner"]
            done = 0.0 if w == "zombies" else 0.5 if w == "draw" else 1.0
        rows.append(features(replay, known) if done is None else [0.0] * len(FEATURE_NAMES))
        steps.append((i, replay.turn, what, done))
        if i + 1 < len(record["log"]) and record["log"][i + 1]["action"].get("type") != "start":
            before = _fates(replay, known[1])
            act_text = action_message(replay, parse_action(record["log"][i + 1]["action"],
                                                            "log"))
    if not rows:
        return []
    p = 1.0 - evaluation().predict(np.array(rows, dtype=float))
    return [Point(i, turn, float(p[k]) if done is None else done, what, done is not None)
            for k, (i, turn, what, done) in enumerate(steps)]


def _fates(game: Game, goals: dict[str, tuple[float, float] | None]) -> Before:
    out: Before = {}
    for f in game.figures.values():
        goal = goals.get(f.id)
        out[f.id] = (f.status, f.side, None if goal is None else math.dist(f.centre, goal))
    return out


def _what(game: Game, before: Before, act_text: Message | str) -> Message:
    """The fate of a human this action changed (the first by id), else the action."""
    for fid in sorted(before):
        f = game.figures.get(fid)
        status, side, goal = before[fid]
        if f is None or side == "zombies":
            continue
        now = "contaminated" if f.origin else f.status
        if now != status and now in FATES:
            params: dict[str, Any] = {"figure": who(game, f.id)}
            if now == "down" and goal is not None:
                return Message("ai.fate.down_goal", {**params, "goal": round(goal, 1)})
            return Message(FATES[now], params)
    return Message("ai.fate.action", {"action": act_text})


def turning_point(points: list[Point]) -> Message | None:
    """The action that moved the survivors' chance most (either way), with its message;
    None before any action. The last action of a finished game is left out (it always
    moves the chance to the result: the game was decided before it, not by it)."""
    last = len(points) - 1
    if last >= 2 and points[last].final:
        last -= 1
    if last < 1:
        return None
    k = max(range(1, last + 1),
            key=lambda j: (abs(points[j].survivors - points[j - 1].survivors), -j))
    a, b = points[k - 1], points[k]
    what = b.what or Message("ai.fate.action", {"action": ""})
    return Message("ai.turning", {"turn": b.turn, "what": what, "before": a.survivors,
                                  "after": b.survivors, "index": b.index})
