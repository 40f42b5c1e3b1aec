"""`survive-us odds`: one attack die's exact chances (DESIGN.md)."""

from __future__ import annotations

import argparse
from typing import Any

from geometry.errors import SurviveUsError
from rules.odds import OddsQuestion, attack_odds
from service.jsonio import print_error, print_json


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "odds", help="exact chances of one attack die",
        description="Profiles are archetype or zombie ids (see `survive-us rules dump`).")
    p.add_argument("--attacker", required=True)
    p.add_argument("--target", required=True)
    p.add_argument("--weapon")
    p.add_argument("--mode", choices=("shoot", "melee"))
    p.add_argument("--attacker-skill", action="append", default=[], metavar="SKILL")
    p.add_argument("--target-skill", action="append", default=[], metavar="SKILL")
    p.add_argument("--target-item", action="append", default=[], metavar="ITEM",
                   help="protection, couvercle_de_poubelle, casque")
    p.add_argument("--target-moves", type=int, default=0,
                   help="moves the target made this turn (each beyond the 2nd: D -1)")
    p.add_argument("--target-panicked", action="store_true")
    p.add_argument("--alone", action="store_true", help="no friend within 5 in (rien à perdre)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    q = OddsQuestion(
        attacker=args.attacker, target=args.target, weapon=args.weapon, mode=args.mode,
        attacker_skills=tuple(args.attacker_skill), target_skills=tuple(args.target_skill),
        target_items=tuple(args.target_item), target_moves=args.target_moves,
        target_panicked=args.target_panicked, alone=args.alone)
    try:
        result = attack_odds(q)
    except SurviveUsError as error:
        return print_error(error)
    if args.json:
        print_json({k: result[k] for k in ("hit", "saved", "unsaved", "exact", "die",
                                           "explain")})
    else:
        e = result["exact"]
        print(result["explain"])
        print(f"hit {result['hit']:.4f} ({e['hit']}), saved {result['saved']:.4f} "
              f"({e['saved']}), unsaved {result['unsaved']:.4f} ({e['unsaved']})")
    return 0
