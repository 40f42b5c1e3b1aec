"""`survive-us scenarios list` and `survive-us scenario show|setup|play ID`: the scenario cards.

`scenarios list --json` prints `[{"id", "name", "name_en", "kind", "number", "draw_roll",
"summary", "layout", "turns", "end_roll"}]` in draw order. `scenario show ID --json` prints the
whole card. `scenario setup ID --seed S [--band FILE|NAME] [--table T] [--json]` prints a seeded
set-up ready to play (see `scenarios.setup`): scene, rolls, zombies bought and placed,
objectives; `--module ID[:key=value,...]` (repeatable) adds an optional rule module
(scenarios/modules.py), `--unbalanced` allows module points that differ between the sides.
`scenario play ID --seed S [--band B] [--turns N] [--survivors BOT] [--zombies BOT]
[--record FILE] [--json]` plays the card to its end with simple AIs (random, greedy or idle,
scenarios/play_policy.py) and prints who won and why, what became of the band, the
referee's counts. A card, an example band and a table are named by id or by name
(service/lookup.py). A bad one exits with status 2, the reason on stderr (and
`{"error": ...}` with `--json`). The text is in the command's language (`--lang`): cards,
zones, items and figures by their names.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from geometry.errors import SurviveUsError
from i18n import Message, Name, render_text
from rules.catalog import load_catalog
from rules.warband import Roster, example_bands
from scenarios.cards import Card, Text, load_cards
from scenarios.play_policy import POLICIES
from scenarios.setup import DEFAULT_BAND, setup_scenario
from service import lookup
from service.cli.helptext import HelpText
from service.jsonio import language, print_error, print_json
from service.words import localized, said, say, side_word, status_word

__all__ = ["register", "ScenarioLookupError", "find_card", "listing"]


class ScenarioLookupError(SurviveUsError, ValueError):
    code = "unknown_scenario"


def register(sub: Any, t: HelpText) -> None:
    many: argparse.ArgumentParser = sub.add_parser("scenarios", help=t("help.scenarios"))
    actions = many.add_subparsers(dest="scenarios_command", required=True, metavar="ACTION")
    listed = actions.add_parser("list", help=t("help.scenarios.list"))
    listed.add_argument("--json", action="store_true", help=t("help.json"))
    listed.set_defaults(func=run_list)

    one: argparse.ArgumentParser = sub.add_parser("scenario", help=t("help.scenario"))
    actions = one.add_subparsers(dest="scenario_command", required=True, metavar="ACTION")
    show = actions.add_parser("show", help=t("help.scenario.show"))
    show.add_argument("id", help=t("help.scenario.id"))
    show.add_argument("--json", action="store_true", help=t("help.json"))
    show.set_defaults(func=run_show)
    setup = actions.add_parser("setup", help=t("help.scenario.setup"),
                               description=t("help.scenario.setup.description"))
    setup.add_argument("id", help=t("help.scenario.id"))
    setup.add_argument("--seed", type=int, required=True, help=t("help.scenario.seed"))
    setup.add_argument("--band", default=DEFAULT_BAND, help=t(
        "help.scenario.setup.band", names=", ".join(sorted(example_bands())),
        default=DEFAULT_BAND))
    setup.add_argument("--table", help=t("help.scenario.table"))
    setup.add_argument("--module", action="append", default=[], metavar="ID[:KEY=VALUE,...]",
                       help=t("help.scenario.module"))
    setup.add_argument("--unbalanced", action="store_true", help=t("help.scenario.unbalanced"))
    setup.add_argument("--show-crates", action="store_true", help=t("help.scenario.show_crates"))
    setup.add_argument("--json", action="store_true", help=t("help.json"))
    setup.set_defaults(func=run_setup)
    play = actions.add_parser("play", help=t("help.scenario.play"),
                              description=t("help.scenario.play.description"))
    play.add_argument("id", help=t("help.scenario.id"))
    play.add_argument("--seed", type=int, required=True, help=t("help.scenario.seed"))
    play.add_argument("--band", default=DEFAULT_BAND,
                      help=t("help.scenario.play.band", default=DEFAULT_BAND))
    play.add_argument("--turns", type=int, metavar="N", help=t("help.scenario.play.turns"))
    play.add_argument("--table", help=t("help.scenario.table"))
    play.add_argument("--module", action="append", default=[], metavar="ID[:KEY=VALUE,...]",
                      help=t("help.scenario.module"))
    play.add_argument("--unbalanced", action="store_true", help=t("help.scenario.unbalanced"))
    play.add_argument("--survivors", choices=sorted(POLICIES), default="greedy",
                      help=t("help.scenario.play.survivors"))
    play.add_argument("--zombies", choices=sorted(POLICIES), default="greedy",
                      help=t("help.scenario.play.zombies"))
    play.add_argument("--record", metavar="FILE", help=t("help.scenario.play.record"))
    play.add_argument("--json", action="store_true", help=t("help.json"))
    play.set_defaults(func=run_play)


def find_card(card_id: str) -> Card:
    """The card `card_id` names: its id, or its French or English name."""
    found = lookup.resolve(card_id, lookup.cards(), lambda known: ScenarioLookupError(
        Message("cli.scenario.unknown", {"name": card_id, "known": known}), "id"))
    return load_cards()[found]


def _both(text: Text) -> Name:
    """A card's text in French and English."""
    return {"fr": text.fr, "en": text.en}


