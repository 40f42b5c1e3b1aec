"""What a person calls a figure, in French and English: its name, and a number where the
name alone does not say which one ("Rôdeur 12" / "Walker 12"; "Lucas").

Ids never reach a person (DESIGN.md), but thirty walkers on a table need telling apart: a
zombie or a civilian carries the number of its id ("z12" -> 12), the number a player paints
or writes on its base; a survivor carries one only when another figure of the game has the
same name. Every message about a figure takes its name from here, and the page shows the
same (`names` in a game's answer).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from i18n import Name

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["figure_name", "figure_names", "number_of"]

_TRAILING = re.compile(r"(\d+)$")
# every figure's name by roster (each figure's id, names and side): kept across states
_ROSTERS: dict[tuple[tuple[str, str, str, str], ...], dict[str, Name]] = {}


def number_of(figure_id: str) -> str:
    """The number at the end of an id ("z12" -> "12"), "" when it ends otherwise."""
    match = _TRAILING.search(figure_id)
    return match.group(1).lstrip("0") or "0" if match else ""


def _numbered(fig: Fig, shared: bool) -> bool:
    return fig.side != "survivors" or shared


def figure_names(game: GameState) -> dict[str, Name]:
    """Every figure's name, by id."""
    counts: dict[str, int] = {}
    for fig in game.figures.values():
        counts[_text(fig.name)] = counts.get(_text(fig.name), 0) + 1
    return {fid: _name(fig, counts[_text(fig.name)] > 1) for fid, fig in game.figures.items()}


def _text(value: object) -> str:
    """A name as text (an imported record may hold anything there)."""
    return value if isinstance(value, str) else str(value)


def figure_name(game: GameState, figure_id: str) -> Name:
    """One figure's name ({"fr", "en"}); an id the game does not hold is named by its number
    alone (a figure removed from a replayed record), never by the id.

    Every figure's name is worked out once per state of the game (`GameState.plans`, emptied when
    something moves), and once per roster (names change only when a figure comes, goes or is
    renamed): notes and the AI's explanations name figures thousands of times."""
    key = ("names", game.version())
    names: dict[str, Name] | None = game.plans.get(key)
    if names is None:
        roster = tuple((fid, _text(f.name), _text(f.name_en or f.name), f.side)
                       for fid, f in game.figures.items())
        names = _ROSTERS.get(roster)
        if names is None:
            names = figure_names(game)
            if len(_ROSTERS) >= 256:
                _ROSTERS.clear()
            _ROSTERS[roster] = names
        game.plans[key] = names
    known = names.get(figure_id)
    if known is not None:
        return known
    fig = game.figures.get(figure_id)
    if fig is None:
        number = number_of(figure_id) or "?"
        return {"fr": f"n° {number}", "en": f"no. {number}"}
    shared = sum(1 for f in game.figures.values() if _text(f.name) == _text(fig.name)) > 1
    return _name(fig, shared)


def _name(fig: Fig, shared: bool) -> Name:
    fr, en = _text(fig.name), _text(fig.name_en or fig.name)
    number = number_of(fig.id) if _numbered(fig, shared) else ""
    if number:
        return {"fr": f"{fr} {number}", "en": f"{en} {number}"}
    return {"fr": fr, "en": en}
