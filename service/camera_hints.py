"""What a game tells the camera about its bases: each side's sizes and each base's height.

The sizes: colour mode looks for the figures' own `base_mm` and, beside them, every common
size, because a card's set-up gives every figure 25 mm whatever base stands on the real table
(nothing yet lets a player set a band's base size), and a size the game does not know must not
hide a figure. The heights come from the game's camera settings, set by the player per side
(a band's bases are usually all alike) or per figure, so the parallax correction lifts each
tag by its own base. A height nobody set stays the default guess, and the camera widens its
uncertainty to cover the usual range (vision/hints.py).

Camera settings (`PUT .../camera`):
``"base_height_mm": {"survivors": 4.0, "zombies": 3.0}`` (per side, any subset) and
``"figure_base_height_mm": {"z3": 5.0}`` (per figure id, over its side's).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from i18n import Message
from rules.game import Game
from vision.hints import COMMON_BASE_MM, FigureHints


class HeightError(ValueError):
    """A base height in the camera settings that cannot be used: `words` says why, `where`
    names the field (``base_height_mm.zombies``)."""

    def __init__(self, words: Message, where: str) -> None:
        super().__init__(words.text("en"))
        self.words = words
        self.where = where


def check_heights(game: Game, per_figure: Mapping[str, Any] | None) -> None:
    """Refuse a figure this game does not hold. The sides and the range of a height are the
    request schema's to check (`service.api.frames.CameraIn`)."""
    for key in per_figure or {}:
        if key not in game.figures:
            where = f"figure_base_height_mm.{key}"
            raise HeightError(Message("camera.api.no_figure", {"where": where, "figure": key}),
                              where)


def hints_for(game: Game, settings: Mapping[str, Any]) -> FigureHints:
    """The hints for a frame of `game` under its camera `settings` (as stored)."""
    sizes: dict[str, set[float]] = {}
    for fig in game.figures.values():
        if fig.on_table:
            sizes.setdefault(fig.side, set()).add(float(fig.base_mm))
    per_side: Mapping[str, float] = settings.get("base_height_mm") or {}
    per_figure: Mapping[str, float] = settings.get("figure_base_height_mm") or {}
    by_tag: dict[int, float] = {}
    for tag, figure_id in (settings.get("tags") or {}).items():
        tagged = game.figures.get(figure_id)
        if tagged is None:
            continue
        height = per_figure.get(figure_id, per_side.get(tagged.side))
        if height is not None:
            by_tag[int(tag)] = float(height)
    return FigureHints(base_mm={side: tuple(sorted(v | set(COMMON_BASE_MM)))
                                for side, v in sizes.items()},
                       height_mm_by_tag=by_tag,
                       height_mm_by_side={side: float(h) for side, h in per_side.items()})
