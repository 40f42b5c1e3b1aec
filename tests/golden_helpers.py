"""Golden games: small hand-made scenes played with fixed dice, every state checked.

`start(...)` builds a game on an open 80 cm table (or with the given terrain) whose first
turn's AP are rolled from the dice given; there is no RNG after that. `Golden` plays it step
by step: each step gets exactly the dice it rolls (one die fewer must raise NeedDice and leave
the game untouched), and `finish()` checks that the exported record replays to the same state
and that undo walks back through every state seen. A step's notes are messages: the step
returns them in English words (`english`), and a refusal must be a message too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from i18n import note_text
from i18n.message import is_message
from rules.actions import Action
from rules.catalog import load_catalog
from rules.dice import NeedDice
from rules.errors import IllegalActionError
from rules.figures import Fig, survivor_from_member, zombie_of
from rules.game import Game
from rules.settings import Settings
from rules.warband import Member

__all__ = ["CAT", "R", "TABLE", "TOUCH", "Golden", "at", "d", "door", "english", "start",
           "survivor", "wall", "zombie"]

CAT = load_catalog()
TABLE = 31.4961
R = 25 / 25.4 / 2  # radius of a 25 mm base, in inches
TOUCH = 2 * R + 0.01  # centre to centre distance of two 25 mm bases in contact


def survivor(fid: str, archetype: str, x: float, y: float, skill: str | None = None,
             items: dict[str, int] | None = None, sex: str | None = None,
             **changes: Any) -> Fig:
    """A band member of `archetype` at (x, y); `changes` overwrite Fig fields (pv, panic...)."""
    member = Member(id=fid, archetype=archetype, skill=skill, equipment=items or {},
                    sex=sex)  # type: ignore[arg-type]
    fig = survivor_from_member(member, CAT, x, y)
    for name, value in changes.items():
        setattr(fig, name, value)
    return fig


def zombie(fid: str, kind: str, x: float, y: float) -> Fig:
    return zombie_of(kind, fid, CAT, x, y)


def wall(wid: str, a: tuple[float, float], b: tuple[float, float]) -> dict[str, Any]:
    return {"id": wid, "kind": "wall", "line": [list(a), list(b)], "thickness": 0.25}


def door(did: str, a: tuple[float, float], b: tuple[float, float],
         open_: bool = False) -> dict[str, Any]:
    return {"id": did, "kind": "door", "line": [list(a), list(b)], "thickness": 0.25,
            "open": open_}


def start(figures: Sequence[Fig], dice: Iterable[int], *, terrain: Sequence[dict[str, Any]] = (),
          max_turns: int = 6, **settings: Any) -> Game:
    """A game whose first turn's AP dice are `dice` (survivors' die, zombies' two dice...)."""
    scene = {"terrain": [dict(t) for t in terrain], "figures": []}
    return Game.new(scene, figures, start_dice=dice, settings=Settings.from_json(settings),
                    max_turns=max_turns)


def windows(game: Game) -> list[dict[str, Any]]:
    """The game's open windows as their records keep them."""
    return [w.to_json() for w in game.pending]


def english(notes: Sequence[Any], lang: str = "en") -> list[str]:
    """Log notes in words; each must be a message (a code and parameters), not text."""
    for note in notes:
        assert is_message(note), f"a note in English text, not a message: {note!r}"
    return [note_text(n, lang) for n in notes]


def at(game: Game, fid: str) -> tuple[float, float]:
    f = game.figures[fid]
    return (round(f.x, 2), round(f.y, 2))


def d(game: Game, a: str, b: str) -> float:
    return game.distance(a, b)


class Golden:
    """A game played step by step with exact dice; every state kept to check undo and replay.

    Each step is first tried with its last die missing: that must raise NeedDice and leave
    the game untouched. Then it is applied with all its dice, which must all be used.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.states = [game.to_json()]

    def __call__(self, action: Action | dict[str, Any], dice: Sequence[int] = ()) -> list[str]:
        game = self.game
        if dice:
            before = game.to_json()
            with pytest.raises(NeedDice):
                game.apply(action, dice=list(dice[:-1]))
            assert game.to_json() == before
        notes = game.apply(action, dice=list(dice))
        assert game.log[-1]["dice"] == list(dice), "every die given is used"
        self.states.append(game.to_json())
        return english(notes)

    def refused(self, action: Action | dict[str, Any], match: str,
                error: type[Exception] = IllegalActionError, code: str | None = None) -> None:
        """The action is refused with a message (`code`, if given) whose English words
        match `match`, and the game is left untouched."""
        before = self.game.to_json()
        with pytest.raises(error, match=match) as caught:
            self.game.apply(action, dice=[])
        words = getattr(caught.value, "words", None)
        assert words is not None, f"a refusal in English text, not a message: {caught.value}"
        if code is not None:
            assert words.code == code
        assert self.game.to_json() == before

    def finish(self) -> None:
        """Replay gives the same game; undo walks back through every state kept."""
        game = self.game
        again = Game.replay(game.export())
        assert again.to_json() == game.to_json()
        assert again.log == game.log
        for state in reversed(self.states[:-1]):
            game.undo()
            assert game.to_json() == state
