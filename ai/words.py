"""What the AI's messages call things, and an action in words (DESIGN.md: never an id).

Figures by `rules.names` ("Rôdeur 4" / "Walker 4", "Lucas"); the rules' things and the
card's items, exits and zones by their French and English names (`rules.words.thing`,
`rules.words.place`); a move to a point as a distance and a compass direction
(`rules.words.direction`). An action in words is its rule's (`rules.rulebook.action_message`);
`said` joins a choice's messages in one language.
"""

from __future__ import annotations

from collections.abc import Iterable

from i18n import Message, Name, joined
from rules.rulebook import action_message
from rules.words import direction, place, side_name, thing, who

__all__ = ["who", "thing", "place", "side_name", "direction", "action_message", "said",
           "Said"]

Said = Name | Message  # what a message may name a thing with


def said(messages: Iterable[Message], lang: str = "en") -> str:
    """Messages joined in one language ("...; ..." / "... ; ...")."""
    return joined(messages, lang)
