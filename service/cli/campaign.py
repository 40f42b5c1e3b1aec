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

Bad input exits with status 2, the reason on stderr (with `--json`, also
`{"error": {"code", "message", "where"}}` on stdout); a campaign file
is only ever replaced whole (written to a temporary file, then renamed), never lost on error.
The text is in the command's language (`--lang`): cards, members, archetypes, skills and
items by their names, causes, rewards and consequences from their messages.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from ai.words import side_name
from geometry.errors import SurviveUsError
from i18n import Message, Name, render, render_text
from rules.catalog import Catalog, load_catalog
from rules.dice import Dice
from rules.errors import InvalidActionError
from rules.game import Game
from rules.settings import Settings
from rules.warband import Roster, archetype_name, figure_cost, member_name, points
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
from scenarios.cards import Card, load_cards
from service.cli.helptext import HelpText
from service.cli.scenarios import kind_word
from service.jsonio import language, os_reason, print_error, print_json, read_json
from service.words import NONE, said, status_word

__all__ = ["register", "summary"]

T = TypeVar("T")


def register(sub: Any, t: HelpText) -> None:
    parser: argparse.ArgumentParser = sub.add_parser("campaign", help=t("help.campaign"))
    actions = parser.add_subparsers(dest="campaign_command", required=True, metavar="ACTION")
    draw = actions.add_parser("draw", help=t("help.campaign.draw"),
                              description=t("help.campaign.draw.description"))
    draw.add_argument("--length", type=int, required=True, metavar="N",
                      help=t("help.campaign.draw.length", low=MIN_LENGTH, high=MAX_LENGTH))
    draw.add_argument("--seed", type=int, required=True, help=t("help.campaign.new.seed"))
    draw.add_argument("--json", action="store_true", help=t("help.json"))
    draw.set_defaults(func=run_draw)

    new = actions.add_parser("new", help=t("help.campaign.new"),
                             description=t("help.campaign.new.description"))
    new.add_argument("--band", required=True, metavar="FILE", help=t("help.campaign.new.band"))
    new.add_argument("--length", type=int, required=True, metavar="N",
                     help=t("help.campaign.new.length", low=MIN_LENGTH, high=MAX_LENGTH))
    new.add_argument("--seed", type=int, required=True, help=t("help.campaign.new.seed"))
    new.add_argument("--out", metavar="FILE", help=t("help.campaign.new.out"))
    new.add_argument("--zombie-player", action="append", dest="zombie_players",
                     metavar="NAME", help=t("help.campaign.new.zombie_player"))
    new.add_argument("--settings", metavar="FILE", help=t("help.campaign.new.settings"))
    new.add_argument("--json", action="store_true", help=t("help.campaign.new.json"))
    new.set_defaults(func=run_new)

    show = actions.add_parser("show", help=t("help.campaign.show"))
    show.add_argument("file", help=t("help.campaign.show.file"))
    show.add_argument("--json", action="store_true", help=t("help.json"))
    show.set_defaults(func=run_show)

    record = actions.add_parser("record", help=t("help.campaign.record"),
                                description=t("help.campaign.record.description"))
    record.add_argument("file", help=t("help.campaign.record.file"))
    record.add_argument("--game", required=True, metavar="FILE",
                        help=t("help.campaign.record.game"))
    record.add_argument("--seed", type=int, required=True, help=t("help.campaign.record.seed"))
    record.add_argument("--dice", help=t("help.campaign.record.dice"))
    record.add_argument("--reroll", action="store_true", help=t("help.campaign.record.reroll"))
    record.add_argument("--zombies", metavar="FILE", help=t("help.campaign.record.zombies"))
    record.add_argument("--scenario", help=t("help.campaign.record.scenario"))
    record.add_argument("--json", action="store_true", help=t("help.json"))
    record.set_defaults(func=run_record)

    choose = actions.add_parser("choose", help=t("help.campaign.choose"))
    choose.add_argument("file", help=t("help.campaign.record.file"))
    choose.add_argument("--scenario", required=True, help=t("help.campaign.choose.scenario"))
    choose.add_argument("--json", action="store_true", help=t("help.json"))
    choose.set_defaults(func=run_choose)

    heal = actions.add_parser("heal", help=t("help.campaign.heal"))
    heal.add_argument("file", help=t("help.campaign.record.file"))
    heal.add_argument("--target", required=True, metavar="MEMBER",
                      help=t("help.campaign.heal.target"))
    heal.add_argument("--healer", metavar="MEMBER", help=t("help.campaign.heal.healer"))
    heal.add_argument("--json", action="store_true", help=t("help.json"))
    heal.set_defaults(func=run_heal)


