"""The scenario referee on small hand-made states: every condition type, every special rule,
exits, weather, the end of a scenario, and the saved form of a refereed game."""

from __future__ import annotations

import dataclasses
import math

import pytest
from shapely.geometry import box

from i18n import note_text, render
from rules.actions import EndActivations, Exit, Interact, Move, Shoot, Special, Take
from rules.errors import IllegalActionError
from rules.figures import Fig
from rules.game import Game
from rules.inventory import marker_gap
from rules.referee import rebuild
from rules.settings import Settings
from scenarios import objectives as o
from scenarios.cards import Text, Victory, load_cards
from scenarios.placement import Placer
from scenarios.play import ScenarioReferee, UnknownScenario, start_scenario
from scenarios.play_arrivals import contact_spot
from scenarios.play_conditions import holds, in_zone, victory
from scenarios.play_policy import GreedySurvivors, GreedyZombies, play
from scenarios.play_specials import exit_point
from scenarios.special_rules import Refuge

# few zombies, clear weather, and a pass to hand the other side the activation (setting
# allow_pass: these games test the cards, not R1's turn)
QUIET = Settings(zombie_points=2, weather="clear", allow_pass=True)
TEXT = Text("", "")


def game_of(card: str, seed: int = 1, settings: Settings = QUIET) -> Game:
    return start_scenario(card, None, seed, settings=settings)


def ref(game: Game) -> ScenarioReferee:
    assert isinstance(game.referee, ScenarioReferee)
    return game.referee


def fig(game: Game, figure_id: str) -> Fig:
    return game.figures[figure_id]


def put(game: Game, figure_id: str, x: float, y: float) -> None:
    f = fig(game, figure_id)
    f.x, f.y = x, y
    game.moved()


def into_the_open(game: Game, figure_id: str, near: tuple[float, float]) -> None:
    """Move a figure to the free spot nearest `near` with room around it (1.5 in)."""
    placer = Placer(game.scene())
    others = [f.centre for f in game.figures.values() if f.on_table and f.id != figure_id]
    spots = [p for p in placer.candidates(box(0, 0, game.table.width, game.table.depth), 1.5)
             if all(math.dist(p, q) > 3.0 for q in others)]
    put(game, figure_id, *min(spots, key=lambda p: math.dist(p, near)))


def beside(game: Game, anchor: str, figure_id: str) -> None:
    """Put a figure in base contact with another, on a free side."""
    spot = contact_spot(game, fig(game, anchor), fig(game, figure_id))
    assert spot is not None
    put(game, figure_id, *spot)
    assert game.in_contact(anchor, figure_id)


def clear_zombies(game: Game) -> None:
    for f in game.figures.values():
        if f.is_zombie:
            f.status = "removed"
    game.moved()


def holds_now(game: Game, cond: o.Condition) -> bool:
    r = ref(game)
    return holds(cond, game, r.card, r.state)


# --- conditions ------------------------------------------------------------------------------


def test_kill_all_and_hold_zone() -> None:
    game = game_of("nettoyage")
    assert not holds_now(game, o.KillAll())
    clear_zombies(game)
    assert holds_now(game, o.KillAll())
    hold = o.HoldZone(zone="place", survivors_at_least=2, zombies_at_most=0)
    assert not holds_now(game, hold)
    for figure_id, (x, y) in zip(("m1", "m2"), ((14.0, 14.0), (16.0, 14.0)), strict=True):
        put(game, figure_id, x, y)
        assert in_zone(ref(game).card, "place", fig(game, figure_id))
    assert holds_now(game, hold)
    zombie = next(f for f in game.figures.values() if f.is_zombie)
    zombie.status = "standing"
    put(game, zombie.id, 15.0, 16.0)
    assert not holds_now(game, hold) and not holds_now(game, o.KillAll())
    assert holds_now(game, o.ZombiesInZone(zone="place"))
    assert not holds_now(game, o.ZombiesInZone(zone="place", at_least=2))


