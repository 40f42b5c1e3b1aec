"""The matchup table of docs/ai.md, re-run with one command.

    python -m ai.matchups --out docs/matchups --games 400 --seed 5000 --jobs 2
    python -m ai.matchups --table docs/matchups        # the Markdown table only

Each cell (card x zombie player x survivor player) is one `survive-us simulate` batch (run
as `python -m service simulate`, so the code beside the current directory plays) whose
JSON summary is saved as `CARD-ZOMBIES-vs-SURVIVORS.json` under `--out`; a cell whose file
exists is skipped, so an interrupted run resumes where it stopped. The table reads those
files and says, per card, whether the tactician meets the issue's bar against greedy: at
least 1.3x the survivor casualties and a higher zombie win rate, both with 95% intervals
that do not overlap.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

__all__ = ["CARDS", "PAIRS", "run", "table", "meets_bar", "main"]

CARDS = ["nettoyage", "evacuation", "escorte", "caisses", "convoi", "sauvetage", "refuge",
         "nuit", "remede", "helico"]
PAIRS = [("tactician", "bot"), ("greedy", "bot"), ("random", "bot"), ("greedy", "random")]


def _name(card: str, zombies: str, survivors: str) -> str:
    return f"{card}-{zombies.replace(':', '_')}-vs-{survivors}.json"


def run(out: Path, cards: list[str], pairs: list[tuple[str, str]], games: int, seed: int,
        jobs: int) -> None:
    """Play every missing cell and save its JSON summary."""
    out.mkdir(parents=True, exist_ok=True)
    # card by card, so an interrupted run leaves whole cards
    for card, (zombies, survivors) in [(c, p) for c in cards for p in pairs]:
        path = out / _name(card, zombies, survivors)
        if path.exists():
            continue
        cmd = [sys.executable, "-m", "service", "simulate", "--scenario", card,
               "--games", str(games), "--seed", str(seed), "--zombies", zombies,
               "--survivors", survivors, "--jobs", str(jobs), "--json"]
        done = subprocess.run(cmd, check=True, capture_output=True, text=True)
        path.write_text(done.stdout, encoding="utf-8")
        print(f"{path.name}: {json.loads(done.stdout)['zombie_win_rate']:.0%} zombie wins",
              flush=True)


def _load(out: Path) -> dict[tuple[str, str, str], dict[str, Any]]:
    cells = {}
    for path in sorted(out.glob("*-vs-*.json")):
        card, _, rest = path.stem.partition("-")
        zombies, _, survivors = rest.partition("-vs-")
        cells[(card, zombies, survivors)] = json.loads(path.read_text(encoding="utf-8"))
    return cells


def meets_bar(tactician: dict[str, Any], greedy: dict[str, Any]) -> bool:
    """The issue's bar: >= 1.3x greedy's casualties and a higher win rate, intervals apart."""
    t_lo = tactician["zombie_win_rate_ci95"][0]
    g_hi = greedy["zombie_win_rate_ci95"][1]
    c_lo = tactician["survivor_casualties_mean_ci95"][0]
    cg_hi = greedy["survivor_casualties_mean_ci95"][1]
    ratio_ok = tactician["survivor_casualties_mean"] >= 1.3 * greedy["survivor_casualties_mean"]
    return t_lo > g_hi and c_lo > cg_hi and ratio_ok


def _pct(v: float) -> str:
    return f"{100 * v:.0f}%"


def table(out: Path) -> str:
    """The Markdown table of every saved cell, with the bar's verdict per card."""
    cells = _load(out)
    lines = ["| card | zombies | survivors | games | zombie win rate | survivor casualties "
             "| contaminations | turns |", "|---|---|---|---|---|---|---|---|"]
    for (card, zombies, survivors), s in sorted(
            cells.items(), key=lambda kv: (CARDS.index(kv[0][0]) if kv[0][0] in CARDS else 99,
                                           kv[0][2], kv[0][1])):
        lo, hi = s["zombie_win_rate_ci95"]
        c = s["survivor_casualties_mean"]
        clo, chi = s["survivor_casualties_mean_ci95"]
        k = s["contaminations_mean"]
        klo, khi = s["contaminations_mean_ci95"]
        lines.append(f"| {card} | {zombies} | {survivors} | {s['games']} | "
                     f"{_pct(s['zombie_win_rate'])} ({_pct(lo)}–{_pct(hi)}) | "
                     f"{c:.2f} ({clo:.2f}–{chi:.2f}) | {k:.2f} ({klo:.2f}–{khi:.2f}) | "
                     f"{s['turns_mean']:.2f} |")
    verdicts = []
    for card in CARDS:
        t, g = cells.get((card, "tactician", "bot")), cells.get((card, "greedy", "bot"))
        if t and g:
            ratio = (t["survivor_casualties_mean"] / g["survivor_casualties_mean"]
                     if g["survivor_casualties_mean"] else float("inf"))
            verdicts.append(f"| {card} | {t['zombie_win_rate'] - g['zombie_win_rate']:+.0%} | "
                            f"{ratio:.2f}x | {'yes' if meets_bar(t, g) else 'no'} |")
    if verdicts:
        lines += ["", "| card | tactician - greedy win rate | casualties ratio | bar met |",
                  "|---|---|---|---|", *verdicts]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.matchups", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs/matchups"))
    parser.add_argument("--table", type=Path, help="print the table of this folder and stop")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cards", default=",".join(CARDS))
    parser.add_argument("--pairs", default=",".join(f"{z}/{s}" for z, s in PAIRS),
                        help="zombies/survivors pairs, comma separated")
    args = parser.parse_args(argv)
    if args.table is not None:
        print(table(args.table))
        return 0
    cards = [c for c in args.cards.split(",") if c]
    unknown = [c for c in cards if c not in CARDS]
    if unknown:
        parser.error(f"unknown card(s) {unknown} (known: {', '.join(CARDS)})")
    pairs = []
    for p in args.pairs.split(","):
        zombies, slash, survivors = p.partition("/")
        if not slash or not zombies or not survivors:
            parser.error(f"--pairs: {p!r} is not ZOMBIES/SURVIVORS")
        pairs.append((zombies, survivors))
    run(args.out, cards, pairs, args.games, args.seed, args.jobs)
    print(table(args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
