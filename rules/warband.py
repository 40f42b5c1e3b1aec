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
from rules.catalog import DATA_DIR, Archetype, Catalog, Skill, load_catalog
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
    "band_cost",
    "cost_breakdown",
    "example_bands",
    "figure_cost",
    "is_legal",
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
_ROSTER_FIELDS = ("name", "members")
_CLASS_WORDS = {"hero": "hero", "follower": "follower", "burden": "burden"}


class RosterError(SurviveUsError, ValueError):
    """A roster that is not well-formed data, or that cannot be priced."""

    code = "invalid_band"


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken rule: where it is (a path into the roster), what is wrong, what to change."""

    where: str
    message: str
    fix: str
    severity: Severity = "error"
    code: str = ""  # short machine key, e.g. "encumbrance", "rarity", "band_size"

    def to_json(self) -> dict[str, str]:
        return {
            "severity": self.severity,
            "code": self.code,
            "where": self.where,
            "message": self.message,
            "fix": self.fix,
        }


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
    """A survivors' band: a name and its figures, in order."""

    name: str
    members: tuple[Member, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "members", tuple(self.members))

    @classmethod
    def from_json(cls, data: Any, where: str = "") -> Roster:
        """A roster from parsed JSON; `RosterError` names the first malformed field."""
        obj = _object(data, where, _ROSTER_FIELDS)
        members = obj.get("members", _MISSING)
        members_at = _join(where, "members")
        if members is _MISSING:
            raise RosterError(f"{members_at}: missing required field", members_at)
        if not isinstance(members, list):
            raise RosterError(f"{members_at}: expected a list, got {members!r}", members_at)
        return cls(
            name=_text(obj, "name", where),
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
            raise RosterError(f"{path.name}: cannot read band: {error}", path.name) from None
        return cls.from_json(data)

    def to_json(self) -> JsonDict:
        return {"name": self.name, "members": [m.to_json() for m in self.members]}


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
        raise RosterError(f"{where}: unknown skill {skill_id!r}, cannot price it", where)
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
            f"{where}: unknown archetype {member.archetype!r}, cannot price it", where
        )
    for item_id in member.equipment:
        if item_id not in catalog.equipment:
            where = f"{member.id}.equipment.{item_id}"
            raise RosterError(f"{where}: unknown item {item_id!r}, cannot price it", where)
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
    ammunition), then rarity across the band, then the points limit.
    """
    catalog = catalog or load_catalog()
    settings = settings or DEFAULT_SETTINGS
    problems: list[Problem] = []
    problems += _check_size(roster)
    problems += _check_classes(roster, catalog)
    seen_ids: set[str] = set()
    for index, member in enumerate(roster.members):
        where = f"members[{index}]"
        if member.id in seen_ids:
            problems.append(
                Problem(
                    f"{where}.id",
                    f"member id {member.id!r} is used by an earlier member",
                    f"give {where} an id no other member has",
                    code="duplicate_id",
                )
            )
        seen_ids.add(member.id)
        problems += _check_member(member, where, roster, catalog, settings)
    problems += _check_rarity(roster, catalog)
    problems += _check_points(roster, catalog, settings)
    return problems


def _check_size(roster: Roster) -> list[Problem]:
    n = len(roster.members)
    if MIN_FIGURES <= n <= MAX_FIGURES:
        return []
    if n < MIN_FIGURES:
        fix = f"add {_count(MIN_FIGURES - n, 'figure')}"
    else:
        fix = f"remove {_count(n - MAX_FIGURES, 'figure')}"
    return [
        Problem(
            "members",
            f"the band has {_count(n, 'figure')} but needs {MIN_FIGURES} to {MAX_FIGURES}",
            fix,
            code="band_size",
        )
    ]


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
            _display(a, catalog) for a in catalog.archetypes.values() if a.class_ == survivor_class
        ]
        word = _CLASS_WORDS[survivor_class]
        problems.append(
            Problem(
                "members",
                f"the band has no {word}; it needs at least one hero, one follower and one burden",
                f"add a {word}: {_or(options)}",
                code=f"no_{survivor_class}",
            )
        )
    return problems


def _check_member(
    member: Member, where: str, roster: Roster, catalog: Catalog, settings: Settings
) -> list[Problem]:
    problems: list[Problem] = []
    archetype = catalog.archetypes.get(member.archetype)
    if archetype is None:
        problems.append(
            Problem(
                f"{where}.archetype",
                f"member {member.id!r} has unknown archetype {member.archetype!r}",
                f"use an archetype id: {_suggest(member.archetype, catalog.archetypes)}",
                code="unknown_archetype",
            )
        )
    who = _who(member, archetype, catalog)
    if archetype is not None:
        problems += _check_sex(member, archetype, where, who, roster, catalog)
        problems += _check_skills(member, archetype, where, who, catalog, settings)
    for item_id in member.equipment:
        if item_id not in catalog.equipment:
            problems.append(
                Problem(
                    f"{where}.equipment.{item_id}",
                    f"{who} carries unknown item {item_id!r}",
                    f"use an equipment id: {_suggest(item_id, catalog.equipment)}",
                    code="unknown_item",
                )
            )
    if archetype is not None:
        problems += _check_encumbrance(member, archetype, where, who, catalog)
    problems += _check_ammunition(member, where, who, catalog, settings)
    return problems


def _check_sex(
    member: Member, archetype: Archetype, where: str, who: str, roster: Roster, catalog: Catalog
) -> list[Problem]:
    if archetype.sex != "H/F":
        if member.sex is not None and member.sex != archetype.sex:
            return [
                Problem(
                    f"{where}.sex",
                    f"{who} is {archetype.sex} in the rulebook, not {member.sex}",
                    f"set sex to {archetype.sex!r} or leave it out",
                    code="sex",
                )
            ]
        return []
    has_meneuse = any("meneuse" in (m.skill, m.second_skill) for m in roster.members)
    if member.sex is None and has_meneuse:
        return [
            Problem(
                f"{where}.sex",
                f"{who} is an H/F figure with no sex, and the band has a meneuse "
                "(she leads the women of the band)",
                "set sex to 'H' or 'F'",
                severity="warning",
                code="sex_unknown",
            )
        ]
    return []


def _offered(archetype: Archetype, settings: Settings) -> tuple[str, ...]:
    """The skills an archetype offers under the settings (D13: the printed Prof has one)."""
    if settings.prof_skills == "printed":
        return tuple(s for s in archetype.skills if s not in PROF_ADDED_SKILLS)
    return archetype.skills


def _check_skills(
    member: Member,
    archetype: Archetype,
    where: str,
    who: str,
    catalog: Catalog,
    settings: Settings,
) -> list[Problem]:
    offered = _offered(archetype, settings)
    shown = _or([f"{s} ({_pts(catalog.skills[s].cost)})" for s in offered])
    problems = []
    if member.skill is None:
        problems.append(
            Problem(
                f"{where}.skill",
                f"{who} has no skill",
                f"choose one of {_display(archetype, catalog)}'s skills: {shown}",
                code="no_skill",
            )
        )
    elif member.skill not in offered:
        problems.append(
            Problem(
                f"{where}.skill",
                f"{who} cannot have skill {member.skill!r}{_why_not(member.skill, archetype)}",
                _skill_fix(member.skill, offered, catalog, archetype, shown),
                code="skill_not_offered",
            )
        )
    second = member.second_skill
    if second is None:
        return problems
    others = tuple(s for s in offered if s != member.skill)
    if second == member.skill:
        problem = Problem(
            f"{where}.second_skill",
            f"{who}'s second skill {second!r} is the skill it already has",
            _second_fix(others, catalog),
            code="second_skill_repeated",
        )
        problems.append(problem)
    elif second not in offered:
        problems.append(
            Problem(
                f"{where}.second_skill",
                f"{who} cannot have second skill {second!r}{_why_not(second, archetype)}",
                _second_fix(others, catalog),
                code="second_skill_not_offered",
            )
        )
    return problems


def _why_not(skill_id: str, archetype: Archetype) -> str:
    if skill_id in archetype.skills:  # offered by the data, removed by a setting
        return " (prof_skills is 'printed': the Prof only has pragmatique)"
    return ""


def _skill_fix(
    skill_id: str, offered: tuple[str, ...], catalog: Catalog, archetype: Archetype, shown: str
) -> str:
    try:  # a spelling of an offered skill ("Combattante") only needs its id
        spelled = catalog.skill_named(skill_id).id
    except KeyError:
        spelled = None
    if spelled in offered:
        return f"write the skill id {spelled!r}"
    return f"choose one of {_display(archetype, catalog)}'s skills: {shown}"


def _second_fix(others: tuple[str, ...], catalog: Catalog) -> str:
    if not others:
        return "remove second_skill: the profile offers no other skill"
    shown = _or([f"{s} ({_pts(catalog.skills[s].cost)})" for s in others])
    return f"choose one of the profile's other skills: {shown}, or remove second_skill"


def _check_encumbrance(
    member: Member, archetype: Archetype, where: str, who: str, catalog: Catalog
) -> list[Problem]:
    load = _load(member, archetype, catalog)
    if load.carried <= load.capacity:
        return []
    excess = load.carried - load.capacity
    limit = f"{load.capacity}"
    if load.capacity != archetype.encumbrance:
        limit += f" (E{archetype.encumbrance} + {load.capacity - archetype.encumbrance} sac à dos)"
    extra = ""
    if load.free_healing_items:
        free = _count(load.free_healing_items, "healing item")
        extra = f" (not counting {free} free with trousse)"
    example = _example(member, excess, load, catalog)
    return [
        Problem(
            f"{where}.equipment",
            f"{who} carries {_count(load.carried, 'encumbrance point')}{extra} "
            f"but can carry {limit}",
            f"remove {_count(excess, 'point')} of equipment{example}",
            code="encumbrance",
        )
    ]


def _example(member: Member, excess: int, load: _Load, catalog: Catalog) -> str:
    """' (e.g. fusil, E2)': the lightest item that alone removes the excess, else the heaviest.

    Items that trousse carries free are not offered: removing them frees nothing.
    """
    items = [
        catalog.equipment[i]
        for i, n in member.equipment.items()
        if i in catalog.equipment and n > load.free_counts.get(i, 0)
    ]
    if not items:
        return ""
    enough = [e for e in items if e.encumbrance >= excess]
    if enough:
        pick = min(enough, key=lambda e: e.encumbrance)
    else:
        pick = max(items, key=lambda e: e.encumbrance)
    return f" (e.g. {pick.id}, E{pick.encumbrance})"


def _check_ammunition(
    member: Member, where: str, who: str, catalog: Catalog, settings: Settings
) -> list[Problem]:
    items = [catalog.equipment[i] for i in member.equipment if i in catalog.equipment]
    problems = []
    for item in items:
        if item.kind != "ammunition":
            continue
        users = [e for e in catalog.equipment.values() if e.ammo == item.id]
        if any(e.id in member.equipment for e in users):
            continue
        names = _or([e.id for e in users]) or "none"
        problems.append(
            Problem(
                f"{where}.equipment.{item.id}",
                f"{who} carries {item.id} but no weapon that uses it ({names})",
                f"add a weapon that uses it ({names}) or remove the {item.id}",
                severity="warning",
                code="ammunition_without_weapon",
            )
        )
    if not settings.track_ammunition:
        return problems
    for item in items:
        if item.ammo is None or item.ammo in member.equipment:
            continue
        ammo = catalog.equipment[item.ammo]
        problems.append(
            Problem(
                f"{where}.equipment.{item.id}",
                f"{who} carries a {item.id} but no {ammo.id} to shoot it with",
                f"add {ammo.id} (E{ammo.encumbrance}) or remove the {item.id}",
                severity="warning",
                code="weapon_without_ammunition",
            )
        )
    return problems


def _check_rarity(roster: Roster, catalog: Catalog) -> list[Problem]:
    held: dict[str, list[tuple[str, int]]] = {}
    for member in roster.members:
        for item_id, count in member.equipment.items():
            held.setdefault(item_id, []).append((member.id, count))
    problems = []
    for item_id, holders in held.items():
        item = catalog.equipment.get(item_id)
        if item is None or item.rarity is None:
            continue
        total = sum(count for _, count in holders)
        if total <= item.rarity:
            continue
        who = ", ".join(f"{member_id}: {count}" for member_id, count in holders)
        problems.append(
            Problem(
                f"members[*].equipment.{item_id}",
                f"the band holds {total} {item_id} ({who}) but its rarity is {item.rarity}",
                f"remove {total - item.rarity} {item_id} from the band",
                code="rarity",
            )
        )
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
    return [
        Problem(
            "members",
            f"the band costs {_pts(cost)} but the points limit is {_pts(limit)}",
            f"remove {_count(cost - limit, 'point')}: equipment, a cheaper skill or a figure",
            code="points_limit",
        )
    ]


# ---------------------------------------------------------------------------------------------
# Wording


def _display(archetype: Archetype, catalog: Catalog) -> str:
    """The archetype's name, with its sex when another profile shares the name: "Ado (F)"."""
    shared = sum(a.name == archetype.name for a in catalog.archetypes.values()) > 1
    return archetype.label if shared else archetype.name


