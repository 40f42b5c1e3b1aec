"""The end of a game in figures: who got out, who fell, the wounds each took, the zombies each
put down, and the action points each side spent.

The AP spent are not kept in the state: the game's record is replayed and each action's
cost taken as the engine charged it, before it was played. Everything else is read from the
figures as the game left them (a figure keeps who put it down in `downed_by`).
"""

from __future__ import annotations

from typing import Any

from rules import rulebook
from rules.actions import actor, parse_action
from rules.game import Game

__all__ = ["game_summary"]


def _spent(record: dict[str, Any], catalog: Any) -> dict[str, int]:
    """AP each side spent over the game, by the engine's own costs."""
    spent: dict[str, int] = {}
    steps = Game.replay_steps(record, catalog)
    game = next(steps, None)  # after the first turn's AP roll
    for entry in record["log"][1:]:
        if game is None:
            break
        act = parse_action(entry["action"], "log")
        who = actor(act)
        if who and who in game.figures:
            side = game.current_side()
            spent[side] = spent.get(side, 0) + rulebook.cost(game, act)
        game = next(steps, None)
    return spent


def game_summary(game: Game) -> dict[str, Any]:
    """Each survivor and civilian's fate and deeds, the zombies put down, and the AP spent.

    `figures`: one entry per human who started the game (survivors first), with `status`
    (standing, down, dead, contaminated, evacuated), the `exit` taken, the wounds taken
    and the zombies put down (`kills`); `zombies_down`: all the zombies put down.
    """
    record = game.export()
    figures = []
    kills: dict[str, int] = {}
    zombies_down = 0
    for fig in game.figures.values():
        if fig.is_zombie and fig.status == "removed" and fig.downed_by:
            zombies_down += 1
            kills[fig.downed_by] = kills.get(fig.downed_by, 0) + 1
    for fig in game.figures.values():
        human = fig.side in ("survivors", "civilians") or bool(fig.origin)
        if not human:
            continue
        status = "contaminated" if fig.origin else fig.status
        lost = fig.wounds if status in ("dead", "contaminated") else fig.wounds - fig.pv
        figures.append({"id": fig.id, "side": "survivors" if fig.origin else fig.side,
                        "status": status, "exit": fig.exit or None,
                        "wounds_taken": max(lost, 0), "kills": kills.get(fig.id, 0),
                        "downed_by": fig.downed_by or None})
    figures.sort(key=lambda f: (f["side"] != "survivors", f["id"]))
    return {"turn": game.turn, "max_turns": game.max_turns, "figures": figures,
            "zombies_down": zombies_down,
            "ap_spent": _spent(record, game.catalog)}