# ---------------------------------------------------------------------------------------------
# draw


def run_draw(args: argparse.Namespace) -> int:
    try:
        draw = draw_campaign(args.length, random.Random(args.seed))
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
    if args.json:
        print_json(draw.to_json())
        return 0
    cards, lang = load_cards(), language()
    for number, card_id in enumerate(draw.scenarios, start=1):
        card = cards[card_id]
        if number == len(draw.scenarios) and draw.choice_pending:
            # the card drawn is a placeholder until the player chooses: not named
            print(render_text("cli.campaign.drawn_pending", {
                "number": number, "kind": kind_word(card.kind),
                "state": _to_choose(draw.final_chosen_by, draw.options)}, lang))
            continue
        print(render_text("cli.campaign.drawn", {"number": number, "name": _card(card),
                                                 "kind": kind_word(card.kind)}, lang))
    rolled = ", ".join(f"{r.die}{'*' if r.rerolled else ''}" for r in draw.rolls)
    starred = any(r.rerolled for r in draw.rolls)
    # the legend only when a die was re-rolled
    print(render_text("cli.campaign.dice", {"dice": rolled}, lang) if starred
          else render_text("cli.campaign.dice_plain", {"dice": rolled}, lang))
    if draw.final_chosen_by != "dice":
        print(render_text("cli.campaign.final_choice", {
            "roll": draw.final_roll, "who": _chooser(draw.final_chosen_by)}, lang))
    return 0


def _card(card: Card) -> Name:
    return {"fr": card.name.fr, "en": card.name.en}


def _to_choose(side: str, options: Iterable[str]) -> Message:
    """'to be chosen by the survivors' player among: A, B and C'."""
    cards = load_cards()
    return Message("cli.campaign.to_choose", {"who": _chooser(side),
                                              "options": [_card(cards[c]) for c in options]})


def _chooser(side: str) -> Message:
    """'the zombie player' / 'le joueur zombie'."""
    return Message("cli.campaign.chooser.zombies") if side == "zombies" \
        else Message("cli.campaign.chooser.survivors")


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
        return print_error(error, as_json=args.json)
    if not args.out or args.json:
        print_json(campaign.to_json())
    else:
        print(render_text("cli.campaign.written", {"file": args.out}, language()))
        _print_summary(campaign)
    return 0


def run_show(args: argparse.Namespace) -> int:
    try:
        campaign = _load(args.file)
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
    if args.json:
        print_json(summary(campaign))
    else:
        _print_summary(campaign)
    return 0


def run_record(args: argparse.Namespace) -> int:
    try:
        campaign = _load(args.file)
        if campaign.finished:
            raise CampaignError(Message("cli.campaign.over_nothing", {"file": args.file}),
                                "next")
        game = _replay(args.game)
        players = read_json(args.zombies) if args.zombies else None
        if players is not None and not (isinstance(players, dict) and all(
                isinstance(k, str) and isinstance(v, str) for k, v in players.items())):
            raise CampaignError(Message("cli.campaign.players", {
                "file": args.zombies, "got": repr(players)[:80]}), args.zombies)
        scenario = str(args.scenario or campaign.next_scenario)
        result = result_from_game(game, scenario, players)
        dice = Dice(rng=random.Random(args.seed), typed=_dice(args.dice))
        after = record_result(campaign, result, dice, reroll=args.reroll, seed=args.seed)
        _write(args.file, after.to_json())
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
    played = after.history[-1]
    if args.json:
        print_json({"played": played.to_json(), **summary(after)})
        return 0
    _print_played(played, _member_names(after, load_catalog()))
    _print_summary(after)
    return 0


