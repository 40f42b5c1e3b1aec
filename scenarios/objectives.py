"""What each side must achieve: the conditions of the scenario cards, as checkable data.

A card's `objectives.survivors` and `objectives.zombies` each list conditions (all or any of
them must hold when the scenario ends); `objectives.ends_when` lists conditions that end the
scenario at once, checked after every activation. In TOML:

    conditions = [{ type = "exit", exit = "far_edge", at_least = "half" }]

Counting words: `at_least = "half"` means half of the group at the start of the scenario,
rounded up (5 survivors: 3); `"all"` means all of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from i18n import Message
from scenarios import words
from scenarios.schema import Range, Ref, Tagged

if TYPE_CHECKING:
    from scenarios.cards import Card

__all__ = [
    "Count",
    "Condition",
    "KillAll",
    "HoldZone",
    "Exit",
    "Escort",
    "Reach",
    "SurviveTurns",
    "Carry",
    "Heal",
    "OpenCrates",
    "Free",
    "TakeOut",
    "KillCivilians",
    "Contaminate",
    "ZombiesInZone",
    "SurvivorsFail",
    "Event",
    "count_needed",
]

Count = Annotated[int, Range(1)] | Literal["half", "all"]
Who = Literal["survivors", "civilians"]


def count_needed(count: Count, total: int) -> int:
    """How many `count` asks for out of `total`: "half" is rounded up (D22)."""
    if count == "all":
        return total
    if count == "half":
        return (total + 1) // 2
    return count


@dataclass(frozen=True)
class Condition(Tagged):
    """One checkable condition; `words(card)` is what a player reads (a message naming the
    card's zones, exits, items and groups), `describe()` its (French, English) wording with
    ids, for the generated docs."""

    def describe(self) -> tuple[str, str]:
        """(French, English) one-line wording."""
        raise NotImplementedError

    def words(self, card: Card) -> Message:
        """The condition as a player reads it, in either language."""
        raise NotImplementedError


def _group(count: Count, who: Message) -> Message:
    """How many of a group a condition counts: "au moins la moitié des survivants"."""
    if count == "half":
        return Message("scenario.group.half", {"who": who})
    if count == "all":
        return Message("scenario.group.all", {"who": who})
    if count == 1:
        return Message("scenario.group.one", {"who": who})
    return Message("scenario.group.n", {"n": count, "who": who})


def _civilians(card: Card, group: str) -> Message:
    return Message("scenario.who.group", {"group": words.group(card, group)})


def _count_words(count: Count) -> tuple[str, str]:
    if count == "half":
        return "au moins la moitié", "at least half"
    if count == "all":
        return "tous", "all"
    return f"au moins {count}", f"at least {count}"


@dataclass(frozen=True)
class KillAll(Condition):
    """No zombie is left on the table (reinforcements still to come do not count)."""

    type: ClassVar[str] = "kill_all"

    def describe(self) -> tuple[str, str]:
        return "plus aucun zombie sur la table", "no zombie left on the table"

    def words(self, card: Card) -> Message:
        return Message("scenario.cond.kill_all")

@dataclass(frozen=True)
class HoldZone(Condition):
    """At the end: at least `survivors_at_least` standing survivors (base centre) in the zone
    and at most `zombies_at_most` zombies in it."""

    type: ClassVar[str] = "hold_zone"
    zone: Annotated[str, Ref("zone")]
    survivors_at_least: Annotated[int, Range(1)] = 1
    zombies_at_most: Annotated[int, Range(0)] = 0

    def describe(self) -> tuple[str, str]:
        return (
            f"au moins {self.survivors_at_least} survivant(s) debout dans la zone « {self.zone} »"
            f" et au plus {self.zombies_at_most} zombie(s)",
            f"at least {self.survivors_at_least} standing survivor(s) in zone '{self.zone}'"
            f" and at most {self.zombies_at_most} zombie(s) in it",
        )

    def words(self, card: Card) -> Message:
        zone = words.zone(card, self.zone)
        if self.zombies_at_most == 0:
            return Message("scenario.cond.hold_zone", {"survivors": self.survivors_at_least,
                                                       "zone": zone})
        return Message("scenario.cond.hold_zone.few", {
            "survivors": self.survivors_at_least, "zone": zone, "zombies": self.zombies_at_most})

@dataclass(frozen=True)
class Exit(Condition):
    """Enough figures of `who` left the table through the exit (evacuated, D17)."""

    type: ClassVar[str] = "exit"
    exit: Annotated[str, Ref("exit")]
    at_least: Count = "half"
    who: Who = "survivors"

    def describe(self) -> tuple[str, str]:
        fr, en = _count_words(self.at_least)
        who_fr = "des survivants" if self.who == "survivors" else "des civils"
        return (f"{fr} {who_fr} sortent par « {self.exit} »",
                f"{en} of the {self.who} leave by '{self.exit}'")

    def words(self, card: Card) -> Message:
        return Message("scenario.cond.exit", {"group": _group(self.at_least, words.who(self.who)),
                                              "exit": words.exit_(card, self.exit)})

@dataclass(frozen=True)
class Escort(Condition):
    """Enough civilians of a group left the table through the exit."""

    type: ClassVar[str] = "escort"
    civilians: Annotated[str, Ref("civilians")]
    exit: Annotated[str, Ref("exit")]
    at_least: Count = "all"

    def describe(self) -> tuple[str, str]:
        fr, en = _count_words(self.at_least)
        return (f"{fr} des civils « {self.civilians} » sortent par « {self.exit} »",
                f"{en} of the civilians '{self.civilians}' leave by '{self.exit}'")

    def words(self, card: Card) -> Message:
        return Message("scenario.cond.exit", {
            "group": _group(self.at_least, _civilians(card, self.civilians)),
            "exit": words.exit_(card, self.exit)})

@dataclass(frozen=True)
class Reach(Condition):
    """Enough figures of `who` were evacuated from the zone (a refuge, a landing zone)."""

    type: ClassVar[str] = "reach"
    zone: Annotated[str, Ref("zone")]
    at_least: Count = "half"
    who: Who = "survivors"

    def describe(self) -> tuple[str, str]:
        fr, en = _count_words(self.at_least)
        return (f"{fr} des survivants sont mis à l'abri par la zone « {self.zone} »",
                f"{en} of the {self.who} are evacuated through zone '{self.zone}'")

    def words(self, card: Card) -> Message:
        return Message("scenario.cond.reach", {"group": _group(self.at_least, words.who(self.who)),
                                               "zone": words.zone(card, self.zone)})

@dataclass(frozen=True)
class SurviveTurns(Condition):
    """The scenario reached its end and enough of the band is alive, not down and not
    contaminated (standing or evacuated)."""

    type: ClassVar[str] = "survive_turns"
    at_least: Count = "half"

    def describe(self) -> tuple[str, str]:
        fr, en = _count_words(self.at_least)
        return (f"à la fin, {fr} des survivants sont debout ou évacués",
                f"at the end, {en} of the survivors are standing or evacuated")

    def words(self, card: Card) -> Message:
        return Message("scenario.cond.survive_turns", {
            "group": _group(self.at_least, words.who("survivors"))})

@dataclass(frozen=True)
class Carry(Condition):
    """`count` scenario items brought from zone `from` and delivered in zone `to`
    (1 AP interact, the carrier's base centre in the zone)."""

    type: ClassVar[str] = "carry"
    item: Annotated[str, Ref("item")]
    from_: Annotated[str, Ref("zone")]
    to: Annotated[str, Ref("zone")]
    count: Annotated[int, Range(1)] = 1

    def describe(self) -> tuple[str, str]:
        return (f"{self.count} « {self.item} » apportés de « {self.from_} » à « {self.to} »",
                f"{self.count} '{self.item}' brought from '{self.from_}' to '{self.to}'")

    def words(self, card: Card) -> Message:
        return Message("scenario.cond.carry", {"n": self.count,
                                               "item": words.item(card, None, self.item),
                                               "from": words.zone(card, self.from_),
                                               "to": words.zone(card, self.to)})

@dataclass(frozen=True)
class Heal(Condition):
    """`count` figures of the civilians group were given care (special rule `treat`)."""

    type: ClassVar[str] = "heal"
    targets: Annotated[str, Ref("civilians")]
    count: Annotated[int, Range(1)] = 1

    def describe(self) -> tuple[str, str]:
        return (f"{self.count} malade(s) « {self.targets} » soigné(s)",
                f"{self.count} of '{self.targets}' given care")

    def words(self, card: Card) -> Message:
        return Message("scenario.cond.heal", {"n": self.count,
                                              "group": words.group(card, self.targets)})

@dataclass(frozen=True)
class OpenCrates(Condition):
    """`count` equipment crates opened by the survivors."""

    type: ClassVar[str] = "open_crates"
    count: Annotated[int, Range(1)] = 1

    def describe(self) -> tuple[str, str]:
        return f"{self.count} caisse(s) ouverte(s)", f"{self.count} crate(s) opened"

    def words(self, card: Card) -> Message:
        if self.count == 1:
            return Message("scenario.cond.open_crates.one")
        return Message("scenario.cond.open_crates", {"n": self.count})

@dataclass(frozen=True)
class Free(Condition):
    """The trapped figure(s) of the group were freed (special rule `trapped`)."""

    type: ClassVar[str] = "free"
    figure: Annotated[str, Ref("civilians")]

    def describe(self) -> tuple[str, str]:
        return f"« {self.figure} » est délivré", f"'{self.figure}' is freed"

    def words(self, card: Card) -> Message:
        return Message("scenario.cond.free", {"group": words.group(card, self.figure)})

@dataclass(frozen=True)
class TakeOut(Condition):
    """At the end, enough of the band is out of action: down, dead or contaminated."""

    type: ClassVar[str] = "take_out"
    at_least: Count = "half"

    def describe(self) -> tuple[str, str]:
        fr, en = _count_words(self.at_least)
        return (f"{fr} des survivants hors de combat, morts ou contaminés",
                f"{en} of the survivors down, dead or contaminated")

    def words(self, card: Card) -> Message:
        return Message("scenario.cond.take_out", {
            "group": _group(self.at_least, words.who("survivors"))})

@dataclass(frozen=True)
class KillCivilians(Condition):
    """Enough civilians of the group dead or contaminated."""

    type: ClassVar[str] = "kill_civilians"
    civilians: Annotated[str, Ref("civilians")]
    at_least: Count = 1

    def describe(self) -> tuple[str, str]:
        fr, en = _count_words(self.at_least)
        return (f"{fr} des civils « {self.civilians} » tués ou contaminés",
                f"{en} of the civilians '{self.civilians}' killed or contaminated")

    def words(self, card: Card) -> Message:
        return Message("scenario.cond.kill_civilians", {
            "group": _group(self.at_least, _civilians(card, self.civilians))})

@dataclass(frozen=True)
class Contaminate(Condition):
    """At least `at_least` survivors contaminated during the scenario."""

    type: ClassVar[str] = "contaminate"
    at_least: Annotated[int, Range(1)] = 1

    def describe(self) -> tuple[str, str]:
        return (f"au moins {self.at_least} survivant(s) contaminé(s)",
                f"at least {self.at_least} survivor(s) contaminated")

    def words(self, card: Card) -> Message:
        return Message("scenario.cond.contaminate", {"n": self.at_least})

@dataclass(frozen=True)
class ZombiesInZone(Condition):
    """At least `at_least` zombies with their base centre in the zone."""

    type: ClassVar[str] = "zombies_in_zone"
    zone: Annotated[str, Ref("zone")]
    at_least: Annotated[int, Range(1)] = 1

    def describe(self) -> tuple[str, str]:
        return (f"au moins {self.at_least} zombie(s) dans la zone « {self.zone} »",
                f"at least {self.at_least} zombie(s) in zone '{self.zone}'")

    def words(self, card: Card) -> Message:
        return Message("scenario.cond.zombies_in_zone", {"n": self.at_least,
                                                         "zone": words.zone(card, self.zone)})

@dataclass(frozen=True)
class SurvivorsFail(Condition):
    """The survivors' conditions do not hold when the scenario ends."""

    type: ClassVar[str] = "survivors_fail"

    def describe(self) -> tuple[str, str]:
        return "les survivants échouent", "the survivors fail their objective"

    def words(self, card: Card) -> Message:
        return Message("scenario.cond.survivors_fail")

@dataclass(frozen=True)
class Event(Condition):
    """Something a special rule makes happen (e.g. "helicopter_left")."""

    type: ClassVar[str] = "event"
    event: Annotated[str, Ref("event")]

    def describe(self) -> tuple[str, str]:
        return f"événement « {self.event} »", f"event '{self.event}'"

    def words(self, card: Card) -> Message:
        return words.event(self.event)