@pytest.mark.parametrize(("count", "needed", "expected"), [
    (2, "half", False), (3, "half", True), (5, "all", False), (6, "all", True), (1, 1, True)])
def test_exit_counts_half_of_the_starting_band(count: int, needed: o.Count,
                                               expected: bool) -> None:
    game = game_of("evacuation")
    for f in list(game.figures.values())[:count]:
        assert f.side == "survivors"
        f.status, f.exit = "evacuated", "route"
    assert holds_now(game, o.Exit(exit="route", at_least=needed)) is expected
    assert not holds_now(game, o.Exit(exit="elsewhere", at_least=1))


def test_escort_kill_civilians_and_civilian_exits() -> None:
    game = game_of("escorte")
    escort = o.Escort(civilians="refugie", exit="convoi", at_least=2)
    fig(game, "refugie1").status, fig(game, "refugie1").exit = "evacuated", "convoi"
    assert not holds_now(game, escort)
    fig(game, "refugie2").status, fig(game, "refugie2").exit = "evacuated", "convoi"
    assert holds_now(game, escort)
    assert holds_now(game, o.Exit(exit="convoi", who="civilians", at_least=2))
    assert not holds_now(game, o.KillCivilians(civilians="refugie"))
    fig(game, "refugie3").side = "zombies"  # contaminated: a rôdeur now
    assert holds_now(game, o.KillCivilians(civilians="refugie"))
    assert not holds_now(game, o.KillCivilians(civilians="refugie", at_least="all"))


def test_reach_survive_take_out_contaminate() -> None:
    game = game_of("nuit", settings=Settings(zombie_points=2))
    band = [f for f in game.figures.values() if f.side == "survivors"]
    assert holds_now(game, o.SurviveTurns())
    for f in band[:3]:
        f.status = "down"
    assert holds_now(game, o.SurviveTurns()) and holds_now(game, o.TakeOut())
    band[3].status = "dead"
    assert not holds_now(game, o.SurviveTurns())
    assert not holds_now(game, o.Contaminate())
    band[4].side, band[4].origin = "zombies", band[4].kind
    assert holds_now(game, o.Contaminate()) and holds_now(game, o.TakeOut(at_least=5))
    assert not holds_now(game, o.TakeOut(at_least="all"))
    state = ref(game).state
    state["evacuated_via"] = {f.id: "place" for f in band[:3]}
    for f in band[:3]:
        f.status = "evacuated"
    assert holds_now(game, o.Reach(zone="place"))
    assert not holds_now(game, o.Reach(zone="feux"))


def test_counts_kept_by_the_referee() -> None:
    game = game_of("remede")
    state = ref(game).state
    assert not holds_now(game, o.Heal(targets="malade", count=3))
    state["treated"] = ["malade1", "malade2", "malade3"]
    assert holds_now(game, o.Heal(targets="malade", count=3))
    assert not holds_now(game, o.OpenCrates(count=1))
    state["crates_opened"] = ["crate1"]
    assert holds_now(game, o.OpenCrates(count=1))
    state["delivered"] = {"remede@chapelle": 2}
    assert holds_now(game, o.Carry(item="remede", from_="labo", to="chapelle", count=2))
    assert not holds_now(game, o.Event(event="helicopter_left"))
    state["events"] = ["helicopter_left"]
    assert holds_now(game, o.Event(event="helicopter_left"))
    sauvetage = game_of("sauvetage")
    assert not holds_now(sauvetage, o.Free(figure="soldate"))
    ref(sauvetage).state["freed"] = ["soldate1"]
    assert holds_now(sauvetage, o.Free(figure="soldate"))


def test_all_or_any_and_survivors_fail() -> None:
    game = game_of("nettoyage")
    r = ref(game)
    both = (o.KillAll(), o.Event(event="x"))
    assert not victory(Victory(TEXT, both, "all"), game, r.card, r.state)
    clear_zombies(game)
    assert victory(Victory(TEXT, both, "any"), game, r.card, r.state)
    assert not victory(Victory(TEXT, both, "all"), game, r.card, r.state)
    assert not victory(Victory(TEXT, ()), game, r.card, r.state)
    assert holds_now(game, o.SurvivorsFail()) is not victory(
        r.card.objectives.survivors, game, r.card, r.state)


