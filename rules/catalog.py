"""The rules data: survivor archetypes, skills, equipment and zombie types.

Loaded once from the TOML files in `rules/data/` and checked in full at start-up, so the
engine can trust every value. The objects are frozen: the catalog is shared by every game.

>>> catalog = load_catalog()
>>> catalog.archetypes["militaire_h"].move
6
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypeVar, get_args

from geometry.errors import DataError
from rules.catalog_schema import EntryReader, Location, quote, read_entries, source_label

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = [
    "DATA_DIR",
    "Archetype",
    "Catalog",
    "Equipment",
    "EquipmentKind",
    "Sex",
    "Skill",
    "SurvivorClass",
    "Uses",
    "Zombie",
    "load_catalog",
]

DATA_DIR = Path(__file__).resolve().parent / "data"

Sex: TypeAlias = Literal["H", "F", "H/F"]
SurvivorClass: TypeAlias = Literal["hero", "follower", "burden"]  # héros, suiveur, boulet
Uses: TypeAlias = Literal["game", "turn"]
EquipmentKind: TypeAlias = Literal[
    "shooting", "throwing", "melee", "ammunition", "healing", "protection", "scenario"
]
JsonValue: TypeAlias = "str | int | float | bool | None | list[JsonValue] | dict[str, JsonValue]"

SEXES: tuple[Sex, ...] = get_args(Sex)
SEX_EN: Mapping[Sex, str] = MappingProxyType({"H": "M", "F": "F", "H/F": "M/F"})  # homme: male
CLASSES: tuple[SurvivorClass, ...] = get_args(SurvivorClass)
USES: tuple[Uses, ...] = get_args(Uses)
# "scenario" is a card's own object (fuel, medicine), added by its referee, never a data file's
KINDS: tuple[EquipmentKind, ...] = tuple(k for k in get_args(EquipmentKind) if k != "scenario")


def _to_json(item: DataclassInstance) -> dict[str, JsonValue]:
    """Every field, in declaration order; `class_` is spelled `class` as in the data files."""
    out: dict[str, JsonValue] = {}
    for field in fields(item):
        value = getattr(item, field.name)
        out[field.name.rstrip("_")] = list(value) if isinstance(value, tuple) else value
    return out


class Named:
    """An entry with the rulebook's French `name` and its English `name_en`."""

    __slots__ = ()
    name: str
    name_en: str

    @property
    def names(self) -> dict[str, str]:
        """Both names, as messages take them ({"fr", "en"})."""
        return {"fr": self.name, "en": self.name_en or self.name}


