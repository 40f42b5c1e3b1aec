"""Drawing a campaign's scenarios, exactly as the rulebook says (L29-30, D21).

The survivors player rolls 1D6 for each regular scenario in turn, re-rolling any number
already drawn, until only the last scenario is left; then 1D6 on the conclusive table: 1, the
zombie player chooses among the four; 6, the survivors player chooses; 2-5, conclusive card
1-4. Every die is kept in `rolls`, re-rolled ones included.

When a player must choose, `choose(side, options)` is asked; without it the placeholder is the
lowest-numbered conclusive card, and the draw says who still has to choose
(`choice_pending`).

>>> draw = draw_campaign(4, random.Random(1))
>>> len(draw.scenarios)
4
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from geometry.errors import SurviveUsError
from i18n import Message
from rules.dice import Dice, Roll
from scenarios.cards import Card, cards_by_number, load_cards

__all__ = [
    "MIN_LENGTH",
    "MAX_LENGTH",
    "SAVED_MIN_LENGTH",
    "Chooser",
    "CampaignError",
    "DrawRoll",
    "CampaignDraw",
    "draw_campaign",
    "chosen_by",
]

MIN_LENGTH = 3  # "3 (ou plus) scénarii" (L7): two regular scenarios and the conclusive one
SAVED_MIN_LENGTH = 2  # campaigns saved before the rulebook's minimum was enforced still load
MAX_LENGTH = 7  # six regular ones and the conclusive one
ChosenBy = Literal["dice", "zombies", "survivors"]
Chooser = Callable[[str, Sequence[Card]], str]


class CampaignError(SurviveUsError, ValueError):
    code = "invalid_campaign"


@dataclass(frozen=True)
class DrawRoll:
    """One die of the draw: which table, the face, and what it gave."""

    table: Literal["regular", "conclusive"]
    die: int
    scenario: str | None  # None when a player must choose
    rerolled: bool = False  # already drawn: the die is rolled again
    chosen_by: ChosenBy = "dice"

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "die": self.die, "scenario": self.scenario,
                "rerolled": self.rerolled, "chosen_by": self.chosen_by}


@dataclass(frozen=True)
class CampaignDraw:
    """The scenarios in the order they are played; the last is the conclusive one."""

    scenarios: tuple[str, ...]
    final_roll: int
    final_chosen_by: ChosenBy
    rolls: tuple[DrawRoll, ...]
    choice_pending: bool = False  # a player still has to choose the last scenario
    options: tuple[str, ...] = field(default=())  # what they choose from

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "scenarios": list(self.scenarios),
            "final_roll": self.final_roll,
            "final_chosen_by": self.final_chosen_by,
            "rolls": [r.to_json() for r in self.rolls],
            "choice_pending": self.choice_pending,
        }
        if self.final_chosen_by != "dice":
            out["final_choice"] = {
                "by": self.final_chosen_by,
                "options": list(self.options),
                "placeholder": self.choice_pending,
                "default": "the lowest-numbered conclusive scenario, until the player chooses",
            }
        return out


def chosen_by(final_roll: int) -> ChosenBy:
    """Who picks the conclusive scenario for this roll (D21)."""
    return "zombies" if final_roll == 1 else "survivors" if final_roll == 6 else "dice"


def draw_campaign(length: int, rng: random.Random | Dice | None = None, *,
                  cards: Mapping[str, Card] | None = None,
                  choose: Chooser | None = None) -> CampaignDraw:
    """Draw `length` scenarios: `length - 1` regular ones, then the conclusive one.

    `rng` is a `random.Random`, or a `Dice` (to type in the real table's dice).
    """
    if isinstance(length, bool) or not isinstance(length, int) or not (
            MIN_LENGTH <= length <= MAX_LENGTH):
        raise CampaignError(Message("campaign.error.length", {
            "min": MIN_LENGTH, "max": MAX_LENGTH, "length": repr(length)}), "length")
    dice = rng if isinstance(rng, Dice) else Dice(rng=rng or random.Random())
    cards = cards or load_cards()
    regular = cards_by_number(cards, "regular")
    conclusive = cards_by_number(cards, "conclusive")
    rolls: list[DrawRoll] = []
    drawn: list[str] = []
    while len(drawn) < length - 1:
        die = dice.roll(Roll(f"regular scenario {len(drawn) + 1}", words=Message(
            "campaign.roll.regular", {"n": len(drawn) + 1})))
        card = regular[die].id
        again = card in drawn
        rolls.append(DrawRoll("regular", die, card, rerolled=again))
        if not again:
            drawn.append(card)
    final = dice.roll(Roll("conclusive scenario", words=Message("campaign.roll.conclusive")))
    by = chosen_by(final)
    options = tuple(c.id for _, c in sorted(conclusive.items()))
    pending = False
    if by == "dice":
        last = conclusive[final - 1].id
        rolls.append(DrawRoll("conclusive", final, last))
    else:
        choices = [c for _, c in sorted(conclusive.items())]
        if choose is None:
            last, pending = options[0], True
        else:
            last = choose(by, choices)
            if last not in options:
                raise CampaignError(Message("campaign.error.choice", {
                    "options": [{"fr": c.name.fr, "en": c.name.en} for c in choices],
                    "ids": list(options), "got": last}), "choice")
        rolls.append(DrawRoll("conclusive", final, None if pending else last, chosen_by=by))
    return CampaignDraw(tuple([*drawn, last]), final, by, tuple(rolls), pending,
                        options if by != "dice" else ())
