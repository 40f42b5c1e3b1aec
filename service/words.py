"""Words the HTTP service and the command line share: what they call a stored thing, a
figure's status, a side; and the rule for data that carries its words beside its text.

Data from the other layers says a text both ways: `K` (English, as it always did) and
`K_words`, the same as a message (a code and its parameters); an error or a roster problem
says its `message` as `words`, a campaign's effect its `text`, a game's outcome its
`reason`, a set-up roll its `purpose`. `said(data, key, lang)` gives
the text in `lang` when the words are there, else the text as it is (a record written
before messages had codes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from i18n import Message, render
from i18n.message import is_message

__all__ = ["say", "said", "localized", "stored", "status_word", "side_word", "NONE"]

NONE = Message("service.none")
_MAIN = ("message", "text", "reason", "purpose")  # the text a `words` beside them says
_STATUS = {"standing": Message("status.standing"), "down": Message("status.down"),
           "dead": Message("status.dead"), "contaminated": Message("status.contaminated"),
           "evacuated": Message("status.evacuated"), "removed": Message("status.removed"),
           "absent": Message("status.absent"), "panicked": Message("status.panicked"),
           "resting": Message("status.resting"), "shaken": Message("status.shaken"),
           "alive": Message("cli.status.alive"), "lost": Message("cli.status.lost")}
_SIDES = {"survivors": Message("side.survivors"), "zombies": Message("side.zombies"),
          "civilians": Message("side.civilians"), "draw": Message("side.draw"),
          "A": Message("side.A"), "B": Message("side.B")}


def say(value: Any, lang: str) -> str:
    """A message (or its JSON), a name in both languages, or text, in `lang`."""
    if isinstance(value, Message) or is_message(value):
        return render(value, lang)
    if isinstance(value, Mapping) and value and set(value) <= {"fr", "en"}:
        return str(value.get(lang) or value.get("en") or next(iter(value.values())))
    return "" if value is None else str(value)


def said(data: Mapping[str, Any], key: str, lang: str) -> str:
    """`data[key]` in `lang`: its words (`key_words`, or `words` for a `message`) when the
    data has them, else its text."""
    words = data.get(f"{key}_words")
    if words is None and key in _MAIN:
        words = data.get("words")
    if words is not None and (isinstance(words, Message) or is_message(words)):
        return render(words, lang)
    return say(data.get(key), lang)


def localized(data: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """A copy of `data` whose texts that have words are said in `lang` (the words stay)."""
    out = dict(data)
    for key in data:
        if key.endswith("_words") and key[:-6] in data:
            out[key[:-6]] = said(data, key[:-6], lang)
    for key in _MAIN:
        if "words" in data and key in data:
            out[key] = said(data, key, lang)
    return out


def stored(kind: str, row_id: str) -> Message:
    """A stored thing as an error names it: 'this game' / 'cette partie' (its id is in the
    request's path, and kept in the message's parameters for programs)."""
    if kind == "campaign":
        return Message("service.thing.campaign", {"id": row_id})
    if kind == "roster":
        return Message("service.thing.roster", {"id": row_id})
    return Message("service.thing.game", {"id": row_id})


def status_word(status: str) -> Message | str:
    """A figure's or a member's status in words ('à terre' / 'down')."""
    return _STATUS.get(status, status)


def side_word(side: str) -> Message | str:
    """A side in words ('Survivants' / 'Survivors')."""
    return _SIDES.get(side, side)
