"""Every scenario card played end to end by the rules engine, seeded and scripted.

The survivors' bot works at the card's objective and the zombies' bot walks to the nearest
human and strikes; a survivors' win and a zombies' win for every card, each checked for the
card's own mechanism (exits, escort, crates, delivery, care, rescue, helicopter, dawn), and
every game replays exactly from its record.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rules.game import Game
from rules.settings import Settings
from rules.warband import Member, Roster
from scenarios.cards import load_cards
from scenarios.play import ScenarioReferee, start_scenario
from scenarios.play_policy import GreedySurvivors, GreedyZombies, IdlePolicy, RandomPolicy, play
from service.cli import main

FEW = Settings(zombie_points=6, weather="clear")  # a handful of zombies: quick games
KIDS = Roster(name="Les gosses", members=tuple(
    Member(id=f"m{i}", archetype="enfant", sex="H", skill="agile") for i in range(1, 6)))


def referee(game: Game) -> ScenarioReferee:
    assert isinstance(game.referee, ScenarioReferee)
    return game.referee


def played(card: str, seed: int, survivors: str, *, settings: Settings = FEW,
           band: Roster | None = None) -> Game:
    game = start_scenario(card, band, seed, settings=settings)
    bot = GreedySurvivors() if survivors == "greedy" else IdlePolicy()
    play(game, bot, GreedyZombies(), max_actions=4000)
    assert game.is_terminal
    return game


def evacuated(game: Game, exit_id: str, side: str = "survivors") -> list[str]:
    return [f.id for f in game.figures.values()
            if f.side == side and f.status == "evacuated" and f.exit == exit_id]


def check_nettoyage(game: Game, state: dict[str, Any]) -> None:
    assert not any(f.is_zombie and f.on_table for f in game.figures.values())
    assert game.outcome is not None and "at once" in game.outcome["reason"]


def check_evacuation(game: Game, state: dict[str, Any]) -> None:
    assert len(evacuated(game, "route")) >= 3


def check_escorte(game: Game, state: dict[str, Any]) -> None:
    assert len(evacuated(game, "convoi", "civilians")) >= 2


def check_caisses(game: Game, state: dict[str, Any]) -> None:
    assert len(state["crates_opened"]) >= 4
    assert any("noise" in a["why"] and a["zombies"] for a in state["arrivals"])


def check_convoi(game: Game, state: dict[str, Any]) -> None:
    assert state["delivered"]["essence@camion"] >= 2
    assert game.outcome is not None and "at once" in game.outcome["reason"]


def check_sauvetage(game: Game, state: dict[str, Any]) -> None:
    assert state["freed"] == ["soldate1"] and "freed" in state["events"]
    soldier = game.figures["soldate1"]
    assert (soldier.side, soldier.kind, soldier.status, soldier.exit) == (
        "survivors", "militaire_f", "evacuated", "retour")


def check_refuge(game: Game, state: dict[str, Any]) -> None:
    assert len(evacuated(game, "porte")) >= 3


def check_nuit(game: Game, state: dict[str, Any]) -> None:
    assert state["end_rolls"] and state["end_rolls"][-1]["die"] >= 4
    assert state["weather"]["id"] == "night"


def check_remede(game: Game, state: dict[str, Any]) -> None:
    assert len(state["treated"]) >= 3


def check_helico(game: Game, state: dict[str, Any]) -> None:
    assert "helicopter_left" in state["events"]
    assert sum(1 for z in state["evacuated_via"].values() if z == "helisurface") >= 3


WINS = [  # card, seed: the survivors' bot wins against a handful of zombies
    ("nettoyage", 0, check_nettoyage),
    ("evacuation", 0, check_evacuation),
    ("escorte", 0, check_escorte),
    ("caisses", 0, check_caisses),
    ("convoi", 0, check_convoi),
    ("sauvetage", 1, check_sauvetage),
    ("refuge", 1, check_refuge),
    ("nuit", 0, check_nuit),
    ("remede", 0, check_remede),
    ("helico", 0, check_helico),
]


def test_the_table_covers_every_card() -> None:
    assert sorted(c for c, _, _ in WINS) == sorted(load_cards())


@pytest.mark.parametrize(("card", "seed", "check"), WINS, ids=[w[0] for w in WINS])
def test_the_survivors_win(card: str, seed: int, check: Any) -> None:
    settings = Settings(zombie_points=6) if card == "nuit" else FEW  # the card's night
    game = played(card, seed, "greedy", settings=settings)
    assert game.outcome is not None and game.outcome["winner"] == "survivors", game.outcome
    state = referee(game).state
    assert state["result"]["winner"] == "survivors"
    assert state["result"]["survivors"]["wins"] and not state["result"]["zombies"]["wins"]
    check(game, state)
    assert Game.replay(game.export()).to_json() == game.to_json()


@pytest.mark.parametrize("card", [c for c, _, _ in WINS if c != "nuit"])
def test_the_zombies_win_when_the_survivors_do_nothing(card: str) -> None:
    game = played(card, 0, "idle")
    assert game.outcome is not None and game.outcome["winner"] == "zombies", game.outcome
    assert game.outcome["turn"] == load_cards()[card].turns.limit
    assert game.outcome["words"]["params"]["what"] == [{"code": "scenario.cond.survivors_fail",
                                                         "params": {}}]
    assert game.outcome["reason"].endswith("; the survivors fail their objective")


def test_the_zombies_win_the_longest_night_against_children() -> None:
    # Since R4 (L117: out of action is not death) a fallen child is no longer finished off,
    # and the greedy bot's zombies win fewer nights: seed 0 (two of five down) is now a
    # survivors' win; seed 13 is a night the zombies win by contamination (L100-102)
    game = played("nuit", 13, "idle", settings=Settings(zombie_points=20), band=KIDS)
    assert game.outcome is not None and game.outcome["winner"] == "zombies", game.outcome
    fallen = [f for f in game.figures.values() if f.id.startswith("m")
              and not (f.side == "survivors" and f.standing)]
    assert len(fallen) >= 3
    assert referee(game).state["end_rolls"]
    assert Game.replay(game.export()).to_json() == game.to_json()


# (refuge, seed 0) was the second case until the survivor bot learnt to walk past friends
# to the gate: with 6 zombie points it now always gets out; escorte seed 2 is a lost fight
@pytest.mark.parametrize(("card", "seed"), [("sauvetage", 0), ("escorte", 2)])
def test_the_zombies_can_win_a_fight(card: str, seed: int) -> None:
    game = played(card, seed, "greedy")
    assert game.outcome is not None and game.outcome["winner"] == "zombies", game.outcome
    assert Game.replay(game.export()).to_json() == game.to_json()


@pytest.mark.parametrize("card", sorted(load_cards()))
def test_random_play_keeps_every_rule(card: str) -> None:
    """Random legal actions on both sides: no crash, no broken invariant, an exact replay."""
    from test_random_play import check_invariants

    game = start_scenario(card, None, 7, settings=Settings(zombie_points=10))
    rng = random.Random(card)
    bots = {"survivors": RandomPolicy(rng), "zombies": RandomPolicy(rng)}
    for _ in range(3000):
        if game.is_terminal:
            break
        game.apply(bots[game.current_side()].choose(game))
        check_invariants(game)
    assert game.is_terminal
    assert Game.replay(game.export()).to_json() == game.to_json()


@pytest.mark.parametrize(("card", "group", "name", "name_en"), [
    ("escorte", "refugie", "Réfugié", "Refugee"), ("remede", "malade", "Malade", "Sick person"),
])
def test_a_cards_civilians_carry_both_names(card: str, group: str, name: str,
                                            name_en: str) -> None:
    game = start_scenario(card, None, 1, settings=FEW)
    civilians = [f for f in game.figures.values() if f.id.startswith(group)]
    assert civilians and all((f.name, f.name_en) == (name, name_en) for f in civilians)


def test_scenario_play_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert main(["scenario", "play", "nuit", "--seed", "2", "--turns", "3", "--survivors",
                 "random", "--zombies", "greedy", "--record", str(record), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scenario"] == "nuit" and out["bots"] == {"survivors": "random",
                                                         "zombies": "greedy"}
    assert out["outcome"]["winner"] in ("survivors", "zombies", "draw")
    assert out["turns"] <= 3 and out["result"]["winner"] == out["outcome"]["winner"]
    assert {s["id"] for s in out["survivors"]} == {f"m{i}" for i in range(1, 7)}
    assert main(["replay", str(record), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["outcome"] == out["outcome"]
    assert replayed["referee"]["name"] == "scenario"
    assert main(["scenario", "play", "nuit", "--seed", "2", "--turns", "1"]) == 0
    assert "win after turn 1" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "where"), [
    (["scenario", "play", "zzz", "--seed", "1"], "id"),
    (["scenario", "play", "nuit", "--seed", "1", "--band", "nobody"], "band"),
    (["scenario", "play", "nuit", "--seed", "1", "--table", "moon"], "table"),
    (["scenario", "play", "nuit", "--seed", "1", "--turns", "0"], "turns"),
])
def test_scenario_play_cli_errors(capsys: pytest.CaptureFixture[str], argv: list[str],
                                  where: str) -> None:
    assert main([*argv, "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["where"] == where
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("survive-us: ")


def test_remaining_counts_what_a_condition_still_lacks() -> None:
    """Evacuation: half the band (3 of 6) must leave by the route; each one out is one
    fewer to go, and the condition holds at 0."""
    from scenarios.play_conditions import holds, remaining

    game = start_scenario("evacuation", seed=3)
    ref = game.referee
    assert isinstance(ref, ScenarioReferee)
    (cond,) = ref.card.objectives.survivors.conditions
    band = [game.figures[i] for i in ref.state["band"]]
    assert remaining(cond, game, ref.card, ref.state) == 3
    for k, fig in enumerate(band[:3]):
        fig.status, fig.exit = "evacuated", "route"
        assert remaining(cond, game, ref.card, ref.state) == 2 - k
    assert holds(cond, game, ref.card, ref.state)
    (zombies,) = ref.card.objectives.zombies.conditions
    assert remaining(zombies, game, ref.card, ref.state) == 1  # survivors_fail: they don't
