"""`survive-us campaign ...`: draw a campaign's scenarios, and keep a campaign record (D21, D37).

- `campaign draw --length N --seed S`: prints `{"scenarios": [ID, ...], "final_roll": 1-6,
  "final_chosen_by": "dice" | "zombies" | "survivors", "rolls": [...], "choice_pending": bool}`;
  when a player chooses, the last scenario is a placeholder (the lowest-numbered conclusive
  card) until they do.
- `campaign new --band FILE --length N --seed S [--out FILE]`: a campaign record for a legal
  band (printed as JSON, or written to FILE).
- `campaign show FILE [--json]`: the band, the scenarios, the next zombie points, who wins.
- `campaign record FILE --game EXPORT --seed S [--reroll] [--dice 4,2]`: replays the game
  export, applies its result (D8 rolls, reward, consequence roll) and writes FILE back.
- `campaign choose FILE --scenario ID`, `campaign heal FILE --target ID [--healer ID]`.

Bad input exits with status 2 and `{"error": {"code", "message", "where"}}`; a campaign file
is only ever replaced whole (written to a temporary file, then renamed), never lost on error.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from geometry.errors import SurviveUsError
from rules.catalog import load_catalog
from rules.dice import Dice
from rules.errors import InvalidActionError
from rules.game import Game
from rules.settings import Settings
from rules.warband import Roster, figure_cost
from scenarios.campaign import MAX_LENGTH, MIN_LENGTH, CampaignError, draw_campaign
from scenarios.campaign_record import (
    Campaign,
    Played,
    campaign_outcome,
    choose_final,
    heal_between,
    new_campaign,
    points_for_next,
    record_result,
    result_from_game,
)
from scenarios.cards import load_cards
from service.jsonio import print_error, print_json, read_json

__all__ = ["register", "summary"]

T = TypeVar("T")


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "campaign", help="campaign draws and campaign records")
    actions = parser.add_subparsers(dest="campaign_command", required=True, metavar="ACTION")
    draw = actions.add_parser(
        "draw", help="draw the scenarios of a campaign",
        description="1D6 per regular scenario, re-rolling repeats; then 1D6 on the conclusive "
        "table: 1 the zombie player chooses, 6 the survivors choose, 2-5 conclusive 1-4.")
    draw.add_argument("--length", type=int, required=True,
                      help=f"scenarios in all, {MIN_LENGTH} to {MAX_LENGTH} (the last is "
                      "conclusive)")
    draw.add_argument("--seed", type=int, required=True)
    draw.add_argument("--json", action="store_true", help="print JSON")
    draw.set_defaults(func=run_draw)

    new = actions.add_parser(
        "new", help="start a campaign record for a band",
        description="Checks the band (errors refuse it), draws the scenarios and prints the "
        "campaign record as JSON, or writes it to --out.")
    new.add_argument("--band", required=True, help="the band's roster (JSON)")
    new.add_argument("--length", type=int, required=True,
                     help=f"scenarios in all, {MIN_LENGTH} to {MAX_LENGTH}")
    new.add_argument("--seed", type=int, required=True, help="seed of the draw")
    new.add_argument("--out", help="write the record to this file instead of printing it")
    new.add_argument("--zombie-player", action="append", dest="zombie_players",
                     metavar="NAME", help="a zombie player's name (repeat for several; "
                     "default: one player, 'zombies')")
    new.add_argument("--settings", help="a JSON file of changed settings (docs/rules.md)")
    new.add_argument("--json", action="store_true",
                     help="with --out, print the record as JSON too")
    new.set_defaults(func=run_new)

    show = actions.add_parser("show", help="show a campaign record")
    show.add_argument("file", help="the campaign record")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(func=run_show)

    record = actions.add_parser(
        "record", help="record a finished scenario in a campaign",
        description="Replays the game export ({\"start\", \"log\"}), then applies its result: "
        "the dead and contaminated leave, down survivors roll to recover (D8), the winner's "
        "reward, the consequence roll. The campaign file is rewritten in place.")
    record.add_argument("file", help="the campaign record (rewritten)")
    record.add_argument("--game", required=True, help="the finished game's export (JSON)")
    record.add_argument("--seed", type=int, required=True,
                        help="seed of the dice rolled after the game")
    record.add_argument("--dice", help="dice rolled on the real table, used before the seed, "
                        "e.g. 4,2 (D8 rolls in band order, then the consequence roll)")
    record.add_argument("--reroll", action="store_true",
                        help="ask the Prof's re-roll of the consequence roll (pragmatique)")
    record.add_argument("--zombies", help="a JSON file mapping zombie ids to the zombie "
                        "player controlling them (several zombie players, D24)")
    record.add_argument("--scenario", help="the scenario played (default: the next one; "
                        "names the last one when a player chooses it)")
    record.add_argument("--json", action="store_true", help="print JSON")
    record.set_defaults(func=run_record)

    choose = actions.add_parser("choose", help="name the last scenario when a player "
                                "chooses it (conclusive roll 1 or 6)")
    choose.add_argument("file")
    choose.add_argument("--scenario", required=True)
    choose.add_argument("--json", action="store_true", help="print JSON")
    choose.set_defaults(func=run_choose)

    heal = actions.add_parser("heal", help="heal a member between scenarios (D30): premiers "
                              "soins once per target, or one use of a healing item")
    heal.add_argument("file")
    heal.add_argument("--target", required=True, help="the member healed")
    heal.add_argument("--healer", help="the member healing (default: the target)")
    heal.add_argument("--json", action="store_true", help="print JSON")
    heal.set_defaults(func=run_heal)


# ---------------------------------------------------------------------------------------------
# draw


def run_draw(args: argparse.Namespace) -> int:
    try:
        draw = draw_campaign(args.length, random.Random(args.seed))
    except SurviveUsError as error:
        return print_error(error)
    if args.json:
        print_json(draw.to_json())
        return 0
    cards = load_cards()
    for number, card_id in enumerate(draw.scenarios, start=1):
        card = cards[card_id]
        print(f"{number}. {card.name.fr} ({card.name.en}) [{card.kind}]")
    rolled = ", ".join(f"{r.die}{'*' if r.rerolled else ''}" for r in draw.rolls)
    print(f"dice: {rolled} (* re-rolled: already drawn)")
    if draw.final_chosen_by != "dice":
        who = "zombie" if draw.final_chosen_by == "zombies" else "survivors"
        print(f"final roll {draw.final_roll}: the {who} player chooses the conclusive "
              f"scenario among {', '.join(draw.options)} (shown: the first, until they do)")
    return 0


# ---------------------------------------------------------------------------------------------
# the record


def run_new(args: argparse.Namespace) -> int:
    try:
        roster = _parse(args.band, Roster.from_json)
        settings = _parse(args.settings, Settings.from_json) if args.settings else Settings()
        campaign = new_campaign(roster, args.length, random.Random(args.seed), seed=args.seed,
                                zombie_players=args.zombie_players or ("zombies",),
                                settings=settings)
        if args.out:
            _write(args.out, campaign.to_json())
    except SurviveUsError as error:
        return print_error(error)
    if not args.out or args.json:
        print_json(campaign.to_json())
    else:
        print(f"campaign written to {args.out}")
        _print_summary(campaign)
    return 0


def run_show(args: argparse.Namespace) -> int:
    try:
        campaign = _load(args.file)
    except SurviveUsError as error:
        return print_error(error)
    if args.json:
        print_json(summary(campaign))
    else:
        _print_summary(campaign)
    return 0


def run_record(args: argparse.Namespace) -> int:
    try:
        campaign = _load(args.file)
        if campaign.finished:
            raise CampaignError(f"{args.file}: the campaign is over; nothing left to record",
                                "next")
        game = _replay(args.game)
        players = read_json(args.zombies) if args.zombies else None
        if players is not None and not (isinstance(players, dict) and all(
                isinstance(k, str) and isinstance(v, str) for k, v in players.items())):
            raise CampaignError(f"{args.zombies}: expected an object of zombie id -> player "
                                f"name, got {players!r}", args.zombies)
        scenario = str(args.scenario or campaign.next_scenario)
        result = result_from_game(game, scenario, players)
        dice = Dice(rng=random.Random(args.seed), typed=_dice(args.dice))
        after = record_result(campaign, result, dice, reroll=args.reroll, seed=args.seed)
        _write(args.file, after.to_json())
    except SurviveUsError as error:
        return print_error(error)
    played = after.history[-1]
    if args.json:
        print_json({"played": played.to_json(), **summary(after)})
        return 0
    _print_played(played)
    _print_summary(after)
    return 0


def run_choose(args: argparse.Namespace) -> int:
    try:
        campaign = choose_final(_load(args.file), args.scenario)
        _write(args.file, campaign.to_json())
    except SurviveUsError as error:
        return print_error(error)
    return _done(args, campaign)


def run_heal(args: argparse.Namespace) -> int:
    try:
        campaign = heal_between(_load(args.file), args.target, args.healer)
        _write(args.file, campaign.to_json())
    except SurviveUsError as error:
        return print_error(error)
    return _done(args, campaign)


def _done(args: argparse.Namespace, campaign: Campaign) -> int:
    if args.json:
        print_json(summary(campaign))
    else:
        _print_summary(campaign)
    return 0


# ---------------------------------------------------------------------------------------------
# what is shown


def summary(campaign: Campaign) -> dict[str, Any]:
    """The campaign as a player reads it: scenarios, band, next zombie points, the winner."""
    catalog = load_catalog()
    cards = load_cards()
    played = {p.number: p for p in campaign.history}
    scenarios = []
    for i, scenario in enumerate(campaign.draw.scenarios):
        entry: dict[str, Any] = {"number": i + 1, "id": scenario,
                                 "name": cards[scenario].name.en, "kind": cards[scenario].kind}
        if i + 1 in played:
            entry.update(state="played", winner=played[i + 1].winner)
        else:
            entry["state"] = "next" if i == campaign.next and not campaign.finished else (
                "to play" if not campaign.finished else "not played")
        if i == len(campaign.draw.scenarios) - 1 and campaign.draw.choice_pending:
            entry["choice_pending"] = {"by": campaign.draw.final_chosen_by,
                                       "options": list(campaign.draw.options)}
        scenarios.append(entry)
    band = []
    for state in campaign.band:
        archetype = catalog.archetypes[state.member.archetype]
        band.append({
            "id": state.id, "name": state.member.name, "archetype": archetype.id,
            "class": archetype.class_, "status": state.status, "pv": state.pv,
            "wounds": archetype.wounds, "skill": state.member.skill,
            "second_skill": state.member.second_skill,
            "equipment": dict(state.member.equipment), "units": dict(state.units),
            "cost": figure_cost(state.member, catalog, campaign.settings) if state.alive
            else 0,
            "starting": state.starting, "cause": state.cause,
            "inflicted_by": state.inflicted_by})
    return {
        "name": campaign.roster.name,
        "finished": campaign.finished,
        "next_scenario": campaign.next_scenario,
        "scenarios": scenarios,
        "band": band,
        "zombie_players": list(campaign.zombie_players),
        "zombie_points": points_for_next(campaign, cards, catalog).to_json(),
        "outcome": campaign_outcome(campaign).to_json(),
    }


def _print_summary(campaign: Campaign) -> None:
    data = summary(campaign)
    print(f"campaign of {data['name']!r}: {len(campaign.history)} of "
          f"{len(campaign.draw.scenarios)} scenarios played")
    for s in data["scenarios"]:
        extra = f", {s['winner']} won" if "winner" in s else ""
        print(f"  {s['number']}. {s['id']} ({s['name']}, {s['kind']}): {s['state']}{extra}")
    print("band:")
    for m in data["band"]:
        gear = ", ".join(f"{n} {i}" for i, n in m["equipment"].items()) or "no equipment"
        skills = m["skill"] + (f" + {m['second_skill']}" if m["second_skill"] else "")
        state = (f"{m['pv']}/{m['wounds']} PV, {m['cost']} pts" if m["status"] == "alive"
                 else f"{m['status']} ({m['cause']})")
        print(f"  {m['id']} {m['name']} [{m['archetype']}, {skills}]: {state}; {gear}")
    points = data["zombie_points"]
    outcome = data["outcome"]
    if not data["finished"]:
        split = ", ".join(f"{p}: {n}" for p, n in points["split"].items())
        print(f"next: {points['scenario']}, zombie points {points['points']} "
              f"({points['formula']}, band cost {points['band_cost']}; {split})")
    losses = ", ".join(f"{p}: {n}" for p, n in outcome["losses"].items())
    print(f"starting members counted alive: {outcome['counted']} of {outcome['starting']} "
          f"({outcome['needed']} needed); losses by zombie player: {losses}")
    if outcome["finished"]:
        who = outcome["winner"]
        if who == "zombies" and len(campaign.zombie_players) > 1:
            who += f" ({' and '.join(outcome['zombie_winners'])})"
        print(f"the campaign is over: the {who} win")


def _print_played(played: Played) -> None:
    print(f"scenario {played.number}, {played.scenario}: {played.winner} "
          f"({played.reason or 'no reason given'})")
    for fate in played.fates:
        how = f", {fate.recovery}" + (f" (rolled {fate.roll})" if fate.roll else "") \
            if fate.recovery else ""
        print(f"  {fate.member}: {fate.end_status} -> {fate.status}{how}, {fate.pv} PV")
    for effect in played.rewards:
        print(f"  reward: {effect.text}")
    roll = played.consequence
    again = f", re-rolled {roll.second} by {roll.prof}" if roll.second is not None else ""
    print(f"  consequence roll {roll.first}{again}: {roll.effect.text}")
    for note in played.notes:
        print(f"  note: {note}")


# ---------------------------------------------------------------------------------------------
# files


def _parse(path: str, parse: Callable[[Any], T]) -> T:
    """Read a JSON file and parse it; a parse error names the file."""
    data = read_json(path)
    try:
        return parse(data)
    except SurviveUsError as error:
        raise _named(error, path) from None


def _load(path: str) -> Campaign:
    return _parse(path, Campaign.from_json)


def _named(error: SurviveUsError, path: str | None) -> SurviveUsError:
    """The error, its message and place prefixed by the file it is about."""
    if path:
        error.message = f"{path}: {error.message}"
        error.where = f"{path}:{error.where}" if error.where else path
    return error


def _replay(path: str) -> Game:
    record = read_json(path)
    if not isinstance(record, dict) or "start" not in record or "log" not in record:
        raise InvalidActionError(f"{path}: a game export has 'start' and 'log'", path)
    try:
        return Game.replay(record)
    except SurviveUsError as error:
        raise _named(error, path) from None
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise InvalidActionError(f"{path}: malformed game export: missing or bad {error}",
                                 path) from None


def _dice(text: str | None) -> list[int]:
    if not text:
        return []
    values = []
    for i, part in enumerate(text.split(",")):
        try:
            value = int(part)
        except ValueError:
            raise CampaignError(f"--dice: expected numbers 1-6 separated by commas, got "
                                f"{part!r}", f"dice[{i}]") from None
        if not 1 <= value <= 6:
            raise CampaignError(f"--dice: a D6 shows 1 to 6, got {value}", f"dice[{i}]")
        values.append(value)
    return values


def _write(path: str, data: Any) -> None:
    """Write JSON to a temporary file beside `path`, then rename it over `path`."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as error:
        raise CampaignError(f"cannot write {path}: {error.strerror}", path) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            json.dump(data, stream, indent=2, ensure_ascii=False)
            stream.write("\n")
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(tmp, target)
    except OSError as error:
        Path(tmp).unlink(missing_ok=True)
        raise CampaignError(f"cannot write {path}: {error.strerror}", path) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
