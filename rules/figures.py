"""A figure in a game: its profile, where it stands, what it carries and what it has done.

Plain mutable data (the game changes it, nothing else does), serialised to and from JSON.
Its lists and counts (skills, items, units, skill uses) are never changed in place but
replaced (`FrozenDict`, `FrozenList`; `Fig.counted` gives the new counts): a copy of the figure
shares them, so copying a game for a search copies each figure's fields and nothing more.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Literal, NoReturn

from geometry.scene import Side
from geometry.units import base_radius
from rules.catalog import Archetype, Catalog, Equipment
from rules.warband import Member

__all__ = ["Status", "Fig", "FrozenDict", "FrozenList", "copy_figures", "survivor_from_member",
           "zombie_of", "civilian", "english_name", "CIVILIAN_NAMES"]

Status = Literal["standing", "down", "dead", "contaminated", "removed", "evacuated"]


class FrozenDict(dict[str, int]):
    """Counts by id that no one changes in place (a figure's items, rounds, skill uses):
    a new one replaces them (`Fig.counted`), so copies of a game may share them. Changing
    one in place raises at once instead of changing every copy."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a figure's counts are replaced, not changed in place: "
                        "fig.items = fig.counted('items', item, n)")

    __setitem__ = _refuse
    __delitem__ = _refuse
    __ior__ = _refuse
    clear = _refuse
    pop = _refuse
    popitem = _refuse
    setdefault = _refuse
    update = _refuse

    def __reduce__(self) -> tuple[type[FrozenDict], tuple[dict[str, int]]]:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict:
        return self


class FrozenList(list[str]):
    """A figure's skills, replaced and never changed in place, like its counts."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a figure's skills are replaced, not changed in place: "
                        "fig.skills = [...]")

    __setitem__ = _refuse
    __delitem__ = _refuse
    __iadd__ = _refuse
    __imul__ = _refuse
    append = _refuse
    extend = _refuse
    insert = _refuse
    pop = _refuse
    remove = _refuse
    clear = _refuse
    sort = _refuse
    reverse = _refuse

    def __reduce__(self) -> tuple[type[FrozenList], tuple[list[str]]]:
        return (FrozenList, (list(self),))

    def __copy__(self) -> FrozenList:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenList:
        return self


_EMPTY = FrozenDict()
_COUNTS = ("items", "units", "used_game", "used_turn")


def _frozen(value: Mapping[str, int] | None) -> FrozenDict:
    if isinstance(value, FrozenDict):
        return value
    return FrozenDict(value) if value else _EMPTY


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
    skills: Sequence[str] = field(default_factory=list)
    items: Mapping[str, int] = field(default_factory=dict)  # item id -> how many carried
    units: Mapping[str, int] = field(default_factory=dict)  # rounds, cocktails, heals
    pv: int = 1
    status: Status = "standing"
    moves: int = 0  # moves made this turn
    panic_malus: int = 0  # defence lowered by a failed panic test, this turn
    panicked: bool = False  # failed a panic test: cannot act this turn
    resting: bool = False  # revived this turn: receives no AP
    used_game: Mapping[str, int] = field(default_factory=dict)  # skill uses this game
    used_turn: Mapping[str, int] = field(default_factory=dict)  # skill uses this turn
    wounds_ignored: int = 0  # robuste
    half_pv_tested: bool = False
    surrounded_tested: bool = False  # this turn
    panic_tests: int = 0
    downed_by: str = ""  # who put it down or removed it (campaign: losses per zombie player)
    origin: str = ""  # the archetype of a contaminated survivor, now a zombie
    exit: str = ""  # the exit an evacuated figure left by
    name_en: str = ""  # `name` in English: the same for a person's own name (`english_name`)

    def __setattr__(self, name: str, value: Any) -> None:
        """Lists and counts are kept frozen whatever is assigned (a list, a dict)."""
        if name in _COUNTS:
            value = _frozen(value)
        elif name == "skills" and not isinstance(value, FrozenList):
            value = FrozenList(value)
        object.__setattr__(self, name, value)

    def copy(self) -> Fig:
        """A copy sharing the frozen lists and counts: as good as a deep copy, and what the
        AI's look-ahead pays for each figure each time it copies the game."""
        other = object.__new__(Fig)
        object.__setattr__(other, "__dict__", self.__dict__.copy())
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Fig:
        return self.copy()

    def counted(self, field_name: str, key: str, n: int) -> FrozenDict:
        """The figure's counts `field_name` ("items", "units", "used_game", "used_turn")
        with `key` set to `n`; dropped when `n` is 0 or less."""
        counts = dict(getattr(self, field_name))
        if n > 0:
            counts[key] = n
        else:
            counts.pop(key, None)
        return FrozenDict(counts)

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
        for name in _COUNTS:
            out[name] = dict(out[name])
        out["skills"] = list(out["skills"])
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fig:
        """A figure from its JSON form (copied: the game never edits the data it was given)."""
        return cls(**copy.deepcopy(data))


def copy_figures(figures: Mapping[str, Fig]) -> dict[str, Fig]:
    """A copy of each figure (`Fig.copy`), the loop written out: a game's copy is mostly
    this."""
    new, assign = object.__new__, object.__setattr__
    out: dict[str, Fig] = {}
    for key, fig in figures.items():
        other = new(Fig)
        assign(other, "__dict__", fig.__dict__.copy())
        out[key] = other
    return out


# Every field but the lists and counts is a str, int, float or bool.
assert {f.name for f in fields(Fig) if f.default_factory is not MISSING} == {*_COUNTS, "skills"}


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
