"""What the players do on the cards: the survivor bot's routes and band advance, the
tactician's runners and pins, and the matchup table's verdict."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from shapely.geometry import Point

from ai.matchups import main as matchups_main
from ai.matchups import meets_bar, summarize_cell, table
from ai.policy import Choice, make_policy
from ai.simulate import start
from ai.words import said
from ai.zombies import Tactician
from rules import legal
from rules.actions import Move, Pass
from rules.game import SURVIVORS, ZOMBIES, Game
from rules.names import figure_name
from scenarios.play import ScenarioReferee
from scenarios.play_policy import route_move, survivor_goal


def _step(game: Game, players: dict[str, object]) -> None:
    side = game.current_side()
    choice = players[ZOMBIES if side == ZOMBIES else SURVIVORS].choose(game)  # type: ignore[attr-defined]
    legal.check(game, choice.action)
    game.apply(choice.action)


def _zombie_choices(game: Game, tactician: Tactician, seed: int,
                    limit: int = 500) -> Iterator[Choice]:
    """The tactician's choices against the survivor bot (which plays its own turns here),
    one at a time: the caller applies each one, or stops."""
    bot = make_policy("bot", SURVIVORS, seed)
    for _ in range(limit):
        if game.is_terminal:
            return
        if game.current_side() != ZOMBIES:
            game.apply(bot.choose(game).action)
            continue
        yield tactician.choose(game)


def test_route_move_walks_past_a_friend_toward_the_exit() -> None:
    """Evacuation: Hugo m4 starts behind Lucas m1 on the straight line to the far edge,
    where the engine's walk toward the point stops at once; the routed move gets him on."""
    game = start("evacuation", 1)
    hugo = game.figures["m4"]
    ref = game.referee
    assert isinstance(ref, ScenarioReferee)
    goal = survivor_goal(game, ref, hugo)
    move = route_move(game, hugo, goal)
    assert move is not None and move.to is not None
    legal.check(game, move)
    gained = math.dist(hugo.centre, goal) - math.dist(move.to, goal)
    assert 0.4 < gained <= hugo.move + 1e-6


def test_route_move_refuses_a_move_that_gains_nothing() -> None:
    game = start("evacuation", 1)
    hugo = game.figures["m4"]
    assert route_move(game, hugo, hugo.centre) is None


def test_the_band_advances_together_on_an_exit_card() -> None:
    """Every survivor of the band makes its first move of turn 1 toward the far edge
    before any of them moves twice (a shot at a far zombie comes after)."""
    game = start("evacuation", 1)
    players = {ZOMBIES: make_policy("greedy", ZOMBIES, 1),
               SURVIVORS: make_policy("bot", SURVIVORS, 1)}
    band = [f.id for f in game.figures.values() if f.side == SURVIVORS]
    y0 = {i: game.figures[i].y for i in band}
    first_moves: list[str] = []
    while game.turn == 1 and not game.is_terminal:
        side = game.current_side()
        choice = players[ZOMBIES if side == ZOMBIES else SURVIVORS].choose(game)
        act = choice.action
        if side == SURVIVORS and isinstance(act, Move) and act.figure not in first_moves:
            assert all(game.figures[i].moves <= 1 for i in band), choice.explanation
            first_moves.append(act.figure)
        game.apply(act)
    assert sorted(first_moves) == sorted(band)
    assert all(game.figures[i].y > y0[i] + 1 for i in band)


def test_the_tactician_pins_runners_and_says_so() -> None:
    """Escorte, pins on: a pinning move's explanation names the runner, its distance to the
    objective, and the zombie ends in contact with a runner no other zombie touched."""
    game = start("escorte", 3)
    tactician = Tactician("normal")
    tactician.PIN, tactician.URGENCY = 6.0, 0.5  # off by default (see Tactician.PIN)
    pins = 0
    for choice in _zombie_choices(game, tactician, 3):
        act = choice.action
        if isinstance(act, Move) and "must fight it off" in choice.explanation:
            target = act.toward
            assert isinstance(target, str)
            assert re.search(r"is \d+\.\d in from the objective", choice.explanation)
            assert not any(game.in_contact(f.id, target) for f in game.figures.values()
                           if f.is_zombie and f.on_table)
            game.apply(act)
            assert game.in_contact(act.figure, target)
            pins += 1
            continue
        if isinstance(act, Move) and "the way round is longer" in choice.explanation:
            target = act.toward
            assert isinstance(target, str)
            game.apply(act)
            assert not game.in_contact(act.figure, target)
            continue
        game.apply(act)
    assert pins >= 1


