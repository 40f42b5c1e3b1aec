"""`docs/scenarios.md`, written from the cards: each card as a player reads it.

    python -m scenarios.render docs/img/scenarios --markdown docs/scenarios.md

The introduction below is fixed text; every card section comes from the data, so the page
cannot drift from the cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from scenarios.cards import Card, RollEntry, load_cards, load_random_tables
from scenarios.tables import table_data

__all__ = ["markdown"]

LAYOUT_NAMES = {"town": "Random town (4 x 4 tiles, `scenarios/town.py`)"}

INTRODUCTION = """\
# Scenario cards

The rulebook plays a campaign of 3 or more scenarios drawn from six regular and four
conclusive ones, but leaves its scenario tables empty (docs/rules.md, D20 and D21). These ten
cards fill them. They are data, in `scenarios/data/scenario_<id>.toml`, checked when loaded
(`scenarios/cards.py`); this page and the maps are written from them by
`python -m scenarios.render docs/img/scenarios --markdown docs/scenarios.md`.

| Draw | Regular (1D6) | | Draw | Conclusive (1D6) |
|---|---|---|---|---|
{draw_table}

On the conclusive table a **1** lets the zombie player choose among the four and a **6** lets
the survivors player choose (`survive-us campaign draw`). Regular scenarios already drawn are
re-rolled.

## Playing a card

- `survive-us scenarios list` lists the cards; `survive-us scenario show ID` prints one;
  `survive-us scenario setup ID --seed S [--band FILE]` rolls the random conditions, buys and
  places the zombies and places the band, all from the seed (`--json` for the scene and the
  record of every die).
- **Order of set-up** (D20): roll the crates' contents (kept hidden until a crate is opened),
  the weather, then the zombie deployment; the zombie player buys zombies for the points the
  card gives; lay the table; the card's items, crates and civilians go down first, then the
  survivors in their zone, then the zombies.
- **Zones** are areas drawn on the maps (inches from the survivors' left corner). A figure is
  *in* a zone when the centre of its base is; *deploying* in a zone means the whole base inside.
- **Exits**: a figure may leave the table only where the card has an exit; it is then
  *evacuated* (D17): safe, out of the scenario, alive.
- **Zombie deployment roll** (1D6, D20): {deployment}. Zombies on the side edges stay in the
  far two thirds of the table. When there is no more room, the remaining zombies go as close as
  possible, never within 8 in of a survivor. No zombie is deployed in a card's *avoid* zones.
- **Weather** (1D6, D20): {weather}. A card may fix the weather.
- **Zombie points**: the band's current final cost (living, uncontaminated members with their
  equipment) times the card's factor, rounded down. The default purchase gives each zombie
  type its share of the points and spends the rest on rôdeurs.
- **Reinforcements** are free and arrive at the end of the turns shown, wholly within 1 in of
  the edge named, more than 6 in from every survivor when possible; for a *random edge* roll
  1D6 each time: 1-2 the far edge, 3-4 the left edge, 5-6 the right edge.
- **Crates** (D20): opening one costs the AP shown, in base contact; roll on the card's loot
  table (at set-up the software rolls it in advance and keeps it hidden).
- **End of the scenario**: it ends at the turn limit, when a card's ending condition happens,
  or when no survivor is left on the table. Each side's victory is then checked; the winner
  takes the card's reward; then down survivors roll to recover (D8) and the survivors player
  rolls 1D6 on the card's consequence table (the Prof's *pragmatique* may re-roll it).
- A crate's *zombie* result: the zombie player places that zombie in base contact with the
  figure that opened the crate.
- **The camera's corners** (D41): the square from each table corner to 2.95 in along both
  edges is where the camera's marker lies on its white paper. Nothing is set up there, on any
  card: no base, crate or item, no terrain standing on the table. A zone that reaches a corner
  is deployed in without that square; reinforcements skip it; a terrain piece of the table or
  of a town tile that reached into it is moved (at most 3 in) or, for a building, cut at the
  square with its wall going round it, and the set-up says which. Players without a camera may
  turn this off (`camera_corners_clear`).

## Maps

Each map shows the card's table, its zones (dashed), exits (green edge), crates (brown
squares), scenario items (green discs), civilians (green) and survivors (blue) as set up with
seed 1 and the default band, and the camera's four corner markers on their paper (dashed white
squares) that the set-up keeps clear; zombies are left out so the zones stay readable. On the
random town, the town is the one of seed 1: every seed lays another.
"""

VOCABULARY = """\
## For the engine: the card format