def test_both_sides_winning_is_a_draw() -> None:
    card = load_cards()["nettoyage"]
    both = dataclasses.replace(card, objectives=dataclasses.replace(
        card.objectives, survivors=Victory(TEXT, (o.KillAll(),)),
        zombies=Victory(TEXT, (o.TakeOut(at_least=1),)), ends_when=(o.KillAll(),)))
    game = start_scenario(both, None, 1, settings=QUIET)
    clear_zombies(game)
    fig(game, "m6").status = "down"
    game.apply(EndActivations())
    assert game.outcome is not None and game.outcome["winner"] == "draw"
    assert "both sides" in game.outcome["reason"]


# --- exits and the card's actions ------------------------------------------------------------


def test_exits_need_the_base_on_the_stretch() -> None:
    game = game_of("refuge")
    clear_zombies(game)
    m1 = fig(game, "m1")
    spot = exit_point(game, ref(game), m1, "porte")
    assert 11.0 <= spot[0] <= 16.0
    put(game, "m1", *spot)
    assert ref(game).exits(game, m1) == ["porte"]
    put(game, "m1", 22.0, spot[1])
    assert ref(game).exits(game, m1) == []
    with pytest.raises(IllegalActionError, match="by the camp gate now"):
        game.apply(Exit("m1", "porte"))
    put(game, "m1", *spot)
    assert Exit("m1", "porte") in game.legal_actions()
    game.apply(Exit("m1", "porte"))
    assert (m1.status, m1.exit) == ("evacuated", "porte")


def test_escort_moves_both_and_exit_with_takes_the_civilian_out() -> None:
    game = game_of("escorte")
    clear_zombies(game)
    into_the_open(game, "m1", (15.0, 8.0))
    beside(game, "m1", "refugie1")
    start, pool = fig(game, "m1").centre, game.pools["survivors"]
    act = Special("m1", "escort", target="refugie1", marker="convoi")
    assert act in game.legal_actions()
    game.apply(act)
    moved = math.dist(start, fig(game, "m1").centre)
    assert 3.9 < moved <= 4.0 + 1e-6  # the lower M: the civilian's 4
    assert game.in_contact("m1", "refugie1")
    assert game.pools["survivors"] == pool - 1
    m1 = fig(game, "m1")
    put(game, "m1", *exit_point(game, ref(game), m1, "convoi"))
    beside(game, "m1", "refugie1")
    game.apply(EndActivations())  # the zombies have nobody to move: back to the survivors
    while game.to_act != "survivors":
        game.apply(EndActivations())
    game.apply(Special("m1", "exit_with", target="refugie1", marker="convoi"))
    for f in (fig(game, "m1"), fig(game, "refugie1")):
        assert (f.status, f.exit) == ("evacuated", "convoi")


def test_a_survivor_carries_a_down_friend_out() -> None:
    game = game_of("evacuation")
    clear_zombies(game)
    m1 = fig(game, "m1")
    put(game, "m1", *exit_point(game, ref(game), m1, "route"))
    beside(game, "m1", "m2")
    fig(game, "m2").status = "down"
    game.apply(Special("m1", "exit_with", target="m2", marker="route"))
    assert fig(game, "m2").status == "evacuated" and fig(game, "m2").exit == "route"


def test_the_sick_never_move_and_are_cared_for_once() -> None:
    game = game_of("remede")
    clear_zombies(game)
    beside(game, "malade1", "m6")  # the Médecin, with healing items
    with pytest.raises(IllegalActionError, match="escort"):
        game.apply(Special("m6", "escort", target="malade1", marker="chapelle"))
    heals = fig(game, "m6").units["soins"]
    assert Special("m6", "treat", target="malade1") in game.legal_actions()
    game.apply(Special("m6", "treat", target="malade1"))
    assert ref(game).state["treated"] == ["malade1"]
    assert fig(game, "m6").units["soins"] == heals - 1
    with pytest.raises(IllegalActionError, match="already"):
        game.apply(Special("m6", "treat", target="malade1"))