def run_choose(args: argparse.Namespace) -> int:
    try:
        campaign = choose_final(_load(args.file), args.scenario)
        _write(args.file, campaign.to_json())
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
    return _done(args, campaign)


def run_heal(args: argparse.Namespace) -> int:
    try:
        campaign = heal_between(_load(args.file), args.target, args.healer)
        _write(args.file, campaign.to_json())
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
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
    """The campaign as a player reads it: scenarios, band, next zombie points, the winner;
    names in French and English beside the ids (`names`), causes as messages
    (`cause_words`)."""
    catalog = load_catalog()
    cards = load_cards()
    played = {p.number: p for p in campaign.history}
    scenarios = []
    for i, scenario in enumerate(campaign.draw.scenarios):
        entry: dict[str, Any] = {"number": i + 1, "id": scenario,
                                 "name": cards[scenario].name.en,
                                 "names": _card(cards[scenario]), "kind": cards[scenario].kind}
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
    names = _member_names(campaign, catalog)
    for state in campaign.band:
        archetype = catalog.archetypes[state.member.archetype]
        band.append({
            "id": state.id, "name": state.member.name, "names": names[state.id],
            "archetype": archetype.id,
            "class": archetype.class_, "status": state.status, "pv": state.pv,
            "wounds": archetype.wounds, "skill": state.member.skill,
            "second_skill": state.member.second_skill,
            "equipment": dict(state.member.equipment), "units": dict(state.units),
            "cost": figure_cost(state.member, catalog, campaign.settings) if state.alive
            else 0,
            "starting": state.starting, "cause": state.cause,
            "cause_words": None if state.cause_words is None else dict(state.cause_words),
            "inflicted_by": state.inflicted_by})
    return {
        "name": campaign.roster.name,
        "names": campaign.roster.names,
        "finished": campaign.finished,
        "next_scenario": campaign.next_scenario,
        "scenarios": scenarios,
        "band": band,
        "zombie_players": list(campaign.zombie_players),
        "zombie_points": points_for_next(campaign, cards, catalog).to_json(),
        "outcome": campaign_outcome(campaign).to_json(),
    }


def _print_summary(campaign: Campaign) -> None:
    """The campaign as a player reads it, in the command's language."""
    lang = language()
    data = summary(campaign)
    cards, catalog = load_cards(), load_catalog()
    names = _member_names(campaign, catalog)
    print(render_text("cli.campaign.header", {"name": data["names"],
                                              "played": len(campaign.history),
                                              "total": len(campaign.draw.scenarios)}, lang))
    for s in data["scenarios"]:
        p = {"number": s["number"], "name": _card(cards[s["id"]]),
             "kind": kind_word(s["kind"]), "state": _state(s)}
        # a card the player has yet to choose is not named
        print("  " + (render_text("cli.campaign.drawn_pending", p, lang)
                      if "choice_pending" in s else render_text("cli.campaign.scenario", p,
                                                                lang)))
    print(render_text("cli.campaign.band", {}, lang))
    for state, m in zip(campaign.band, data["band"], strict=True):
        print("  " + render_text("cli.campaign.member", {
            "name": names[state.id], "archetype": archetype_name(
                catalog.archetypes[m["archetype"]], catalog),
            "skills": [_skill(catalog, k) for k in (m["skill"], m["second_skill"]) if k]
            or NONE, "state": _member_state(state, m), "gear": [
                Message("cli.campaign.item", {"n": n, "item": _item(catalog, i)})
                for i, n in m["equipment"].items()] or Message("cli.campaign.no_gear")},
            lang))
    next_points, outcome = data["zombie_points"], data["outcome"]
    if not data["finished"]:
        pending = data["scenarios"][campaign.next].get("choice_pending") \
            if campaign.next < len(data["scenarios"]) else None
        p = {"name": NONE if next_points["scenario"] not in cards else _to_choose(
                 pending["by"], pending["options"]) if pending else _card(
                 cards[next_points["scenario"]]), "points": next_points["points"],
             "formula": said(next_points, "formula", lang),
             "split": _shares(next_points["split"])}
        # the split is said only when several zombie players share the points
        print(render_text("cli.campaign.next_shared", p, lang)
              if len(next_points["split"]) > 1 else render_text("cli.campaign.next", p, lang))
    losses = outcome["losses"]
    counted = {"counted": outcome["counted"], "starting": outcome["starting"],
               "needed": outcome["needed"]}
    if len(losses) == 1:
        print(render_text("cli.campaign.counted_one", {
            **counted, "n": next(iter(losses.values()))}, lang))
    else:
        print(render_text("cli.campaign.counted", {**counted, "losses": _shares(losses)},
                          lang))
    if outcome["finished"]:
        winners = outcome["zombie_winners"]
        if outcome["winner"] == "zombies" and len(campaign.zombie_players) > 1:
            print(render_text("cli.campaign.over_players", {"players": list(winners)}, lang))
        else:
            print(render_text("cli.campaign.over", {"winner": side_name(outcome["winner"])},
                              lang))


