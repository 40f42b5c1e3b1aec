"""Warband (roster) building: plain-data rosters, full validation and costs.

A roster is plain JSON data (docs/rules.md D32-D35):

    {"name": "Les flics et les gosses",
     "members": [{"id": "m1", "archetype": "ex_flic_h", "name": "Lucas",
                  "skill": "combattant", "second_skill": null,
                  "equipment": {"pistolet": 1, "balles": 2}}]}

`Roster.from_json` rejects malformed data (wrong types, unknown fields) with a `RosterError`
naming the field. `validate` then checks the band-building rules and lists every problem at
once; a roster is legal when none of them is an error. `figure_cost`, `band_cost` and
`cost_breakdown` price a figure as base cost + skill cost(s) + encumbrance used, the free
encumbrance of *sac à dos* and *trousse* excluded (D4, D35).

>>> roster = Roster.from_json({"name": "duo", "members": [
...     {"id": "m1", "archetype": "ex_flic_h", "skill": "combattant",
...      "equipment": {"pistolet": 1, "balles": 2}}]})
>>> figure_cost(roster.members[0])
13
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, TypeAlias

from geometry.errors import SurviveUsError
from i18n import Message, Name, render
from rules.catalog import DATA_DIR, Archetype, Catalog, Equipment, Skill, load_catalog
from rules.settings import DEFAULT_SETTINGS, Settings

__all__ = [
    "BANDS_DIR",
    "MAX_FIGURES",
    "MIN_FIGURES",
    "Member",
    "Problem",
    "Roster",
    "RosterError",
    "Severity",
    "archetype_name",
    "band_cost",
    "class_name",
    "cost_breakdown",
    "example_bands",
    "figure_cost",
    "is_legal",
    "item_name",
    "member_name",
    "points",
    "skill_name",
    "validate",
]

BANDS_DIR = DATA_DIR / "bands"
MIN_FIGURES = 5
MAX_FIGURES = 8

# Skill effect keys (rules/data/skills.toml) that change what a figure may carry.
EXTRA_ENCUMBRANCE = "free_extra_encumbrance"  # sac à dos: +bonus encumbrance, not paid
FREE_HEALING_ITEMS = "free_healing_items"  # trousse: `count` healing items, no E, no cost
PROF_ADDED_SKILLS = frozenset({"pedagogue", "rassurant"})  # D13 team additions

Severity: TypeAlias = Literal["error", "warning"]
JsonDict: TypeAlias = dict[str, Any]

_MEMBER_FIELDS = ("id", "archetype", "sex", "name", "skill", "second_skill", "equipment")
_ROSTER_FIELDS = ("name", "name_en", "members")


class RosterError(SurviveUsError, ValueError):
    """A roster that is not well-formed data, or that cannot be priced."""

    code = "invalid_band"


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken rule: where it is (a path into the roster, for programs), what is wrong,
    what to change. `words` and `fix_words` are the two as messages (`i18n`), said in the
    reader's language; `message` and `fix` are their English words."""

    where: str
    message: str
    fix: str
    severity: Severity = "error"
    code: str = ""  # short machine key, e.g. "encumbrance", "rarity", "band_size"
    words: Message | None = None
    fix_words: Message | None = None

    @classmethod
    def of(cls, where: str, code: str, words: Message, fix_words: Message,
           severity: Severity = "error") -> Problem:
        """A problem said by its messages; `message` and `fix` are their English."""
        return cls(where, render(words, "en"), render(fix_words, "en"), severity, code,
                   words, fix_words)

    def text(self, lang: str = "en") -> str:
        return self.message if self.words is None else render(self.words, lang)

    def fix_text(self, lang: str = "en") -> str:
        return self.fix if self.fix_words is None else render(self.fix_words, lang)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "severity": self.severity,
            "code": self.code,
            "where": self.where,
            "message": self.message,
            "fix": self.fix,
        }
        if self.words is not None:
            out["words"] = self.words.to_json()
        if self.fix_words is not None:
            out["fix_words"] = self.fix_words.to_json()
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Member:
    """One figure of the band. `equipment` maps item ids to counts (read-only)."""

    id: str
    archetype: str
    sex: Literal["H", "F"] | None = None
    name: str | None = None
    skill: str | None = None
    second_skill: str | None = None
    equipment: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "equipment", MappingProxyType(dict(self.equipment)))

    @classmethod
    def from_json(cls, data: Any, where: str = "member") -> Member:
        obj = _object(data, where, _MEMBER_FIELDS)
        return cls(
            id=_text(obj, "id", where),
            archetype=_text(obj, "archetype", where),
            sex=_sex(obj, where),
            name=_optional_text(obj, "name", where),
            skill=_optional_text(obj, "skill", where),
            second_skill=_optional_text(obj, "second_skill", where),
            equipment=_equipment(obj.get("equipment"), f"{where}.equipment"),
        )

    def to_json(self) -> JsonDict:
        out: JsonDict = {"id": self.id, "archetype": self.archetype}
        if self.sex is not None:
            out["sex"] = self.sex
        if self.name is not None:
            out["name"] = self.name
        out["skill"] = self.skill
        out["second_skill"] = self.second_skill
        out["equipment"] = dict(self.equipment)
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Roster:
    """A survivors' band: a name and its figures, in order. `name_en` is an English name for
    the bands shipped with the rules (a player's own band has the name they gave it)."""

    name: str
    members: tuple[Member, ...] = ()
    name_en: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "members", tuple(self.members))

    @classmethod
    def from_json(cls, data: Any, where: str = "") -> Roster:
        """A roster from parsed JSON; `RosterError` names the first malformed field."""
        obj = _object(data, where, _ROSTER_FIELDS)
        members = obj.get("members", _MISSING)
        members_at = _join(where, "members")
        if members is _MISSING:
            raise RosterError(_malformed("missing", members_at), members_at)
        if not isinstance(members, list):
            raise RosterError(_malformed("list", members_at, members), members_at)
        return cls(
            name=_text(obj, "name", where),
            name_en=_optional_text(obj, "name_en", where),
            members=tuple(
                Member.from_json(item, f"{members_at}[{i}]") for i, item in enumerate(members)
            ),
        )

    @classmethod
    def load(cls, path: Path | str) -> Roster:
        """Read a roster JSON file; unreadable or malformed files raise `RosterError`."""
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise RosterError(Message("warband.json.unreadable", {
                "file": path.name, "error": str(error)}), path.name) from None
        return cls.from_json(data)

    def to_json(self) -> JsonDict:
        out: JsonDict = {"name": self.name}
        if self.name_en is not None:
            out["name_en"] = self.name_en
        out["members"] = [m.to_json() for m in self.members]
        return out

    @property
    def names(self) -> dict[str, str]:
        """The band's name in French and English (the same when it has one name)."""
        return {"fr": self.name, "en": self.name_en or self.name}