def _cell(rate: float, lo: float, hi: float, cas: float, clo: float, chi: float) -> dict:
    return {"games": 400, "zombie_win_rate": rate, "zombie_win_rate_ci95": [lo, hi],
            "survivor_casualties_mean": cas, "survivor_casualties_mean_ci95": [clo, chi],
            "contaminations_mean": 0.0, "contaminations_mean_ci95": [0.0, 0.0],
            "turns_mean": 7.0}


def test_the_bar_needs_both_intervals_apart_and_the_ratio() -> None:
    greedy = _cell(0.50, 0.45, 0.55, 0.20, 0.15, 0.25)
    assert meets_bar(_cell(0.65, 0.60, 0.70, 0.40, 0.33, 0.47), greedy)
    assert not meets_bar(_cell(0.58, 0.53, 0.63, 0.40, 0.33, 0.47), greedy)  # win rates touch
    assert not meets_bar(_cell(0.65, 0.60, 0.70, 0.24, 0.26, 0.30), greedy)  # < 1.3x


def test_the_table_reads_the_saved_cells(tmp_path: Path) -> None:
    for name, cell in [("escorte-tactician-vs-bot", _cell(0.65, 0.60, 0.70, 0.4, 0.33, 0.47)),
                       ("escorte-greedy-vs-bot", _cell(0.50, 0.45, 0.55, 0.2, 0.15, 0.25))]:
        (tmp_path / f"{name}.json").write_text(json.dumps(cell), encoding="utf-8")
    text = table(tmp_path)
    assert "| escorte | tactician | bot | 400 | 65% (60%–70%) | 0.40 (0.33–0.47)" in text
    assert "| escorte | 400 | +15% | — | 2.00x | — | yes |" in text  # no games saved


def test_the_table_pairs_the_games_by_seed(tmp_path: Path) -> None:
    """Per seed: tactician win and greedy loss on seeds 0-2, the same result on 3-9; the
    tactician deals 2 wounds more on every seed (saved cells from before wounds were
    counted show a dash)."""
    raw = tmp_path / "raw"
    raw.mkdir()
    for zombies, wins, wounds in [("tactician", range(0, 6), 3), ("greedy", range(3, 6), 1)]:
        lines = [json.dumps({"seed": s, "winner": "zombies" if s in wins else "survivors",
                             "casualties": 0, "contaminations": 0, "turns": 7,
                             "actions": 90, "wounds": wounds, "downs": 0})
                 for s in range(10)]
        (raw / f"escorte-{zombies}-vs-bot.jsonl").write_text("\n".join(lines) + "\n")
        summarize_cell(tmp_path, "escorte", zombies, "bot", 0, 10)
    text = table(tmp_path)
    # differences 1,1,1,0...: mean 0.3, sd 0.483, half-width 1.96 x 0.483 / sqrt(10)
    assert "| escorte | 10 | +30% | +30.0% (+0.1% to +59.9%) | — (greedy 0) | " \
           "+2.00 (+2.00 to +2.00) | no |" in text
    assert "| 3.00 (3.00–3.00) | 0.00 (0.00–0.00) | 7.00 |" in text


def test_matchups_resume_where_they_stopped(tmp_path: Path) -> None:
    """A second run with more games plays only the seeds not saved yet."""
    args = ["--out", str(tmp_path), "--seed", "1", "--jobs", "1", "--cards", "nettoyage",
            "--pairs", "idle/bot"]
    assert matchups_main([*args, "--games", "2"]) == 0
    assert matchups_main([*args, "--games", "3"]) == 0
    lines = (tmp_path / "raw" / "nettoyage-idle-vs-bot.jsonl").read_text().splitlines()
    assert [json.loads(line)["seed"] for line in lines] == [1, 2, 3]
    assert json.loads((tmp_path / "nettoyage-idle-vs-bot.json").read_text())["games"] == 3


def test_matchups_refuses_a_bad_pair() -> None:
    with pytest.raises(SystemExit):
        matchups_main(["--pairs", "tactician", "--out", "/nonexistent"])
    with pytest.raises(SystemExit):
        matchups_main(["--cards", "atlantis", "--out", "/nonexistent"])


