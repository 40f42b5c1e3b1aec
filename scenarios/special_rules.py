"""A scenario card's special rules, as tagged data the engine dispatches on.

    special_rules = [{ type = "escorted", civilians = "refugees" }]

Each rule says what it changes in a line: `words(card, catalog)` as a player reads it (a
message naming the card's groups, zones and items), `describe()` in French and English with
ids, for the generated docs. `events` names what it can make happen, for the card's `event`
conditions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, ClassVar

from i18n import Message
from scenarios import words
from scenarios.schema import Range, Ref, Tagged

if TYPE_CHECKING:
    from rules.catalog import Catalog
    from scenarios.cards import Card

__all__ = [
    "SpecialRule",
    "Escorted",
    "Immobile",
    "Trapped",
    "Treat",
    "HeavyItem",
    "Refuge",
    "Helicopter",
    "NoisyCrates",
]


@dataclass(frozen=True)
class SpecialRule(Tagged):
    events: ClassVar[tuple[str, ...]] = ()

    def describe(self) -> tuple[str, str]:
        raise NotImplementedError

    def words(self, card: Card, catalog: Catalog) -> Message:
        raise NotImplementedError


@dataclass(frozen=True)
class Escorted(SpecialRule):
    """The civilians cannot act alone. A survivor in base contact with one may take it along
    as its move (1 AP): both move up to the lower M of the two (civilians M4), the civilian
    ending in base contact with the survivor. A civilian leaving by an exit is evacuated."""

    type: ClassVar[str] = "escorted"
    civilians: Annotated[str, Ref("civilians")]

    def describe(self) -> tuple[str, str]:
        return (
            f"Les civils « {self.civilians} » n'agissent pas seuls : un survivant à leur contact"
            " peut les emmener avec lui pour son mouvement (1 PA, les deux bougent du plus petit"
            " M, le civil finit au contact).",
            f"The civilians '{self.civilians}' cannot act alone: a survivor in base contact may"
            " take one along as its move (1 AP, both move the lower M, the civilian ends in"
            " base contact).",
        )

    def words(self, card: Card, catalog: Catalog) -> Message:
        return Message("scenario.rule.escorted", {"group": words.group(card, self.civilians)})

@dataclass(frozen=True)
class Immobile(SpecialRule):
    """The figures never move (they can be attacked and contaminated: a contaminated civilian
    becomes a rôdeur)."""

    type: ClassVar[str] = "immobile"
    civilians: Annotated[str, Ref("civilians")]

    def describe(self) -> tuple[str, str]:
        return (
            f"Les « {self.civilians} » ne bougent pas ; les zombies peuvent les attaquer et les"
            " contaminer (un civil contaminé devient un rôdeur).",
            f"The '{self.civilians}' never move; zombies may attack and contaminate them (a"
            " contaminated civilian becomes a rôdeur).",
        )

    def words(self, card: Card, catalog: Catalog) -> Message:
        return Message("scenario.rule.immobile", {"group": words.group(card, self.civilians),
                                                  "zombie": words.zombie(catalog, "rodeur")})

@dataclass(frozen=True)
class Trapped(SpecialRule):
    """The trapped figure is freed at the end of a survivor's activation when a standing
    survivor is in base contact with it and no zombie is. It then joins the band for the rest
    of the scenario with the profile `joins_as` and skill `skill`, full PV and no equipment,
    and receives AP from the next turn."""

    type: ClassVar[str] = "trapped"
    civilians: Annotated[str, Ref("civilians")]
    joins_as: Annotated[str, Ref("archetype")]
    skill: Annotated[str, Ref("skill")]
    events: ClassVar[tuple[str, ...]] = ("freed",)

    def describe(self) -> tuple[str, str]:
        return (
            f"« {self.civilians} » est délivré à la fin d'une activation survivante si un"
            " survivant debout est à son contact et aucun zombie. Il rejoint alors la bande"
            f" pour le scénario : profil {self.joins_as}, compétence {self.skill}, PV pleins,"
            " sans équipement, activable dès le tour suivant.",
            f"'{self.civilians}' is freed at the end of a survivor activation when a standing"
            " survivor is in base contact with it and no zombie is. It then joins the band for"
            f" the scenario: profile {self.joins_as}, skill {self.skill}, all wounds, no"
            " equipment, activated from the next turn.",
        )

    def words(self, card: Card, catalog: Catalog) -> Message:
        return Message("scenario.rule.trapped", {
            "group": words.group(card, self.civilians),
            "archetype": words.archetype(catalog, self.joins_as),
            "skill": words.skill(catalog, self.skill)})

@dataclass(frozen=True)
class Treat(SpecialRule):
    """Giving care: 1 AP (`ap`) in base contact with one of the civilians, using one use of one
    of the listed healing items or scenario items. Each civilian needs care once."""

    type: ClassVar[str] = "treat"
    civilians: Annotated[str, Ref("civilians")]
    equipment: Annotated[tuple[str, ...], Ref("equipment")] = ()
    items: Annotated[tuple[str, ...], Ref("item")] = ()
    ap: Annotated[int, Range(1, 3)] = 1

    def describe(self) -> tuple[str, str]:
        using = ", ".join((*self.equipment, *self.items))
        return (
            f"Soigner un des « {self.civilians} » : {self.ap} PA au contact, en dépensant une"
            f" utilisation de : {using}. Chacun n'a besoin que d'un soin.",
            f"Caring for one of the '{self.civilians}': {self.ap} AP in base contact, using one"
            f" use of: {using}. Each needs care once.",
        )

    def words(self, card: Card, catalog: Catalog) -> Message:
        using = [words.item(card, catalog, i) for i in (*self.equipment, *self.items)]
        return Message("scenario.rule.treat", {"group": words.group(card, self.civilians),
                                               "ap": self.ap, "items": using})

@dataclass(frozen=True)
class HeavyItem(SpecialRule):
    """Carrying the scenario item lowers the carrier's M."""

    type: ClassVar[str] = "heavy_item"
    item: Annotated[str, Ref("item")]
    move_malus: Annotated[int, Range(1, 3)] = 1

    def describe(self) -> tuple[str, str]:
        return (
            f"Porter « {self.item} » réduit le M du porteur de {self.move_malus} ps.",
            f"Carrying '{self.item}' lowers the carrier's M by {self.move_malus} in.",
        )

    def words(self, card: Card, catalog: Catalog) -> Message:
        return Message("scenario.rule.heavy_item", {"item": words.item(card, catalog, self.item),
                                                    "n": self.move_malus})

