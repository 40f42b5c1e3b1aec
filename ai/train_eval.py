"""Train the position evaluation (`ai.evaluation`) on the project's own simulator.

    python -m ai.train_eval --games 240 --holdout 40 --jobs 2          # ~1 h on 2 cores
    python -m ai.train_eval --cluster tcp://192.168.1.10:8786 ...      # on a Dask cluster

1. Plays `--games` games a card (seeds `--seed` + i) and `--holdout` more a card on seeds
   no training game uses (`--holdout-seed` + i). Each game draws its players and band from
   its seed (`mix`): the zombies greedy, the tactician's heuristic (`heuristic`, and
   `tactician:easy`), random or idle (no player that needs a trained model), the
   survivors the bot, the group or random, one of the example bands; so the model sees
   strong and weak play on both sides, not one matchup's positions. Every `STEP`th
   position with no window open is written down as the numbers of `ai.features`, with the
   game's result. Each game's rows are appended to `--cache` as they come (a stopped run
   resumes).
2. Fits a LightGBM binary model (the zombies win or not) on the training games, with
   one game in ten set aside to stop the boosting, fixed seeds and one thread per fit:
   the same games give the same model.
3. Measures it on the held-out games: predicted against observed win rate in each tenth of
   the predictions, the Brier score beside a baseline that knows only the card and the
   turn, and writes the model (`ai/data/evaluation.txt`), its data card
   (`ai/data/evaluation.json`) and the held-out rows (`ai/data/holdout.npz`, for the
   calibration test).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ai.features import CARDS, NAMES, features
from ai.simulate import each_result, play_out, start

__all__ = ["Sample", "mix", "sample_game", "fit", "calibration", "main"]

STEP = 3
ZOMBIE_MIX = (("greedy", 3), ("heuristic", 3), ("tactician:easy", 2), ("random", 1),
              ("idle", 1))
SURVIVOR_MIX = (("bot", 5), ("group", 3), ("random", 1))
BANDS = ("cops_and_kids", "la_zone", "the_school")
PARAMS: dict[str, Any] = {
    "objective": "binary", "learning_rate": 0.05, "num_leaves": 15,
    "min_data_in_leaf": 200, "feature_fraction": 0.8, "bagging_fraction": 0.8,
    "bagging_freq": 1, "lambda_l2": 1.0, "seed": 13, "deterministic": True,
    "num_threads": 1, "verbose": -1,
}
ROUNDS = 600


class Sample(NamedTuple):
    """One game to play and write down."""

    card: str
    seed: int


def mix(seed: int) -> tuple[str, str, str]:
    """The zombie player, survivor player and band of the game of this seed."""
    rng = random.Random(f"evaluation-mix:{seed}")

    def pick(options: tuple[tuple[str, int], ...]) -> str:
        return rng.choices([o for o, _ in options], [w for _, w in options])[0]

    return pick(ZOMBIE_MIX), pick(SURVIVOR_MIX), rng.choice(BANDS)


def sample_game(job: Sample) -> dict[str, Any]:
    """Play the game and return its rows (one per `STEP`th position without a window) with
    its result; a module-level function, so processes and Dask workers can run it."""
    zombies, survivors, band = mix(job.seed)
    game = start(job.card, job.seed, band)
    rows: list[list[float]] = []
    turns: list[int] = []

    def watch(g: Any, n: int) -> None:
        if n % STEP == 0 and not g.pending:
            rows.append(features(g))
            turns.append(g.turn)

    result = play_out(game, job.seed, zombies, survivors, watch)
    return {"card": job.card, "seed": job.seed, "zombies": zombies, "survivors": survivors,
            "band": band, "winner": result.winner, "turns": turns, "rows": rows}


def _play(todo: list[Sample], cache: Path, jobs: int, cluster: str | None) -> list[dict[str, Any]]:
    """Every game of `todo`, from the cache where already played."""
    done: dict[tuple[str, int], dict[str, Any]] = {}
    if cache.exists():
        for line in cache.read_text(encoding="utf-8").splitlines():
            try:
                g = json.loads(line)
                done[(g["card"], g["seed"])] = g
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by a stop: played again
    left = [s for s in todo if (s.card, s.seed) not in done]
    cache.parent.mkdir(parents=True, exist_ok=True)
    with cache.open("a", encoding="utf-8") as out:
        for g in _run(left, jobs, cluster):
            out.write(json.dumps(g) + "\n")
            out.flush()
            done[(g["card"], g["seed"])] = g
    return [done[(s.card, s.seed)] for s in todo]


def _run(todo: list[Sample], jobs: int, cluster: str | None) -> Iterator[dict[str, Any]]:
    from tqdm import tqdm  # type: ignore[import-untyped]

    def bar(it: Iterable[Any], total: int) -> Iterable[Any]:
        shown: Iterable[Any] = tqdm(it, total=total, disable=not sys.stderr.isatty(),
                                    desc="games")
        return shown

    return each_result(sample_game, todo, jobs=jobs, cluster=cluster, progress=bar)


def _arrays(games: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows, labels (the zombies won), and which game each row comes from."""
    rows = [r for g in games for r in g["rows"]]
    labels = [float(g["winner"] == "zombies") for g in games for _ in g["rows"]]
    group = [i for i, g in enumerate(games) for _ in g["rows"]]
    return (np.array(rows, dtype=float).reshape(-1, len(NAMES)), np.array(labels),
            np.array(group))