def kind_word(kind: str) -> Message:
    """'regular' / 'régulier', 'conclusive' / 'conclusif'."""
    return Message("cli.scenario.conclusive") if kind == "conclusive" \
        else Message("cli.scenario.regular")


def listing() -> list[dict[str, Any]]:
    """The cards in draw order; `end_roll` for a card a die ends (the night: 5 to 8 turns)."""
    return [{"id": c.id, "name": c.name.fr, "name_en": c.name.en, "kind": c.kind,
             "number": c.number, "draw_roll": list(c.draw_roll), "summary": c.summary.fr,
             "summary_en": c.summary.en, "layout": c.layout.table, "turns": c.turns.limit,
             "end_roll": None if c.turns.end_roll is None else {
                 "from_turn": c.turns.end_roll.from_turn, "ends_on": c.turns.end_roll.ends_on}}
            for c in load_cards().values()]


def run_list(args: argparse.Namespace) -> int:
    rows = listing()
    if args.json:
        print_json(rows)
        return 0
    lang = language()
    for card in load_cards().values():  # the id is what `scenario show ID` takes
        print(render_text("cli.scenario.row", {
            "id": card.id, "kind": kind_word(card.kind), "number": card.number,
            "name": _both(card.name), "summary": _both(card.summary)}, lang))
    return 0


def run_show(args: argparse.Namespace) -> int:
    try:
        card = find_card(args.id)
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
    if args.json:
        print_json(card.to_json())
        return 0
    lang = language()
    print(render_text("cli.scenario.title", {"name": _both(card.name),
                                             "kind": kind_word(card.kind),
                                             "number": card.number}, lang))
    print(say(_both(card.story), lang))
    print(render_text("cli.scenario.survivors_win", {
        "text": _both(card.objectives.survivors.text)}, lang))
    print(render_text("cli.scenario.zombies_win", {
        "text": _both(card.objectives.zombies.text)}, lang))
    print(render_text("cli.scenario.turns", {"n": card.turns.limit}, lang))
    catalog = load_catalog()
    for rule in card.special_rules:
        said_by = getattr(rule, "words", None)  # its words name the card's groups and items
        text = said_by(card, catalog) if callable(said_by) else dict(
            zip(("fr", "en"), rule.describe(), strict=True))
        print(render_text("cli.scenario.rule", {"text": text}, lang))
    return 0


