"""`survive-us simulate`: batches of seeded games between two policies (see `ai.simulate`).

`--scenario ID --games N --seed S --zombies POLICY --survivors POLICY [--jobs K | --cluster
ADDRESS] [--band B] [--zombie-points P] [--json]` plays N games (game i from seed S + i), in K
processes or on the Dask cluster whose scheduler is at ADDRESS, with a progress bar on a
terminal, and prints the summary: games, zombie_wins, survivor_wins, draws, the rates,
survivor_casualties_mean, contaminations_mean, turns_mean, wounds_mean (PV the band lost over
the game) and downs_mean (band members put down, revived or not), each with a `_ci95`
interval.
The same seed gives the same summary whatever K is, and on a cluster. Bad input, or a
scheduler that cannot be reached, exits with status 2. The text is in the command's
language (`--lang`).
"""

from __future__ import annotations

import argparse
from typing import Any

from babel.numbers import format_decimal, format_percent

from geometry.errors import SurviveUsError
from i18n import LANGS, Message, render_text
from service import lookup
from service.cli.batch_options import add_batch_options, check_batch_options, progress_bar
from service.cli.helptext import HelpText
from service.jsonio import language, os_reason, print_error, print_json

__all__ = ["register", "SimulateError"]


class SimulateError(SurviveUsError, ValueError):
    code = "bad_simulation"


def register(sub: Any, t: HelpText) -> None:
    cmd: argparse.ArgumentParser = sub.add_parser(
        "simulate", help=t("help.simulate"), description=t("help.simulate.description"))
    cmd.add_argument("--scenario", required=True, help=t("help.simulate.scenario"))
    cmd.add_argument("--games", type=int, required=True, metavar="N",
                     help=t("help.simulate.games"))
    cmd.add_argument("--seed", type=int, required=True, help=t("help.simulate.seed"))
    add_batch_options(cmd, t)
    cmd.add_argument("--zombie-points", type=int, metavar="P",
                     help=t("help.simulate.zombie_points"))
    cmd.add_argument("--json", action="store_true", help=t("help.json"))
    cmd.set_defaults(func=run)


def _check(args: argparse.Namespace) -> None:
    """Refuse bad input; the scenario and an example band named by their ids after."""
    skirmish = lookup.Choice("skirmish", {lang: render_text("cli.simulate.skirmish", {}, lang)
                                          for lang in LANGS})
    args.scenario = lookup.resolve(
        args.scenario, [skirmish, *lookup.cards()], lambda known: SimulateError(Message(
            "cli.scenario.unknown", {"name": args.scenario, "known": known}), "scenario"))
    if args.games < 1:
        raise SimulateError(Message("cli.simulate.games", {"got": args.games}), "games")
    if args.zombie_points is not None:
        if args.zombie_points < 0:
            raise SimulateError(Message("cli.simulate.points", {"got": args.zombie_points}),
                                "zombie_points")
        if args.scenario == "skirmish":
            raise SimulateError(Message("cli.simulate.points_skirmish"), "zombie_points")
    check_batch_options(args, SimulateError)
    if args.cluster:
        require_extra("distributed", "--cluster", "cluster", SimulateError)


def require_extra(module: str, option: str, extra: str, error: type[SurviveUsError]) -> None:
    """`option` needs an optional dependency (the `extra` of pyproject.toml, which `make run`
    does not install): refused with how to install it when it is missing."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise error(Message("cli.extra_missing", {"option": option, "package": module,
                                                  "extra": extra}), option.lstrip("-"))


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
            return print_error(error, as_json=args.json)
        return print_error(SimulateError(band_problem(args.band, error), "band"),
                           as_json=args.json)
    about: dict[str, Any] = {"scenario": args.scenario, "seed": args.seed,
                             "zombies": args.zombies, "survivors": args.survivors}
    if args.zombie_points is not None:
        about["zombie_points"] = args.zombie_points
    out = summarize(results, **about)
    if args.json:
        print_json(out)
        return 0
    lang = language()
    print(render_text("cli.simulate.title", {
        "scenario": scenario_name(args.scenario), "games": out["games"],
        "zombies": args.zombies, "survivors": args.survivors, "seed": args.seed}, lang))
    for key, label in _METRICS:
        low, high = out[key + "_ci95"]
        # every metric is a share or a count, never below 0: a mean's normal approximation
        # may reach below, the bounds shown do not (the JSON keeps its numbers)
        show = _percent if key.endswith("_rate") else _three
        top = 1.0 if key.endswith("_rate") else high
        print("  " + render_text("cli.simulate.line", {
            "metric": label, "value": show(out[key], lang), "low": show(max(low, 0.0), lang),
            "high": show(min(high, top), lang)}, lang))
    return 0


_METRICS = (("zombie_win_rate", Message("cli.simulate.zombie_win_rate")),
            ("survivor_win_rate", Message("cli.simulate.survivor_win_rate")),
            ("draw_rate", Message("cli.simulate.draw_rate")),
            ("survivor_casualties_mean", Message("cli.simulate.casualties")),
            ("contaminations_mean", Message("cli.simulate.contaminations")),
            ("turns_mean", Message("cli.simulate.turns")),
            ("wounds_mean", Message("cli.simulate.wounds")),
            ("downs_mean", Message("cli.simulate.downs")))


def _percent(value: float, lang: str) -> str:
    """A rate as a percentage, the language's way ("33 %" / "33%")."""
    return str(format_percent(value, locale=lang))


def _three(value: float, lang: str) -> str:
    """A rate or a mean with three decimals, the language's way ("0,417" / "0.417")."""
    return str(format_decimal(value, format="0.000", locale=lang))


def scenario_name(scenario: str) -> Any:
    """A card by its names in French and English; the skirmish in words."""
    from scenarios.cards import load_cards

    card = load_cards().get(scenario)
    if card is None:
        return Message("cli.simulate.skirmish")
    return {"fr": card.name.fr, "en": card.name.en}


def band_problem(band: str | None, error: BaseException) -> Message:
    """A --band that is neither a readable roster file nor an example band."""
    if isinstance(error, OSError):
        return Message("cli.file.unreadable", {"file": band or "", "reason": os_reason(error)})
    from rules.warband import example_bands

    return Message("cli.scenario.no_band", {"name": band or "",
                                            "known": sorted(example_bands())})
