"""The zombies' chance to win from a position, learned from simulated games.

A gradient-boosted model (LightGBM, trained by `python -m ai.train_eval`) reads the numbers
of `ai.features` and gives the probability that the zombies win the game from here, played
on by the players it was trained on. It ships as a text file beside this module
(`ai/data/evaluation.txt`) with its data card (`ai/data/evaluation.json`: the games and seeds
it learned from, the features, the calibration on held-out games). A finished game's chance
is its result, not a guess.

The look-ahead (`ai.search`) scores its leaves with it; the page shows it as the
survivors' chances (`chances`).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ai.features import NAMES, Goals, features

if TYPE_CHECKING:
    from rules.game import Game

__all__ = ["Evaluation", "EvaluationError", "MODEL", "DATA_CARD", "evaluation", "chances"]

DATA = Path(__file__).parent / "data"
MODEL = DATA / "evaluation.txt"
DATA_CARD = DATA / "evaluation.json"


class EvaluationError(RuntimeError):
    """The model file is missing, unreadable, or made for other features."""


class Evaluation:
    """A trained model: `zombies_win(games)` gives one probability per game."""

    def __init__(self, path: Path = MODEL) -> None:
        import lightgbm

        try:
            text = path.read_text(encoding="utf-8")
            self.booster = lightgbm.Booster(model_str=text)
        except (OSError, UnicodeDecodeError, lightgbm.basic.LightGBMError) as exc:
            raise EvaluationError(f"cannot load the evaluation model {path}: {exc}") from exc
        names = tuple(self.booster.feature_name())
        if names != NAMES:
            missing = sorted(set(NAMES) - set(names))
            extra = sorted(set(names) - set(NAMES))
            raise EvaluationError(
                f"the evaluation model {path} was trained on other features (missing "
                f"{missing or 'none'}, unknown {extra or 'none'}): train it again with "
                f"`python -m ai.train_eval`")
        self.path = path

    def predict(self, rows: np.ndarray) -> np.ndarray:
        """P(zombies win) for each row of feature numbers."""
        if not len(rows):
            return np.zeros(0)
        out = self.booster.predict(rows, num_threads=1)
        return np.asarray(out, dtype=float)

    def zombies_win(self, games: list[Game], known: Goals | None = None) -> np.ndarray:
        """P(zombies win) from each position; 1 or 0 for a finished game (0.5 a draw).
        `known`: the survivors' goals read on a nearby position (`ai.features.goals_of`)."""
        result = np.zeros(len(games))
        todo = [i for i, g in enumerate(games) if g.outcome is None]
        for i, g in enumerate(games):
            if g.outcome is not None:
                winner = g.outcome["winner"]
                result[i] = 1.0 if winner == "zombies" else 0.5 if winner == "draw" else 0.0
        if todo:
            rows = np.array([features(games[i], known) for i in todo], dtype=float)
            result[todo] = self.predict(rows)
        return result


@functools.lru_cache(maxsize=1)
def evaluation() -> Evaluation:
    """The shipped model, loaded once."""
    return Evaluation()


def data_card() -> dict[str, Any]:
    """What the shipped model learned from and how well it is calibrated."""
    return dict(json.loads(DATA_CARD.read_text(encoding="utf-8")))


def chances(game: Game) -> dict[str, float]:
    """Each side's chance to win from here, as the shipped model reads the position."""
    p = float(evaluation().zombies_win([game])[0])
    return {"zombies": p, "survivors": 1.0 - p}