A card file holds: `id`, `kind` (`regular` | `conclusive`), `number` (its face in its draw
table), `name`, `summary`, `story` (each `{fr, en}`), `layout` (`{table, start_tile?,
start_cell?}`), `turns` (`{limit, end_roll?: {from_turn, ends_on}}`), `weather` (absent: the
D20 table; a weather id: fixed; or its own table), `zones` (`[{id, kind, name, polygon}]`,
kinds `deployment`, `zombies`, `objective`, `refuge`, `light`, `scatter`, `delivery`), `exits`
(`[{id, edge, from?, to?, who?, name}]`), `civilians` (`[{id, kind: civilian | sick | trapped,
count, zone, name}]`), `items` (scenario items: `[{id, name, encumbrance, uses}]`), `markers`
(`[{item, count, zone}]`), `extra_terrain` (scene terrain added to the table), `survivors`
(`{deployment, text}`), `zombies` (`{points: {base, factor, plus}, mix, deployment: roll |
zones, zones, avoid, reinforcements: [{from_turn, every, to_turn?, count, at, zombie}],
text}`), `objectives` (`{survivors, zombies: {text, mode: all | any, conditions},
ends_when}`), `special_rules`, `crates` (`{count, zones, ap, intelligence_test, loot}`),
`rewards` (`{survivors_win, zombies_win}`) and `consequences` (1D6). Tables of rolls give each
face 1-6 once (`roll = 3` or `roll = [1, 3]`).

Conditions (`type`): {conditions}.

Special rules (`type`): {rules}.

Consequences and rewards (`type`): {consequences}. Loot: `nothing`, `equipment` (`item`,
`count`, `with`), `item` (a scenario item), `zombie` (`zombie`, `count`).

`survive-us scenario setup ID --seed S --json` gives the scene (zones and markers are terrain
pieces that block nothing, with `role` `zone` or `marker`), the rolls, the zombies bought and
placed, the crates with their hidden loot, the exits as edge segments, and the card's
objectives, special rules, reinforcement schedule, rewards and consequence table.
`rules.setup.skirmish(result["scene"], band)` already starts a plain game from it.

### What the engine needs to play a card

- **Ending**: the turn limit and `end_roll` (1D6 at the end of each turn from `from_turn`,
  ending on `ends_on`+); `ends_when` checked after every activation; then each side's
  conditions (`mode` all or any); both or neither hold: a draw. "half" is half of the group at
  the start of the scenario, rounded up.
- **Exits**: moves may leave the table across an exit's stretch of edge, for the sides it
  lists; the figure (and a figure it carries or escorts) is *evacuated* through that exit.
- **Zone evacuation**: `refuge` (a figure ending a move in the zone) and `helicopter` (end of
  turn, survivors in the zone and no zombie, from a turn on; then the event
  `helicopter_left`); record the zone each figure left by.
