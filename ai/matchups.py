"""The matchup table of docs/ai.md, re-run with one command.

    python -m ai.matchups --out docs/matchups --games 400 --seed 5000 --jobs 2
    python -m ai.matchups --table docs/matchups        # the Markdown table only

Each cell (card x zombie player x survivor player) plays the same games as `survive-us
simulate --scenario CARD --games N --seed S` (game `i` from seed `S + i`, policies seeded
from it); every result is appended to `CARD-ZOMBIES-vs-SURVIVORS.jsonl` in the raw folder
(`raw_dir`: ai/data/matchups/ for docs/matchups/, which keeps only the summaries) as it comes,
so a stopped run resumes where it stopped, and the cell's JSON summary (the simulator's) is
written to `CARD-ZOMBIES-vs-SURVIVORS.json` under `--out`. The table reads those
files and says, per card, whether the tactician meets the issue's bar against greedy: at
least 1.3x the survivor casualties and a higher zombie win rate, both with 95% intervals
that do not overlap.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from ai.simulate import GameResult, Job, mean_interval, play_job, summarize

__all__ = ["CARDS", "PAIRS", "LEVELS", "run", "summarize_cell", "table", "levels",
           "paired_difference", "meets_bar", "main", "raw_dir"]

CARDS = ["nettoyage", "evacuation", "escorte", "caisses", "convoi", "sauvetage", "refuge",
         "nuit", "remede", "helico"]
PAIRS = [("tactician", "bot"), ("greedy", "bot"), ("random", "bot"), ("greedy", "random")]


ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "matchups"  # the summaries, read by docs/ai.md
DATA = ROOT / "ai" / "data" / "matchups"  # every game's result, one JSON line each


def raw_dir(out: Path) -> Path:
    """Where the per-game results of the cells summarised in `out` are kept: under
    ai/data/matchups/ for a folder of docs/matchups/ (the docs hold only the summaries),
    in `out/raw/` anywhere else (a scratch run)."""
    try:
        inside = out.resolve().relative_to(DOCS)
    except ValueError:
        return out / "raw"
    return DATA / inside


def _name(card: str, zombies: str, survivors: str) -> str:
    return f"{card}-{zombies.replace(':', '_')}-vs-{survivors}"


def _done(raw: Path) -> dict[int, GameResult]:
    if not raw.exists():
        return {}
    out = {}
    for line in raw.read_text(encoding="utf-8").splitlines():
        try:
            r = GameResult(**json.loads(line))
        except (ValueError, TypeError):
            continue  # a line cut short by a stopped run: that game is played again
        out[r.seed] = r
    return out


def run(out: Path, cards: list[str], pairs: list[tuple[str, str]], games: int, seed: int,
        jobs: int) -> None:
    """Play every missing game, card by card and seed by seed (each pair on the same seeds),
    appending each result to `raw/CELL.jsonl` as it comes, so a stopped run loses at most
    the games being played; then write each cell's JSON summary."""
    raws = raw_dir(out)
    raws.mkdir(parents=True, exist_ok=True)
    for card in cards:
        done = {pair: _done(raws / f"{_name(card, *pair)}.jsonl") for pair in pairs}
        todo = [Job(card, seed + i, zombies, survivors)
                for i in range(games) for zombies, survivors in pairs
                if seed + i not in done[(zombies, survivors)]]
        if todo:
            _play(todo, raws, jobs)
        for zombies, survivors in pairs:
            summarize_cell(out, card, zombies, survivors, seed, games)
        print(f"{card}: done", flush=True)


def _play(todo: list[Job], raws: Path, jobs: int) -> None:
    def keep(job: Job, result: GameResult) -> None:
        path = raws / f"{_name(job.scenario, job.zombies, job.survivors)}.jsonl"
        with path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(dataclasses.asdict(result)) + "\n")

    if jobs <= 1:
        for job in todo:
            keep(job, play_job(job))
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        running = {pool.submit(play_job, job): job for job in todo}
        for future in as_completed(running):
            keep(running[future], future.result())