def example_bands() -> dict[str, Roster]:
    """The bundled example bands in rules/data/bands/, by file stem."""
    return {path.stem: Roster.load(path) for path in sorted(BANDS_DIR.glob("*.json"))}


# ---------------------------------------------------------------------------------------------
# Costs


@dataclass(frozen=True, slots=True)
class _Load:
    """What a figure carries: `carried` counts against `capacity`; `paid` is charged in points."""

    carried: int
    capacity: int
    paid: int
    free_backpack: int
    free_healing: int  # encumbrance of the healing items carried free by trousse
    free_counts: Mapping[str, int]  # item id -> how many of it trousse carries free

    @property
    def free_healing_items(self) -> int:
        return sum(self.free_counts.values())


def _active_skills(member: Member, catalog: Catalog) -> list[Skill]:
    ids = [s for s in (member.skill, member.second_skill) if s is not None]
    return [catalog.skills[s] for s in ids if s in catalog.skills]


def _load(member: Member, archetype: Archetype, catalog: Catalog) -> _Load:
    """Encumbrance of a member's known items, with sac à dos and trousse applied (D35)."""
    skills = _active_skills(member, catalog)
    backpack = sum(s.bonus or 0 for s in skills if s.effect == EXTRA_ENCUMBRANCE)
    free_slots = sum(s.count or 0 for s in skills if s.effect == FREE_HEALING_ITEMS)
    items = [catalog.equipment[i] for i in member.equipment if i in catalog.equipment]
    # trousse carries the healing items for free; the heaviest go first, the best for the player
    free_counts: dict[str, int] = {}
    for item in sorted(items, key=lambda e: -e.encumbrance):
        if item.kind != "healing" or free_slots <= 0:
            continue
        free_counts[item.id] = min(free_slots, member.equipment[item.id])
        free_slots -= free_counts[item.id]
    free_healing = sum(catalog.equipment[i].encumbrance * n for i, n in free_counts.items())
    carried = sum(e.encumbrance * member.equipment[e.id] for e in items) - free_healing
    beyond = min(max(carried - archetype.encumbrance, 0), backpack)  # in the backpack: free
    return _Load(
        carried=carried,
        capacity=archetype.encumbrance + backpack,
        paid=carried - beyond,
        free_backpack=beyond,
        free_healing=free_healing,
        free_counts=free_counts,
    )