def _member_names(campaign: Campaign, catalog: Catalog) -> dict[str, Name]:
    members = [s.member for s in campaign.band]
    return {m.id: member_name(m, members, catalog) for m in members}


def _skill(catalog: Catalog, key: str) -> Name | str:
    skill = catalog.skills.get(key)
    return key if skill is None else skill.names


def _item(catalog: Catalog, key: str) -> Name | str:
    item = catalog.equipment.get(key)
    return key if item is None else item.names


def _shares(counts: dict[str, int]) -> list[Message] | Message:
    """'Marc 12' for each zombie player (their names as given)."""
    return [Message("cli.campaign.share", {"player": p, "n": n})
            for p, n in counts.items()] or NONE


def _state(s: dict[str, Any]) -> Message:
    """A scenario's state in the campaign: played (and who won), next, to play."""
    if s["state"] == "played":
        winner = s.get("winner")
        if winner in ("survivors", "zombies"):
            return Message("cli.campaign.won_by", {"winner": side_name(winner)})
        return Message("cli.campaign.drawn_game")
    if "choice_pending" in s:
        return _to_choose(s["choice_pending"]["by"], s["choice_pending"]["options"])
    if s["state"] == "next":
        return Message("cli.campaign.next_one")
    if s["state"] == "to play":
        return Message("cli.campaign.to_play")
    return Message("cli.campaign.not_played")


def _member_state(state: Any, m: dict[str, Any]) -> Message:
    if m["status"] == "alive":
        return Message("cli.campaign.alive", {"pv": m["pv"], "wounds": m["wounds"],
                                              "cost": points(m["cost"])})
    cause = state.cause_words or state.cause
    return Message("cli.campaign.gone", {"status": status_word(m["status"]),
                                         "cause": cause or NONE})


def _print_played(played: Played, names: dict[str, Name]) -> None:
    """What the scenario just recorded did to the band, in the command's language; `names`
    what the band calls each member (by id)."""
    lang = language()
    data = played.to_json()
    cards = load_cards()
    name = _card(cards[played.scenario]) if played.scenario in cards else played.scenario
    reason = said(data, "reason", lang) or render_text("cli.campaign.no_reason", {}, lang)
    result = Message("cli.campaign.result_won", {"winner": side_name(played.winner),
                                                 "reason": reason}) \
        if played.winner in ("survivors", "zombies") \
        else Message("cli.campaign.result_draw", {"reason": reason})
    print(render_text("cli.campaign.played", {"number": played.number, "name": name,
                                              "result": result}, lang))
    for fate in played.fates:
        how: Message | None = None
        if fate.recovery:
            how = _RECOVERY.get(fate.recovery, NONE)
            if fate.roll:
                how = Message("cli.campaign.rolled", {"how": how, "roll": fate.roll})
        p = {"member": names.get(fate.member, fate.member), "end": status_word(fate.end_status),
             "status": status_word(fate.status), "pv": fate.pv}
        print("  " + (render_text("cli.campaign.fate_how", {**p, "how": how}, lang)
                      if how is not None else render_text("cli.campaign.fate", p, lang)))
    for effect in played.rewards:
        print("  " + render_text("cli.campaign.reward", {
            "text": said(effect.to_json(), "text", lang)}, lang))
    roll = played.consequence
    text = said(roll.effect.to_json(), "text", lang)
    if roll.second is not None:
        print("  " + render_text("cli.campaign.consequence_again", {
            "first": roll.first, "second": roll.second,
            "prof": names.get(roll.prof or "", roll.prof or ""), "text": text}, lang))
    else:
        print("  " + render_text("cli.campaign.consequence", {"first": roll.first,
                                                              "text": text}, lang))
    notes = [render(n, lang) for n in played.notes_words] or list(played.notes)
    for note in notes:
        print("  " + render_text("cli.campaign.note", {"text": note}, lang))


