"""`survive-us odds`: one attack die's exact chances (DESIGN.md).

The text says who attacks whom and how, by the profiles' names in the command's language
(`--lang`), then the chances with their exact fractions; `--json` prints the numbers, the
die, `explain` in that language and `explain_words`, the same as a message.
"""

from __future__ import annotations

import argparse
from typing import Any

from geometry.errors import SurviveUsError
from i18n import Message, Name, render, render_text
from rules.catalog import Catalog, load_catalog
from rules.errors import InvalidActionError
from rules.odds import OddsQuestion, attack_odds
from service import lookup
from service.cli.helptext import HelpText
from service.jsonio import language, print_error, print_json

__all__ = ["register", "odds_words", "profile_name"]


def register(sub: Any, t: HelpText) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "odds", help=t("help.odds"), description=t("help.odds.description"))
    p.add_argument("--attacker", required=True, metavar="PROFILE",
                   help=t("help.odds.attacker"))
    p.add_argument("--target", required=True, metavar="PROFILE",
                   help=t("help.odds.target"))
    p.add_argument("--weapon", metavar="WEAPON", help=t("help.odds.weapon"))
    p.add_argument("--mode", choices=("shoot", "melee"), help=t("help.odds.mode"))
    p.add_argument("--attacker-skill", action="append", default=[],
                   metavar="SKILL", help=t("help.odds.attacker_skill"))
    p.add_argument("--target-skill", action="append", default=[],
                   metavar="SKILL", help=t("help.odds.target_skill"))
    p.add_argument("--target-item", action="append", default=[],
                   metavar="ITEM", help=t("help.odds.target_item"))
    p.add_argument("--target-moves", type=int, default=0, metavar="N",
                   help=t("help.odds.target_moves"))
    p.add_argument("--target-panicked", action="store_true", help=t("help.odds.target_panicked"))
    p.add_argument("--alone", action="store_true", help=t("help.odds.alone"))
    p.add_argument("--json", action="store_true", help=t("help.json"))
    p.set_defaults(func=run)


def profile_name(catalog: Catalog, profile: str) -> Name | str:
    """An archetype ("Ex-flic (H)" / "Ex-cop (M)") or a zombie type by its names."""
    if profile in catalog.archetypes:
        a = catalog.archetypes[profile]
        return {"fr": a.label, "en": a.label_en}
    if profile in catalog.zombies:
        z = catalog.zombies[profile]
        return z.names
    return profile


def _signed(n: int) -> str:
    return f"{n:+d}"


def odds_words(q: OddsQuestion, result: dict[str, Any], catalog: Catalog) -> Message:
    """Who attacks whom, how, and what the die needs, as a message."""
    die = result["die"]
    mode = Message("cli.odds.shoot") if die["mode"] == "shoot" else Message("cli.odds.melee")
    hit = (Message("cli.odds.hits_bonus", {"n": die["to_hit"], "bonus": _signed(die["bonus"])})
           if die["bonus"] else Message("cli.odds.hits", {"n": die["to_hit"]}))
    if die["save"] is None:
        save = Message("cli.odds.no_save")
    else:
        save = (Message("cli.odds.save_bonus", {"n": die["save"],
                                                "bonus": _signed(die["save_bonus"])})
                if die["save_bonus"] else Message("cli.odds.save", {"n": die["save"]}))
        if die["reroll_save"]:
            save = Message("cli.odds.rerolled", {"save": save})
    p: dict[str, Any] = {"attacker": profile_name(catalog, q.attacker), "mode": mode,
                         "target": profile_name(catalog, q.target), "hit": hit, "save": save}
    if q.weapon and q.weapon in catalog.equipment:
        item = catalog.equipment[q.weapon]
        return Message("cli.odds.attack_weapon", {**p, "weapon": item.names})
    return Message("cli.odds.attack", p)


def _by_name(value: str, choices: list[lookup.Choice], code: str, option: str) -> str:
    """The id `value` names (id, French or English name); else the error, with the known
    names and ids."""
    where = option.replace("-", "_")
    return lookup.resolve(value, choices, lambda known: InvalidActionError(Message(code, {
        "option": f"--{option}", "got": value, "known": known}), where))


def question(args: argparse.Namespace) -> OddsQuestion:
    """The question the options ask, every profile, weapon, skill and item by its id."""
    profiles, skills = lookup.profiles(), lookup.skills()
    weapon = None if args.weapon is None else _by_name(
        args.weapon, lookup.weapons(), "cli.odds.unknown_weapon", "weapon")
    return OddsQuestion(
        attacker=_by_name(args.attacker, profiles, "cli.odds.unknown_profile", "attacker"),
        target=_by_name(args.target, profiles, "cli.odds.unknown_profile", "target"),
        weapon=weapon, mode=args.mode,
        attacker_skills=tuple(_by_name(s, skills, "cli.odds.unknown_skill", "attacker-skill")
                              for s in args.attacker_skill),
        target_skills=tuple(_by_name(s, skills, "cli.odds.unknown_skill", "target-skill")
                            for s in args.target_skill),
        target_items=tuple(_by_name(i, lookup.items(), "cli.odds.unknown_item", "target-item")
                           for i in args.target_item),
        target_moves=args.target_moves, target_panicked=args.target_panicked, alone=args.alone)


def run(args: argparse.Namespace) -> int:
    try:
        q = question(args)
        result = attack_odds(q)
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
    lang = language()
    words = odds_words(q, result, load_catalog())
    if args.json:
        print_json({**{k: result[k] for k in ("hit", "saved", "unsaved", "exact", "die")},
                    "explain": render(words, lang), "explain_words": words.to_json()})
    else:
        e = result["exact"]
        print(render(words, lang))
        print(render_text("cli.odds.chances", {
            "hit": result["hit"], "saved": result["saved"], "unsaved": result["unsaved"],
            "hit_exact": e["hit"], "saved_exact": e["saved"],
            "unsaved_exact": e["unsaved"]}, lang))
    return 0