def _skill_cost(skill_id: str | None, catalog: Catalog, settings: Settings, where: str) -> int:
    if skill_id is None:
        return 0
    skill = catalog.skills.get(skill_id)
    if skill is None:
        raise RosterError(Message("warband.cannot_price.skill", {"skill": skill_id}), where)
    return skill.cost if settings.skill_cost == "per_skill" else settings.skill_cost


def cost_breakdown(
    member: Member, catalog: Catalog | None = None, settings: Settings | None = None
) -> dict[str, int]:
    """A figure's cost in parts, for a page.

    Keys: `base` (archetype cost), `skill`, `second_skill` (0 when none), `equipment`
    (encumbrance points paid), `free` (encumbrance points carried free: the sac à dos part
    beyond E and the trousse's healing items), `total` (base + skills + equipment),
    `carried` (encumbrance counted against the limit) and `capacity` (E, +3 with sac à dos).
    Raises `RosterError` when the archetype, a skill or an item is unknown.
    """
    catalog = catalog or load_catalog()
    settings = settings or DEFAULT_SETTINGS
    archetype = catalog.archetypes.get(member.archetype)
    if archetype is None:
        where = f"{member.id}.archetype"
        raise RosterError(
            Message("warband.cannot_price.archetype", {"archetype": member.archetype}), where
        )
    for item_id in member.equipment:
        if item_id not in catalog.equipment:
            where = f"{member.id}.equipment.{item_id}"
            raise RosterError(Message("warband.cannot_price.item", {"item": item_id}), where)
    skill = _skill_cost(member.skill, catalog, settings, f"{member.id}.skill")
    second = _skill_cost(member.second_skill, catalog, settings, f"{member.id}.second_skill")
    load = _load(member, archetype, catalog)
    return {
        "base": archetype.cost,
        "skill": skill,
        "second_skill": second,
        "equipment": load.paid,
        "free": load.free_backpack + load.free_healing,
        "total": archetype.cost + skill + second + load.paid,
        "carried": load.carried,
        "capacity": load.capacity,
    }


def figure_cost(
    member: Member, catalog: Catalog | None = None, settings: Settings | None = None
) -> int:
    """Base cost + skill cost(s) + encumbrance paid (D4, D35)."""
    return cost_breakdown(member, catalog, settings)["total"]


def band_cost(
    roster: Roster, catalog: Catalog | None = None, settings: Settings | None = None
) -> int:
    """The sum of the figures' costs."""
    catalog = catalog or load_catalog()
    return sum(figure_cost(m, catalog, settings) for m in roster.members)


# ---------------------------------------------------------------------------------------------
# Validation


def is_legal(
    roster: Roster, catalog: Catalog | None = None, settings: Settings | None = None
) -> bool:
    return not any(p.severity == "error" for p in validate(roster, catalog, settings))