_RECOVERY = {"contact": Message("cli.campaign.recovery.contact"),
             "carried": Message("cli.campaign.recovery.carried"),
             "roll": Message("cli.campaign.recovery.roll"),
             "survive": Message("cli.campaign.recovery.survive"),
             "die": Message("cli.campaign.recovery.die")}
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
    """The campaign record in `path`; a file that is no campaign record at all (a band, a
    game export) is said to be so, not as its first field a campaign does not know."""
    try:
        return _parse(path, Campaign.from_json)
    except CampaignError as error:
        inner = error.words.params.get("error") if error.words is not None else None
        field = error.where.removeprefix(f"{path}:")
        if isinstance(inner, Message) and field.isidentifier():  # a field of the file's top
            if inner.code == "campaign.json.unknown_field":
                raise CampaignError(Message("cli.campaign.not_campaign", {
                    "file": path, "field": field}), path) from None
            if inner.code == "campaign.json.missing":
                raise CampaignError(Message("cli.campaign.not_campaign_missing", {
                    "file": path, "field": field}), path) from None
        raise


def _named(error: SurviveUsError, path: str | None) -> SurviveUsError:
    """The error, its message and place prefixed by the file it is about."""
    if path:
        if error.words is not None:
            words = Message("cli.in_file", {"file": path, "error": error.words})
            error.message = render(words, "en")  # (setting the message drops the words)
            error.words = words
        else:
            error.message = f"{path}: {error.message}"
        error.where = f"{path}:{error.where}" if error.where else path
    return error


def _replay(path: str) -> Game:
    record = read_json(path)
    if not isinstance(record, dict) or "start" not in record or "log" not in record:
        raise InvalidActionError(Message("cli.campaign.export", {"file": path}), path)
    try:
        return Game.replay(record)
    except SurviveUsError as error:
        raise _named(error, path) from None
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise InvalidActionError(Message("cli.campaign.export_bad", {
            "file": path, "detail": str(error)}), path) from None


def _dice(text: str | None) -> list[int]:
    if not text:
        return []
    values = []
    for i, part in enumerate(text.split(",")):
        try:
            value = int(part)
        except ValueError:
            raise CampaignError(Message("cli.campaign.dice_text", {"got": part}),
                                f"dice[{i}]") from None
        if not 1 <= value <= 6:
            raise CampaignError(Message("cli.campaign.dice_range", {"got": value}),
                                f"dice[{i}]")
        values.append(value)
    return values


def _write(path: str, data: Any) -> None:
    """Write JSON to a temporary file beside `path`, then rename it over `path`."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as error:
        raise CampaignError(Message("cli.file.unwritable", {
            "file": path, "reason": os_reason(error)}), path) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            json.dump(data, stream, indent=2, ensure_ascii=False)
            stream.write("\n")
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(tmp, target)
    except OSError as error:
        Path(tmp).unlink(missing_ok=True)
        raise CampaignError(Message("cli.file.unwritable", {
            "file": path, "reason": os_reason(error)}), path) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