def test_a_case_of_the_cure_serves_twice() -> None:
    game = game_of("remede")
    clear_zombies(game)
    m5 = fig(game, "m5")
    marker = game.markers["remede1"]
    put(game, "m5", marker["x"], marker["y"])
    assert game.catalog.equipment["remede"].kind == "scenario"
    game.apply(Take("m5", "remede1", "remede"))
    assert (m5.items, m5.units) == ({"remede": 1}, {"remede": 2})
    with pytest.raises(IllegalActionError, match="nothing to give care"):
        beside(game, "malade1", "m4")
        fig(game, "m4").items, fig(game, "m4").units = {}, {}
        game.apply(Special("m4", "treat", target="malade1"))
    for sick in ("malade1", "malade2"):
        beside(game, sick, "m5")
        while game.to_act != "survivors":
            game.apply(EndActivations())
        game.apply(Special("m5", "treat", target=sick))
    assert m5.items == {} and m5.units == {}
    assert ref(game).state["treated"] == ["malade1", "malade2"]


def test_heavy_fuel_slows_the_carrier_and_two_deliveries_end_the_convoy() -> None:
    game = game_of("convoi")
    clear_zombies(game)
    m1 = fig(game, "m1")
    move = m1.move
    marker = game.markers["essence1"]
    put(game, "m1", marker["x"], marker["y"])
    game.apply(Take("m1", "essence1", "essence"))
    assert m1.move == move - 1
    with pytest.raises(IllegalActionError, match="“The truck”"):
        game.apply(Special("m1", "deliver"))
    put(game, "m1", 20.65, 2.2)
    assert in_zone(ref(game).card, "camion", m1)
    game.apply(Special("m1", "deliver"))
    assert ref(game).state["delivered"] == {"essence@camion": 1}
    assert m1.move == move and "essence" not in m1.items
    m2 = fig(game, "m2")
    m2.items, m2.units = {"essence": 1}, {"essence": 1}
    put(game, "m2", 27.85, 2.2)
    while game.to_act != "survivors":
        game.apply(EndActivations())
    said = game.apply(Special("m2", "deliver"))
    assert "Inès delivers a Jerrycan of fuel to “The truck” (2 of 2)" in [
        note_text(n, "en") for n in said]
    assert game.outcome is not None and game.outcome["winner"] == "survivors"
    assert "at once" in game.outcome["reason"]
    assert render(game.outcome["words"], "fr") == (
        "2 × Jerrican d'essence apportés de « La maison de Marcel » jusqu'à « Le camion », "
        "ce qui arrête le scénario aussitôt")


def test_the_trapped_soldier_is_freed_and_joins_the_band() -> None:
    game = game_of("sauvetage")
    soldier = fig(game, "soldate1")
    assert (soldier.side, soldier.defense, soldier.pv) == ("civilians", 5, 8)
    zombies = [f for f in game.figures.values() if f.is_zombie]
    for z in zombies:
        z.status = "removed"
    beside(game, "soldate1", "m1")
    keeper = zombies[0]
    keeper.status = "standing"
    beside(game, "soldate1", keeper.id)
    game.apply(Move("m2", toward=(16.0, 8.0)))
    assert soldier.side == "civilians", "a zombie in contact keeps her trapped"
    keeper.status = "removed"
    game.moved()
    while game.to_act != "survivors":
        game.apply(EndActivations())
    game.apply(Move("m2", toward=(16.0, 10.0)))
    assert (soldier.side, soldier.kind, soldier.skills) == (
        "survivors", "militaire_f", ["tireur_emerite"])
    assert soldier.resting and soldier.items == {}
    assert ref(game).state["freed"] == ["soldate1"] and "freed" in ref(game).state["events"]
    with pytest.raises(IllegalActionError, match="revived this turn"):
        game.apply(Move("soldate1", toward=(16.0, 8.0)))


