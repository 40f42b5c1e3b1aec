"""The hooks a scenario uses to referee a game: objectives, exits, weather, special actions.

The rules engine knows no scenario (scenarios depend on rules, not the reverse). A scenario
gives the game a `Referee`; the game asks it at fixed moments. Referees are registered by
name so that a saved game (plain JSON) can be rebuilt with its referee.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from i18n import Message
from rules.errors import IllegalActionError

if TYPE_CHECKING:
    from rules.actions import Action, Special
    from rules.catalog import Catalog
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["Referee", "register", "rebuild"]


class Referee(Protocol):
    """What a scenario decides. Every method has a plain-game answer in `rules.game`.

    Words for people are messages (`i18n.Message`): `game.finish` and `move_limit` take
    one, and a referee that has `exit_name(exit_id)` (a {"fr", "en"} name or a message) gets
    its exits named in the notes and refusals (`rules.words.exit_name`)."""

    name: str

    def to_json(self) -> dict[str, Any]:
        """The referee's own state (counts, events...), plain JSON."""
        ...

    def catalog(self, base: Catalog) -> Catalog:
        """The rules data the game plays with: `base`, plus the card's own items (fuel,
        medicine) so they can be carried like equipment."""
        ...

    def check(self, game: GameState) -> None:
        """After every activation: end the game (`game.finish`) if an objective says so."""
        ...

    def turn_ended(self, game: GameState) -> None:
        """At the end of each turn: reinforcements, the card's end roll, its turn limit."""
        ...

    def exits(self, game: GameState, fig: Fig) -> list[str]:
        """The exits `fig` may leave the table by now (its base touching their edge)."""
        ...

    def range_factor(self, game: GameState) -> float:
        """Weather: shooting ranges are multiplied by this."""
        ...

    def sight_limit(self, game: GameState) -> tuple[float, Message] | None:
        """Weather and the dark: the longest line of sight, edge to edge, and its words
        ("Fog: no line of sight beyond 12 in"); None when the weather sets no limit."""
        ...

    def lit_zones(self, game: GameState) -> list[list[list[float]]]:
        """Polygons where a figure is seen from any distance despite `sight_limit`."""
        ...

    def sight_veto(self, game: GameState, shooter: Fig, target: Fig, distance: float
                   ) -> Message | None:
        """Why the shooter cannot pick out a target it has a line of sight to, `distance`
        away (fog, night, unless the target stands in the light), or None when it can. The
        engine and the page's sight tool both ask this, so they never disagree."""
        ...

    def pool_dice(self, game: GameState, side: str) -> int:
        """How many more AP dice `side` rolls this turn (night falls: the zombies' extra die)."""
        ...

    def move_limit(self, game: GameState, fig: Fig, route: tuple[tuple[float, float], ...]
                   ) -> tuple[float, str | Message] | None:
        """How far along `route` (its base centre's) `fig` may move, and why (best a
        message, shown to the player); None: no limit (a dark building stops a survivor
        entering it, a taken-over one keeps it out)."""
        ...

    def may_contaminate(self, game: GameState, zombie: Fig, target: Fig) -> bool:
        """Whether a zombie that put `target` down may try to contaminate it."""
        ...

    def special_actions(self, game: GameState, fig: Fig) -> list[Action]:
        """The card's own actions open to `fig` now (treat the sick, free a prisoner...)."""
        ...

    def special_cost(self, game: GameState, act: Special) -> int:
        ...

    def check_special(self, game: GameState, fig: Fig, act: Special) -> None:
        """Refuse with IllegalActionError, naming the rule, or return."""
        ...

    def do_special(self, game: GameState, fig: Fig, act: Special) -> None:
        ...


Factory = Callable[[dict[str, Any]], Referee]
_FACTORIES: dict[str, Factory] = {}


def register(name: str, factory: Factory) -> None:
    """Make referees called `name` rebuildable from their JSON state."""
    _FACTORIES[name] = factory


def rebuild(data: dict[str, Any]) -> Referee:
    name = data.get("name")
    if name not in _FACTORIES:
        raise IllegalActionError(Message("refusal.referee_not_loaded", {"name": str(name)}),
                                 "referee")
    return _FACTORIES[name](data)