def validate(
    roster: Roster, catalog: Catalog | None = None, settings: Settings | None = None
) -> list[Problem]:
    """Every problem of the roster, errors and warnings, in a stable order.

    Band size, classes, then each member (id, archetype, sex, skills, items, encumbrance,
    ammunition), then rarity across the band, then the points limit. Each problem says what
    is wrong and what to do as messages naming members, archetypes, skills and items as a
    player does (`member_name`, the catalog's French and English names), never by an id.
    """
    catalog = catalog or load_catalog()
    settings = settings or DEFAULT_SETTINGS
    problems: list[Problem] = []
    problems += _check_size(roster)
    problems += _check_classes(roster, catalog)
    seen_ids: set[str] = set()
    for index, member in enumerate(roster.members):
        where = f"members[{index}]"
        who = member_name(member, roster, catalog)
        if member.id in seen_ids:
            problems.append(Problem.of(
                f"{where}.id", "duplicate_id",
                Message("warband.duplicate_id", {"member": who, "id": member.id}),
                Message("warband.fix.duplicate_id")))
        seen_ids.add(member.id)
        problems += _check_member(member, where, who, roster, catalog, settings)
    problems += _check_rarity(roster, catalog)
    problems += _check_points(roster, catalog, settings)
    return problems


def _check_size(roster: Roster) -> list[Problem]:
    n = len(roster.members)
    if MIN_FIGURES <= n <= MAX_FIGURES:
        return []
    span = {"n": n, "min": MIN_FIGURES, "max": MAX_FIGURES}
    if n < MIN_FIGURES:
        short = MIN_FIGURES - n
        fix = (Message("warband.fix.add_figures.one") if short == 1
               else Message("warband.fix.add_figures", {"n": short}))
    else:
        extra = n - MAX_FIGURES
        fix = (Message("warband.fix.remove_figures.one") if extra == 1
               else Message("warband.fix.remove_figures", {"n": extra}))
    words = (Message("warband.band_size.none", span) if n == 0
             else Message("warband.band_size.one", span) if n == 1
             else Message("warband.band_size", span))
    return [Problem.of("members", "band_size", words, fix)]


def class_name(survivor_class: str) -> Message:
    """The rulebook's word for a survivor class: héros, suiveur, boulet."""
    words = {"hero": Message("warband.class.hero"),
             "follower": Message("warband.class.follower"),
             "burden": Message("warband.class.burden")}
    return words[survivor_class]


def _check_classes(roster: Roster, catalog: Catalog) -> list[Problem]:
    present = {
        catalog.archetypes[m.archetype].class_
        for m in roster.members
        if m.archetype in catalog.archetypes
    }
    problems = []
    for survivor_class in ("hero", "follower", "burden"):
        if survivor_class in present:
            continue
        options = [
            archetype_name(a, catalog)
            for a in catalog.archetypes.values()
            if a.class_ == survivor_class
        ]
        word = class_name(survivor_class)
        problems.append(Problem.of(
            "members", f"no_{survivor_class}",
            Message("warband.no_class", {"class": word}),
            Message("warband.fix.add_class", {"class": word, "options": options})))
    return problems


def _check_member(
    member: Member, where: str, who: Name, roster: Roster, catalog: Catalog,
    settings: Settings
) -> list[Problem]:
    problems: list[Problem] = []
    archetype = catalog.archetypes.get(member.archetype)
    if archetype is None:
        problems.append(Problem.of(
            f"{where}.archetype", "unknown_archetype",
            Message("warband.unknown_archetype", {"member": who, "archetype": member.archetype}),
            _suggest(member.archetype, {a.id: archetype_name(a, catalog)
                                        for a in catalog.archetypes.values()},
                     Message("warband.fix.archetype_any", {"options": [
                         archetype_name(a, catalog) for a in catalog.archetypes.values()]}))))
    if archetype is not None:
        problems += _check_sex(member, archetype, where, who, roster, catalog)
        problems += _check_skills(member, archetype, where, who, catalog, settings)
    for item_id in member.equipment:
        if item_id not in catalog.equipment:
            problems.append(Problem.of(
                f"{where}.equipment.{item_id}", "unknown_item",
                Message("warband.unknown_item", {"member": who, "item": item_id}),
                _suggest(item_id, {e.id: item_name(e) for e in catalog.equipment.values()},
                         Message("warband.fix.item_any", {"options": [
                             item_name(e) for e in catalog.equipment.values()]}))))
    if archetype is not None:
        problems += _check_encumbrance(member, archetype, where, who, catalog)
    problems += _check_ammunition(member, where, who, catalog, settings)
    return problems