def test_a_crate_trap_and_its_noise() -> None:
    game = game_of("caisses", seed=1)
    state = ref(game).state
    crate_id = next(iter(state["traps"]))
    crate = game.markers[crate_id]
    assert crate["kind"] == "crate" and "loot" not in crate and crate["items"] == {}
    put(game, "m1", crate["x"], crate["y"])
    before = set(game.figures)
    game.apply(Interact("m1", crate_id))
    assert state["crates_opened"] == [crate_id] and crate_id not in state["traps"]
    new = [game.figures[i] for i in set(game.figures) - before]
    assert len(new) == 2 and all(z.kind == "rodeur" for z in new)
    trap = next(z for z in new if game.in_contact(z.id, "m1"))
    noise = next(z for z in new if z is not trap)
    r = noise.base_mm / 25.4 / 2
    edge_gap = min(noise.x, noise.y, game.table.width - noise.x, game.table.depth - noise.y)
    assert edge_gap - r <= 1.0 - 2 * r + 1e-6  # wholly within 1 in of its edge
    assert any("noise" in a["why"] for a in state["arrivals"])


def test_a_crate_holds_its_rolled_loot() -> None:
    game = game_of("caisses", seed=1)
    setups = [m for m in game.markers.values() if m["kind"] == "crate" and m["items"]]
    crate = setups[0]
    items = dict(crate["items"])
    put(game, "m1", crate["x"], crate["y"])
    assert marker_gap(fig(game, "m1"), crate) <= 0.05
    game.apply(Interact("m1", crate["id"]))
    assert game.markers[crate["id"]]["kind"] == "items"
    assert game.markers[crate["id"]]["items"] == items


def test_the_helicopter_takes_whoever_waits_on_the_landing_zone() -> None:
    game = game_of("helico")
    clear_zombies(game)
    spots = [(10.8, 18.7), (11.9, 18.7), (13.0, 18.7), (13.0, 19.7)]
    for figure_id, spot in zip(("m1", "m2", "m3", "m4"), spots, strict=True):
        put(game, figure_id, *spot)
        assert in_zone(ref(game).card, "helisurface", fig(game, figure_id))
    fig(game, "m4").status = "down"
    assert game.in_contact("m3", "m4")
    game.turn = 4
    while game.turn == 4:
        game.apply(EndActivations())
    assert game.outcome is None and ref(game).state["events"] == []
    while game.outcome is None:
        game.apply(EndActivations())
    state = ref(game).state
    assert state["events"] == ["helicopter_left"]
    assert sorted(state["evacuated_via"]) == ["m1", "m2", "m3", "m4"]
    assert game.outcome["winner"] == "survivors" and game.outcome["turn"] == 5


def test_a_refuge_zone_takes_a_survivor_in() -> None:
    card = load_cards()["helico"]
    sheltered = dataclasses.replace(card, special_rules=(Refuge(zone="helisurface"),))
    game = start_scenario(sheltered, None, 1, settings=QUIET)
    clear_zombies(game)
    put(game, "m1", 11.8, 15.5)
    game.apply(Move("m1", to=(11.8, 18.7)))
    m1 = fig(game, "m1")
    assert (m1.status, m1.exit) == ("evacuated", "helisurface")
    assert ref(game).state["evacuated_via"] == {"m1": "helisurface"}


# --- the end of a turn -----------------------------------------------------------------------


def end_turn(game: Game, dice: list[int]) -> None:
    """Both sides give up; `dice` are the first dice rolled at the turn's end."""
    while game.to_act == "survivors" or game.pending:
        game.apply(EndActivations())
    game.apply(EndActivations(), dice=dice)


