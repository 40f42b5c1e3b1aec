"""AI benchmarks: a tactician decision mid-game, a whole simulated scenario, games a minute."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from ai.policy import make_policy
from ai.simulate import play_game, run_batch
from bench.engine_bench import mid_game
from bench.geometry_bench import Row
from rules.game import ZOMBIES, Game


def _samples(fn: Callable[[], object], runs: int, warmup: int = 2) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return sorted(out)


def _p(samples: list[float], q: float) -> float:
    return samples[min(int(q * len(samples)), len(samples) - 1)]


def zombie_turn(seed: int = 5) -> Game:
    """The bench's mid-game table (8 survivors, 30 zombies), the zombies to decide."""
    game = mid_game(seed)
    rng = random.Random(seed)
    while game.current_side() != ZOMBIES and not game.is_terminal:
        game.apply(rng.choice(game.legal_actions()))
    return game


def run() -> list[Row]:
    game = zombie_turn()
    zombies = sum(1 for f in game.figures.values() if f.is_zombie and f.on_table)
    rows = []
    for name, peer in (("tactician", "greedy"), ("tactician:hard", "greedy")):
        ours_policy, peer_policy = make_policy(name, ZOMBIES, 1), make_policy(peer, ZOMBIES, 1)

        def decide(p: object = ours_policy) -> None:
            game.moved()  # nothing measured is cached from the previous call
            p.choose(game)  # type: ignore[attr-defined]

        def peer_decide(p: object = peer_policy) -> None:
            game.moved()
            p.choose(game)  # type: ignore[attr-defined]

        ours = _samples(decide, runs=40)
        theirs = _samples(peer_decide, runs=40)
        target = "< 25 ms median, < 100 ms p95" if name == "tactician" else "—"
        rows.append(Row(
            f"{name} decision, mid-game ({zombies} zombies, "
            f"{len(game.legal_actions())} legal actions)", target,
            f"{statistics.median(ours) * 1e3:.1f} ms median, {_p(ours, 0.95) * 1e3:.1f} ms p95",
            f"{peer} decision", f"{statistics.median(theirs) * 1e3:.1f} ms median",
            "fresh measures each call"))
    seeds = iter(range(10**6))
    greedy = _samples(lambda: play_game("refuge", next(seeds), "greedy", "bot"), runs=7, warmup=1)
    rand = _samples(lambda: play_game("refuge", next(seeds), "random", "random"), runs=7,
                    warmup=1)
    rows.append(Row("whole simulated scenario (refuge, greedy zombies vs survivor bot)", "< 1 s",
                    f"{statistics.median(greedy) * 1e3:.0f} ms", "random vs random",
                    f"{statistics.median(rand) * 1e3:.0f} ms", "set-up included"))
    per_minute = {}
    for jobs in (1, 2):
        start = time.perf_counter()
        run_batch("refuge", 16, 1000, "greedy", "bot", jobs=jobs)
        per_minute[jobs] = 16 / (time.perf_counter() - start) * 60
    rows.append(Row("simulated games a minute, --jobs 2 (refuge, greedy vs bot, 16 games)", "—",
                    f"{per_minute[2]:.0f}", "--jobs 1", f"{per_minute[1]:.0f}",
                    "process start-up included"))
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
