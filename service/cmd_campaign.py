"""`survive-us campaign draw --length N --seed S`: draw a campaign's scenarios (D21).

Prints `{"scenarios": [ID, ...], "final_roll": 1-6, "final_chosen_by": "dice" | "zombies" |
"survivors", "rolls": [...], "choice_pending": bool}`; when a player chooses, the last
scenario is a placeholder (the lowest-numbered conclusive card) until they do.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from geometry.errors import SurviveUsError
from scenarios.campaign import MAX_LENGTH, MIN_LENGTH, draw_campaign
from scenarios.cards import load_cards
from service.jsonio import print_error, print_json

__all__ = ["register"]


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser("campaign", help="campaign draws")
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
