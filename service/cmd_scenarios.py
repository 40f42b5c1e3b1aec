"""`survive-us scenarios list` and `survive-us scenario show|setup|play ID`: the scenario cards.

`scenarios list --json` prints `[{"id", "name", "name_en", "kind", "number", "draw_roll",
"summary", "layout", "turns"}]` in draw order. `scenario show ID --json` prints the whole
card. `scenario setup ID --seed S [--band FILE|NAME] [--table T] [--json]` prints a seeded
set-up ready to play (see `scenarios.setup`): scene, rolls, zombies bought and placed,
objectives; `--module ID[:key=value,...]` (repeatable) adds an optional rule module
(scenarios/modules.py), `--unbalanced` allows module points that differ between the sides.
`scenario play ID --seed S [--band B] [--turns N] [--survivors BOT] [--zombies BOT]
[--record FILE] [--json]` plays the card to its end with bots (random, greedy or idle; the
real AI is ai/) and prints who won and why, what became of the band, the referee's counts.
A bad id, band or table exits with status 2 and `{"error": ...}`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from geometry.errors import SurviveUsError
from rules.warband import Roster, example_bands
from scenarios.cards import Card, load_cards
from scenarios.play_policy import POLICIES
from scenarios.setup import DEFAULT_BAND, setup_scenario
from service.jsonio import print_error, print_json

__all__ = ["register", "ScenarioLookupError", "find_card", "listing"]


class ScenarioLookupError(SurviveUsError, ValueError):
    code = "unknown_scenario"


def register(sub: Any) -> None:
    many: argparse.ArgumentParser = sub.add_parser("scenarios", help="list the scenario cards")
    actions = many.add_subparsers(dest="scenarios_command", required=True, metavar="ACTION")
    listed = actions.add_parser("list", help="the ten cards in draw order")
    listed.add_argument("--json", action="store_true", help="print JSON")
    listed.set_defaults(func=run_list)

    one: argparse.ArgumentParser = sub.add_parser("scenario", help="show or set up a card")
    actions = one.add_subparsers(dest="scenario_command", required=True, metavar="ACTION")
    show = actions.add_parser("show", help="the whole card")
    show.add_argument("id", help="card id (see `survive-us scenarios list`)")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(func=run_show)
    setup = actions.add_parser(
        "setup", help="roll the random conditions, buy and place the zombies, place the band",
        description="Everything comes from the seed: the same seed gives the same set-up.")
    setup.add_argument("id", help="card id (see `survive-us scenarios list`)")
    setup.add_argument("--seed", type=int, required=True)
    setup.add_argument("--band", default=DEFAULT_BAND,
                       help="band JSON file, or the name of an example band "
                       f"({', '.join(sorted(example_bands()))}); default {DEFAULT_BAND}")
    setup.add_argument("--table", help="play on another table: a demo table or 'town'")
    setup.add_argument("--module", action="append", default=[], metavar="ID[:key=value,...]",
                       help="add an optional rule module (repeatable; docs/modules.md)")
    setup.add_argument("--unbalanced", action="store_true",
                       help="allow module points that differ between the sides")
    setup.add_argument("--json", action="store_true", help="print JSON")
    setup.set_defaults(func=run_setup)
    play = actions.add_parser(
        "play", help="play the card to the end with bots on both sides",
        description="Sets the card up from the seed and plays it with the rules engine and "
        "its referee; the bots' own dice come from the seed too. The real AI is ai/.")
    play.add_argument("id", help="card id (see `survive-us scenarios list`)")
    play.add_argument("--seed", type=int, required=True)
    play.add_argument("--band", default=DEFAULT_BAND,
                      help=f"band JSON file or example band name; default {DEFAULT_BAND}")
    play.add_argument("--turns", type=int, help="turn limit instead of the card's")
    play.add_argument("--table", help="play on another table: a demo table or 'town'")
    play.add_argument("--module", action="append", default=[], metavar="ID[:key=value,...]",
                      help="add an optional rule module (repeatable; docs/modules.md)")
    play.add_argument("--unbalanced", action="store_true",
                      help="allow module points that differ between the sides")
    for side in ("survivors", "zombies"):
        play.add_argument(f"--{side}", choices=sorted(POLICIES), default="greedy",
                          help=f"the {side}' bot (default greedy)")
    play.add_argument("--record", help="write the game's record (for `survive-us replay`)")
    play.add_argument("--json", action="store_true", help="print JSON")
    play.set_defaults(func=run_play)


def find_card(card_id: str) -> Card:
    cards = load_cards()
    if card_id not in cards:
        raise ScenarioLookupError(
            f"unknown scenario {card_id!r} (known: {', '.join(cards)})", "id")
    return cards[card_id]


def listing() -> list[dict[str, Any]]:
    return [{"id": c.id, "name": c.name.fr, "name_en": c.name.en, "kind": c.kind,
             "number": c.number, "draw_roll": list(c.draw_roll), "summary": c.summary.fr,
             "summary_en": c.summary.en, "layout": c.layout.table, "turns": c.turns.limit}
            for c in load_cards().values()]


def run_list(args: argparse.Namespace) -> int:
    rows = listing()
    if args.json:
        print_json(rows)
        return 0
    for row in rows:
        print(f"{row['kind']:<10} {row['number']}  {row['id']:<11} {row['name']} "
              f"({row['name_en']}): {row['summary']}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    try:
        card = find_card(args.id)
    except SurviveUsError as error:
        return print_error(error)
    if args.json:
        print_json(card.to_json())
        return 0
    print(f"{card.name.fr} ({card.name.en}), {card.kind} {card.number}")
    print(card.story.fr)
    print(f"Survivors: {card.objectives.survivors.text.fr}")
    print(f"Zombies: {card.objectives.zombies.text.fr}")
    return 0


def _band(value: str) -> Roster:
    bands = example_bands()
    if value in bands:
        return bands[value]
    if not Path(value).is_file():
        raise ScenarioLookupError(
            f"--band: no file {value!r} and no example band of that name "
            f"(examples: {', '.join(sorted(bands))})", "band")
    return Roster.load(value)


def run_setup(args: argparse.Namespace) -> int:
    try:
        card = find_card(args.id)
        band = _band(args.band)
        if args.table is not None:
            from scenarios.tables import table_names

            known = [*table_names(), "town"]
            if args.table not in known:
                raise ScenarioLookupError(
                    f"--table: unknown table {args.table!r} (known: {', '.join(known)})",
                    "table")
        result = setup_scenario(card, args.seed, band, table=args.table)
        if args.module:
            from scenarios import modules

            picks = modules.picks_of(args.module)
            result["modules"] = {"picks": [p.to_json() for p in picks],
                                 "points": modules.check_points(
                                     picks, balanced=not args.unbalanced)}
            modules.prepare_scene(result["scene"], picks)
            newcomers = modules.module_figures(picks)
            modules.place_figures(result["scene"], newcomers)
            result["scene"]["figures"] += [
                {"id": f.id, "side": f.side, "x": f.x, "y": f.y, "name": f.name}
                for f in newcomers]
    except SurviveUsError as error:
        return print_error(error)
    if args.json:
        print_json(result)
        return 0
    print(f"{card.name.fr} ({card.name.en}), seed {args.seed}, band {result['band']['name']} "
          f"({result['band']['cost']} pts)")
    for roll in result["rolls"]:
        dice = ", ".join(map(str, roll["dice"])) or "-"
        print(f"  {roll['purpose']}: {dice} -> {roll['result']}")
    z = result["zombies"]
    bought = ", ".join(f"{n} {kind}" for kind, n in z["bought"].items())
    print(f"  zombies: {z['points']} points, bought {bought} ({z['spent']} spent)")
    print(f"  deployment: {result['zombie_deployment']['name']['en']}")
    print(f"  survivors win: {card.objectives.survivors.text.en}")
    print(f"  zombies win: {card.objectives.zombies.text.en}")
    print(f"  {len(result['scene']['figures'])} figures placed; --json prints the scene")
    return 0


def _check_table(table: str | None) -> None:
    if table is None:
        return
    from scenarios.tables import table_names

    known = [*table_names(), "town"]
    if table not in known:
        raise ScenarioLookupError(
            f"--table: unknown table {table!r} (known: {', '.join(known)})", "table")


def run_play(args: argparse.Namespace) -> int:
    import json
    import random

    from scenarios.play import ScenarioReferee, start_scenario
    from scenarios.play_policy import play, policy

    try:
        card = find_card(args.id)
        band = _band(args.band)
        _check_table(args.table)
        if args.turns is not None and not 1 <= args.turns <= 12:
            raise ScenarioLookupError(f"--turns: 1 to 12, got {args.turns}", "turns")
        game = start_scenario(card, band, args.seed, table=args.table, max_turns=args.turns,
                              modules=args.module, balanced=not args.unbalanced)
        bots = {side: policy(getattr(args, side), side, random.Random(f"{args.seed}:{side}"))
                for side in ("survivors", "zombies")}
        play(game, bots["survivors"], bots["zombies"])
    except SurviveUsError as error:
        return print_error(error)
    if args.record:
        Path(args.record).write_text(json.dumps(game.export()) + "\n", encoding="utf-8")
    referee = game.referee
    assert isinstance(referee, ScenarioReferee)
    survivors = [{"id": f.id, "name": f.name, "status": f.status, "pv": f.pv,
                  "exit": f.exit or None, "side": f.side}
                 for f in game.figures.values() if f.id in referee.state["band"]
                 or f.id in referee.state["freed"]]
    out = {"scenario": card.id, "seed": args.seed, "band": band.name,
           "bots": {"survivors": args.survivors, "zombies": args.zombies},
           "outcome": game.outcome, "turns": game.turn, "actions": len(game.log) - 1,
           "result": referee.state["result"], "survivors": survivors,
           "crates_opened": referee.state["crates_opened"],
           "events": referee.state["events"], "arrivals": referee.state["arrivals"],
           "modules": referee.state.get("modules")}
    if args.json:
        print_json(out)
        return 0
    outcome = game.outcome or {"winner": "nobody", "reason": "unfinished"}
    print(f"{card.name.fr} ({card.name.en}), seed {args.seed}, {band.name}: "
          f"{args.survivors} survivors against {args.zombies} zombies")
    print(f"  {outcome['winner']} win after turn {game.turn} ({len(game.log) - 1} actions): "
          f"{outcome['reason']}")
    for fig in survivors:
        where = f" by {fig['exit']}" if fig["exit"] else ""
        side = "" if fig["side"] == "survivors" else f" ({fig['side']})"
        print(f"  {fig['id']:<10} {fig['name']:<20} {fig['status']}{where}{side}")
    return 0