def _band(value: str) -> Roster:
    """An example band by its file stem or its name, else a band file."""
    example = lookup.find(value, lookup.bands())
    if example is not None:
        return example_bands()[example]
    if not Path(value).is_file():
        raise ScenarioLookupError(Message("cli.scenario.no_band", {
            "name": value, "known": lookup.known(lookup.bands())}), "band")
    return Roster.load(value)


def run_setup(args: argparse.Namespace) -> int:
    try:
        card = find_card(args.id)
        band = _band(args.band)
        result = setup_scenario(card, args.seed, band, table=table_id(args.table))
        if args.module:
            from geometry.corners import keep_out
            from scenarios import modules

            picks = modules.picks_of(args.module)
            result["modules"] = {"picks": [p.to_json() for p in picks],
                                 "points": modules.check_points(
                                     picks, balanced=not args.unbalanced)}
            modules.prepare_scene(result["scene"], picks)
            newcomers = modules.module_figures(picks)
            table = result["scene"]["table"]
            # the camera's corner squares stay clear, as in a game (docs/rules.md D41)
            modules.place_figures(result["scene"], newcomers,
                                  keep_out(float(table["width"]), float(table["depth"])))
            result["scene"]["figures"] += [
                {"id": f.id, "side": f.side, "x": f.x, "y": f.y, "name": f.name}
                for f in newcomers]
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
    if args.json:
        print_json(result)
        return 0
    _print_setup(card, args.seed, result, language(), args.show_crates)
    return 0


_CRATE = re.compile(r"^crate(\d+) contents")


def _roll_words(roll: dict[str, Any], result: dict[str, Any]) -> Message:
    """A set-up roll in words: its own words when it has them, else what the purpose
    names (a crate, the weather, the deployment)."""
    dice = ", ".join(map(str, roll["dice"])) or "-"
    words = roll.get("words") or roll.get("purpose_words")
    if words is not None:
        return Message("cli.setup.roll", {"what": words, "dice": dice})
    purpose = str(roll.get("purpose", ""))
    crate = _CRATE.match(purpose)
    if crate:
        return Message("cli.setup.crate", {"n": int(crate.group(1)), "dice": dice})
    if purpose.startswith("weather"):
        return Message("cli.setup.weather", {"name": result["weather"]["name"], "dice": dice})
    if purpose.startswith("zombie deployment"):
        return Message("cli.setup.deployment", {
            "name": result["zombie_deployment"]["name"], "dice": dice})
    return Message("cli.setup.other_roll", {"dice": dice})


def _is_crate(roll: dict[str, Any]) -> bool:
    words = roll.get("words") or roll.get("purpose_words") or {}
    return bool(_CRATE.match(str(roll.get("purpose", "")))) or (
        isinstance(words, dict) and words.get("code") in ("scenario.roll.crate",
                                                          "scenario.setup.crate"))


def _print_setup(card: Card, seed: int, result: dict[str, Any], lang: str,
                 show_crates: bool = False) -> None:
    """The set-up in words; what the crates hold stays hidden (the players find it when a
    crate is opened) unless `show_crates`."""
    catalog = load_catalog()
    band = result["band"]
    print(render_text("cli.setup.title", {"name": _both(card.name), "seed": seed,
                                          "band": band.get("names") or band["name"],
                                          "cost": band["cost"]}, lang))
    crates = [r for r in result["rolls"] if _is_crate(r)]
    for roll in result["rolls"]:
        if roll in crates and not show_crates:
            continue
        print("  " + render_text("cli.setup.line", {"what": _roll_words(roll, result)}, lang))
    if crates and not show_crates:
        print("  " + render_text("cli.setup.crates_hidden", {"n": len(crates)}, lang))
    z = result["zombies"]
    bought = [Message("cli.setup.bought", {
        "n": n, "kind": {"fr": catalog.zombies[k].name, "en": catalog.zombies[k].name_en}
        if k in catalog.zombies else k}) for k, n in z["bought"].items()]
    print("  " + render_text("cli.setup.zombies", {"points": z["points"], "bought": bought,
                                                   "spent": z["spent"]}, lang))
    print("  " + render_text("cli.scenario.survivors_win", {
        "text": _both(card.objectives.survivors.text)}, lang))
    print("  " + render_text("cli.scenario.zombies_win", {
        "text": _both(card.objectives.zombies.text)}, lang))
    print("  " + render_text("cli.setup.placed", {"n": len(result["scene"]["figures"])},
                             lang))