def test_reinforcements_arrive_on_their_edges() -> None:
    game = game_of("evacuation")
    clear_zombies(game)
    game.turn = 3
    before = set(game.figures)
    game.apply(EndActivations(), dice=[6])  # the zombies have none to move: the turn ends
    new = [game.figures[i] for i in sorted(set(game.figures) - before)]
    assert len(new) == 3 and all(z.kind == "rodeur" for z in new)
    r = new[0].base_mm / 25.4 / 2
    lefts = [z for z in new if z.x <= 1.0 - r + 1e-6]
    rights = [z for z in new if z.x >= game.table.width - 1.0 + r - 1e-6]
    assert (len(lefts), len(rights)) == (2, 1)
    survivors = [f for f in game.figures.values() if f.side == "survivors"]
    assert all(game.distance(z.id, s.id) > 6.0 for z in new for s in survivors)
    assert ref(game).state["arrivals"][-1]["turn"] == 3


def test_a_random_edge_is_rolled() -> None:
    game = game_of("convoi")
    clear_zombies(game)
    game.turn = 3
    before = set(game.figures)
    game.apply(EndActivations(), dice=[3, 1])  # D3 = 2, on the far edge
    new = [game.figures[i] for i in set(game.figures) - before]
    assert len(new) == 2
    assert all(z.y >= game.table.depth - 1.0 for z in new)


@pytest.mark.parametrize(("die", "ends"), [(4, True), (3, False)])
def test_dawn_comes_on_the_end_roll(die: int, ends: bool) -> None:
    game = game_of("nuit", settings=Settings(zombie_points=2))
    clear_zombies(game)
    game.turn = 5
    game.apply(EndActivations(), dice=[die])
    assert ref(game).state["end_rolls"] == [{"turn": 5, "die": die}]
    assert game.is_terminal is ends
    if ends:
        assert game.outcome is not None and game.outcome["winner"] == "survivors"
    else:
        assert game.turn == 6


def test_the_turn_limit_ends_the_scenario() -> None:
    game = game_of("evacuation")
    game.turn = game.max_turns
    while not game.is_terminal:
        game.apply(EndActivations())
    assert game.outcome is not None and game.outcome["winner"] == "zombies"
    assert ref(game).state["result"]["ended_by"].startswith("the turn limit")
    # a French player reads the result in French, an English one in English: no code, no id
    words = game.outcome["words"]
    assert game.outcome["reason"] == render(words, "en") == (
        "the turn limit (7) is reached; the survivors fail their objective")
    assert render(words, "fr") == "la limite de 7 tours est atteinte ; les survivants échouent"
    result = ref(game).state["result"]
    assert render(result["ended_by_words"], "fr") == "la limite de 7 tours est atteinte"
    (route,) = result["survivors"]["conditions"]
    assert route["condition"] == "exit: at least half of the survivors leave by 'route'"
    assert render(route["words"], "fr") == (
        "au moins la moitié des survivants sortent par « La route de la campagne »")
    assert render(route["words"], "en") == (
        "at least half of the survivors leave by “The country road”")


def test_no_survivor_left_to_act_ends_it() -> None:
    game = game_of("evacuation")
    for f in game.figures.values():
        if f.side == "survivors" and f.id != "m1":
            f.status, f.exit = "evacuated", "route"
    game.moved()
    m1 = fig(game, "m1")
    put(game, "m1", *exit_point(game, ref(game), m1, "route"))
    game.apply(Exit("m1", "route"))
    assert game.outcome is not None and game.outcome["winner"] == "survivors"
    assert "no survivor" in game.outcome["reason"]


# --- weather --------------------------------------------------------------------------------


@pytest.mark.parametrize(("weather", "gap", "legal"), [
    ("clear", 14.0, True), ("fog", 11.0, True), ("fog", 13.0, False), ("night", 7.0, True),
    ("night", 9.0, False), ("rain", 9.0, True), ("rain", 11.0, False)])
