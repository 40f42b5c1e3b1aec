"""Batches of seeded games between two policies, and their summary with 95% intervals.

Game `i` of a batch with seed `S` is set up from seed `S + i` and its policies are seeded
from it too, so a batch gives the same summary however many processes play it.
`--scenario skirmish` plays the street demo table with the default band and no objective
beyond surviving the turns. A card may be played with other zombie points than its own
(`zombie_points`, the rules' `zombie_points` setting: the card's mix buys the horde, its
reinforcements are unchanged), which the balance report (`ai.balance`) sweeps.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from ai.policy import make_policy
from rules.game import SURVIVORS, ZOMBIES

if TYPE_CHECKING:
    from rules.game import Game
    from rules.warband import Roster

__all__ = ["GameResult", "Job", "start", "play_game", "play_all", "run_batch", "summarize",
           "MAX_ACTIONS", "play_out", "each_result"]

MAX_ACTIONS = 5000  # a game still running after this many actions counts as a draw
Z95 = 1.959963984540054


@dataclass(frozen=True)
class GameResult:
    seed: int
    winner: str  # "zombies", "survivors" or "draw"
    casualties: int  # band members down, dead or contaminated at the end
    contaminations: int
    turns: int
    actions: int
    # over the whole game, healed or not: PV the band lost, and band members put down
    # (None in results saved before these were counted)
    wounds: int | None = None
    downs: int | None = None


class Job(NamedTuple):
    """One game to play: everything it depends on, so any process or machine plays it alike."""

    scenario: str
    seed: int
    zombies: str
    survivors: str
    band: str | None = None
    zombie_points: int | None = None  # None: the card's own points for the band


def start(scenario: str, seed: int, band: str | None = None,
          zombie_points: int | None = None) -> Game:
    """A seeded game of the card (or of the `skirmish` demo table), with the card's zombie
    points or `zombie_points`."""
    from rules.settings import Settings

    roster = band_roster(band)
    if scenario == "skirmish":
        if zombie_points is not None:
            raise ValueError("zombie points apply to scenario cards, not to 'skirmish' "
                             "(the demo table places its own zombies)")
        from rules.setup import skirmish
        from scenarios.tables import table_data

        return skirmish(table_data("street"), roster, seed=seed)
    from scenarios.play import start_scenario

    if zombie_points is None:
        return start_scenario(scenario, roster, seed)
    return start_scenario(scenario, roster, seed, settings=Settings(zombie_points=zombie_points))


def band_roster(band: str | None) -> Roster:
    """The band by example name or JSON file (the set-up's default band when None)."""
    from rules.warband import example_bands
    from scenarios.setup import DEFAULT_BAND

    name = band or DEFAULT_BAND
    return example_bands()[name] if name in example_bands() else _roster_file(name)


def _roster_file(path: str) -> Roster:
    import json
    from pathlib import Path

    from rules.warband import Roster

    return Roster.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


def play_game(scenario: str, seed: int, zombies: str, survivors: str,
              band: str | None = None, zombie_points: int | None = None) -> GameResult:
    """Play one seeded game to its end with the named policies."""
    game = start(scenario, seed, band, zombie_points)
    return play_out(game, seed, zombies, survivors)


def play_out(game: Game, seed: int, zombies: str, survivors: str,
             watch: Callable[[Game, int], None] | None = None) -> GameResult:
    """Play a game to its end with the named policies seeded from `seed`; `watch(game, n)`
    sees the position before each action (n actions played so far)."""
    band_ids = [f.id for f in game.figures.values() if f.side == SURVIVORS]
    players = {ZOMBIES: make_policy(zombies, ZOMBIES, seed),
               SURVIVORS: make_policy(survivors, SURVIVORS, seed)}
    n = wounds = downs = 0
    while not game.is_terminal and n < MAX_ACTIONS:
        if watch is not None:
            watch(game, n)
        side = game.current_side()
        before = [(game.figures[i].pv, game.figures[i].standing) for i in band_ids]
        game.apply(players[ZOMBIES if side == ZOMBIES else SURVIVORS].choose(game).action)
        n += 1
        for i, (pv, standing) in zip(band_ids, before, strict=True):
            f = game.figures[i]
            wounds += max(pv - f.pv, 0)
            downs += int(standing and f.status in ("down", "dead"))
    winner = "draw" if game.outcome is None else str(game.outcome["winner"])
    if winner not in (ZOMBIES, SURVIVORS):
        winner = "draw"
    figs = [game.figures[i] for i in band_ids]
    return GameResult(
        seed=seed, winner=winner,
        casualties=sum(1 for f in figs if f.status in ("down", "dead") or f.origin),
        contaminations=sum(1 for f in game.figures.values() if f.origin),
        turns=game.turn, actions=n, wounds=wounds, downs=downs)


def play_job(job: Job) -> GameResult:
    """Play one job (a module-level function, so processes and Dask workers can run it)."""
    return play_game(*job)


Progress = Callable[[Iterable[Any], int], Iterable[Any]]
J = TypeVar("J")
R = TypeVar("R")


def play_all(todo: list[Job], *, jobs: int = 1, cluster: str | None = None,
             progress: Progress | None = None) -> list[GameResult]:
    """Play every job, in this process (`jobs` 1), in `jobs` local processes, or on the
    Dask cluster whose scheduler is at `cluster`; the results in job order."""
    for zombies, survivors in {(j.zombies, j.survivors) for j in todo}:
        make_policy(zombies, ZOMBIES, 0)  # a bad name fails here, not in a worker
        make_policy(survivors, SURVIVORS, 0)
    return list(each_result(play_job, todo, jobs=jobs, cluster=cluster, progress=progress))


def each_result(fn: Callable[[J], R], todo: list[J], *, jobs: int = 1,
                cluster: str | None = None, progress: Progress | None = None) -> Iterator[R]:
    """`fn(job)` for every job, in job order: in this process (`jobs` 1), in `jobs` local
    processes, or on the Dask cluster whose scheduler is at `cluster` (`fn` must be a
    module-level function). Results come as they are ready, so a caller can keep them."""
    if cluster is not None:
        from ai.cluster import map_on_cluster

        yield from map_on_cluster(fn, todo, cluster, progress=progress)
        return
    wrap = progress or (lambda it, total: it)
    if jobs <= 1:
        yield from wrap((fn(j) for j in todo), len(todo))
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        chunk = max(1, min(16, len(todo) // (jobs * 8)))
        yield from wrap(pool.map(fn, todo, chunksize=chunk), len(todo))


def run_batch(scenario: str, games: int, seed: int, zombies: str, survivors: str, *,
              jobs: int = 1, band: str | None = None, cluster: str | None = None,
              zombie_points: int | None = None,
              progress: Progress | None = None) -> list[GameResult]:
    """Play `games` games (seeds `seed`, `seed + 1`...), in `jobs` processes or on the Dask
    cluster at `cluster`, in order."""
    todo = [Job(scenario, seed + i, zombies, survivors, band, zombie_points)
            for i in range(games)]
    return play_all(todo, jobs=jobs, cluster=cluster, progress=progress)


def wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson 95% interval of the proportion k / n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / (1 + Z95 ** 2 / n)
    low = 0.0 if k == 0 else max(centre - half, 0.0)
    return (low, 1.0 if k == n else min(centre + half, 1.0))


def mean_interval(values: list[int]) -> tuple[float, float, float]:
    """The mean and its normal-approximation 95% interval."""
    if not values:
        return (0.0, 0.0, 0.0)
    m = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return (m, m - half, m + half)


def summarize(results: list[GameResult], **about: Any) -> dict[str, Any]:
    """The batch's JSON summary: counts and means, each with a 95% interval (`*_ci95`:
    Wilson for the rates, normal approximation for the means)."""
    n = len(results)
    out: dict[str, Any] = {**about, "games": n}
    for key, side in (("zombie_wins", ZOMBIES), ("survivor_wins", SURVIVORS), ("draws", "draw")):
        k = sum(1 for r in results if r.winner == side)
        rate = key.removesuffix("s") + "_rate"
        out[key] = k
        out[rate] = k / n if n else 0.0
        out[rate + "_ci95"] = list(wilson(k, n))
    for key, values in (("survivor_casualties_mean", [r.casualties for r in results]),
                        ("contaminations_mean", [r.contaminations for r in results]),
                        ("turns_mean", [r.turns for r in results]),
                        ("wounds_mean", [r.wounds for r in results]),
                        ("downs_mean", [r.downs for r in results])):
        if any(v is None for v in values):
            continue  # results saved before wounds and downs were counted
        m, low, high = mean_interval([v for v in values if v is not None])
        out[key], out[key + "_ci95"] = m, [low, high]
    return out