@dataclass(frozen=True, slots=True, kw_only=True)
class Skill(Named):
    """A survivor skill. `effect` is what the engine dispatches on; several skills may share one."""

    id: str
    name: str  # the rulebook's French
    name_en: str  # what an English-speaking table calls it
    aliases: tuple[str, ...]  # other spellings: feminine forms, the rulebook's own spellings
    effect: str
    cost: int  # points added to the figure: 1, or 2 for strong skills
    bonus: int | None = None  # roll or value modifier; negative for a malus
    radius: float | None = None  # inches, edge to edge
    count: int | None = None  # cocktails per AP, zombies, free items...
    uses: Uses | None = None  # once per game or per turn; None when unlimited
    text_fr: str
    text_en: str

    def to_json(self) -> dict[str, JsonValue]:
        return _to_json(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class Archetype(Named):
    """A survivor profile. defense, intelligence and panic are D6 targets ("4+" is 4)."""

    id: str
    name: str  # the rulebook's French
    name_en: str
    sex: Sex
    class_: SurvivorClass
    cost: int
    move: int
    wounds: int
    attack: int
    defense: int
    intelligence: int
    panic: int
    encumbrance: int
    skills: tuple[str, ...]  # skill ids; the player picks one per figure

    @property
    def label(self) -> str:
        """The rulebook's heading, e.g. "Ex-flic (H)"."""
        return f"{self.name} ({self.sex})"

    @property
    def label_en(self) -> str:
        """The heading in English, the sex in English letters: "Ex-cop (M)"."""
        return f"{self.name_en} ({SEX_EN[self.sex]})"

    def to_json(self) -> dict[str, JsonValue]:
        return _to_json(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class Equipment(Named):
    """An equipment item; which fields are set depends on `kind` (see equipment.toml)."""

    id: str
    name: str  # the rulebook's French
    name_en: str
    kind: EquipmentKind
    encumbrance: int
    rarity: int | None  # most a band may hold; None for the rulebook's "X" (unlimited)
    ap_cost: int  # 0 for items never "used": ammunition, protection
    range: float | None = None  # shooting and throwing, inches
    reach: float | None = None  # melee, inches: 0 is base contact
    roll_bonus: int = 0  # "+N aux blessures": added to the attack roll
    attacks_per_ap: int = 1
    ammo: str | None = None  # id of the ammunition item used up by each attack
    units: int = 1  # uses per item: 10 bolts, 2 cocktails, 5 heals
    effect: str | None = None  # healing and protection: the engine key
    bonus: int | None = None  # the effect's amount (PV healed, +1 defense...)
    text_fr: str
    text_en: str

    @property
    def is_weapon(self) -> bool:
        return self.kind in ("shooting", "throwing", "melee")

    def to_json(self) -> dict[str, JsonValue]:
        return _to_json(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class Zombie(Named):
    """A zombie type; `from_class` is the survivor class that turns into it when contaminated."""

    id: str
    name: str  # the rulebook's French
    name_en: str
    cost: int
    move: int
    wounds: int
    attack: int
    defense: int
    from_class: SurvivorClass

    def to_json(self) -> dict[str, JsonValue]:
        return _to_json(self)


@dataclass(frozen=True, slots=True)
class Catalog:
    """All the rules data, keyed by id, in file order. Build it with `load_catalog`."""

    archetypes: Mapping[str, Archetype]
    skills: Mapping[str, Skill]
    equipment: Mapping[str, Equipment]
    zombies: Mapping[str, Zombie]

    def __post_init__(self) -> None:
        for field in fields(self):  # read-only views, so a shared catalog cannot be edited
            object.__setattr__(self, field.name, MappingProxyType(dict(getattr(self, field.name))))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled (a game sent to a worker process, service/workers.py): the default catalog
        as a reference to it, loaded once in the process that reads it; another by value."""
        if _default_catalog.cache_info().currsize and self is _default_catalog():
            return load_catalog, ()
        return Catalog, tuple(dict(getattr(self, f.name)) for f in fields(self))

    def skills_of(self, archetype: Archetype | str) -> tuple[Skill, ...]:
        """The skills an archetype offers, as objects."""
        if isinstance(archetype, str):
            archetype = self.archetypes[archetype]
        return tuple(self.skills[skill_id] for skill_id in archetype.skills)

    def skill_named(self, name: str) -> Skill:
        """The skill with this id, name, English name or alias, ignoring case ("Violente" ->
        violent, "Hothead" -> tete_brulee)."""
        wanted = name.strip().casefold()
        for skill in self.skills.values():
            spellings = (skill.id, skill.name, skill.name_en, *skill.aliases)
            if wanted in {s.casefold() for s in spellings}:
                return skill
        raise KeyError(name)

    def zombie_for(self, survivor_class: SurvivorClass) -> Zombie:
        """The zombie a contaminated survivor of this class becomes."""
        for zombie in self.zombies.values():
            if zombie.from_class == survivor_class:
                return zombie
        raise KeyError(survivor_class)

    def to_json(self) -> dict[str, JsonValue]:
        """The `survive-us rules dump --json` document."""
        return {
            "archetypes": [a.to_json() for a in self.archetypes.values()],
            "zombies": [z.to_json() for z in self.zombies.values()],
            "equipment": [e.to_json() for e in self.equipment.values()],
            "skills": [s.to_json() for s in self.skills.values()],
        }


def load_catalog(directory: Path | None = None) -> Catalog:
    """Load and validate the four data files; raise `DataError` on the first bad value.

    The default directory is loaded once and cached; any other is read on every call.
    """
    return _default_catalog() if directory is None else _load(Path(directory))


@functools.cache
def _default_catalog() -> Catalog:
    return _load(DATA_DIR)


def _load(directory: Path) -> Catalog:
    skills = _entries(directory / "skills.toml", "skills", _read_skill)
    _check_aliases(skills)
    archetypes = _entries(directory / "archetypes.toml", "archetypes", _read_archetype)
    for location, archetype in archetypes.values():
        for skill_id in archetype.skills:
            if skill_id not in skills:
                raise location.bad_value("skills", "ids of skills in skills.toml", skill_id)
    equipment = _entries(directory / "equipment.toml", "equipment", _read_equipment)
    for location, item in equipment.values():
        if item.ammo is None:
            continue
        ammo = equipment.get(item.ammo)
        if ammo is None or ammo[1].kind != "ammunition":
            raise location.bad_value("ammo", "the id of an ammunition item", item.ammo)
    zombies_path = directory / "zombies.toml"
    zombies = _entries(zombies_path, "zombies", _read_zombie)
    _check_one_zombie_per_class(source_label(zombies_path), zombies)
    return Catalog(
        archetypes={key: value for key, (_, value) in archetypes.items()},
        skills={key: value for key, (_, value) in skills.items()},
        equipment={key: value for key, (_, value) in equipment.items()},
        zombies={key: value for key, (_, value) in zombies.items()},
    )


Item = TypeVar("Item", Archetype, Skill, Equipment, Zombie)


def _entries(
    path: Path, key: str, read: Callable[[EntryReader], Item]
) -> dict[str, tuple[Location, Item]]:
    """Read every entry of a file with `read`, rejecting duplicate ids; keep each location."""
    tables = read_entries(path, key)
    out: dict[str, tuple[Location, Item]] = {}
    for location, table in tables:
        reader = EntryReader(location, table)
        item = read(reader)
        reader.finish()
        if item.id in out:
            raise reader.location.bad_value("id", "an id not used by an earlier entry", item.id)
        out[item.id] = (reader.location, item)
    return out


def _read_skill(r: EntryReader) -> Skill:
    return Skill(
        id=r.ident(),
        name=r.text("name"),
        name_en=r.text("name_en"),
        aliases=r.texts("aliases"),
        text_fr=r.text("text_fr"),
        text_en=r.text("text_en"),
        effect=r.ident("effect"),
        cost=r.integer("cost", low=1, high=2),
        bonus=r.optional_integer("bonus", low=-6, high=6),
        radius=r.optional_distance("radius", strict=True),
        count=r.optional_integer("count", low=1),
        uses=r.optional_choice("uses", USES),
    )


def _read_archetype(r: EntryReader) -> Archetype:
    return Archetype(
        id=r.ident(),
        name=r.text("name"),
        name_en=r.text("name_en"),
        sex=r.choice("sex", SEXES),
        class_=r.choice("class", CLASSES),
        cost=r.integer("cost", low=1),
        move=r.integer("move", low=1),
        wounds=r.integer("wounds", low=1),
        attack=r.integer("attack", low=1),
        defense=_target(r, "defense"),
        intelligence=_target(r, "intelligence"),
        panic=_target(r, "panic"),
        encumbrance=r.integer("encumbrance", low=1),
        skills=r.texts("skills", count=3),
    )


def _target(r: EntryReader, field: str) -> int:
    """A D6 target number ("4+" is 4): 1 always fails, so 2+ is the easiest that means anything."""
    return r.integer(field, low=2, high=6)


def _read_equipment(r: EntryReader) -> Equipment:
    item = Equipment(
        id=r.ident(),
        name=r.text("name"),
        name_en=r.text("name_en"),
        kind=r.choice("kind", KINDS),
        encumbrance=r.integer("encumbrance", low=1),
        rarity=r.optional_integer("rarity", low=1),
        ap_cost=r.integer("ap_cost", low=0),
        text_fr=r.text("text_fr"),
        text_en=r.text("text_en"),
        range=r.optional_distance("range", strict=True),
        reach=r.optional_distance("reach"),
        roll_bonus=r.integer("roll_bonus", low=-6, high=6, default=0),
        attacks_per_ap=r.integer("attacks_per_ap", low=1, default=1),
        ammo=r.optional_ident("ammo"),
        units=r.integer("units", low=1, default=1),
        effect=r.optional_ident("effect"),
        bonus=r.optional_integer("bonus", low=-6, high=6),
    )
    _check_equipment_kind(r.location, item)
    return item


def _check_equipment_kind(location: Location, item: Equipment) -> None:
    """The fields each kind needs, and those it must not have."""
    passive = item.kind in ("healing", "protection")
    rules = {  # field -> "needed", "allowed" or "forbidden" for this kind
        "range": "needed" if item.kind in ("shooting", "throwing") else "forbidden",
        "reach": "needed" if item.kind == "melee" else "forbidden",
        "ammo": "allowed" if item.kind == "shooting" else "forbidden",
        "effect": "needed" if passive else "forbidden",
        "bonus": "needed" if passive else "forbidden",
    }
    kind = quote(item.kind)
    for field, rule in rules.items():
        value = getattr(item, field)
        if rule == "needed" and value is None:
            raise location.error(field, f"missing required field for kind {kind}")
        if rule == "forbidden" and value is not None:
            raise location.error(field, f"not allowed for kind {kind}, got {quote(value)}")
    if (item.is_weapon or item.kind == "healing") and item.ap_cost < 1:
        raise location.bad_value("ap_cost", f"a positive integer for kind {kind}", item.ap_cost)


def _read_zombie(r: EntryReader) -> Zombie:
    return Zombie(
        id=r.ident(),
        name=r.text("name"),
        name_en=r.text("name_en"),
        cost=r.integer("cost", low=1),
        move=r.integer("move", low=1),
        wounds=r.integer("wounds", low=1),
        attack=r.integer("attack", low=1),
        defense=_target(r, "defense"),
        from_class=r.choice("from_class", CLASSES),
    )


def _check_aliases(skills: Mapping[str, tuple[Location, Skill]]) -> None:
    """Every id, name, English name and alias points at one skill, so `Catalog.skill_named`
    is unambiguous."""
    seen: dict[str, str] = {}
    for location, skill in skills.values():
        named = (("name", (skill.name,)), ("name_en", (skill.name_en,)), ("aliases", skill.aliases))
        for field, spellings in named:
            for spelling in spellings:
                key = spelling.casefold()
                owner = seen.setdefault(key, skill.id)
                if owner != skill.id:
                    raise location.error(
                        field, f"spelling already used by skill {owner!r}, got {quote(spelling)}"
                    )
        seen.setdefault(skill.id, skill.id)


def _check_one_zombie_per_class(
    source: str, zombies: Mapping[str, tuple[Location, Zombie]]
) -> None:
    """Contamination must turn every survivor class into exactly one zombie type."""
    owners: dict[str, str] = {}
    for location, zombie in zombies.values():
        if zombie.from_class in owners:
            earlier = owners[zombie.from_class]
            raise location.error(
                "from_class",
                f"class already turns into {earlier!r}, got {quote(zombie.from_class)}",
            )
        owners[zombie.from_class] = zombie.id
    for survivor_class in CLASSES:
        if survivor_class not in owners:
            raise DataError(
                f"{source}: no zombie has from_class {quote(survivor_class)}",
                where=f"{Path(source).name}:from_class",
            )