def test_the_cards_places_to_guard() -> None:
    from ai.guard import guard_spot, guards

    helico = start("helico", 1)
    (landing,) = guards(helico)
    assert (landing.name["en"], landing.keep, landing.end_of_turn) == ("The landing zone", 3,
                                                                       True)
    assert landing.why.code == "ai.guard.landing"
    zombie = next(f for f in helico.figures.values() if f.is_zombie)
    spot = guard_spot(landing, zombie)
    assert landing.area.buffer(-0.45).contains(Point(spot))  # well inside
    (gate,) = guards(start("refuge", 1))
    assert gate.name["en"] == "The camp gate" and not gate.end_of_turn
    assert gate.area.bounds == pytest.approx((11.0, 31.4961 - 2.5, 16.0, 31.4961))
    assert guards(start("evacuation", 1)) == ()  # the whole far edge: no gate to bar
    refuge = start("refuge", 1)
    assert Tactician("normal")._places(refuge) == ()  # gates off by default (measured)
    holding = Tactician("normal")
    holding.GATES = True
    assert holding._places(refuge) == (gate,)
    assert guards(start("skirmish", 1)) == ()


def test_the_tactician_sends_zombies_onto_the_landing_zone() -> None:
    game = start("helico", 1)
    guarding = []
    for choice in _zombie_choices(game, Tactician("normal"), 1):
        if game.turn != 1:
            break
        legal.check(game, choice.action)
        if "to stand guard" in choice.explanation:
            guarding.append(choice)
        game.apply(choice.action)
    assert guarding, "no zombie went for the landing zone on turn 1"
    first = guarding[0]
    assert re.match(r"\w+ \d+ moves (onto|toward) the landing zone \(\d+\.\d in away\)",
                    first.explanation)
    assert re.match(r"\w+ \d+ (entre dans|se dirige vers) .+ \(à \d+,\d ps\) pour monter la "
                    r"garde", first.text("fr"))
    assert isinstance(first.action, Move) and not isinstance(first.action.toward, str)


def test_the_tactician_keeps_its_last_ap_for_the_end_of_the_turn() -> None:
    """Helico, where a side may pass by choice (setting allow_pass; R1's default forbids
    it, and then no AP can wait): with 2 AP left and the survivors still acting, nothing
    worth 90 on offer, the zombies pass (their AP wait for the survivors' last step)."""
    from ai.simulate import band_roster
    from rules.settings import Settings
    from scenarios.play import start_scenario

    game = start_scenario("helico", band_roster(None), 1, settings=Settings(allow_pass=True))
    tactician = Tactician("normal")
    waited = None
    for choice in _zombie_choices(game, tactician, 1, limit=400):
        if isinstance(choice.action, Pass) and not game.pending:
            waited = (choice, game.pools["zombies"], game.pools["survivors"])
            break
        game.apply(choice.action)
    assert waited is not None
    choice, ours, theirs = waited
    assert ours <= Tactician.RESERVE and theirs > 0
    assert f"keeping {ours} AP" in choice.explanation and "the landing zone" in choice.explanation
    # the zone empty, the zombies do not wait on it: if the survivors passed too, the turn
    # would end (D16) with the zone open and the zombies' AP unspent
    from ai.guard import guards

    (zone,) = guards(game)
    assert zone.count(game) >= 1
    for f in game.figures.values():
        if f.is_zombie and f.on_table and zone.holds(f):
            f.x += 6.0 if f.x < 40 else -6.0  # step them off it
    game.moved()
    assert zone.count(game) == 0
    again = Tactician("normal").choose(game)
    assert not isinstance(again.action, Pass)


@pytest.fixture(scope="module")
def openings() -> dict[str, Game]:
    return {card: start(card, 11) for card in ("helico", "refuge", "escorte", "caisses")}


@pytest.mark.parametrize("card", ["helico", "refuge", "escorte", "caisses"])
def test_every_policy_is_legal_from_many_seeded_positions(openings: dict[str, Game],
                                                          card: str) -> None:
    """20 positions a card, each reached by a seeded random walk from the card's opening
    (random actions for both sides, so positions no bot would steer to come up too); at
    each, every policy of the side to decide picks an action the rules accept."""
    import random

    players = {side: [make_policy(n, side, 1) for n in names]
               for side, names in ((ZOMBIES, ["greedy", "tactician", "random"]),
                                   (SURVIVORS, ["bot", "random"]))}
    checked = 0
    for seed in range(20):
        game = openings[card].clone()
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 40)):
            if game.is_terminal:
                break
            game.apply(rng.choice(game.legal_actions()))
        if game.is_terminal:
            continue
        side = ZOMBIES if game.current_side() == ZOMBIES else SURVIVORS
        for policy in players[side]:
            choice = policy.choose(game)  # type: ignore[attr-defined]
            legal.check(game, choice.action)
            checked += 1
    assert checked >= 30