def _check_sex(
    member: Member, archetype: Archetype, where: str, who: Name, roster: Roster,
    catalog: Catalog
) -> list[Problem]:
    if archetype.sex != "H/F":
        if member.sex is not None and member.sex != archetype.sex:
            return [Problem.of(
                f"{where}.sex", "sex",
                Message("warband.sex", {"member": who, "sex": _sex_words(archetype.sex),
                                        "given": _sex_letter(member.sex)}),
                Message("warband.fix.sex", {"sex": _sex_letter(archetype.sex)}))]
        return []
    meneuse = catalog.skills.get("meneuse")
    has_meneuse = any("meneuse" in (m.skill, m.second_skill) for m in roster.members)
    if member.sex is None and has_meneuse and meneuse is not None:
        return [Problem.of(
            f"{where}.sex", "sex_unknown",
            Message("warband.sex_unknown", {"member": who, "skill": skill_name(meneuse)}),
            Message("warband.fix.set_sex"), severity="warning")]
    return []


def _sex_words(sex: str) -> Message:
    return Message("warband.sex.man") if sex == "H" else Message("warband.sex.woman")


def _sex_letter(sex: str) -> Name:
    """The sex as a player writes it: H or F in French, M or F in English."""
    return {"fr": sex, "en": "M" if sex == "H" else sex}


def _offered(archetype: Archetype, settings: Settings) -> tuple[str, ...]:
    """The skills an archetype offers under the settings (D13: the printed Prof has one)."""
    if settings.prof_skills == "printed":
        return tuple(s for s in archetype.skills if s not in PROF_ADDED_SKILLS)
    return archetype.skills


def _priced(skill_ids: Iterable[str], catalog: Catalog) -> list[Message]:
    """Skills with their cost: "Combattant (1 pt)"."""
    return [Message("warband.skill_cost", {"skill": skill_name(catalog.skills[s]),
                                           "cost": points(catalog.skills[s].cost)})
            for s in skill_ids]


def _check_skills(
    member: Member,
    archetype: Archetype,
    where: str,
    who: Name,
    catalog: Catalog,
    settings: Settings,
) -> list[Problem]:
    offered = _offered(archetype, settings)
    choose = Message("warband.fix.choose_skill", {
        "archetype": archetype_name(archetype, catalog), "options": _priced(offered, catalog)})
    problems = []
    if member.skill is None:
        problems.append(Problem.of(f"{where}.skill", "no_skill",
                                   Message("warband.no_skill", {"member": who}), choose))
    elif member.skill not in offered:
        params = {"member": who, "skill": _skill_called(member.skill, catalog)}
        problems.append(Problem.of(
            f"{where}.skill", "skill_not_offered",
            Message("warband.skill_not_offered.printed", params)
            if _printed_away(member.skill, archetype)
            else Message("warband.skill_not_offered", params),
            _skill_fix(member.skill, offered, catalog, choose)))
    second = member.second_skill
    if second is None:
        return problems
    others = tuple(s for s in offered if s != member.skill)
    params = {"member": who, "skill": _skill_called(second, catalog)}
    if second == member.skill:
        problems.append(Problem.of(
            f"{where}.second_skill", "second_skill_repeated",
            Message("warband.second_skill_repeated", params), _second_fix(others, catalog)))
    elif second not in offered:
        problems.append(Problem.of(
            f"{where}.second_skill", "second_skill_not_offered",
            Message("warband.second_skill_not_offered.printed", params)
            if _printed_away(second, archetype)
            else Message("warband.second_skill_not_offered", params),
            _second_fix(others, catalog)))
    return problems


