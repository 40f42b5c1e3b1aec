"""AI benchmarks: the tactician's decisions (normal, hard) over real games, a whole simulated
game at normal, games a minute."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from ai.policy import make_policy
from ai.simulate import play_game, run_batch, start
from bench.geometry_bench import Row
from rules.game import SURVIVORS, ZOMBIES


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


def decisions(card: str, seed: int, level: str) -> tuple[list[float], list[float], float]:
    """One game of `tactician:LEVEL` against the survivor bot: the time of each zombie
    decision, of the heuristic alone on the same positions, and of the whole game."""
    from ai.zombies import Tactician

    game = start(card, seed)
    ours, bot = make_policy(level, ZOMBIES, seed), make_policy("bot", SURVIVORS, seed)
    heuristic = Tactician("normal", random.Random(seed))
    mine, peer = [], []
    began = time.perf_counter()
    while not game.is_terminal:
        if game.current_side() != ZOMBIES:
            game.apply(bot.choose(game).action)
            continue
        t0 = time.perf_counter()
        choice = ours.choose(game)
        mine.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        heuristic.choose(game.clone())  # a clone: nothing it measures is cached for ours
        peer.append(time.perf_counter() - t0)
        game.apply(choice.action)
    whole = time.perf_counter() - began - sum(peer)
    return sorted(mine), sorted(peer), whole


def run() -> list[Row]:
    rows = []
    for level, cards, target in (("tactician", ("escorte", "helico", "evacuation", "refuge"),
                                  "<= 50 ms p95"),
                                 ("tactician:hard", ("escorte", "helico"), "<= 1 s p95")):
        mine: list[float] = []
        peer: list[float] = []
        games = []
        for k, card in enumerate(cards):
            ours, theirs, whole = decisions(card, 7000 + k, level)
            mine += ours
            peer += theirs
            games.append(whole)
        mine.sort()
        peer.sort()
        rows.append(Row(
            f"{level} decision, every zombie decision of {len(cards)} games against the bot "
            f"({', '.join(cards)}; {len(mine)} decisions)", target,
            f"{statistics.median(mine) * 1e3:.0f} ms median, {_p(mine, 0.95) * 1e3:.0f} ms p95",
            "the heuristic alone (its candidates' ranking), same positions",
            f"{statistics.median(peer) * 1e3:.0f} ms median, {_p(peer, 0.95) * 1e3:.0f} ms p95",
            "look-ahead on clones of the game"))
        if level == "tactician":
            greedy = []
            for k, card in enumerate(cards):
                t0 = time.perf_counter()
                play_game(card, 7000 + k, "greedy", "bot")
                greedy.append(time.perf_counter() - t0)
            rows.append(Row(
                f"whole simulated game, tactician (normal) against the bot "
                f"({', '.join(cards)})", "<= 3 s",
                f"{statistics.median(games):.2f} s median, {max(games):.2f} s longest",
                "greedy zombies, same cards", f"{statistics.median(greedy):.2f} s median",
                "set-up included for greedy"))
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
