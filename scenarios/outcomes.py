"""What happens to the band after a scenario, and what is found in crates: tagged data.

Consequences (the 1D6 table rolled at the end of every scenario, L53-54, and the rewards for
winning) and loot (the crate table, D20) are small tagged values:

    { roll = 6, type = "new_member", class = "follower" }
    { roll = 5, type = "equipment", item = "pistolet" }
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, ClassVar

from i18n import Message
from rules.catalog import SurvivorClass
from rules.warband import class_name
from scenarios import words
from scenarios.schema import Range, Ref, Tagged

if TYPE_CHECKING:
    from rules.catalog import Catalog

__all__ = [
    "Consequence",
    "Nothing",
    "NewMember",
    "GainEquipment",
    "SecondSkill",
    "LoseWounded",
    "LoseWeapon",
    "LoseItem",
    "HealBand",
    "Loot",
    "LootNothing",
    "LootEquipment",
    "LootItem",
    "LootZombie",
]

_CLASS_FR = {"hero": "héros", "follower": "suiveur", "burden": "boulet"}


@dataclass(frozen=True)
class Consequence(Tagged):
    """One effect on the band between scenarios, as the card's table says it: `words(catalog)`
    a message naming archetypes and items, `describe()` (French, English) with ids, for the
    generated docs."""

    def describe(self) -> tuple[str, str]:
        raise NotImplementedError

    def words(self, catalog: Catalog) -> Message:
        raise NotImplementedError


@dataclass(frozen=True)
class Nothing(Consequence):
    type: ClassVar[str] = "nothing"

    def describe(self) -> tuple[str, str]:
        return "rien", "nothing"

    def words(self, catalog: Catalog) -> Message:
        return Message("scenario.consequence.nothing")

@dataclass(frozen=True)
class NewMember(Consequence):
    """A new member joins: `archetype` if given (it must be of `class`), otherwise any
    archetype of that class chosen by the survivors player, with one of its skills and no
    equipment; its cost adds to the band's."""

    type: ClassVar[str] = "new_member"
    class_: SurvivorClass
    archetype: Annotated[str, Ref("archetype")] | None = None

    def describe(self) -> tuple[str, str]:
        if self.archetype:
            return (f"nouveau membre : {self.archetype} ({_CLASS_FR[self.class_]})",
                    f"new member: {self.archetype} ({self.class_})")
        return (f"nouveau membre ({_CLASS_FR[self.class_]}, au choix)",
                f"new member (a {self.class_} of your choice)")

    def words(self, catalog: Catalog) -> Message:
        if self.archetype:
            return Message("scenario.consequence.new_member", {
                "archetype": words.archetype(catalog, self.archetype)})
        return Message("scenario.consequence.new_member_any", {"class": class_name(self.class_)})

@dataclass(frozen=True)
class GainEquipment(Consequence):
    """Items added to the band; the survivors player gives them to members with room."""

    type: ClassVar[str] = "equipment"
    item: Annotated[str, Ref("equipment")]
    count: Annotated[int, Range(1, 10)] = 1

    def describe(self) -> tuple[str, str]:
        times = f" x{self.count}" if self.count > 1 else ""
        return f"nouvel équipement : {self.item}{times}", f"new equipment: {self.item}{times}"

    def words(self, catalog: Catalog) -> Message:
        return Message("scenario.consequence.equipment", {
            "n": self.count, "item": words.item(None, catalog, self.item)})

@dataclass(frozen=True)
class SecondSkill(Consequence):
    """`count` living members gain a second skill of their profile (D33)."""

    type: ClassVar[str] = "second_skill"
    count: Annotated[int, Range(1, 3)] = 1

    def describe(self) -> tuple[str, str]:
        return (f"{self.count} membre(s) gagne(nt) une seconde compétence",
                f"{self.count} member(s) gain a second skill")

    def words(self, catalog: Catalog) -> Message:
        if self.count == 1:
            return Message("scenario.consequence.second_skill.one")
        return Message("scenario.consequence.second_skill", {"n": self.count})

