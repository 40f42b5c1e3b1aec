"""Issue 24's targets: the engine as a fast forward model, each figure beside the same
measurement of the code before the issue (commit `BEFORE`, unpacked with `git archive` and
imported in a subprocess), both run alternately in the same `make bench` (`bench/forward_probe.py`
holds the measurements; the same seeds play the same games on both, as
`tests/test_played_games.py` checks).

`python -m bench.forward_model [--quick]` prints the rows and the two profiles.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.geometry_bench import Row

ROOT = Path(__file__).resolve().parent.parent
PROBE = Path(__file__).resolve().parent / "forward_probe.py"
BEFORE = "930815a"  # main before issue 24 (the engine the 130 recorded games were played on)
GREEDY = [f"{card}:{seed}" for card in ("escorte", "evacuation", "convoi", "helico")
          for seed in (1, 2)]
NORMAL = ["escorte:1", "helico:1", "evacuation:1", "refuge:1"]
HARD = ["escorte:1", "helico:1"]
PROFILES: dict[str, str] = {}  # the greedy game's profile, "before" and "ours" (docs)
WHO = {"before": f"the code before issue 24 ({BEFORE})", "ours": "today's code"}


@contextmanager
def before_tree() -> Iterator[Path | None]:
    """The code before issue 24, unpacked from git (None when the history is missing)."""
    with tempfile.TemporaryDirectory(prefix="survive-us-before-") as name:
        archive = Path(name) / "before.tar"
        done = subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), BEFORE],
                              capture_output=True, check=False)
        if done.returncode != 0:
            yield None
            return
        with tarfile.open(archive) as tar:
            tar.extractall(Path(name) / "tree", filter="data")
        yield Path(name) / "tree"


def probe(tree: Path, *args: str) -> Any:
    """One measurement in a fresh process on `tree`'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, str(PROBE), *args], env=env, cwd=tree,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _alternate(trees: dict[str, Path], rounds: int, *args: str) -> dict[str, list[Any]]:
    """The probe run `rounds` times on each tree, taking turns (the machine's load falls on
    both alike)."""
    out: dict[str, list[Any]] = {name: [] for name in trees}
    for _ in range(rounds):
        for name, tree in trees.items():
            out[name].append(probe(tree, *args))
    return out


def _med(values: list[float]) -> float:
    return statistics.median(values)


def _games_row(what: str, target: str, got: dict[str, list[Any]], bound: float) -> Row:
    """Whole games: the sum of the games' times, median over the rounds (set-up included,
    and play alone beside it)."""
    total = {k: _med([sum(r["setup"]) + sum(r["play"]) for r in v]) for k, v in got.items()}
    play = {k: _med([sum(r["play"]) for r in v]) for k, v in got.items()}
    ratio, play_ratio = total["ours"] / total["before"], play["ours"] / play["before"]
    met = "met" if ratio <= bound else "not met"
    return Row(what, target, f"{total['ours']:.2f} s ({play['ours']:.2f} s playing)",
               "the code before issue 24, same games", f"{total['before']:.2f} s "
               f"({play['before']:.2f} s playing)",
               f"{ratio:.2f} of before with set-up, {play_ratio:.2f} playing: {met}; "
               f"median of {len(got['ours'])} alternated runs")


def _op(got: dict[str, list[Any]], key: str) -> dict[str, float]:
    return {k: _med([x for r in v for x in r[key]]) for k, v in got.items()}


def run(quick: bool = False) -> list[Row]:
    rounds = 1 if quick else 3
    with before_tree() as before:
        if before is None:
            return [Row("forward model (issue 24)", "-", "not measured", "the code before",
                        "-", f"git has no commit {BEFORE} here (a shallow clone?)")]
        trees = {"before": before, "ours": ROOT}
        rows = [_games_row(
            "whole games, greedy zombies against the bot (escorte, evacuation, convoi, "
            "helico; seeds 1, 2)", "<= 1/5 of before",
            _alternate(trees, rounds, "games", "greedy", *GREEDY), 0.2)]
        rows.append(_games_row(
            f"whole games, tactician (normal) against the bot ({', '.join(NORMAL)})",
            "<= 1/4 of before", _alternate(trees, rounds, "games", "tactician", *NORMAL),
            0.25))
        rows.append(_games_row(
            f"whole games, tactician:hard against the bot ({', '.join(HARD)})",
            "<= 1/4 of before", _alternate(trees, 1, "games", "tactician:hard", *HARD),
            0.25))
        got = _alternate(trees, rounds, "ops")
        n = got["ours"][0]["actions"]
        for key, what, target in (
                ("first_listing", f"legal actions of a state just reached (the bench position "
                 f"after each of its {n} legal actions)", "<= 0.3 ms"),
                ("listing_again", "legal actions asked again of the same state", "-"),
                ("apply", "apply one action (each legal action of the bench position, on a "
                 "copy)", "<= 0.15 ms"),
                ("clone", "copy the game (bench position)", "<= 0.03 ms"),
                ("undo", "take back the last action", "<= 0.1 ms")):
            t = _op(got, key)
            rows.append(Row(what, target, f"{t['ours']:.3f} ms", "the code before issue 24",
                            f"{t['before']:.3f} ms",
                            f"{t['before'] / t['ours']:.1f}x faster; median"))
        games = 200 if quick else 1000
        mem = {"ours": probe(ROOT, "memory", str(games)),
               "before": probe(before, "memory", str(min(games, 100)))}
        rows.append(Row(f"memory of a simulation process over {games} games (greedy against "
                        "the bot, route cards in turn)", "flat", _memory(mem["ours"]),
                        "the code before issue 24, 100 games", _memory(mem["before"]),
                        f"{games} games in {mem['ours']['seconds']:.0f} s"))
        for name, tree in trees.items():
            PROFILES[name] = probe(tree, "profile")["text"]
    return rows


def _memory(got: dict[str, Any]) -> str:
    rss = got["rss_mb"]
    n = len(rss)
    tenth = max(n // 10, 1)
    return (f"{rss[tenth - 1]:.0f} MB after {tenth} games, {rss[n // 2 - 1]:.0f} MB after "
            f"{n // 2}, {rss[-1]:.0f} MB after {n}")


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.forward_model")
    parser.add_argument("--quick", action="store_true", help="one round each, 200 games")
    args = parser.parse_args()
    for row in run(args.quick):
        print(f"| {row.what} | {row.target} | {row.ours} | {row.peer_name} | {row.peer} | "
              f"{row.note} |")
    for name, text in PROFILES.items():
        print(f"\n## {name}\n{text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