def _who(member: Member, archetype: Archetype | None, catalog: Catalog) -> str:
    """How a message names a member: "Bimbo 'm4'"."""
    if archetype is None:
        return f"member {member.id!r}"
    return f"{_display(archetype, catalog)} {member.id!r}"


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _pts(n: int) -> str:
    return f"{n} pt" if n == 1 else f"{n} pts"


def _or(words: Iterable[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"


def _suggest(wrong: str, known: Mapping[str, object]) -> str:
    close = difflib.get_close_matches(wrong, list(known), n=3, cutoff=0.6)
    if close:
        return f"did you mean {_or(repr(c) for c in close)}?"
    return ", ".join(known)


# ---------------------------------------------------------------------------------------------
# Reading plain data

_MISSING: Any = object()


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def _object(data: Any, where: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    """`data` as a dict with only `allowed` keys; `where` is its path ("" for the roster)."""
    if not isinstance(data, Mapping):
        label = where or "band"
        raise RosterError(f"{label}: expected an object, got {data!r}", label)
    for key in data:
        if key not in allowed:
            at = _join(where, str(key))
            raise RosterError(f"{at}: unknown field (allowed: {', '.join(allowed)})", at)
    return dict(data)


def _text(obj: Mapping[str, Any], key: str, where: str) -> str:
    at = _join(where, key)
    value = obj.get(key, _MISSING)
    if value is _MISSING:
        raise RosterError(f"{at}: missing required field", at)
    if not isinstance(value, str) or not value.strip():
        raise RosterError(f"{at}: expected a non-empty string, got {value!r}", at)
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
    raise RosterError(f"{at}: expected 'H', 'F' or null, got {value!r}", at)


def _equipment(data: Any, where: str) -> dict[str, int]:
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise RosterError(f"{where}: expected an object of item id -> count, got {data!r}", where)
    out: dict[str, int] = {}
    for key, count in data.items():
        at = f"{where}.{key}"
        if not isinstance(key, str) or not key.strip():
            raise RosterError(f"{where}: expected item ids, got {key!r}", where)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise RosterError(f"{at}: expected a whole number >= 1, got {count!r}", at)
        out[key] = count
    return out