def _printed_away(skill_id: str, archetype: Archetype) -> bool:
    """Offered by the data, removed by the setting prof_skills = "printed" (D13)."""
    return skill_id in archetype.skills


def _skill_called(skill_id: str, catalog: Catalog) -> Name | str:
    """A skill as a player calls it; a value that is no skill as it was written."""
    skill = catalog.skills.get(skill_id)
    return skill_name(skill) if skill is not None else skill_id


def _skill_fix(skill_id: str, offered: tuple[str, ...], catalog: Catalog,
               choose: Message) -> Message:
    try:  # a spelling of an offered skill ("Combattante") only needs its id
        spelled = catalog.skill_named(skill_id)
    except KeyError:
        return choose
    if spelled.id in offered:
        return Message("warband.fix.skill_spelling", {"skill": skill_name(spelled),
                                                      "id": spelled.id})
    return choose


def _second_fix(others: tuple[str, ...], catalog: Catalog) -> Message:
    if not others:
        return Message("warband.fix.no_other_skill")
    return Message("warband.fix.other_skill", {"options": _priced(others, catalog)})


def _check_encumbrance(
    member: Member, archetype: Archetype, where: str, who: Name, catalog: Catalog
) -> list[Problem]:
    load = _load(member, archetype, catalog)
    if load.carried <= load.capacity:
        return []
    excess = load.carried - load.capacity
    limit: int | Message = load.capacity
    if load.capacity != archetype.encumbrance:
        backpack = next((s for s in _active_skills(member, catalog)
                         if s.effect == EXTRA_ENCUMBRANCE), None)
        limit = Message("warband.limit_backpack", {
            "n": load.capacity, "e": archetype.encumbrance,
            "bonus": load.capacity - archetype.encumbrance,
            "skill": skill_name(backpack) if backpack is not None else ""})
    params: dict[str, Any] = {"member": who, "carried": load.carried, "limit": limit}
    if load.free_healing_items:
        kit = next((s for s in _active_skills(member, catalog)
                    if s.effect == FREE_HEALING_ITEMS), None)
        words = Message("warband.encumbrance.free", {
            **params, "free": load.free_healing_items,
            "skill": skill_name(kit) if kit is not None else ""})
    else:
        words = Message("warband.encumbrance", params)
    pick = _example(member, excess, load, catalog)
    if pick is None:
        fix = (Message("warband.fix.lighten.one") if excess == 1
               else Message("warband.fix.lighten", {"n": excess}))
    else:
        example = {"n": excess, "item": item_name(pick), "e": pick.encumbrance}
        fix = (Message("warband.fix.lighten_example.one", example) if excess == 1
               else Message("warband.fix.lighten_example", example))
    return [Problem.of(f"{where}.equipment", "encumbrance", words, fix)]


def _example(member: Member, excess: int, load: _Load, catalog: Catalog) -> Equipment | None:
    """The lightest item that alone removes the excess, else the heaviest.

    Items that trousse carries free are not offered: removing them frees nothing.
    """
    items = [
        catalog.equipment[i]
        for i, n in member.equipment.items()
        if i in catalog.equipment and n > load.free_counts.get(i, 0)
    ]
    if not items:
        return None
    enough = [e for e in items if e.encumbrance >= excess]
    if enough:
        return min(enough, key=lambda e: e.encumbrance)
    return max(items, key=lambda e: e.encumbrance)


