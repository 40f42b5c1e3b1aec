"""What an action's rule is: one object per action type, holding its cost, its check, its
listing, its resolution and its words (models: botbowl's procedures, OpenSpiel's state).

A figure's action (`ActionRule`) is checked once the figure may act at all
(`rules.activity`): `check` refuses with the rule it breaks and what to do instead; its
`candidates` are the actions of its kind that the listing offers (each then checked, unless
the rule's candidates are legal as made, `listed_legal`); `resolve` carries it out once its
AP are paid. A side's action (`TurnRule`: pass, end the activations, let a window pass)
belongs to no figure. `rules.rulebook` finds the rule by the action's class.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from i18n import Message
from rules import words
from rules.actions import Action
from rules.errors import IllegalActionError, missing_figure

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState

__all__ = ["ActionRule", "TurnRule", "Listing", "A", "friend", "refuse"]

A = TypeVar("A", bound=Action)


def refuse(message: Message, where: str = "action") -> IllegalActionError:
    """A refusal naming the rule broken."""
    return IllegalActionError(message, where)


@dataclass(frozen=True)
class Listing:
    """What one figure's listing knows: its side's pool, the most AP one of its actions may
    take now (`budget`), and its enemies on the table, nearest first."""

    pool: int
    budget: int
    enemies: tuple[tuple[float, Fig], ...]


class ActionRule(Generic[A]):
    """The rule of one type of figure action. Subclasses set `action` and override what
    their action needs; the defaults are a 1-AP action that is never listed."""

    action: ClassVar[type[Action]]
    kind: ClassVar[str] = ""  # what the listing calls it ("move", "melee"...; "" unlisted)
    zombies: ClassVar[bool] = False  # a zombie may take it
    heroic: ClassVar[bool] = True  # a down Héroïque may take it (for 1 AP)
    listed_legal: ClassVar[bool] = False  # its candidates are legal as made: no check

    def cost(self, game: GameState, act: A) -> int:
        """AP the action takes from its side's pool."""
        return 1

    def check_turn(self, game: GameState, act: A) -> None:
        """Refuse the action in the side's own turn (no window open) when only a window
        allows it, or return quietly."""

    def check(self, game: GameState, fig: Fig, act: A) -> None:
        """Refuse the action with the rule it breaks, or return quietly."""

    def candidates(self, game: GameState, fig: Fig, listing: Listing) -> Iterable[Action]:
        """The actions of this rule's kind the listing offers `fig` (checked by the
        caller): its own type's, or those it lists with them (crates and items)."""
        return ()

    def resolve(self, game: GameState, fig: Fig, act: A) -> None:
        """Carry the action out (its AP are paid)."""
        raise NotImplementedError

    def words(self, game: GameState, act: A) -> Message:
        """The action in words: who does what to whom."""
        raise NotImplementedError


class TurnRule(ActionRule[A]):
    """The rule of a side's action (pass, end its activations, let a window pass): it costs
    nothing and names no figure; `rules.rulebook` checks whether the side may take it."""

    def cost(self, game: GameState, act: A) -> int:
        return 0

    def resolve(self, game: GameState, fig: Fig, act: A) -> None:
        """Nothing for a figure to do."""

    def resolve_turn(self, game: GameState, act: A) -> None:
        """Carry the action out in the side's own turn."""
        raise NotImplementedError


def friend(game: GameState, fig: Fig, target_id: str) -> Fig:
    """A friend of `fig` (its band's) on the table and in base contact, or itself."""
    target = game.figures.get(target_id)
    if target is None or not target.on_table:
        raise missing_figure(game, target_id, "action.target")
    if target.side != "survivors" or target.band != fig.band:
        raise refuse(Message("refusal.not_a_friend", {"who": words.who(game, fig),
                                                    "target": words.who(game, target)}),
                   "action.target")
    if target.id != fig.id and not game.in_contact(fig.id, target.id):
        raise refuse(Message("refusal.not_in_contact", {
            "who": words.who(game, fig), "target": words.who(game, target),
            "d": game.distance(fig.id, target.id)}), "action.target")
    return target