@dataclass(frozen=True)
class LoseWounded(Consequence):
    """The most wounded member (fewest PV below its profile) dies of its wounds; ties: the
    zombie player chooses. No effect when nobody is wounded."""

    type: ClassVar[str] = "lose_wounded"

    def describe(self) -> tuple[str, str]:
        return ("le blessé le plus grave meurt de ses blessures",
                "the most wounded member dies of their wounds")

    def words(self, catalog: Catalog) -> Message:
        return Message("scenario.consequence.lose_wounded")

@dataclass(frozen=True)
class LoseWeapon(Consequence):
    """One weapon (shooting, throwing or melee item) of the band is lost, chosen by the
    zombie player. No effect when the band has none."""

    type: ClassVar[str] = "lose_weapon"

    def describe(self) -> tuple[str, str]:
        return "une arme perdue (au choix des zombies)", "a weapon lost (zombie player's choice)"

    def words(self, catalog: Catalog) -> Message:
        return Message("scenario.consequence.lose_weapon")

@dataclass(frozen=True)
class LoseItem(Consequence):
    """Every item `item` of the band is lost (e.g. all ammunition got wet)."""

    type: ClassVar[str] = "lose_item"
    item: Annotated[str, Ref("equipment")]

    def describe(self) -> tuple[str, str]:
        return f"tous les « {self.item} » sont perdus", f"every '{self.item}' is lost"

    def words(self, catalog: Catalog) -> Message:
        return Message("scenario.consequence.lose_item",
                       {"item": words.item(None, catalog, self.item)})

@dataclass(frozen=True)
class HealBand(Consequence):
    """Every living member recovers `pv` PV (never above its profile)."""

    type: ClassVar[str] = "heal"
    pv: Annotated[int, Range(1, 10)] = 2

    def describe(self) -> tuple[str, str]:
        return (f"chaque membre récupère {self.pv} PV", f"every member recovers {self.pv} wounds")

    def words(self, catalog: Catalog) -> Message:
        return Message("scenario.consequence.heal", {"pv": self.pv})

@dataclass(frozen=True)
class Loot(Tagged):
    """What one crate holds."""

    def describe(self) -> tuple[str, str]:
        raise NotImplementedError


@dataclass(frozen=True)
class LootNothing(Loot):
    type: ClassVar[str] = "nothing"

    def describe(self) -> tuple[str, str]:
        return "vide", "empty"


@dataclass(frozen=True)
class LootEquipment(Loot):
    type: ClassVar[str] = "equipment"
    item: Annotated[str, Ref("equipment")]
    count: Annotated[int, Range(1, 10)] = 1
    with_: Annotated[tuple[str, ...], Ref("equipment")] = ()  # found together (ammunition)

    def describe(self) -> tuple[str, str]:
        times = f" x{self.count}" if self.count > 1 else ""
        extra = "".join(f" + {item}" for item in self.with_)
        return f"{self.item}{times}{extra}", f"{self.item}{times}{extra}"


@dataclass(frozen=True)
class LootItem(Loot):
    """A scenario item (fuel, medicine...) from the card's `items`."""

    type: ClassVar[str] = "item"
    item: Annotated[str, Ref("item")]

    def describe(self) -> tuple[str, str]:
        return f"{self.item} (objet du scénario)", f"{self.item} (scenario item)"


@dataclass(frozen=True)
class LootZombie(Loot):
    """A zombie was hiding: the zombie player places it in base contact with the opener."""

    type: ClassVar[str] = "zombie"
    zombie: Annotated[str, Ref("zombie")] = "rodeur"
    count: Annotated[int, Range(1, 3)] = 1

    def describe(self) -> tuple[str, str]:
        return (f"piège : {self.count} {self.zombie} surgit au contact",
                f"trap: {self.count} {self.zombie} bursts out in base contact")