def _check_ammunition(
    member: Member, where: str, who: Name, catalog: Catalog, settings: Settings
) -> list[Problem]:
    items = [catalog.equipment[i] for i in member.equipment if i in catalog.equipment]
    problems = []
    for item in items:
        if item.kind != "ammunition":
            continue
        users = [e for e in catalog.equipment.values() if e.ammo == item.id]
        if any(e.id in member.equipment for e in users):
            continue
        params: dict[str, Any] = {"member": who, "ammo": item_name(item),
                                  "weapons": [item_name(e) for e in users]}
        problems.append(Problem.of(
            f"{where}.equipment.{item.id}", "ammunition_without_weapon",
            Message("warband.ammunition_without_weapon", params),
            Message("warband.fix.ammunition_without_weapon", params), severity="warning"))
    if not settings.track_ammunition:
        return problems
    for item in items:
        if item.ammo is None or item.ammo in member.equipment:
            continue
        ammo = catalog.equipment[item.ammo]
        params = {"member": who, "weapon": item_name(item), "ammo": item_name(ammo),
                  "e": ammo.encumbrance}
        problems.append(Problem.of(
            f"{where}.equipment.{item.id}", "weapon_without_ammunition",
            Message("warband.weapon_without_ammunition", params),
            Message("warband.fix.weapon_without_ammunition", params), severity="warning"))
    return problems


def _check_rarity(roster: Roster, catalog: Catalog) -> list[Problem]:
    held: dict[str, list[tuple[Member, int]]] = {}
    for member in roster.members:
        for item_id, count in member.equipment.items():
            held.setdefault(item_id, []).append((member, count))
    problems = []
    for item_id, holders in held.items():
        item = catalog.equipment.get(item_id)
        if item is None or item.rarity is None:
            continue
        total = sum(count for _, count in holders)
        if total <= item.rarity:
            continue
        who = [Message("warband.holder", {"member": member_name(m, roster, catalog), "n": n})
               for m, n in holders]
        name = item_name(item)
        problems.append(Problem.of(
            f"members[*].equipment.{item_id}", "rarity",
            Message("warband.rarity", {"n": total, "item": name, "holders": who,
                                       "rarity": item.rarity}),
            Message("warband.fix.rarity", {"n": total - item.rarity, "item": name})))
    return problems


def _check_points(roster: Roster, catalog: Catalog, settings: Settings) -> list[Problem]:
    limit = settings.band_points_limit
    if limit is None:
        return []
    try:
        cost = band_cost(roster, catalog, settings)
    except RosterError:  # unknown ids are reported on their own; the cost is not known
        return []
    if cost <= limit:
        return []
    over = cost - limit
    return [Problem.of(
        "members", "points_limit",
        Message("warband.points_limit", {"cost": points(cost), "limit": points(limit)}),
        Message("warband.fix.points.one") if over == 1
        else Message("warband.fix.points", {"n": over}))]


# ---------------------------------------------------------------------------------------------
# Wording: what a player calls each thing, in French and English


def archetype_name(archetype: Archetype, catalog: Catalog) -> Name:
    """The archetype's name, with its sex when another profile shares the name in that
    language: "Ado (F)" / "Teen (F)", "Ex-flic (H)" / "Ex-cop (M)", and "Bruiser (M)" in
    English though French tells Bourrin and Bourrine apart."""
    others = [a for a in catalog.archetypes.values() if a.id != archetype.id]
    return {"fr": archetype.label if any(a.name == archetype.name for a in others)
            else archetype.name,
            "en": archetype.label_en if any(a.name_en == archetype.name_en for a in others)
            else archetype.name_en}


def skill_name(skill: Skill) -> Name:
    return skill.names


def item_name(item: Equipment) -> Name:
    return item.names


def points(n: int) -> Message:
    """A cost in points: "1 pt", "12 pts"."""
    return Message("warband.points.one") if n == 1 else Message("warband.points", {"n": n})


def member_name(member: Member, roster: Roster | Iterable[Member],
                catalog: Catalog | None = None) -> Name:
    """What a player calls a member of the band: its own name (Lucas), else its archetype's
    heading in French and English ("Ex-flic (H)" / "Ex-cop (M)"), with the number of its id
    when another member goes by the same name ("Enfant 3"), as `rules.names` names figures.
    A member whose archetype is unknown is "membre n° 3" / "member no. 3"."""
    catalog = catalog or load_catalog()
    members = roster.members if isinstance(roster, Roster) else tuple(roster)
    name = _plain_name(member, catalog)
    shared = sum(1 for m in members if _plain_name(m, catalog) == name) > 1
    number = _number_of(member.id)
    if name is None:
        return {"fr": f"membre n° {number or '?'}", "en": f"member no. {number or '?'}"}
    if shared and number:
        return {"fr": f"{name['fr']} {number}", "en": f"{name['en']} {number}"}
    return name


