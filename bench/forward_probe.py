"""The forward model's measurements, run on one tree of the code in a process of its own:
`PYTHONPATH=TREE python bench/forward_probe.py TASK [ARGS]` prints one JSON object.

`bench.forward_model` runs it on today's code and on the code before issue 24 (unpacked
from git), alternately, so both are measured in the same run on the same machine. It uses
only what both have: `ai.simulate.play_game`/`start`/`play_out`, `Game.clone`,
`Game.apply`, `Game.undo`, `Game.legal_actions` and `bench.engine_bench.mid_game`.

Tasks:
- `games POLICY CARD:SEED ...`: whole games of POLICY zombies against the survivor bot,
  each one's set-up and play timed apart, and the process's processor time for the whole
  game (seconds: on a shared machine the processor time is the steadier);
- `ops`: at the bench position, for every legal action: the first listing of the state it
  leads to, the same listing asked again, applying it (on a copy), copying the game; and
  taking an action back in a scenario game 40 actions in (milliseconds);
- `memory N`: N games (greedy zombies against the bot, the four route cards in turn), the
  process's resident memory after each (MB);
- `profile`: one greedy game's profile (escorte, seed 1), by cumulative time.
"""

from __future__ import annotations

import cProfile
import io
import json
import os
import pstats
import random
import sys
import time
from typing import Any

CARDS = ("escorte", "evacuation", "convoi", "helico")


def games(policy: str, jobs: list[str]) -> dict[str, Any]:
    from ai.simulate import play_out, start

    setup, play, cpu = [], [], []
    for job in jobs:
        card, _, seed = job.partition(":")
        t0, c0 = time.perf_counter(), time.process_time()
        game = start(card, int(seed))
        t1 = time.perf_counter()
        play_out(game, int(seed), policy, "bot")
        t2, c2 = time.perf_counter(), time.process_time()
        setup.append(t1 - t0)
        play.append(t2 - t1)
        cpu.append(c2 - c0)
    return {"setup": setup, "play": play, "cpu": cpu}


def ops() -> dict[str, Any]:
    from bench.engine_bench import mid_game

    game = mid_game()
    listed = game.legal_actions()
    first, again, apply, clone, undo = [], [], [], [], []
    for _ in range(3):
        for act in listed:
            trial = game.clone()
            t0 = time.perf_counter()
            trial.apply(act)
            t1 = time.perf_counter()
            trial.legal_actions()
            t2 = time.perf_counter()
            trial.legal_actions()
            t3 = time.perf_counter()
            apply.append(t1 - t0)
            first.append(t2 - t1)
            again.append(t3 - t2)
        for _ in range(20):
            t0 = time.perf_counter()
            game.clone()
            clone.append(time.perf_counter() - t0)
    played = _played("escorte", 3, 40)  # a game with a record: the bench position has none
    for act in played.legal_actions()[:12]:
        trial = played.clone()
        trial.apply(act)
        t0 = time.perf_counter()
        trial.undo()
        undo.append(time.perf_counter() - t0)
    ms = 1e3
    return {"actions": len(listed), "first_listing": [t * ms for t in first],
            "listing_again": [t * ms for t in again], "apply": [t * ms for t in apply],
            "clone": [t * ms for t in clone], "undo": [t * ms for t in undo]}


def _played(card: str, seed: int, actions: int) -> Any:
    """A scenario game `actions` random legal actions in."""
    from ai.simulate import start

    game = start(card, seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_terminal:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def _rss_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def memory(n: int) -> dict[str, Any]:
    from ai.simulate import play_game

    rss = []
    t0 = time.perf_counter()
    for i in range(n):
        play_game(CARDS[i % len(CARDS)], 1000 + i, "greedy", "bot")
        rss.append(_rss_mb())
    return {"rss_mb": rss, "seconds": time.perf_counter() - t0}


def profile() -> dict[str, Any]:
    from ai.simulate import play_game

    play_game("escorte", 99, "greedy", "bot")  # the finders and caches of the table built
    prof = cProfile.Profile()
    prof.enable()
    play_game("escorte", 1, "greedy", "bot")
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("cumulative").print_stats(28)
    here = os.getcwd().rstrip("/") + "/"
    lines = [line.replace(here, "") for line in out.getvalue().splitlines()
             if line.strip() and not line.startswith("   Random listing")]
    return {"text": "\n".join(lines)}


def main(argv: list[str]) -> int:
    random.seed(0)
    task = argv[0]
    if task == "games":
        result = games(argv[1], argv[2:])
    elif task == "ops":
        result = ops()
    elif task == "memory":
        result = memory(int(argv[1]))
    elif task == "profile":
        result = profile()
    else:
        raise SystemExit(f"unknown task {task!r}")
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
