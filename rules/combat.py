"""Attack dice: to hit, the save, and the re-rolls skills give; exact odds from the same code.

One attack die (DESIGN.md): roll 1D6 + modifiers against the target's current D; a hit is a
wound the target may save (survivor in melee 5+, zombie 5+ against shooting, 6+ in melee).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from i18n import Message
from rules.dice import Roll, Rolling, RollKind, distribution, face_needed, succeeds

__all__ = ["Mode", "Outcome", "AttackDie", "attack_die", "odds", "current_defence"]

Mode = Literal["shoot", "melee"]
Outcome = Literal["miss", "saved", "unsaved"]

MIN_DEFENCE = 2  # D11: lowered defence never goes below 2+
_TO_HIT = {"shoot": Message("engine.purpose.shot"), "melee": Message("engine.purpose.melee")}
# with a modifier the roll names the face it needs and the modifier ("hits on 3+ (+1)")
_TO_HIT_MOD = {"shoot": Message("engine.purpose.shot_mod"),
               "melee": Message("engine.purpose.melee_mod")}


def current_defence(printed: int, malus: int) -> int:
    """The target number to hit after moves and panic have lowered the defence."""
    return max(printed - malus, MIN_DEFENCE)


@dataclass(frozen=True)
class AttackDie:
    """Everything that decides one attack die.

    `save` is the number the target needs to cancel the wound (None: no save). `reroll_save`
    is a failed save rolled again (combattant in melee, insensible against shooting);
    `retry_on_save` is the vengeur: when the target saves, the attacker attacks once more.
    """

    mode: Mode
    to_hit: int
    bonus: int = 0
    save: int | None = None
    save_bonus: int = 0
    reroll_save: bool = False
    retry_on_save: bool = False
    attacker: str = ""
    target: str = ""


def attack_die(die: AttackDie) -> Rolling[Outcome]:
    """Resolve one attack die (a generator: see rules.dice)."""
    _, outcome = yield from _attack(die)
    return outcome


def _attack(die: AttackDie) -> Rolling[tuple[bool, Outcome]]:
    """One attack die; also tells whether its first roll hit (for the odds)."""
    retries = 1 if die.retry_on_save else 0
    first_hit: bool | None = None
    while True:
        hits = Message(_TO_HIT[die.mode].code, {"n": die.to_hit}) if die.bonus == 0 else Message(
            _TO_HIT_MOD[die.mode].code, {"n": face_needed(die.to_hit, die.bonus),
                                         "mod": f"{die.bonus:+d}"})
        roll = yield Roll(f"{die.mode} attack vs {die.to_hit}+", die.attacker, hits,
                          kind=RollKind.ATTACK, need=die.to_hit, modifier=die.bonus,
                          ones=die.mode == "shoot")
        hit = succeeds(roll, die.to_hit, die.bonus)
        first_hit = hit if first_hit is None else first_hit
        if not hit:
            return first_hit, "miss"
        if die.save is None:
            return first_hit, "unsaved"
        saved = succeeds((yield Roll(f"save {die.save}+", die.target, Message(
            "engine.purpose.save", {"n": die.save}), kind=RollKind.SAVE, need=die.save,
            modifier=die.save_bonus)), die.save, die.save_bonus)
        if not saved and die.reroll_save:
            again = yield Roll(f"save re-roll {die.save}+", die.target, Message(
                "engine.purpose.save_again", {"n": die.save}), kind=RollKind.SAVE,
                need=die.save, modifier=die.save_bonus, again=True)
            saved = succeeds(again, die.save, die.save_bonus)
        if not saved:
            return first_hit, "unsaved"
        if retries == 0:
            return first_hit, "saved"
        retries -= 1


def odds(die: AttackDie) -> dict[str, Fraction]:
    """Exact chances of one attack die: its roll hits; in the end saved, or unsaved."""
    outcomes = distribution(lambda: _attack(die))
    zero = Fraction(0)
    return {
        "hit": sum((p for (hit, _), p in outcomes.items() if hit), zero),
        "saved": sum((p for (_, end), p in outcomes.items() if end == "saved"), zero),
        "unsaved": sum((p for (_, end), p in outcomes.items() if end == "unsaved"), zero),
    }