@dataclass(frozen=True)
class Refuge(SpecialRule):
    """A survivor (or an escorted civilian) that ends a move with its base centre in the
    zone is safe: evacuated (D17), out of the scenario, alive. Zombies may enter the zone."""

    type: ClassVar[str] = "refuge"
    zone: Annotated[str, Ref("zone")]

    def describe(self) -> tuple[str, str]:
        return (
            f"Une figurine qui finit un mouvement avec le centre de son socle dans « {self.zone}"
            " » est à l'abri : évacuée, hors du scénario, vivante.",
            f"A figure ending a move with its base centre in '{self.zone}' is safe: evacuated,"
            " out of the scenario, alive.",
        )

    def words(self, card: Card, catalog: Catalog) -> Message:
        return Message("scenario.rule.refuge", {"zone": words.zone(card, self.zone)})

@dataclass(frozen=True)
class Helicopter(SpecialRule):
    """At the end of each turn from `from_turn`, if a standing survivor and no zombie have
    their base centre in the zone, the helicopter lands: every survivor (standing, or down and
    in base contact with a standing one) in the zone is evacuated, then it takes off and the
    event `helicopter_left` happens."""

    type: ClassVar[str] = "helicopter"
    zone: Annotated[str, Ref("zone")]
    from_turn: Annotated[int, Range(1, 12)] = 5
    events: ClassVar[tuple[str, ...]] = ("helicopter_left",)

    def describe(self) -> tuple[str, str]:
        return (
            f"À la fin de chaque tour à partir du tour {self.from_turn}, si un survivant debout"
            f" et aucun zombie sont dans « {self.zone} », l'hélicoptère se pose : les"
            " survivants dans la zone (debout, ou à terre au contact d'un survivant debout)"
            " sont évacués, puis il repart.",
            f"At the end of each turn from turn {self.from_turn}, if a standing survivor and no"
            f" zombie are in '{self.zone}', the helicopter lands: the survivors in the zone"
            " (standing, or down in base contact with a standing one) are evacuated, then it"
            " takes off.",
        )

    def words(self, card: Card, catalog: Catalog) -> Message:
        return Message("scenario.rule.helicopter", {"turn": self.from_turn,
                                                    "zone": words.zone(card, self.zone)})

@dataclass(frozen=True)
class NoisyCrates(SpecialRule):
    """Opening a crate makes noise: `count` zombies of type `zombie` (free) arrive on the
    table edge nearest to the crate, wholly within 1 in of it."""

    type: ClassVar[str] = "noisy_crates"
    zombie: Annotated[str, Ref("zombie")] = "rodeur"
    count: Annotated[int, Range(1, 3)] = 1

    def describe(self) -> tuple[str, str]:
        return (
            f"Ouvrir une caisse fait du bruit : {self.count} {self.zombie} (gratuit) arrive par"
            " le bord de table le plus proche de la caisse.",
            f"Opening a crate is noisy: {self.count} {self.zombie} (free) arrives at the table"
            " edge nearest to the crate.",
        )

    def words(self, card: Card, catalog: Catalog) -> Message:
        return Message("scenario.rule.noisy_crates", {"n": self.count,
                                                      "zombie": words.zombie(catalog, self.zombie)})