def test_weather_limits_shooting(weather: str, gap: float, legal: bool) -> None:
    game = game_of("evacuation", settings=Settings(zombie_points=2, weather=weather))
    clear_zombies(game)
    zombie = next(f for f in game.figures.values() if f.is_zombie)
    zombie.status = "standing"
    m1 = fig(game, "m1")
    put(game, "m1", 16.0, 3.0)
    put(game, zombie.id, 16.0, 3.0 + 2 * m1.base_mm / 25.4 / 2 + gap)
    assert game.distance("m1", zombie.id) == pytest.approx(gap)
    assert ref(game).state["weather"]["id"] == weather
    assert (Shoot("m1", zombie.id, "pistolet") in game.legal_actions()) is legal


def test_firelight_shows_a_zombie_at_night() -> None:
    game = game_of("nuit", settings=Settings(zombie_points=2))
    r = ref(game)
    card = r.card
    light = next(z for z in card.zones if z.kind == "light")
    zombie = next(f for f in game.figures.values() if f.is_zombie)
    x, y = light.polygon[0]
    put(game, zombie.id, x + 0.6, y + 0.6)
    dark = next(f for f in game.figures.values() if f.is_zombie and f.id != zombie.id)
    assert r.sight_veto(game, fig(game, "m1"), zombie, 15.0) is None
    veto = r.sight_veto(game, fig(game, "m1"), dark, 15.0)
    assert veto is not None and render(veto, "en") == (
        "Night: no line of sight beyond 8.0 in, but to figures in a lit zone")
    assert render(veto, "fr") == (
        "Nuit : pas de ligne de vue au-delà de 8,0 ps, sauf vers les figurines dans une "
        "zone éclairée")
    assert r.sight_veto(game, fig(game, "m1"), dark, 7.5) is None
    assert r.sight_limit(game) == (8.0, veto) and r.lit_zones(game) == [
        [list(p) for p in light.polygon]]
    assert r.range_factor(game) == 1.0


# --- start and records ----------------------------------------------------------------------


def test_start_scenario_builds_the_game() -> None:
    game = game_of("convoi")
    card = load_cards()["convoi"]
    assert game.max_turns == card.turns.limit and game.referee is not None
    assert game.referee.name == "scenario" and ref(game).state["card"] == "convoi"
    essence = [m for m in game.markers.values() if m["kind"] == "items"]
    assert [m["items"] for m in essence] == [{"essence": 1}] * 3
    crates = [m for m in game.markers.values() if m["kind"] == "crate"]
    assert len(crates) == card.crates.count
    assert all(m["cost"] == card.crates.ap and "loot" not in m for m in crates)
    with pytest.raises(UnknownScenario, match="nowhere"):
        start_scenario("nowhere")


def test_a_refereed_game_round_trips() -> None:
    game = game_of("escorte", seed=0, settings=Settings(zombie_points=6, weather="clear"))
    play(game, GreedySurvivors(), GreedyZombies(), max_actions=60)
    assert any(e["action"].get("rule") == "escort" for e in game.log)
    again = Game.replay(game.export())
    assert again.to_json() == game.to_json()
    assert Game.from_json(game.to_json()).to_json() == game.to_json()
    rebuilt = rebuild({"name": "scenario", **ref(game).to_json()})
    assert isinstance(rebuilt, ScenarioReferee) and rebuilt.state == ref(game).state
    assert again.catalog.equipment.keys() == game.catalog.equipment.keys()


def test_the_tracker_counts_what_each_side_has_done() -> None:
    """The page's objective tracker: the escort card counts refugees out of the far edge."""
    game = start_scenario("escorte", None, 2)
    tracker = ref(game).tracker(game)
    (escort,) = tracker["survivors"]["conditions"]
    assert escort["type"] == "escort" and escort["tally"] == [0, 2, 3] and not escort["holds"]
    assert tracker["text"]["survivors"]["en"].startswith("At least 2 of the 3 refugees leave")
    refugee = next(f for f in game.figures.values() if f.id.startswith("refugie"))
    refugee.status, refugee.exit = "evacuated", ref(game).card.exits[0].id
    assert ref(game).tracker(game)["survivors"]["conditions"][0]["tally"] == [1, 2, 3]