def test_a_lone_zombie_waits_outside_the_landing_zone_while_the_survivors_can_shoot() -> None:
    """Helico: one zombie able to reach the landing zone, the survivors still holding AP:
    it stops 2 in outside the edge instead of stepping on alone; with the survivors' AP
    spent it steps on."""
    from ai.guard import guards
    from ai.policy import legal_now

    game = start("helico", 1)
    bot = make_policy("bot", SURVIVORS, 1)
    while game.current_side() != ZOMBIES or game.pending:
        game.apply(bot.choose(game).action)
    (zone,) = guards(game)
    lone = game.figures["z7"]
    lone.x, lone.y = zone.area.bounds[2] + 3.5, 19.7  # 3.5 in right of the zone's edge
    game.moved()
    assert not any(f.is_zombie and f.on_table and f.id != "z7"
                   and zone.area.distance(Point(f.x, f.y)) <= f.move
                   for f in game.figures.values())
    assert game.pools["survivors"] > 0
    tactician = Tactician("normal")
    moves = [(s, a, why) for s, a, why in tactician._guard_moves(game, legal_now(game))
             if isinstance(a, Move) and a.figure == "z7"]
    assert len(moves) == 1
    _, act, why = moves[0]
    assert isinstance(act.toward, tuple)
    assert zone.area.distance(Point(act.toward)) == pytest.approx(Tactician.STAGE, abs=0.01)
    text = said(why)
    assert "2.0 in outside the landing zone (3.5 in away)" in text
    assert "only 1 could be on it now" in text and "still have" in text
    assert "à 2,0 ps du bord de l'hélisurface (à 3,5 ps)" in said(why, "fr")
    legal.check(game, act)

    game.pools["survivors"] = 0  # the survivors are done: now it steps on
    moves = [(s, a, why) for s, a, why in tactician._guard_moves(game, legal_now(game))
             if isinstance(a, Move) and a.figure == "z7"]
    _, act, why = moves[0]
    assert isinstance(act.toward, tuple) and zone.area.contains(Point(act.toward))
    name = figure_name(game, "z7")["en"]
    assert f"{name} moves onto the landing zone (3.5 in away) to stand guard" in said(why)


def test_the_levels_table_reads_the_bar_of_the_look_ahead_issue(tmp_path: Path) -> None:
    """Escorte, 20 seeds: idle never wins, greedy wins 10, easy the same 10, normal those
    and 4 more, hard those and 6 more: decided by the zombies' play; normal and hard ahead
    of greedy, easy level with it. Nuit: nobody wins, so it is not decided."""
    from ai.matchups import levels

    raw = tmp_path / "raw"
    raw.mkdir()
    wins = {"idle": 0, "greedy": 10, "tactician_easy": 10, "tactician": 14,
            "tactician_hard": 16}
    for card in ("escorte", "nuit"):
        for zombies, n in wins.items():
            lines = [json.dumps({"seed": s, "winner": "zombies" if card == "escorte"
                                 and s < n else "survivors", "casualties": 0,
                                 "contaminations": 0, "turns": 8, "actions": 100,
                                 "wounds": 2 if zombies == "tactician_hard" else 1,
                                 "downs": 0}) for s in range(20)]
            (raw / f"{card}-{zombies}-vs-bot.jsonl").write_text("\n".join(lines) + "\n")
    text = levels(tmp_path)
    row = next(line for line in text.splitlines() if line.startswith("| escorte |"))
    cells = [c.strip() for c in row.split("|")[1:-1]]
    assert cells[:5] == ["escorte", "20", "50%", "+50.0% (+27.5% to +72.5%) ▲", "yes"]
    assert cells[5] == "+0.0% (+0.0% to +0.0%)"  # easy - greedy
    assert cells[6].startswith("+20.0%") and cells[6].endswith("▲")  # normal - greedy
    assert cells[7].startswith("+30.0%") and cells[7].endswith("▲")  # hard - greedy
    assert cells[10] == "+1.00 (+1.00 to +1.00) ▲"  # wounds, hard - greedy
    assert "| nuit | 20 | 0% | +0.0% (+0.0% to +0.0%) | no |" in text
