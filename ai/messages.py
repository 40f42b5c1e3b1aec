"""What the AI says, as messages: a stable code and parameters, rendered at the edge.

`Message(code, params)` is what `ai.search` attaches to its choices; `render(message,
lang)` puts it in French or English words. Parameters are figures' names (never ids alone),
inches, and chances between 0 and 1 (named `p_...`, `before`, `after`, `alternative`),
shown as percentages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Message", "TEXTS", "render"]


@dataclass(frozen=True)
class Message:
    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": {
            k: v.to_json() if isinstance(v, Message) else v for k, v in self.params.items()}}


TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "ai.contaminate": "{zombie} contaminates {target}, who is down: one more zombie if "
                          "it works",
        "ai.strike": "{zombie} strikes {target} with {ap} AP: {p_die} a die to wound, "
                     "{p_down} to put {target} down",
        "ai.gang": "{zombies} zombies close on {target} together: {zombie} moves in; "
                   "{target} is {p_fall} likely to fall this turn",
        "ai.engage": "{zombie} moves into contact with {target}: it strikes next",
        "ai.block": "{zombie} moves across {target}'s way, {goal} in from the objective",
        "ai.approach": "{zombie} moves toward {target}: {short} in short after this move",
        "ai.wait": "{zombie} stands still: every step closer puts it under the survivors' "
                   "guns for nothing",
        "ai.guard": "{zombie} moves to guard {place}",
        "ai.move": "{zombie} moves",
        "ai.react": "{zombie} reacts against {target}",
        "ai.decline": "the zombies let the reaction pass",
        "ai.chances": "zombies' chances {after} after this ({before} before); the next best "
                      "choice gives {alternative}",
        "ai.fate.down": "{figure} fell",
        "ai.fate.down_goal": "{figure} fell {goal} in from the objective",
        "ai.fate.dead": "{figure} was killed",
        "ai.fate.out": "{figure} got away",
        "ai.fate.turned": "{figure} was contaminated",
        "ai.fate.turn": "turn {turn} began (the AP were rolled)",
        "ai.fate.action": "{action}",
        "ai.turning": "turn {turn}: {what} (survivors {before} → {after})",
    },
    "fr": {
        "ai.contaminate": "{zombie} contamine {target}, à terre : un zombie de plus si ça "
                          "marche",
        "ai.strike": "{zombie} frappe {target} avec {ap} PA : {p_die} par dé de blesser, "
                     "{p_down} de mettre {target} à terre",
        "ai.gang": "{zombies} zombies se referment ensemble sur {target} : {zombie} avance ; "
                   "{target} a {p_fall} de risque de tomber ce tour",
        "ai.engage": "{zombie} vient au contact de {target} : il frappe ensuite",
        "ai.block": "{zombie} se met en travers du chemin de {target}, à {goal} pouces de "
                    "l'objectif",
        "ai.approach": "{zombie} avance vers {target} : encore {short} pouces après ce "
                       "mouvement",
        "ai.wait": "{zombie} reste sur place : chaque pas de plus le mettrait sous le feu "
                   "des survivants pour rien",
        "ai.guard": "{zombie} va garder {place}",
        "ai.move": "{zombie} se déplace",
        "ai.react": "{zombie} réagit contre {target}",
        "ai.decline": "les zombies laissent passer la réaction",
        "ai.chances": "chances des zombies : {after} après ceci ({before} avant) ; le "
                      "meilleur autre choix donne {alternative}",
        "ai.fate.down": "{figure} est tombé",
        "ai.fate.down_goal": "{figure} est tombé à {goal} pouces de l'objectif",
        "ai.fate.dead": "{figure} a été tué",
        "ai.fate.out": "{figure} s'est échappé",
        "ai.fate.turned": "{figure} a été contaminé",
        "ai.fate.turn": "le tour {turn} a commencé (les PA ont été tirés)",
        "ai.fate.action": "{action}",
        "ai.turning": "tour {turn} : {what} (survivants {before} → {after})",
    },
}


CHANCES = ("before", "after", "alternative")


def _value(key: str, v: Any, lang: str) -> str:
    """A chance (a `p_` parameter, or before/after/alternative) as a percentage; other
    numbers as inches to one decimal; a message inside a message in the same language."""
    if isinstance(v, Message):
        return render(v, lang)
    if isinstance(v, float) and (key.startswith("p_") or key in CHANCES):
        pct = f"{v:.0%}"
        return pct.replace("%", "\u202f%") if lang == "fr" else pct
    if isinstance(v, float):
        return f"{v:.1f}".replace(".", ",") if lang == "fr" else f"{v:.1f}"
    return str(v)


def render(message: Message, lang: str = "en") -> str:
    """The message in words; an unknown code shows as itself (never an empty line)."""
    texts = TEXTS.get(lang, TEXTS["en"])
    template = texts.get(message.code)
    if template is None:
        return message.code
    return template.format(**{k: _value(k, v, lang) for k, v in message.params.items()})