def fit(games: list[dict[str, Any]]) -> Any:
    """The boosted model on these games (one game in ten stops the boosting)."""
    import lightgbm

    x, y, group = _arrays(games)
    stop = group % 10 == 9
    train = lightgbm.Dataset(x[~stop], y[~stop], feature_name=list(NAMES))
    valid = lightgbm.Dataset(x[stop], y[stop], reference=train)
    return lightgbm.train(PARAMS, train, ROUNDS, valid_sets=[valid],
                          callbacks=[lightgbm.early_stopping(40, verbose=False)])


def baseline(games: list[dict[str, Any]]) -> dict[str, float]:
    """The zombies' win rate by card and turn over the training rows: what a model that
    knows only the card and the turn would say."""
    count: dict[str, list[float]] = {}
    for g in games:
        for t in g["turns"]:
            count.setdefault(f"{g['card']}:{t}", []).append(float(g["winner"] == "zombies"))
    return {k: float(np.mean(v)) for k, v in sorted(count.items())}


def calibration(p: np.ndarray, y: np.ndarray, base: np.ndarray) -> dict[str, Any]:
    """Predicted against observed in each tenth of the predictions; Brier scores."""
    tenths = []
    for k in range(10):
        lo, hi = k / 10, (k + 1) / 10
        inside = (p >= lo) & ((p < hi) if k < 9 else (p <= hi))
        n = int(inside.sum())
        tenths.append({"from": lo, "to": hi, "rows": n,
                       "predicted": float(p[inside].mean()) if n else None,
                       "observed": float(y[inside].mean()) if n else None})
    return {"rows": len(y), "brier": float(np.mean((p - y) ** 2)),
            "brier_baseline": float(np.mean((base - y) ** 2)), "tenths": tenths}


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    from ai.evaluation import DATA, DATA_CARD, MODEL

    parser = argparse.ArgumentParser(prog="python -m ai.train_eval", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=240, help="training games a card")
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--holdout", type=int, default=40, help="held-out games a card")
    parser.add_argument("--holdout-seed", type=int, default=900_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cluster", help="a Dask scheduler's address, instead of --jobs")
    parser.add_argument("--cache", type=Path, default=Path(".cache/evaluation"))
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    if args.holdout_seed < args.seed + args.games:
        parser.error("--holdout-seed must come after every training seed")
    began = time.perf_counter()
    train = _play([Sample(c, args.seed + i) for c in CARDS for i in range(args.games)],
                  args.cache / "train.jsonl", args.jobs, args.cluster)
    held = _play([Sample(c, args.holdout_seed + i) for c in CARDS for i in range(args.holdout)],
                 args.cache / "holdout.jsonl", args.jobs, args.cluster)
    played = time.perf_counter() - began
    model = fit(train)
    x, y, game_of = _arrays(held)
    rates = baseline(train)
    turns = [f"{g['card']}:{t}" for g in held for t in g["turns"]]
    overall = float(np.mean([g["winner"] == "zombies" for g in train]))
    base = np.array([rates.get(k, overall) for k in turns])
    p = np.asarray(model.predict(x, num_threads=1), dtype=float)
    report = calibration(p, y, base)
    args.out.mkdir(parents=True, exist_ok=True)
    model_path = args.out / MODEL.name
    model_path.write_text(model.model_to_string(), encoding="utf-8")
    np.savez_compressed(args.out / "holdout.npz", rows=x, labels=y, baseline=base,
                        games=game_of)
    gain = model.feature_importance("gain")
    card = {
        "model": MODEL.name, "library": "lightgbm", "params": PARAMS,
        "rounds": model.best_iteration or model.current_iteration(),
        "commit": _commit(), "features": list(NAMES),
        "importance": {n: round(float(v), 1) for n, v in sorted(
            zip(NAMES, gain, strict=True), key=lambda t: -t[1]) if v > 0},
        "training": {"games_per_card": args.games, "seeds": [args.seed,
                     args.seed + args.games - 1], "games": len(train),
                     "rows": int(sum(len(g["rows"]) for g in train)), "step": STEP,
                     "zombie_mix": dict(ZOMBIE_MIX), "survivor_mix": dict(SURVIVOR_MIX),
                     "bands": list(BANDS), "zombie_win_rate": overall},
        "holdout": {"games_per_card": args.holdout, "seeds": [args.holdout_seed,
                    args.holdout_seed + args.holdout - 1], "games": len(held), **report},
        "seconds_playing": round(played),
    }
    (args.out / DATA_CARD.name).write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: card[k] for k in ("rounds", "holdout")}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
