"""The ten scenario cards (six regular, four conclusive), loaded from `scenarios/data/`.

Each card is one TOML file `scenario_<id>.toml`, read into the frozen `Card` below and checked
in full: types and ranges, every id it names (zones, exits, items, civilians; equipment,
zombies, archetypes and skills against the rules catalog), tables of rolls covering 1-6 once,
zones as valid polygons on the table. A bad card raises `DataError` naming the file, the card
and the field. The shared random-condition tables of D20 (weather, zombie deployment) are in
`random_conditions.toml`.

>>> cards = load_cards()
>>> cards["evacuation"].kind
'regular'
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Generic, Literal, TypeVar, get_args

from shapely.geometry import Polygon
from shapely.validation import explain_validity

from geometry.errors import DataError
from geometry.units import TABLE_INCHES
from i18n import Message
from rules.catalog import Catalog, load_catalog
from rules.catalog_schema import Location, quote, source_label
from scenarios.objectives import Condition
from scenarios.outcomes import Consequence, Loot, NewMember
from scenarios.schema import (
    Builder,
    DiceExpr,
    Ident,
    Range,
    Ref,
    Tagged,
    check_piece_names,
    to_json,
)
from scenarios.special_rules import SpecialRule, Trapped

__all__ = [
    "DATA_DIR",
    "Kind",
    "Edge",
    "Text",
    "Zone",
    "Exit",
    "Layout",
    "Turns",
    "EndRoll",
    "ZombiePoints",
    "Reinforcement",
    "ZombieSetup",
    "SurvivorSetup",
    "CivilianGroup",
    "ScenarioItem",
    "MarkerGroup",
    "Crates",
    "RollEntry",
    "WeatherEffects",
    "Weather",
    "Deployment",
    "Victory",
    "Objectives",
    "Rewards",
    "Card",
    "RandomTables",
    "load_cards",
    "load_card",
    "load_random_tables",
    "cards_by_number",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
RANDOM_TABLES = "random_conditions.toml"
CARD_GLOB = "scenario_*.toml"

Kind = Literal["regular", "conclusive"]
KINDS: tuple[Kind, ...] = get_args(Kind)
Edge = Literal["near", "far", "left", "right"]
ZoneKind = Literal["deployment", "zombies", "objective", "refuge", "light", "scatter", "delivery"]
DeployMethod = Literal["far_edge", "zones", "side_edges", "anywhere"]
ReinforceAt = Literal["far_edge", "side_edges", "random_edge", "zones"]
TABLE_SIZES = {"regular": 6, "conclusive": 4}
TOWN = "town"

Id = Annotated[str, Ident()]
Point = tuple[float, float]
Die = Annotated[int, Range(1, 6)]
RollSpec = Die | tuple[Die, Die]

V = TypeVar("V")


@dataclass(frozen=True)
class Text:
    """A text in French (the rulebook's language) and English."""

    fr: str
    en: str


@dataclass(frozen=True)
class Zone:
    """A named area of the table, in table inches. A figure is *in* a zone when its base centre
    is inside or on the border; deploying *in* a zone means the whole base inside."""

    id: Id
    kind: ZoneKind
    name: Text
    polygon: tuple[Point, ...]


@dataclass(frozen=True)
class Exit:
    """A stretch of a table edge that figures may leave by (D25): from `from` to `to` inches
    along it (x for near and far, y for left and right); the whole edge by default."""

    id: Id
    edge: Edge
    name: Text
    from_: Annotated[float, Range(0.0)] = 0.0
    to: Annotated[float, Range(0.0)] | None = None
    who: tuple[Literal["survivors", "civilians"], ...] = ("survivors", "civilians")


@dataclass(frozen=True)
class Layout:
    """The terrain: a demo table (scenarios/tables/) or "town", a random town of tiles, whose
    first tile (`start_tile`) goes at `start_cell` [column, row] as MidEvil's Altar does."""

    table: str
    start_tile: Annotated[str, Ref("tile")] | None = None
    start_cell: tuple[Annotated[int, Range(0, 3)], Annotated[int, Range(0, 3)]] | None = None


@dataclass(frozen=True)
class EndRoll:
    """A random end: at the end of each turn from `from_turn`, roll 1D6; on `ends_on`+ the
    scenario ends."""

    from_turn: Annotated[int, Range(1, 12)]
    ends_on: Die


@dataclass(frozen=True)
class Turns:
    limit: Annotated[int, Range(1, 12)]
    end_roll: EndRoll | None = None


@dataclass(frozen=True)
class ZombiePoints:
    """Zombie points = floor(base x factor) + plus; base "band_cost" is the band's current
    final cost (D20)."""

    base: Literal["band_cost"] | Annotated[int, Range(0)] = "band_cost"
    factor: Annotated[float, Range(0.0, 3.0)] = 1.0
    plus: int = 0

    def points(self, band_cost: int) -> int:
        base = band_cost if self.base == "band_cost" else self.base
        return max(0, int(base * self.factor + 1e-9) + self.plus)


@dataclass(frozen=True)
class Reinforcement:
    """Free zombies arriving at the end of turns `from_turn`, then every `every` turns up to
    `to_turn`: `count` of them (a number or dice), placed by the zombie player wholly within
    1 in of the edge named by `at` (or in the card's zombie zones), more than 6 in from every
    survivor when possible. `side_edges` splits them as the deployment roll does;
    `random_edge` rolls 1D6 each time: 1-2 the far edge, 3-4 the left, 5-6 the right."""

    from_turn: Annotated[int, Range(1, 12)]
    count: Annotated[int | str, DiceExpr()]
    at: ReinforceAt
    zombie: Annotated[str, Ref("zombie")] = "rodeur"
    every: Annotated[int, Range(1, 12)] = 1
    to_turn: Annotated[int, Range(1, 12)] | None = None

    def turns(self, limit: int) -> tuple[int, ...]:
        last = min(self.to_turn or limit, limit)
        return tuple(range(self.from_turn, last + 1, self.every))


@dataclass(frozen=True)
class ZombieSetup:
    """How the zombie player buys and deploys: `mix` gives the share of points for each zombie
    type in the default purchase; `deployment` "roll" uses the D20 deployment table, "zones"
    always deploys in the card's `zones`; no zombie is deployed in the `avoid` zones."""

    points: ZombiePoints
    mix: Mapping[Annotated[str, Ref("zombie")], Annotated[float, Range(0.0, 1.0)]]
    zones: Annotated[tuple[str, ...], Ref("zone")]
    text: Text
    deployment: Literal["roll", "zones"] = "roll"
    avoid: Annotated[tuple[str, ...], Ref("zone")] = ()
    reinforcements: tuple[Reinforcement, ...] = ()


@dataclass(frozen=True)
class SurvivorSetup:
    deployment: Annotated[str, Ref("zone")]
    text: Text


@dataclass(frozen=True)
class CivilianGroup:
    """Figures of side "civilians" placed at set-up (ids `<id>1`, `<id>2`...): plain
    civilians, the sick, or a trapped survivor."""

    id: Id
    kind: Literal["civilian", "sick", "trapped"]
    count: Annotated[int, Range(1, 8)]
    zone: Annotated[str, Ref("zone")]
    name: Text


@dataclass(frozen=True)
class ScenarioItem:
    """An object of the scenario (fuel, medicine): carried like equipment (D31) for its
    encumbrance, worth no points, gone at the end of the scenario."""

    id: Id
    name: Text
    encumbrance: Annotated[int, Range(0, 3)] = 1
    uses: Annotated[int, Range(1, 10)] = 1


@dataclass(frozen=True)
class MarkerGroup:
    """`count` scenario items lying on the ground in `zone` at set-up (ids `<item>1`...)."""

    item: Annotated[str, Ref("item")]
    count: Annotated[int, Range(1, 8)]
    zone: Annotated[str, Ref("zone")]


@dataclass(frozen=True)
class RollEntry(Generic[V]):
    """One line of a 1D6 table: the faces `low`-`high` give `value`."""

    low: int
    high: int
    value: V

    def covers(self, die: int) -> bool:
        return self.low <= die <= self.high


@dataclass(frozen=True)
class Crates:
    """Equipment crates (D20): `count` of them scattered in `zones`; opening one costs `ap` AP
    in base contact (and a passed Intelligence test when `intelligence_test`) and gives one
    roll on `loot`."""

    count: Annotated[int, Range(0, 10)]
    zones: Annotated[tuple[str, ...], Ref("zone")]
    loot: tuple[RollEntry[Loot], ...]
    ap: Annotated[int, Range(1, 3)] = 1
    intelligence_test: bool = False


@dataclass(frozen=True)
class WeatherEffects:
    """`range_factor` multiplies shooting and throwing ranges; `sight_limit` (inches) is the
    longest line of sight, except to figures in a light zone when `lights`."""

    range_factor: Annotated[float, Range(0.1, 1.0)] = 1.0
    sight_limit: Annotated[float, Range(1.0)] | None = None
    lights: bool = False


@dataclass(frozen=True)
class Weather:
    id: Id
    name: Text
    effects: WeatherEffects


@dataclass(frozen=True)
class Deployment:
    """A zombie deployment method (D20): `depth` for edges, `min_distance` from every survivor
    for "anywhere"."""

    method: DeployMethod
    name: Text
    depth: Annotated[float, Range(1.0, 10.0)] = 3.0
    min_distance: Annotated[float, Range(0.0, 30.0)] = 10.0


@dataclass(frozen=True)
class Victory:
    text: Text
    conditions: tuple[Condition, ...]
    mode: Literal["all", "any"] = "all"


@dataclass(frozen=True)
class Objectives:
    """Who wins: each side's victory is checked when the scenario ends (turn limit, an
    `ends_when` condition, or no survivor left on the table). Both or neither: a draw."""

    survivors: Victory
    zombies: Victory
    ends_when: tuple[Condition, ...] = ()


@dataclass(frozen=True)
class Rewards:
    """Extra consequences for the winner, applied before the 1D6 consequence roll."""

    survivors_win: tuple[Consequence, ...] = ()
    zombies_win: tuple[Consequence, ...] = ()


@dataclass(frozen=True)
class Card:
    """One scenario card. `number` is its face in its draw table (regular 1-6; conclusive 1-4,
    drawn by rolls 2-5, see `draw_roll`)."""

    id: Id
    kind: Kind
    number: Annotated[int, Range(1, 6)]
    name: Text
    summary: Text
    story: Text
    layout: Layout
    turns: Turns
    zones: tuple[Zone, ...]
    survivors: SurvivorSetup
    zombies: ZombieSetup
    objectives: Objectives
    crates: Crates
    weather: tuple[RollEntry[Weather], ...]
    consequences: tuple[RollEntry[Consequence], ...]
    exits: tuple[Exit, ...] = ()
    civilians: tuple[CivilianGroup, ...] = ()
    items: tuple[ScenarioItem, ...] = ()
    markers: tuple[MarkerGroup, ...] = ()
    extra_terrain: tuple[Any, ...] = ()
    special_rules: tuple[SpecialRule, ...] = ()
    rewards: Rewards = Rewards()
    source: str = ""

    @property
    def draw_roll(self) -> tuple[int, ...]:
        """The die faces that draw this card: its number; conclusive cards 2-5 (D21)."""
        return (self.number,) if self.kind == "regular" else (self.number + 1,)

    def zone(self, zone_id: str) -> Zone:
        for zone in self.zones:
            if zone.id == zone_id:
                return zone
        raise KeyError(zone_id)

    def exit(self, exit_id: str) -> Exit:
        for item in self.exits:
            if item.id == exit_id:
                return item
        raise KeyError(exit_id)

    def civilian_group(self, group_id: str) -> CivilianGroup:
        for group in self.civilians:
            if group.id == group_id:
                return group
        raise KeyError(group_id)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = to_json(self)
        out.pop("source", None)
        for key in ("weather", "consequences"):
            out[key] = [_roll_json(e) for e in getattr(self, key)]
        out["crates"]["loot"] = [_roll_json(e) for e in self.crates.loot]
        return out


def _roll_json(entry: RollEntry[Any]) -> dict[str, Any]:
    value = entry.value
    body = value.to_json() if isinstance(value, Tagged) else to_json(value)
    return {"roll": [entry.low, entry.high], **body}


# --------------------------------------------------------------------------------------------
# Loading


@dataclass(frozen=True)
class RandomTables:
    """The shared 1D6 tables of D20."""

    weather: tuple[RollEntry[Weather], ...]
    deployment: tuple[RollEntry[Deployment], ...]

    def weather_by_id(self, weather_id: str) -> Weather | None:
        return next((e.value for e in self.weather if e.value.id == weather_id), None)


def load_random_tables(directory: Path | None = None) -> RandomTables:
    path = (directory or DATA_DIR) / RANDOM_TABLES
    raw = _read_toml(path)
    builder = Builder(Location(source_label(path), path.name, "random conditions"))
    for key in raw:
        if key not in ("weather", "deployment"):
            raise builder.fail(key, "unknown table (allowed: weather, deployment)")
    return RandomTables(
        weather=_roll_table(builder, Weather, raw.get("weather"), "weather"),
        deployment=_roll_table(builder, Deployment, raw.get("deployment"), "deployment"),
    )


def load_cards(directory: Path | None = None, catalog: Catalog | None = None) -> dict[str, Card]:
    """Every card in the directory, by id, in draw order (regular 1-6, then conclusive 1-4).

    The default directory is loaded once and cached.
    """
    if directory is None and catalog is None:
        return dict(_default_cards())
    return _load_all(Path(directory or DATA_DIR), catalog or load_catalog())


@functools.cache
def _default_cards() -> Mapping[str, Card]:
    return _load_all(DATA_DIR, load_catalog())


def _load_all(directory: Path, catalog: Catalog) -> dict[str, Card]:
    tables = load_random_tables(directory)
    cards: list[Card] = []
    seen: dict[tuple[str, int], str] = {}
    ids: dict[str, str] = {}
    for path in sorted(directory.glob(CARD_GLOB)):
        card = load_card(path, catalog, tables)
        location = Location(source_label(path), path.name, card.id)
        if card.id in ids:
            raise location.bad_value("id", f"an id not used by {ids[card.id]}", card.id)
        ids[card.id] = path.name
        slot = (card.kind, card.number)
        if slot in seen:
            raise location.bad_value(
                "number", f"a {card.kind} number not used by {seen[slot]}", card.number)
        seen[slot] = path.name
        cards.append(card)
    for kind, size in TABLE_SIZES.items():
        numbers = sorted(n for k, n in seen if k == kind)
        if numbers != list(range(1, size + 1)):
            said = {"source": source_label(directory), "size": size, "numbers": str(numbers)}
            raise DataError(Message("scenario.data.numbering.conclusive", said)
                            if kind == "conclusive"
                            else Message("scenario.data.numbering.regular", said),
                            where=f"{directory.name}:{kind}")
    cards.sort(key=lambda c: (KINDS.index(c.kind), c.number))
    return {c.id: c for c in cards}


def cards_by_number(cards: Mapping[str, Card], kind: Kind) -> dict[int, Card]:
    return {c.number: c for c in cards.values() if c.kind == kind}


def load_card(path: Path, catalog: Catalog | None = None,
              tables: RandomTables | None = None) -> Card:
    """Read and check one card file."""
    catalog = catalog or load_catalog()
    tables = tables or load_random_tables()
    raw = _read_toml(path)
    entry = raw.get("id") if isinstance(raw.get("id"), str) else path.stem
    builder = Builder(Location(source_label(path), path.name, str(entry)))
    body = dict(raw)
    weather = _card_weather(builder, body.pop("weather", None), tables)
    consequences = _roll_table(builder, Consequence, body.pop("consequences", None),
                               "consequences")
    crates_raw = body.pop("crates", None)
    if not isinstance(crates_raw, dict):
        raise builder.bad("crates", "a table", crates_raw)
    crates_body = dict(crates_raw)
    loot = _roll_table(builder, Loot, crates_body.pop("loot", None), "crates.loot")
    crates_body["loot"] = []
    body["crates"] = crates_body
    body["weather"] = []
    body["consequences"] = []
    card = builder.build(Card, body)
    card = _replace(card, weather=weather, consequences=consequences,
                    crates=_replace(card.crates, loot=loot), source=builder.location.source)
    _check(card, builder, catalog)
    return card


def _replace(obj: V, **changes: Any) -> V:
    import dataclasses

    return dataclasses.replace(obj, **changes)  # type: ignore[type-var]


def _read_toml(path: Path) -> dict[str, Any]:
    source = source_label(path)
    try:
        with path.open("rb") as stream:
            return tomllib.load(stream)
    except OSError as exc:
        raise DataError(Message("scenario.data.unreadable", {
            "source": source, "error": str(exc.strerror)}), where=path.name) from exc
    except tomllib.TOMLDecodeError as exc:
        raise DataError(Message("scenario.data.not_toml", {"source": source, "error": str(exc)}),
                        where=path.name) from exc


def _card_weather(builder: Builder, raw: object,
                  tables: RandomTables) -> tuple[RollEntry[Weather], ...]:
    """Absent: the D20 table; a string: that weather on every roll; a list: the card's table."""
    if raw is None:
        return tables.weather
    if isinstance(raw, str):
        fixed = tables.weather_by_id(raw)
        if fixed is None:
            known = ", ".join(quote(e.value.id) for e in tables.weather)
            raise builder.bad("weather", f"one of {known} or a table of rolls", raw)
        return (RollEntry(1, 6, fixed),)
    return _roll_table(builder, Weather, raw, "weather")


def _roll_table(builder: Builder, cls: type[Any], raw: object,
                path: str) -> tuple[RollEntry[Any], ...]:
    """A list of entries each with `roll = N` or `roll = [low, high]`, covering 1-6 once."""
    if not isinstance(raw, list) or not raw:
        raise builder.bad(path, "a non-empty list of tables with a 'roll'", raw)
    entries: list[RollEntry[Any]] = []
    faces: dict[int, int] = {}
    for i, item in enumerate(raw):
        where = f"{path}[{i}]"
        if not isinstance(item, dict):
            raise builder.bad(where, "a table", item)
        if "roll" not in item:
            raise builder.fail(f"{where}.roll", "missing required field")
        spec = builder.value(RollSpec, item["roll"], f"{where}.roll")
        low, high = (spec, spec) if isinstance(spec, int) else spec
        if low > high:
            raise builder.bad(f"{where}.roll", "[low, high] with low <= high", item["roll"])
        for face in range(low, high + 1):
            if face in faces:
                raise builder.fail(f"{where}.roll",
                                   f"face {face} is already given by {path}[{faces[face]}]")
            faces[face] = i
        body = {k: v for k, v in item.items() if k != "roll"}
        entries.append(RollEntry(low, high, builder.value(cls, body, where)))
    missing = [face for face in range(1, 7) if face not in faces]
    if missing:
        raise builder.fail(path, f"the faces 1-6 must each be given once; missing {missing}")
    return tuple(sorted(entries, key=lambda e: e.low))


# --------------------------------------------------------------------------------------------
# Cross-checks


def _check(card: Card, builder: Builder, catalog: Catalog) -> None:
    from scenarios.tables import table_names
    from scenarios.town import load_tiles

    if card.number > TABLE_SIZES[card.kind]:
        raise builder.bad("number", f"a {card.kind} number from 1 to {TABLE_SIZES[card.kind]}",
                          card.number)
    known: dict[str, set[str]] = {
        "zone": {z.id for z in card.zones},
        "exit": {e.id for e in card.exits},
        "item": {i.id for i in card.items},
        "civilians": {c.id for c in card.civilians},
        "equipment": set(catalog.equipment),
        "zombie": set(catalog.zombies),
        "archetype": set(catalog.archetypes),
        "skill": set(catalog.skills),
        "event": {e for rule in card.special_rules for e in rule.events},
        "tile": set(load_tiles()),
    }
    _check_unique(builder, "zones", [z.id for z in card.zones])
    _check_unique(builder, "exits", [e.id for e in card.exits])
    _check_unique(builder, "items", [i.id for i in card.items])
    _check_unique(builder, "civilians", [c.id for c in card.civilians])
    for kind, value, where in builder.refs:
        if value not in known[kind]:
            names = ", ".join(map(quote, sorted(known[kind]))) or "none defined on this card"
            raise builder.bad(where, f"a known {kind} id ({names})", value)
    for rule_index, rule in enumerate(card.special_rules):
        if isinstance(rule, Trapped):
            archetype = catalog.archetypes[rule.joins_as]
            if rule.skill not in archetype.skills:
                raise builder.bad(f"special_rules[{rule_index}].skill",
                                  f"one of {list(archetype.skills)} ({rule.joins_as})",
                                  rule.skill)
    for path, consequence in _consequences(card):
        if isinstance(consequence, NewMember) and consequence.archetype:
            archetype = catalog.archetypes[consequence.archetype]
            if archetype.class_ != consequence.class_:
                raise builder.bad(f"{path}.archetype",
                                  f"an archetype of class {quote(consequence.class_)} "
                                  f"({consequence.archetype} is a {archetype.class_})",
                                  consequence.archetype)
    layouts = {*table_names(), TOWN}
    if card.layout.table not in layouts:
        raise builder.bad("layout.table", "one of " + ", ".join(map(quote, sorted(layouts))),
                          card.layout.table)
    if card.layout.table != TOWN and (card.layout.start_tile or card.layout.start_cell):
        raise builder.fail("layout", "start_tile and start_cell only apply to the town")
    for i, zone in enumerate(card.zones):
        _check_polygon(builder, f"zones[{i}].polygon", zone.polygon)
    for i, exit_ in enumerate(card.exits):
        to = TABLE_INCHES if exit_.to is None else exit_.to
        if not exit_.from_ < to <= TABLE_INCHES + 1e-3:
            raise builder.bad(f"exits[{i}]", f"0 <= from < to <= {TABLE_INCHES}",
                              [exit_.from_, exit_.to])
    mix = card.zombies.mix
    if not mix or abs(sum(mix.values()) - 1.0) > 1e-6:
        raise builder.bad("zombies.mix", "shares adding up to 1", dict(mix))
    if card.zombies.deployment == "zones" and not card.zombies.zones:
        raise builder.fail("zombies.zones", "deployment \"zones\" needs at least one zone")
    if card.survivors.deployment in card.zombies.zones:
        raise builder.bad("zombies.zones", "zones other than the survivors' deployment",
                          list(card.zombies.zones))
    if card.crates.count and not card.crates.zones:
        raise builder.fail("crates.zones", "crates need at least one zone to be scattered in")
    for i, reinforcement in enumerate(card.zombies.reinforcements):
        if reinforcement.at == "zones" and not card.zombies.zones:
            raise builder.fail(f"zombies.reinforcements[{i}].at",
                               "\"zones\" needs the card's zombie zones")
        if reinforcement.from_turn > card.turns.limit:
            raise builder.bad(f"zombies.reinforcements[{i}].from_turn",
                              f"a turn up to the limit {card.turns.limit}",
                              reinforcement.from_turn)
    for i, piece in enumerate(card.extra_terrain):
        if not isinstance(piece, dict):
            raise builder.bad(f"extra_terrain[{i}]", "a scene terrain table", piece)
    check_piece_names(builder, "extra_terrain", card.extra_terrain)
    _check_extra_terrain(card, builder)


def _consequences(card: Card) -> list[tuple[str, Consequence]]:
    out = [(f"consequences[{i}]", e.value) for i, e in enumerate(card.consequences)]
    out += [(f"rewards.survivors_win[{i}]", c) for i, c in enumerate(card.rewards.survivors_win)]
    out += [(f"rewards.zombies_win[{i}]", c) for i, c in enumerate(card.rewards.zombies_win)]
    return out


def _check_unique(builder: Builder, path: str, ids: list[str]) -> None:
    seen: set[str] = set()
    for i, item in enumerate(ids):
        if item in seen:
            raise builder.bad(f"{path}[{i}].id", "an id not used earlier in the list", item)
        seen.add(item)


def _check_polygon(builder: Builder, path: str, points: tuple[Point, ...]) -> None:
    if len(points) < 3:
        raise builder.bad(path, "at least 3 [x, y] points", [list(p) for p in points])
    polygon = Polygon(points)
    if not polygon.is_valid or polygon.area <= 0:
        raise builder.fail(path, f"bad polygon: {explain_validity(polygon)}")
    x0, y0, x1, y1 = polygon.bounds
    tol = 1e-3  # 31.4961 as written in the data is the table edge
    if x0 < -tol or y0 < -tol or x1 > TABLE_INCHES + tol or y1 > TABLE_INCHES + tol:
        raise builder.bad(path, f"points on the table (0 to {TABLE_INCHES} in)",
                          [list(p) for p in points])


def _check_extra_terrain(card: Card, builder: Builder) -> None:
    from geometry.errors import SceneError
    from geometry.scene import load_scene

    if not card.extra_terrain:
        return
    try:
        load_scene({"terrain": list(card.extra_terrain), "figures": []})
    except SceneError as error:
        raise builder.fail(f"extra_terrain ({error.where})", error.message) from None