- **Civilians**: `escorted` (a survivor's move takes a civilian in base contact along),
  `immobile`, `trapped` (freed at the end of a survivor activation with a standing survivor in
  base contact and no zombie: the figure turns into a band member of archetype `joins_as` with
  `skill`, no equipment, AP from the next turn). Contaminated civilians become rôdeurs.
- **Markers**: a figure is at a marker (crate or item) when its base touches or overlaps the
  marker's square. Items: pick up, carry (encumbrance), drop and give as equipment (D31);
  `heavy_item` lowers M; delivering (`carry`) is 1 AP with the carrier in the `to` zone.
- **Care** (`treat`): an action on a civilian of the group, using one use of a listed item;
  count each civilian cared for once (`heal`).
- **Crates**: open (the card's AP, base contact, an Intelligence test when asked), reveal the
  loot rolled at set-up (or roll it), apply it (`zombie` loot: placed in base contact with the
  opener); `noisy_crates` brings zombies to the nearest edge; count crates opened.
- **Reinforcements**: at the end of each listed turn, roll `count`, place per `at`.
- **Weather**: shooting and throwing ranges times `range_factor`; no line of sight beyond
  `sight_limit` (edge to edge), except to figures in a `light` zone when `lights`.
- **Counting for conditions**: zombies on the table, in a zone; survivors standing, down,
  dead, contaminated or evacuated (and where); civilians evacuated, killed, cared for, freed.
- **After the scenario**: the winner's `rewards`, the D8 recovery rolls, then the 1D6
  `consequences` (re-rolled once by a living Prof with *pragmatique*), applied to the
  campaign record; the next card's zombie points follow the band's remaining cost.
"""


def _t(text: Any) -> str:
    return f"{text.fr} *({text.en})*"


def _roll(entry: RollEntry[Any]) -> str:
    return str(entry.low) if entry.low == entry.high else f"{entry.low}-{entry.high}"


def _layout(card: Card) -> str:
    table = card.layout.table
    if table in LAYOUT_NAMES:
        extra = ""
        if card.layout.start_tile:
            column, row = card.layout.start_cell or (None, None)
            where = f" at column {column}, row {row}" if column is not None else ""
            extra = f"; first tile: `{card.layout.start_tile}`{where}"
        return LAYOUT_NAMES[table] + extra
    data = table_data(table)
    return f"{data.get('name_en', data.get('name', table))} (`scenarios/tables/{table}.json`)"


def _weather(card: Card) -> str:
    if len(card.weather) == 1:
        return f"fixed: {_t(card.weather[0].value.name)}"
    standard = load_random_tables().weather
    if card.weather == standard:
        return "the D20 table"
    return "; ".join(f"{_roll(e)} {_t(e.value.name)}" for e in card.weather)


def _turns(card: Card) -> str:
    end = card.turns.end_roll
    if end is None:
        return str(card.turns.limit)
    return (f"at most {card.turns.limit}; from the end of turn {end.from_turn}, roll 1D6 at the "
            f"end of each turn: on {end.ends_on}+ the scenario ends")


def _points(card: Card) -> str:
    p = card.zombies.points
    base = "band cost" if p.base == "band_cost" else str(p.base)
    text = base if p.factor == 1 else f"{base} x {p.factor:g}"
    if p.plus:
        text += f" {'+' if p.plus > 0 else '-'} {abs(p.plus)}"
    mix = ", ".join(f"{share:.0%} {zombie}" for zombie, share in card.zombies.mix.items())
    return f"{text} (default purchase: {mix} of the points)"


def _deployment(card: Card) -> str:
    zones = ", ".join(f"`{z}`" for z in card.zombies.zones) or "none"
    how = "the deployment roll" if card.zombies.deployment == "roll" else "always in the zones"
    avoid = ", ".join(f"`{z}`" for z in card.zombies.avoid)
    return f"{how}; zones {zones}" + (f"; never in {avoid}" if avoid else "")


def _reinforcements(card: Card) -> str:
    if not card.zombies.reinforcements:
        return "none"
    parts = []
    for r in card.zombies.reinforcements:
        turns = ", ".join(map(str, r.turns(card.turns.limit)))
        count = r.count if isinstance(r.count, int) else f"1{r.count}" if r.count.startswith(
            "D") else r.count
        parts.append(f"{count} {r.zombie} at the end of turns {turns}, at `{r.at}`")
    return "; ".join(parts)


def _conditions(victory: Any) -> str:
    joined = " **and** " if victory.mode == "all" else " **or** "
    return joined.join(f"`{c.type}`: {c.describe()[1]}" for c in victory.conditions)


def _card(card: Card) -> list[str]:
    lines = [
        f"## {card.kind.capitalize()} {card.number}: {card.name.fr} *({card.name.en})*",
        "",
        f"![{card.name.en}](img/scenarios/{card.id}.svg)",
        "",
        f"> {card.story.fr}",
        ">",
        f"> *{card.story.en}*",
        "",
        "| | |",
        "|---|---|",
        f"| Id | `{card.id}` |",
        f"| Drawn on | {', '.join(map(str, card.draw_roll))} ({card.kind} table) |",
        f"| Table | {_layout(card)} |",
        f"| Turns | {_turns(card)} |",
        f"| Weather | {_weather(card)} |",
        f"| Zombie points | {_points(card)} |",
        f"| Zombie deployment | {_deployment(card)} |",
        f"| Reinforcements | {_reinforcements(card)} |",
        "",
        f"**Survivors.** {_t(card.survivors.text)}",
        "",
        f"**Zombies.** {_t(card.zombies.text)}",
        "",
        f"**The survivors win:** {_t(card.objectives.survivors.text)}  ",
        f"Checked as: {_conditions(card.objectives.survivors)}.",
        "",
        f"**The zombies win:** {_t(card.objectives.zombies.text)}  ",
        f"Checked as: {_conditions(card.objectives.zombies)}.",
        "",
    ]
    if card.objectives.ends_when:
        ends = "; ".join(f"`{c.type}`: {c.describe()[1]}" for c in card.objectives.ends_when)
        lines += [f"**The scenario ends at once when** {ends}.", ""]
    if card.special_rules:
        lines += ["**Special rules.**", ""]
        lines += [f"- `{r.type}`: {r.describe()[0]} *({r.describe()[1]})*"
                  for r in card.special_rules]
        lines.append("")
    lines += ["**Zones and exits.**", ""]
    lines += [f"- `{z.id}` ({z.kind}): {_t(z.name)}" for z in card.zones]
    for e in card.exits:
        stretch = "" if e.from_ == 0 and e.to is None else (
            f", from {e.from_:g} to {e.to:g} in" if e.to is not None else f", from {e.from_:g} in")
        lines.append(f"- exit `{e.id}`: the {e.edge} edge{stretch}, for "
                     f"{' and '.join(e.who)}: {_t(e.name)}")
    lines.append("")
    if card.civilians:
        lines += ["**Civilians.** " + "; ".join(
            f"{g.count} x {_t(g.name)} ({g.kind}, ids `{g.id}1`...) in `{g.zone}`"
            for g in card.civilians), ""]
    if card.items:
        placed = {m.item: m for m in card.markers}
        lines += ["**Scenario items.** " + "; ".join(
            f"{_t(i.name)} (`{i.id}`, encumbrance {i.encumbrance}, {i.uses} use(s))"
            + (f": {placed[i.id].count} in `{placed[i.id].zone}`" if i.id in placed else "")
            for i in card.items), ""]
    crates = card.crates
    if crates.count:
        test = ", and a passed Intelligence test" if crates.intelligence_test else ""
        lines += [f"**Crates.** {crates.count}, scattered in "
                  f"{', '.join(f'`{z}`' for z in crates.zones)}; opening one costs {crates.ap} "
                  f"AP in base contact{test}.", "", "| 1D6 | Loot |", "|---|---|"]
        lines += [f"| {_roll(e)} | {e.value.describe()[1]} |" for e in crates.loot]
        lines.append("")
    for who, rewards in (("survivors", card.rewards.survivors_win),
                         ("zombies", card.rewards.zombies_win)):
        if rewards:
            lines += [f"**Reward if the {who} win.** " + "; ".join(
                _t_pair(c.describe()) for c in rewards), ""]
    lines += ["**End of the scenario (1D6).**", "", "| 1D6 | Consequence |", "|---|---|"]
    lines += [f"| {_roll(e)} | {_t_pair(e.value.describe())} |" for e in card.consequences]
    lines.append("")
    return lines


def _effects(effects: Any) -> str:
    parts = []
    if effects.range_factor != 1:
        parts.append(f"shooting and throwing ranges x {effects.range_factor:g}")
    if effects.sight_limit is not None:
        light = ", except to figures in a light zone" if effects.lights else ""
        parts.append(f"no line of sight beyond {effects.sight_limit:g} in{light}")
    return f" ({'; '.join(parts)})" if parts else ""


def _t_pair(pair: tuple[str, str]) -> str:
    return f"{pair[0]} *({pair[1]})*"


def _names(classes: Iterable[Any]) -> str:
    return ", ".join(f"`{cls.type}`" for cls in classes)


def markdown(cards: Sequence[Card] | None = None) -> str:
    """The whole page."""
    from scenarios.objectives import Condition
    from scenarios.outcomes import Consequence
    from scenarios.special_rules import SpecialRule

    cards = list(cards if cards is not None else load_cards().values())
    regular = {c.number: c for c in cards if c.kind == "regular"}
    conclusive = {c.draw_roll[0]: c for c in cards if c.kind == "conclusive"}
    rows = []
    for face in range(1, 7):
        left = regular.get(face)
        right = conclusive.get(face)
        right_text = (f"{right.name.fr} (`{right.id}`)" if right else
                      "the zombie player chooses" if face == 1 else "the survivors choose")
        rows.append(f"| {face} | {left.name.fr if left else ''} (`{left.id if left else ''}`)"
                    f" | | {face} | {right_text} |")
    tables = load_random_tables()
    deployment = "; ".join(f"{_roll(e)} {e.value.name.en.lower()}" for e in tables.deployment)
    weather = "; ".join(f"{_roll(e)} {e.value.name.en.lower()}{_effects(e.value.effects)}"
                        for e in tables.weather)
    head = (INTRODUCTION.replace("{draw_table}", "\n".join(rows))
            .replace("{deployment}", deployment).replace("{weather}", weather))
    body: list[str] = []
    for card in cards:
        body += _card(card)
    tail = (VOCABULARY.replace("{conditions}", _names(Condition.registry.values()))
            .replace("{rules}", _names(SpecialRule.registry.values()))
            .replace("{consequences}", _names(Consequence.registry.values())))
    return head + "\n" + "\n".join(body) + "\n" + _modules() + "\n" + tail


def _modules() -> str:
    """A short list of the optional rule modules; docs/modules.md tells them in full."""
    from scenarios.modules import MODULES

    lines = ["## Rule modules", "",
             "Any card may be played with optional rules adapted from the related games, "
             "each side adding modules of equal points (`survive-us scenario setup|play ID "
             "--module ID[:key=value,...]`). They are told in full in docs/modules.md and "
             "decided in docs/rules.md D38.", "",
             "| module | side | points |", "|---|---|---|"]
    for m in MODULES.values():
        per = f" per `{m.uses_option}` entry" if m.uses_option else ""
        lines.append(f"| `{m.id}` {m.name_fr} ({m.name_en}) | {m.side} | {m.points}{per} |")
    return "\n".join(lines) + "\n"