def _plain_name(member: Member, catalog: Catalog) -> Name | None:
    archetype = catalog.archetypes.get(member.archetype)
    if member.name:
        if archetype is not None and member.name in (archetype.name, archetype.label):
            english = archetype.name_en if member.name == archetype.name else archetype.label_en
            return {"fr": member.name, "en": english}
        return {"fr": member.name, "en": member.name}
    if archetype is None:
        return None
    return {"fr": archetype.label, "en": archetype.label_en}


def _number_of(member_id: str) -> str:
    digits = ""
    for ch in reversed(member_id):
        if not ch.isdigit():
            break
        digits = ch + digits
    return digits.lstrip("0") or ("0" if digits else "")


def _suggest(wrong: str, known: Mapping[str, Name], otherwise: Message) -> Message:
    """The names of the known ids close to a wrong one: "did you mean Enfant?"; `otherwise`
    when none is close."""
    close = difflib.get_close_matches(wrong, list(known), n=3, cutoff=0.6)
    if len(close) == 1:
        return Message("warband.fix.did_you_mean.one", {"option": known[close[0]]})
    if close:
        return Message("warband.fix.did_you_mean", {"options": [known[c] for c in close]})
    return otherwise


# ---------------------------------------------------------------------------------------------
# Reading plain data

_MISSING: Any = object()


def _malformed(kind: str, field: str, value: Any = None) -> Message:
    """A field of the roster's JSON that is not well-formed, for whoever wrote the JSON: the
    field's path, what it must be, what it was."""
    said = {"missing": Message("warband.json.missing"),
            "list": Message("warband.json.expected_list"),
            "object": Message("warband.json.expected_object"),
            "text": Message("warband.json.expected_text"),
            "sex": Message("warband.json.expected_sex"),
            "equipment": Message("warband.json.expected_equipment"),
            "item_ids": Message("warband.json.expected_item_ids"),
            "count": Message("warband.json.expected_count")}[kind]
    return Message(said.code, {"field": field, "value": repr(value)})


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def _object(data: Any, where: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    """`data` as a dict with only `allowed` keys; `where` is its path ("" for the roster)."""
    if not isinstance(data, Mapping):
        label = where or "band"
        raise RosterError(_malformed("object", label, data), label)
    for key in data:
        if key not in allowed:
            at = _join(where, str(key))
            raise RosterError(Message("warband.json.unknown_field", {
                "field": at, "allowed": ", ".join(allowed)}), at)
    return dict(data)


def _text(obj: Mapping[str, Any], key: str, where: str) -> str:
    at = _join(where, key)
    value = obj.get(key, _MISSING)
    if value is _MISSING:
        raise RosterError(_malformed("missing", at), at)
    if not isinstance(value, str) or not value.strip():
        raise RosterError(_malformed("text", at, value), at)
    return value


def _optional_text(obj: Mapping[str, Any], key: str, where: str) -> str | None:
    if obj.get(key) is None:
        return None
    return _text(obj, key, where)


def _sex(obj: Mapping[str, Any], where: str) -> Literal["H", "F"] | None:
    value = obj.get("sex")
    if value is None:
        return None
    if value == "H":
        return "H"
    if value == "F":
        return "F"
    at = _join(where, "sex")
    raise RosterError(_malformed("sex", at, value), at)


def _equipment(data: Any, where: str) -> dict[str, int]:
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise RosterError(_malformed("equipment", where, data), where)
    out: dict[str, int] = {}
    for key, count in data.items():
        at = f"{where}.{key}"
        if not isinstance(key, str) or not key.strip():
            raise RosterError(_malformed("item_ids", where, key), where)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise RosterError(_malformed("count", at, count), at)
        out[key] = count
    return out
