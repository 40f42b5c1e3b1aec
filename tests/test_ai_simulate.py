"""`survive-us simulate` and ai.simulate: the summary's shape, its intervals, determinism."""

from __future__ import annotations

import json

import pytest

from ai.simulate import GameResult, mean_interval, summarize, wilson
from service.cli import main

KEYS = {"games", "zombie_wins", "survivor_wins", "draws", "survivor_casualties_mean",
        "contaminations_mean", "turns_mean", "zombie_win_rate", "survivor_win_rate",
        "draw_rate", "wounds_mean", "downs_mean"}


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    code = main(["simulate", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_simulate_json_shape_and_jobs_do_not_change_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--scenario", "nettoyage", "--games", "3", "--seed", "11", "--zombies", "greedy",
            "--survivors", "bot")
    code, one = _run(capsys, *args, "--jobs", "1")
    assert code == 0
    assert set(one) >= KEYS
    assert one["games"] == 3
    assert one["zombie_wins"] + one["survivor_wins"] + one["draws"] == 3  # type: ignore[operator]
    for key in KEYS - {"games", "zombie_wins", "survivor_wins", "draws"}:
        low, high = one[key + "_ci95"]  # type: ignore[misc]
        assert low <= one[key] <= high  # type: ignore[operator]
    code, two = _run(capsys, *args, "--jobs", "2")
    assert code == 0
    assert one == two


@pytest.mark.parametrize(("args", "where"), [
    (("--scenario", "nope", "--games", "1", "--seed", "0"), "scenario"),
    (("--scenario", "refuge", "--games", "0", "--seed", "0"), "games"),
    (("--scenario", "refuge", "--games", "1", "--seed", "0", "--zombies", "clever"), "zombies"),
    (("--scenario", "refuge", "--games", "1", "--seed", "0", "--jobs", "0"), "jobs"),
])
def test_simulate_rejects_bad_input(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                    where: str) -> None:
    code, out = _run(capsys, *args)
    assert code == 2
    assert out["error"]["where"] == where  # type: ignore[index]


def test_intervals() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-3) and high == pytest.approx(0.7634, abs=1e-3)
    assert wilson(0, 20)[0] == 0.0
    m, low, high = mean_interval([1, 2, 3])
    assert m == 2 and low < 2 < high
    results = [GameResult(i, "zombies" if i % 2 else "survivors", i, 0, 6, 10) for i in range(4)]
    out = summarize(results, scenario="x")
    assert out["zombie_wins"] == 2 and out["survivor_casualties_mean"] == 1.5
    assert "wounds_mean" not in out  # results saved before wounds were counted
    counted = [GameResult(i, "zombies", 0, 0, 6, 10, wounds=2 * i, downs=i % 2)
               for i in range(4)]
    out = summarize(counted)
    assert out["wounds_mean"] == 3 and out["downs_mean"] == 0.5


def test_wounds_and_downs_are_counted_over_the_game() -> None:
    """Escorte, seed 5006, greedy zombies (a player that does not change with the AI's
    tuning): a survivor is put down during the game (and contaminated: a casualty that is
    no down at the end); the wounds the band took include the ones healed since."""
    from ai.simulate import play_game

    r = play_game("escorte", 5006, "greedy", "bot")
    assert r.downs is not None and r.wounds is not None
    assert r.downs >= max(r.casualties - r.contaminations, 1)
    assert r.contaminations == 1 and r.wounds >= 4
