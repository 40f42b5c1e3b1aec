"""A figure in a game: its profile, where it stands, what it carries and what it has done.

Plain mutable data (the game changes it, nothing else does), serialised to and from JSON.
"""

from __future__ import annotations

import copy
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Literal

from geometry.scene import Side
from geometry.units import base_radius
from rules.catalog import Archetype, Catalog, Equipment
from rules.warband import Member

__all__ = ["Status", "Fig", "survivor_from_member", "zombie_of", "civilian", "english_name",
           "CIVILIAN_NAMES"]

Status = Literal["standing", "down", "dead", "contaminated", "removed", "evacuated"]


@dataclass
class Fig:
    id: str
    side: Side
    kind: str  # archetype id, zombie type id, or "civilian"
    name: str
    x: float
    y: float
    base_mm: float = 25.0
    band: str = ""  # which band a survivor belongs to (two bands in "Guerre en territoire zombie")
    cls: str = ""  # hero / follower / burden for survivors
    sex: str = ""
    move: int = 4
    wounds: int = 1  # starting PV
    attack: int = 1
    defense: int = 4
    intelligence: int = 6
    panic: int = 6
    encumbrance: int = 0
    skills: list[str] = field(default_factory=list)
    items: dict[str, int] = field(default_factory=dict)  # item id -> how many carried
    units: dict[str, int] = field(default_factory=dict)  # ammunition rounds, cocktails, heals
    pv: int = 1
    status: Status = "standing"
    moves: int = 0  # moves made this turn
    panic_malus: int = 0  # defence lowered by a failed panic test, this turn
    panicked: bool = False  # failed a panic test: cannot act this turn
    resting: bool = False  # revived this turn: receives no AP
    used_game: dict[str, int] = field(default_factory=dict)  # skill uses this game
    used_turn: dict[str, int] = field(default_factory=dict)  # skill uses this turn
    wounds_ignored: int = 0  # robuste
    half_pv_tested: bool = False
    surrounded_tested: bool = False  # this turn
    panic_tests: int = 0
    downed_by: str = ""  # who put it down or removed it (campaign: losses per zombie player)
    origin: str = ""  # the archetype of a contaminated survivor, now a zombie
    exit: str = ""  # the exit an evacuated figure left by
    name_en: str = ""  # `name` in English: the same for a person's own name (`english_name`)

    def copy(self) -> Fig:
        """A copy with its own lists and dicts: they hold only strings and numbers, so this
        is a deep copy, several times faster than `copy.deepcopy` (the AI's look-ahead
        copies the game for every choice it weighs)."""
        other = object.__new__(Fig)
        other.__dict__.update(self.__dict__)
        other.skills = list(self.skills)
        other.items = dict(self.items)
        other.units = dict(self.units)
        other.used_game = dict(self.used_game)
        other.used_turn = dict(self.used_turn)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Fig:
        return self.copy()

    # --- what it is ---------------------------------------------------------------------

    @property
    def is_zombie(self) -> bool:
        return self.side == "zombies"

    @property
    def is_human(self) -> bool:
        return self.side != "zombies"

    @property
    def on_table(self) -> bool:
        return self.status in ("standing", "down")

    @property
    def standing(self) -> bool:
        return self.status == "standing"

    @property
    def radius(self) -> float:
        """Base radius in inches."""
        return base_radius(self.base_mm)

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x, self.y)

    def has(self, skill: str) -> bool:
        return skill in self.skills

    def enemy_of(self, other: Fig) -> bool:
        """Zombies fight humans; in the two-band variant, rival survivors fight too."""
        if self.id == other.id:
            return False
        if self.is_zombie != other.is_zombie:
            return True
        both_bands = self.side == other.side == "survivors"
        return both_bands and self.band != other.band

    def to_json(self) -> dict[str, Any]:
        """Plain JSON, its lists and dicts copied (`dataclasses.asdict` does the same but
        recursively and generically: it was most of the time a game state took to write)."""
        out = dict(self.__dict__)
        for name in _CONTAINERS:
            out[name] = out[name].copy()
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fig:
        """A figure from its JSON form (copied: the game never edits the data it was given)."""
        return cls(**copy.deepcopy(data))


# The fields holding a list or dict (to copy); every other field is a str, int, float or bool.
_CONTAINERS = tuple(f.name for f in fields(Fig) if f.default_factory is not MISSING)


def _units_of(items: dict[str, int], catalog: Catalog) -> dict[str, int]:
    units: dict[str, int] = {}
    for item_id, count in items.items():
        item: Equipment = catalog.equipment[item_id]
        if item.kind in ("ammunition", "healing", "throwing"):
            units[item_id] = units.get(item_id, 0) + item.units * count
    return units


def survivor_from_member(
    member: Member, catalog: Catalog, x: float, y: float, band: str = "A"
) -> Fig:
    """A band member placed on the table, with its chosen skill(s) and equipment."""
    a = catalog.archetypes[member.archetype]
    skills = [s for s in (member.skill, member.second_skill) if s]
    items = dict(member.equipment)
    name = member.name or a.label
    return Fig(
        id=member.id, side="survivors", kind=a.id, name=name, x=x, y=y,
        band=band, cls=a.class_, sex=member.sex or a.sex, move=a.move, wounds=a.wounds,
        attack=a.attack, defense=a.defense, intelligence=a.intelligence, panic=a.panic,
        encumbrance=a.encumbrance, skills=skills, items=items, units=_units_of(items, catalog),
        pv=a.wounds, name_en=_archetype_english(a, name),
    )


def _archetype_english(archetype: Archetype, name: str) -> str:
    """A survivor's name in English: the archetype's when it is named after it (a recruit
    with no name of their own), a person's own name as it is."""
    return {archetype.label: archetype.label_en, archetype.name: archetype.name_en}.get(
        name, name)


def zombie_of(kind: str, figure_id: str, catalog: Catalog, x: float, y: float,
              base_mm: float = 25.0) -> Fig:
    z = catalog.zombies[kind]
    return Fig(
        id=figure_id, side="zombies", kind=z.id, name=z.name, x=x, y=y, base_mm=base_mm,
        band="zombies", move=z.move, wounds=z.wounds, attack=z.attack, defense=z.defense,
        pv=z.wounds, name_en=z.name_en,
    )


#: The civilians the code names itself (a scenario's come with their card's two names).
CIVILIAN_NAMES = {"Civil": "Civilian", "Allié": "Ally", "Vulnérable": "Helpless"}


def civilian(figure_id: str, x: float, y: float) -> Fig:
    """A civilian: cannot act alone (scenarios escort them); counts as a human for zombies."""
    return Fig(id=figure_id, side="civilians", kind="civilian", name="Civil", x=x, y=y,
               band="civilians", move=4, wounds=4, attack=1, defense=3, panic=6, pv=4,
               name_en=CIVILIAN_NAMES["Civil"])


def english_name(fig: Fig, catalog: Catalog) -> str:
    """The English of a figure's `name`, for a figure saved before figures had `name_en`:
    a zombie's type or an archetype's heading in English, a person's own name as it is, and
    the French when nothing else is known (a scenario's civilians)."""
    if fig.is_zombie and fig.kind in catalog.zombies:
        zombie = catalog.zombies[fig.kind]
        return zombie.name_en if fig.name == zombie.name else fig.name
    archetype = catalog.archetypes.get(fig.kind)
    if fig.side == "survivors" and archetype is not None:
        return _archetype_english(archetype, fig.name)
    return CIVILIAN_NAMES.get(fig.name, fig.name)