def _tables() -> list[lookup.Choice]:
    return [*lookup.tables(), lookup.town()]


def _unknown_table(table: str) -> Callable[[list[Message]], SurviveUsError]:
    return lambda known: ScenarioLookupError(Message("cli.scenario.no_table", {
        "name": table, "known": known}), "table")


def table_id(table: str | None) -> str | None:
    """The table `--table` names (a demo table's id or name, or the town), by its id."""
    return None if table is None else lookup.resolve(table, _tables(), _unknown_table(table))


def _check_table(table: str | None) -> None:
    """Refuse a table that is not a demo table's id or 'town' (the API's `table`)."""
    if table is not None and table not in {c.id for c in _tables()}:
        raise _unknown_table(table)(lookup.known(_tables()))


def run_play(args: argparse.Namespace) -> int:
    import json
    import random

    from scenarios.play import ScenarioReferee, start_scenario
    from scenarios.play_policy import play, policy

    try:
        card = find_card(args.id)
        band = _band(args.band)
        table = table_id(args.table)
        if args.turns is not None and not 1 <= args.turns <= 12:
            raise ScenarioLookupError(Message("cli.scenario.turns_range", {"got": args.turns}),
                                      "turns")
        game = start_scenario(card, band, args.seed, table=table, max_turns=args.turns,
                              modules=args.module, balanced=not args.unbalanced)
        bots = {side: policy(getattr(args, side), side, random.Random(f"{args.seed}:{side}"))
                for side in ("survivors", "zombies")}
        play(game, bots["survivors"], bots["zombies"])
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
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
           "outcome": None if game.outcome is None else localized(game.outcome, language()),
           "turns": game.turn, "actions": len(game.log) - 1,
           "result": referee.state["result"], "survivors": survivors,
           "crates_opened": referee.state["crates_opened"],
           "events": referee.state["events"], "arrivals": referee.state["arrivals"],
           "modules": referee.state.get("modules")}
    if args.json:
        print_json(out)
        return 0
    _print_play(card, args, band.name, game, survivors, language())
    return 0


def _print_play(card: Card, args: argparse.Namespace, band: str, game: Any,
                survivors: list[dict[str, Any]], lang: str) -> None:
    """Who played, who won and why, and what became of each member of the band."""
    from ai.words import place, side_name
    from rules.names import figure_name

    print(render_text("cli.play.title", {"name": _both(card.name), "seed": args.seed,
                                         "band": band, "survivors": args.survivors,
                                         "zombies": args.zombies}, lang))
    outcome = game.outcome
    p = {"turn": game.turn, "n": len(game.log) - 1}
    if outcome is None:
        line = render_text("cli.play.unfinished", p, lang)
    else:
        p["reason"] = said(outcome, "reason", lang)
        line = render_text("cli.play.draw", p, lang) if outcome["winner"] not in (
            "survivors", "zombies") else render_text("cli.play.won", {
                **p, "winner": side_name(outcome["winner"])}, lang)
    print(f"  {line}")
    for fig in survivors:
        parts = [say(status_word(fig["status"]), lang)]
        if fig["exit"]:
            parts.append(render_text("cli.play.by_exit", {"exit": place(game, fig["exit"])},
                                     lang))
        if fig["side"] != "survivors":
            parts.append(say(side_word(fig["side"]), lang))
        print("  " + render_text("cli.play.fate", {"figure": figure_name(game, fig["id"]),
                                                   "fate": ", ".join(parts)}, lang))
