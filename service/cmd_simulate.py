"""`survive-us simulate`: batches of seeded games between two policies (see `ai.simulate`).

`--scenario ID --games N --seed S --zombies POLICY --survivors POLICY [--jobs K | --cluster
ADDRESS] [--band B] [--zombie-points P] [--json]` plays N games (game i from seed S + i), in K
processes or on the Dask cluster whose scheduler is at ADDRESS, with a progress bar on a
terminal, and prints the summary: games, zombie_wins, survivor_wins, draws, the rates,
survivor_casualties_mean, contaminations_mean, turns_mean, wounds_mean (PV the band lost over
the game) and downs_mean (band members put down, revived or not), each with a `_ci95`
interval.
The same seed gives the same summary whatever K is, and on a cluster. Bad input, or a
scheduler that cannot be reached, exits with status 2.
"""

from __future__ import annotations

import argparse
from typing import Any

from geometry.errors import SurviveUsError
from service.batch_options import add_batch_options, check_batch_options, progress_bar
from service.jsonio import print_error, print_json

__all__ = ["register", "SimulateError"]


class SimulateError(SurviveUsError, ValueError):
    code = "bad_simulation"


def register(sub: Any) -> None:
    cmd: argparse.ArgumentParser = sub.add_parser(
        "simulate", help="play batches of seeded games between two policies",
        description="N seeded games of a scenario card (or 'skirmish') with the named "
        "policies; zombies: random, greedy, tactician[:easy|normal|hard], heuristic, idle; "
        "survivors: bot, group, random.")
    cmd.add_argument("--scenario", required=True, help="card id, or 'skirmish'")
    cmd.add_argument("--games", type=int, required=True)
    cmd.add_argument("--seed", type=int, required=True)
    add_batch_options(cmd)
    cmd.add_argument("--zombie-points", type=int, metavar="P",
                     help="buy the horde with P points (the card's mix) instead of the "
                     "card's own points")
    cmd.add_argument("--json", action="store_true", help="print JSON")
    cmd.set_defaults(func=run)


def _check(args: argparse.Namespace) -> None:
    from scenarios.cards import load_cards

    if args.scenario != "skirmish" and args.scenario not in load_cards():
        raise SimulateError(f"unknown scenario {args.scenario!r} (known: skirmish, "
                            f"{', '.join(load_cards())})", "scenario")
    if args.games < 1:
        raise SimulateError(f"--games: at least 1, got {args.games}", "games")
    if args.zombie_points is not None:
        if args.zombie_points < 0:
            raise SimulateError(f"--zombie-points: at least 0, got {args.zombie_points}",
                                "zombie_points")
        if args.scenario == "skirmish":
            raise SimulateError("--zombie-points: only for scenario cards (the skirmish "
                                "table places its own zombies)", "zombie_points")
    check_batch_options(args, SimulateError)


def run(args: argparse.Namespace) -> int:
    from ai.simulate import GameResult, run_batch, summarize

    try:
        _check(args)
        results: list[GameResult] = run_batch(
            args.scenario, args.games, args.seed, args.zombies, args.survivors,
            jobs=args.jobs, band=args.band, cluster=args.cluster,
            zombie_points=args.zombie_points, progress=progress_bar)
    except (SurviveUsError, KeyError, OSError) as error:
        if isinstance(error, SurviveUsError):
            return print_error(error)
        return print_error(SimulateError(f"--band: {error}", "band"))
    about: dict[str, Any] = {"scenario": args.scenario, "seed": args.seed,
                             "zombies": args.zombies, "survivors": args.survivors}
    if args.zombie_points is not None:
        about["zombie_points"] = args.zombie_points
    out = summarize(results, **about)
    if args.json:
        print_json(out)
        return 0
    print(f"{args.scenario}: {out['games']} games, {args.zombies} zombies vs "
          f"{args.survivors} survivors (seed {args.seed})")
    for key in ("zombie_win_rate", "survivor_win_rate", "draw_rate", "survivor_casualties_mean",
                "contaminations_mean", "turns_mean", "wounds_mean", "downs_mean"):
        low, high = out[key + "_ci95"]
        print(f"  {key}: {out[key]:.3f} (95% {low:.3f}-{high:.3f})")
    return 0
