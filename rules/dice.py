"""Dice: D6 results from a seeded RNG or typed in from the real table, and exact odds.

Rules that roll are written as generators that *yield* a `Roll` and receive the value. The
game drives them with real dice (`Dice`); `odds` drives the very same generator over every
possible value to get exact probabilities, so the odds shown are the rules played, never a
second formula.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol, TypeVar

from geometry.errors import SurviveUsError
from i18n import Message

__all__ = [
    "Roll",
    "Rolling",
    "Dice",
    "NeedDice",
    "DiceError",
    "succeeds",
    "face_needed",
    "drive",
    "distribution",
]

T = TypeVar("T")


@dataclass(frozen=True)
class Roll:
    """A request for one D6, with what it is for: `purpose` in English (for programs and the
    record), `words` the same for a person (a message), and whose die it is."""

    purpose: str
    figure: str = ""
    words: Message | None = field(default=None, compare=False)


Rolling = Generator[Roll, int, T]


class NeedDice(SurviveUsError):
    """More dice are needed than were typed in and there is no RNG to roll them."""

    code = "need_dice"


class DiceError(SurviveUsError, ValueError):
    code = "invalid_dice"


class _RandomLike(Protocol):
    def randint(self, a: int, b: int) -> int: ...


def succeeds(value: int, target: int, modifier: int = 0) -> bool:
    """A D6 roll against `target`+: a natural 1 always fails, a natural 6 always succeeds."""
    if value == 1:
        return False
    if value == 6:
        return True
    return value + modifier >= target


def face_needed(target: int, modifier: int = 0) -> int:
    """The lowest face that succeeds against `target` with `modifier` (2 to 6: a natural 1
    always fails and a 6 always succeeds): what a player looks for on the die."""
    return next(face for face in range(2, 7) if succeeds(face, target, modifier))


@dataclass
class Dice:
    """Where D6 results come from: typed-in values first, then the RNG (if any).

    Every value handed out is recorded in `rolled` with its purpose, so the game log can
    replay it exactly.
    """

    rng: _RandomLike | None = None
    typed: list[int] = field(default_factory=list)
    rolled: list[tuple[Roll, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.typed = [_check(v, f"dice[{i}]") for i, v in enumerate(self.typed)]

    @classmethod
    def seeded(cls, seed: int) -> Dice:
        return cls(rng=random.Random(seed))

    @classmethod
    def fixed(cls, values: Iterable[int]) -> Dice:
        return cls(rng=None, typed=list(values))

    def roll(self, request: Roll) -> int:
        if self.typed:
            value = self.typed.pop(0)
        elif self.rng is not None:
            # an RNG may draw each kind of roll from its own stream (the AI's look-ahead
            # keeps the turn's AP dice apart from the fight's, so two lines it compares
            # meet the same AP rolls)
            per_roll = getattr(self.rng, "roll_for", None)
            value = int(per_roll(request)) if per_roll is not None else int(
                self.rng.randint(1, 6))
        else:
            raise NeedDice(Message("refusal.need_die_side", {
                "purpose": request.words or request.purpose}), request.purpose)
        self.rolled.append((request, value))
        return value


def _check(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise DiceError(Message("refusal.bad_die", {"value": str(value)}), where)
    return value


class Roller(Protocol):
    def roll(self, request: Roll) -> int: ...


def drive(rolling: Rolling[T], dice: Roller) -> T:
    """Run a rolling rule to its end with real dice."""
    try:
        request = next(rolling)
        while True:
            request = rolling.send(dice.roll(request))
    except StopIteration as done:
        result: T = done.value
        return result


def distribution(make: Callable[[], Rolling[T]]) -> dict[T, Fraction]:
    """Exact outcome probabilities of a rolling rule, by running it on every dice sequence."""
    out: dict[T, Fraction] = {}

    def explore(prefix: list[int], weight: Fraction) -> None:
        rolling = make()
        try:
            next(rolling)
            for value in prefix:
                rolling.send(value)
        except StopIteration as done:
            out[done.value] = out.get(done.value, Fraction(0)) + weight
            return
        for value in range(1, 7):
            explore([*prefix, value], weight / 6)

    explore([], Fraction(1))
    return out
