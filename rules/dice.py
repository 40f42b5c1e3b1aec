"""Dice: D6 results from a seeded RNG or typed in from the real table, and exact odds.

Every die the engine asks for is a `Roll`: a typed request saying what it is for (its
`kind`, a `RollKind`), whose die it is, and, for a test against a number, the face it needs,
so that its outcomes and their exact chances are known before it is rolled
(`Roll.outcomes`: the six faces; `Roll.groups`: the faces the rules treat alike). A search
may branch on them or sample them: `NeedDice` carries the request the engine stopped at
when it ran out of dice (`rules.game.Game.apply` with typed dice and no RNG), and an RNG
with a `roll_for(request)` method draws each kind from its own stream.

Rules that roll are written as generators that *yield* a `Roll` and receive the value. The
game drives them with real dice (`Dice`); `odds` drives the very same generator over every
possible value to get exact probabilities, so the odds shown are the rules played, never a
second formula.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Protocol, TypeVar

from geometry.errors import SurviveUsError
from i18n import Message

__all__ = [
    "RollKind",
    "Roll",
    "FACES",
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


FACES = (1, 2, 3, 4, 5, 6)
_SIXTH = Fraction(1, 6)


class RollKind(Enum):
    """What a die is rolled for: a search or a simulator tells the dice apart by this,
    never by their English purpose."""

    ACTION_POINTS = "action_points"  # a side's (or a band's) AP for the turn, a re-roll too
    ATTACK = "attack"  # one attack die: shooting, throwing or melee, to hit
    SAVE = "save"  # the target's save against a hit (friendly fire's too)
    PANIC = "panic"  # a panic test
    INTELLIGENCE = "intelligence"  # an Intelligence test to open a crate
    LOOT = "loot"  # what an opened crate holds
    CONTAMINATION = "contamination"  # a zombie's roll to contaminate a down survivor
    RESIST = "resist"  # the survivor's roll to resist a contamination
    SCENARIO = "scenario"  # a scenario card's own roll (end of the scenario, reinforcements)
    MODULE = "module"  # an optional rule module's roll (barricade, ally, token, noise)
    SETUP = "setup"  # setting a scenario up (weather, crates, deployment)
    CAMPAIGN = "campaign"  # the campaign's draws, consequences and recoveries


@dataclass(frozen=True)
class Roll:
    """A request for one D6, with what it is for: `purpose` in English (for programs and the
    record), `words` the same for a person (a message), whose die it is, and its `kind`.

    A test against a number gives it: `need` (the roll succeeds on `need`+ with `modifier`
    added, a natural 1 failing and a 6 succeeding, as `succeeds`), and `ones` when a natural
    1 does something of its own (a shot's friendly fire). `again` marks a re-roll."""

    purpose: str
    figure: str = ""
    words: Message | None = field(default=None, compare=False)
    kind: RollKind = field(default=RollKind.SCENARIO, compare=False)
    need: int | None = field(default=None, compare=False)
    modifier: int = field(default=0, compare=False)
    ones: bool = field(default=False, compare=False)
    again: bool = field(default=False, compare=False)

    def outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        """Every face with its exact chance (a fair D6: 1/6 each)."""
        return tuple((face, _SIXTH) for face in FACES)

    def success_chance(self) -> Fraction | None:
        """The exact chance a test succeeds (None for a roll whose face is read as it is)."""
        if self.need is None:
            return None
        return Fraction(sum(succeeds(f, self.need, self.modifier) for f in FACES), 6)

    def groups(self) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
        """The faces the rules treat alike, with their chance: a test's failures and its
        successes (a natural 1 apart when it does something of its own); every face on its
        own for a roll read as it is (action points, loot). Faces of a group play the same
        game; only the notes say which face it was. A search branches on one face of each."""
        if self.need is None:
            return tuple(((face,), _SIXTH) for face in FACES)
        keyed: dict[tuple[bool, bool], list[int]] = {}
        for face in FACES:
            key = (succeeds(face, self.need, self.modifier), self.ones and face == 1)
            keyed.setdefault(key, []).append(face)
        return tuple((tuple(faces), Fraction(len(faces), 6)) for faces in keyed.values())


Rolling = Generator[Roll, int, T]


class NeedDice(SurviveUsError):
    """More dice are needed than were typed in and there is no RNG to roll them: `request`
    is the roll the engine asked for (its kind and outcomes), when known."""

    code = "need_dice"

    def __init__(self, message: Message | str, where: str = "", *,
                 request: Roll | None = None) -> None:
        super().__init__(message, where)
        self.request = request


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
                "purpose": request.words or request.purpose}), request.purpose,
                request=request)
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
