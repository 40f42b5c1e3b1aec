"""The balance report: playing a card at other zombie points, the 50% estimates on synthetic
data, a tiny sweep and the `survive-us balance` command."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from ai.balance import (
    BalanceReport,
    Level,
    fit_logistic,
    half_points,
    interpolate_half,
    levels_for,
    markdown_table,
    own_points,
    plot,
    sweep,
)
from ai.simulate import play_game, run_batch, start, summarize
from rules.settings import Settings
from scenarios.cards import load_cards
from scenarios.setup import buy_zombies, setup_scenario
from service.cli import main

# -- the zombie points override ---------------------------------------------------------------


@pytest.mark.parametrize(("card", "points"), [("escorte", 20), ("refuge", 9)])
def test_other_points_buy_the_horde_with_the_cards_mix(card: str, points: int) -> None:
    own = setup_scenario(card, 5)
    other = setup_scenario(card, 5, settings=Settings(zombie_points=points))
    from rules.catalog import load_catalog

    assert other["zombies"]["bought"] == buy_zombies(points, load_cards()[card].zombies.mix,
                                                     load_catalog())
    assert other["zombies"]["points"] == points and other["zombies"]["spent"] <= points
    assert other["zombies"]["figures"] < own["zombies"]["figures"]
    assert other["reinforcements"] == own["reinforcements"]  # the card's free zombies stay
    assert other["weather"] == own["weather"]  # the other rolls come from the same seed
    game = start(card, 5, None, points)
    zombies = [f for f in game.figures.values() if f.side == "zombies"]
    assert len(zombies) == other["zombies"]["figures"]


def test_own_points_follow_the_card_formula() -> None:
    # the default band costs 54: nettoyage gives 0.75x, refuge 1.2x (rounded down)
    assert own_points("nettoyage") == 40 and own_points("refuge") == 64
    assert start("refuge", 3).figures.keys() == start("refuge", 3, None, 64).figures.keys()


def test_skirmish_has_no_zombie_points() -> None:
    with pytest.raises(ValueError, match="skirmish"):
        start("skirmish", 1, None, 10)


def test_levels_for() -> None:
    assert levels_for(40, factors=(0.5, 1, 0.25)) == [10, 20, 40]
    assert levels_for(43, points=(5, 5, 2), factors=(0.1,)) == [2, 4, 5]
    with pytest.raises(ValueError, match="levels"):
        levels_for(40)
    with pytest.raises(ValueError, match="at least 0"):
        levels_for(40, points=(-1,))


# -- the 50% estimates ------------------------------------------------------------------------


def _synthetic(half: float, slope: float, xs: list[int], n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [sum(rng.random() < 1 / (1 + math.exp(-slope * (x - half))) for _ in range(n))
            for x in xs]


@pytest.mark.parametrize(("half", "slope", "seed"), [(27.0, 0.15, 1), (12.0, 0.4, 2),
                                                     (48.0, 0.08, 3)])
def test_logistic_finds_a_known_half_point(half: float, slope: float, seed: int) -> None:
    xs = [5, 15, 25, 35, 45, 55]
    wins = _synthetic(half, slope, xs, 400, seed)
    fit, est = fit_logistic(xs, wins, [400] * len(xs))
    assert fit is not None and est.points is not None
    assert est.low is not None and est.high is not None
    assert est.low < half < est.high  # the true value inside the 95% interval
    assert est.high - est.low < 8
    assert abs(est.points - half) < 3
    assert fit[1] == pytest.approx(slope, rel=0.25)


def test_logistic_interval_widens_with_fewer_games() -> None:
    xs = [10, 20, 30, 40]
    many = fit_logistic(xs, [20, 60, 140, 180], [200] * 4)[1]
    few = fit_logistic(xs, [1, 3, 7, 9], [10] * 4)[1]
    assert many.points == pytest.approx(few.points, abs=0.5)
    assert few.low is not None and many.low is not None and few.high and many.high
    assert few.high - few.low > 3 * (many.high - many.low)


@pytest.mark.parametrize(("wins", "note"), [
    ([0, 0, 0, 0], "never win"),
    ([5, 5, 5, 5], "always win"),
    ([0, 0, 5, 5], "interpolated"),  # a perfect step: no maximum-likelihood fit
    ([4, 3, 2, 1], "does not rise"),
])
def test_logistic_says_when_it_has_no_estimate(wins: list[int], note: str) -> None:
    est = fit_logistic([10, 20, 30, 40], wins, [5] * 4)[1]
    assert est.points is None and note in est.note


def test_weak_slope_gives_an_open_interval() -> None:
    est = fit_logistic([10, 20, 30, 40, 50], [1, 2, 2, 3, 3], [5] * 5)[1]
    assert est.points is not None and est.low is None and "not clearly" in est.note


def test_interpolation_between_the_bracketing_levels() -> None:
    levels = [Level(10, 20, 2), Level(20, 20, 8), Level(30, 20, 14), Level(40, 20, 19)]
    est = interpolate_half(levels)
    assert est.points == pytest.approx(20 + 10 * (0.5 - 0.4) / (0.7 - 0.4))
    assert est.low is not None and est.high is not None and est.low < est.points < est.high
    above = interpolate_half([Level(10, 10, 8), Level(20, 10, 9)])
    assert above.points is None and "above 50%" in above.note


def test_report_json_round_trip_and_table() -> None:
    card = half_points("escorte", 43, [Level(10, 20, 3, 1), Level(20, 20, 9), Level(40, 20, 16)])
    report = BalanceReport("tactician", "bot", "cops_and_kids", 7, 20, (card,))
    assert BalanceReport.from_json(json.loads(json.dumps(report.to_json()))) == report
    table = markdown_table(report)
    assert "| Civilian escort | 43 | 10: 15% (" in table
    assert f"**{card.logistic.points:.0f}**" in table
    french = markdown_table(report, "fr").replace("\xa0", " ")  # Babel: no-break spaces
    assert "| Escorte de civils | 43 | 10 : 15 % (5 %–36 %) ; 20 : 45 % (" in french
    assert "| carte | points de la carte |" in french and "0,57" in french


# -- a tiny sweep and the command ---------------------------------------------------------------

TINY = {"games": 2, "seed": 31, "points": (2, 6), "zombies": "greedy", "survivors": "bot"}


def test_sweep_plays_every_level_like_a_batch() -> None:
    report = sweep(["nettoyage"], **TINY)  # type: ignore[arg-type]
    (card,) = report.cards
    assert [lv.points for lv in card.levels] == [2, 6]
    assert all(lv.games == 2 for lv in card.levels)
    for level in card.levels:  # the same games as `simulate --zombie-points`
        batch = run_batch("nettoyage", 2, 31, "greedy", "bot", zombie_points=level.points)
        assert summarize(batch)["zombie_wins"] == level.zombie_wins
    again = play_game("nettoyage", 32, "greedy", "bot", None, 6)
    assert again == run_batch("nettoyage", 2, 31, "greedy", "bot", zombie_points=6)[1]


def test_balance_command_writes_table_plot_and_report(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out, svg, saved = tmp_path / "b.md", tmp_path / "b.svg", tmp_path / "b.json"
    assert main(["balance", "--cards", "nuit", "--points", "2,6", "--games", "2", "--seed",
                 "31", "--zombies", "greedy", "--out", str(out), "--plot", str(svg),
                 "--save", str(saved)]) == 0
    printed = capsys.readouterr().out
    assert printed == out.read_text(encoding="utf-8")
    assert printed.count("| The longest night | 43 |") == 1
    assert "none (zombies never win at these levels)" in printed
    assert svg.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    png = tmp_path / "b.png"
    assert main(["balance", "--from", str(saved), "--plot", str(png), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(saved.read_text(encoding="utf-8"))
    assert png.read_bytes().startswith(b"\x89PNG")
    other = tmp_path / "other.json"
    report = json.loads(saved.read_text(encoding="utf-8"))
    other.write_text(json.dumps({**report, "cards": [{**report["cards"][0], "card": "x"}]}),
                     encoding="utf-8")
    assert main(["balance", "--from", str(saved), "--from", str(other)]) == 0
    joined = capsys.readouterr().out
    assert "| The longest night | 43 |" in joined and "| x | 43 |" in joined
    assert main(["--lang", "fr", "balance", "--from", str(saved)]) == 0
    french = capsys.readouterr().out
    assert "| La nuit la plus longue | 43 |" in french
    assert "aucun (les zombies ne gagnent jamais à ces niveaux)" in french
    assert main(["balance", "--from", str(saved), "--from", str(saved), "--json"]) == 2
    assert "two reports" in json.loads(capsys.readouterr().out)["error"]["message"]
    other.write_text(json.dumps({**report, "seed": 1, "cards": []}), encoding="utf-8")
    assert main(["balance", "--from", str(saved), "--from", str(other), "--json"]) == 2
    assert "played otherwise" in json.loads(capsys.readouterr().out)["error"]["message"]


@pytest.mark.parametrize(("args", "where"), [
    (("--cards", "nope", "--points", "2", "--games", "1"), "cards"),
    (("--cards", "nuit", "--games", "1"), "points"),
    (("--cards", "nuit", "--points", "2,x", "--games", "1"), "points"),
    (("--cards", "nuit", "--factors", "-0.5", "--games", "1"), "factors"),
    (("--cards", "nuit", "--points", "2", "--games", "0"), "games"),
    (("--cards", "nuit", "--points", "2", "--games", "1", "--zombies", "clever"), "zombies"),
    (("--cards", "nuit", "--points", "2", "--games", "1", "--cluster", "nowhere"), "cluster"),
    (("--from", "/nonexistent/report.json",), "/nonexistent/report.json"),
])
def test_balance_rejects_bad_input(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                   where: str) -> None:
    assert main(["balance", *args, "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["where"] == where


def test_plot_draws_every_card(tmp_path: Path) -> None:
    cards = tuple(half_points(c, 40, [Level(10, 10, 2), Level(20, 10, 5), Level(40, 10, 9)])
                  for c in ("alpha", "beta", "gamma"))
    path = tmp_path / "grid.svg"
    plot(BalanceReport("tactician", "bot", "x", 0, 10, cards), str(path))
    text = path.read_text(encoding="utf-8")
    assert all(f">{c}</text>" in text for c in ("alpha", "beta", "gamma"))
    assert text.count("<g id=\"axes_") == 3


def test_table_shows_an_extrapolated_half_point_as_a_bound() -> None:
    card = half_points("sauvetage", 43, [Level(4, 40, 22), Level(11, 40, 33),
                                         Level(22, 40, 36), Level(43, 40, 39)])
    assert card.logistic.points is not None and card.logistic.points < 4
    row = markdown_table(BalanceReport("tactician", "bot", "b", 0, 40, (card,))).splitlines()[2]
    assert "**< 4** (extrapolated" in row and "| – |" in row
    assert "stays above 50%" in row