def summarize_cell(out: Path, card: str, zombies: str, survivors: str, seed: int,
                   games: int) -> dict[str, Any] | None:
    """The cell's summary over the seeds played so far (at most `games` from `seed`)."""
    name = _name(card, zombies, survivors)
    done = _done(raw_dir(out) / f"{name}.jsonl")
    results = [done[s] for s in range(seed, seed + games) if s in done]
    if not results:
        return None
    summary = summarize(results, scenario=card, seed=seed, zombies=zombies,
                        survivors=survivors)
    (out / f"{name}.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary


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
    return bool(t_lo > g_hi and c_lo > cg_hi and ratio_ok)


def _pct(v: float) -> str:
    return f"{100 * v:.0f}%"


def _mean(cell: dict[str, Any], key: str) -> str:
    """A mean and its interval; a mean of counts cannot be below 0, so the normal
    interval is clipped there. "—" for a cell saved before the measure existed."""
    if key not in cell:
        return "—"
    lo, hi = cell[key + "_ci95"]
    return f"{cell[key]:.2f} ({max(lo, 0):.2f}–{hi:.2f})"


def table(out: Path) -> str:
    """The Markdown table of every saved cell, with the bar's verdict per card."""
    cells = _load(out)
    lines = ["| card | zombies | survivors | games | zombie win rate | survivor casualties "
             "| contaminations | wounds dealt | survivors put down | turns |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for (card, zombies, survivors), s in sorted(
            cells.items(), key=lambda kv: (CARDS.index(kv[0][0]) if kv[0][0] in CARDS else 99,
                                           kv[0][2], kv[0][1])):
        lo, hi = s["zombie_win_rate_ci95"]
        lines.append(f"| {card} | {zombies} | {survivors} | {s['games']} | "
                     f"{_pct(s['zombie_win_rate'])} ({_pct(lo)}–{_pct(hi)}) | "
                     f"{_mean(s, 'survivor_casualties_mean')} | "
                     f"{_mean(s, 'contaminations_mean')} | {_mean(s, 'wounds_mean')} | "
                     f"{_mean(s, 'downs_mean')} | {s['turns_mean']:.2f} |")
    raws: dict[tuple[str, str], dict[int, GameResult]] = {}

    def paired(card: str, a: str, b: str, measure: str) -> str:
        for zombies in (a, b):
            if (card, zombies) not in raws:
                raws[(card, zombies)] = _done(raw_dir(out) / f"{_name(card, zombies, 'bot')}.jsonl")
        return _paired(raws[(card, a)], raws[(card, b)], measure)

    verdicts = []
    for card in CARDS:
        t, g = cells.get((card, "tactician", "bot")), cells.get((card, "greedy", "bot"))
        if t and g:
            ratio = (f"{t['survivor_casualties_mean'] / g['survivor_casualties_mean']:.2f}x"
                     if g["survivor_casualties_mean"] else "— (greedy 0)")
            games = min(t["games"], g["games"])
            verdicts.append(f"| {card} | {games} | "
                            f"{t['zombie_win_rate'] - g['zombie_win_rate']:+.0%} | "
                            f"{paired(card, 'tactician', 'greedy', 'win')} | {ratio} | "
                            f"{paired(card, 'tactician', 'greedy', 'wounds')} | "
                            f"{'yes' if meets_bar(t, g) else 'no'} |")
    if verdicts:
        lines += ["", "| card | games | tactician - greedy win rate | the same, paired by seed "
                  "(95%) | casualties ratio | wounds dealt, tactician - greedy, paired (95%) "
                  "| bar met |", "|---|---|---|---|---|---|---|", *verdicts]
    versus = [f"| {card} | {paired(card, 'greedy', 'random', 'win')} | "
              f"{paired(card, 'greedy', 'random', 'wounds')} |"
              for card in CARDS if (card, "greedy", "bot") in cells
              and (card, "random", "bot") in cells]
    if versus:
        lines += ["", "| card | win rate, greedy - random, paired (95%) "
                  "| wounds dealt, greedy - random, paired (95%) |", "|---|---|---|", *versus]
    idle = [f"| {card} | {_pct(cells[(card, 'idle', 'bot')]['zombie_win_rate'])} | "
            f"{paired(card, 'greedy', 'idle', 'win')} | "
            f"{paired(card, 'tactician', 'idle', 'win')} |"
            for card in CARDS if (card, "idle", "bot") in cells
            and (card, "greedy", "bot") in cells and (card, "tactician", "bot") in cells]
    if idle:
        lines += ["", "| card | idle zombies' win rate | greedy - idle, paired (95%) "
                  "| tactician - idle, paired (95%) |", "|---|---|---|---|", *idle]
    return "\n".join(lines)


def _paired(first: dict[int, GameResult], second: dict[int, GameResult], measure: str) -> str:
    """The mean per-seed difference first - second (two zombie players' games against the
    bot) over the seeds both played (a zombie win counts 1; or the wounds dealt), with its
    normal 95% interval: both players met the same set-ups, so this is tighter than
    comparing two intervals."""
    found = paired_difference(first, second, measure)
    if found is None:
        return "—"
    m, lo, hi, _n = found
    if measure == "win":
        return f"{m:+.1%} ({lo:+.1%} to {hi:+.1%})"
    return f"{m:+.2f} ({lo:+.2f} to {hi:+.2f})"


def paired_difference(first: dict[int, GameResult], second: dict[int, GameResult],
                      measure: str) -> tuple[float, float, float, int] | None:
    """(mean, low, high, seeds) of the per-seed differences first - second; None with
    fewer than two seeds in common or a result saved before the measure existed."""

    def value(r: GameResult) -> int | None:
        return int(r.winner == "zombies") if measure == "win" else r.wounds

    diffs = []
    for seed in sorted(first.keys() & second.keys()):
        x, y = value(first[seed]), value(second[seed])
        if x is None or y is None:
            return None
        diffs.append(x - y)
    if len(diffs) < 2:
        return None
    m, lo, hi = mean_interval(diffs)
    return m, lo, hi, len(diffs)


LEVELS = ("tactician:easy", "tactician", "tactician:hard")


def levels(out: Path, survivors: str = "bot") -> str:
    """The bar of the look-ahead issue, against `survivors`: on each card the zombies' play
    decides (greedy beats idle zombies, paired, and greedy's zombie win rate is between 5%
    and 95%), each level against greedy and each level against the one below, paired by
    seed with 95% intervals; and the wounds dealt, hard against greedy."""
    raw = raw_dir(out)

    def games(card: str, zombies: str) -> dict[int, GameResult]:
        return _done(raw / f"{_name(card, zombies, survivors)}.jsonl")

    def cell(found: tuple[float, float, float, int] | None, pct: bool = True) -> str:
        if found is None:
            return "—"
        m, lo, hi, _ = found
        mark = " ▲" if lo > 0 else " ▼" if hi < 0 else ""
        if pct:
            return f"{m:+.1%} ({lo:+.1%} to {hi:+.1%}){mark}"
        return f"{m:+.2f} ({lo:+.2f} to {hi:+.2f}){mark}"

    lines = [f"Against `{survivors}`. ▲: the 95% interval is above 0; ▼: below 0.", "",
             "| card | games | greedy win rate | greedy - idle | decided by the zombies' play "
             "| easy - greedy | normal - greedy | hard - greedy | normal - easy | hard - normal "
             "| wounds, hard - greedy |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for card in CARDS:
        greedy = games(card, "greedy")
        if not greedy:
            continue
        rate = sum(r.winner == "zombies" for r in greedy.values()) / len(greedy)
        over_idle = paired_difference(greedy, games(card, "idle"), "win")
        decided = (over_idle is not None and over_idle[1] > 0 and 0.05 <= rate <= 0.95)
        easy, normal, hard = (games(card, z) for z in LEVELS)
        lines.append(
            f"| {card} | {len(greedy)} | {rate:.0%} | {cell(over_idle)} | "
            f"{'yes' if decided else 'no'} | {cell(paired_difference(easy, greedy, 'win'))} | "
            f"{cell(paired_difference(normal, greedy, 'win'))} | "
            f"{cell(paired_difference(hard, greedy, 'win'))} | "
            f"{cell(paired_difference(normal, easy, 'win'))} | "
            f"{cell(paired_difference(hard, normal, 'win'))} | "
            f"{cell(paired_difference(hard, greedy, 'wounds'), pct=False)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.matchups", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs/matchups"))
    parser.add_argument("--table", type=Path, help="print the table of this folder and stop")
    parser.add_argument("--levels", type=Path,
                        help="print the levels' table of this folder (against --survivors) "
                        "and stop")
    parser.add_argument("--survivors", default="bot", help="the survivor player of --levels")
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
    if args.levels is not None:
        print(levels(args.levels, args.survivors))
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
