"""The campaign record (D37): what carries between scenarios, the winner, JSON, the CLI."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from i18n import render
from rules.catalog import load_catalog
from rules.dice import Dice
from rules.figures import survivor_from_member
from rules.game import Game
from rules.settings import Settings
from rules.setup import skirmish
from rules.warband import Roster, band_cost, example_bands
from scenarios.campaign import CampaignError
from scenarios.campaign_record import (
    Campaign,
    Choices,
    GameResult,
    MemberState,
    MemberStatus,
    Recruit,
    SkillOption,
    WeaponOption,
    apply_campaign_state,
    campaign_outcome,
    choose_final,
    heal_between,
    new_campaign,
    points_for_next,
    record_result,
    result_from_game,
)
from scenarios.cards import load_cards
from scenarios.outcomes import Consequence, NewMember
from scenarios.tables import table_data
from service.cli import main

CATALOG = load_catalog()
CARDS = load_cards()
BAND: dict[str, Any] = {"name": "Les survivants", "members": [
    {"id": "m1", "archetype": "ex_flic_h", "name": "Lucas", "skill": "combattant",
     "equipment": {"pistolet": 1, "balles": 1}},
    {"id": "m2", "archetype": "prof", "sex": "F", "name": "Mme Roux", "skill": "pragmatique",
     "equipment": {"baton": 1}},
    {"id": "m3", "archetype": "medecin", "sex": "H", "name": "Dr Lenoir",
     "skill": "premiers_soins", "equipment": {"soins": 1}},
    {"id": "m4", "archetype": "enfant", "sex": "F", "name": "Zoé", "skill": "sac_a_dos",
     "equipment": {"fronde": 1}},
    {"id": "m5", "archetype": "bourrin", "name": "Marcel", "skill": "robuste",
     "equipment": {"barre_de_fer": 1}},
    {"id": "m6", "archetype": "vieux", "name": "Papy", "skill": "doyen"},
]}
# regular 2 (evacuation), regular 3 (escorte), conclusive roll 5 (the fourth: helico)
DRAW_DICE = [2, 3, 5]


def roster() -> Roster:
    return Roster.from_json(BAND)


def start(draw: Sequence[int] = DRAW_DICE, **kwargs: Any) -> Campaign:
    return new_campaign(roster(), len(draw), Dice.fixed(draw), seed=11,
                        zombie_players=kwargs.pop("zombie_players", ("alice", "bob")),
                        **kwargs)


def fig(member: str, status: str = "standing", pv: int | None = None,
        **extra: Any) -> dict[str, Any]:
    """One figure of a fabricated result; full PV and the roster's equipment by default."""
    entry = next(m for m in BAND["members"] if m["id"] == member) if member <= "m6" else {}
    archetype = entry.get("archetype")
    full = CATALOG.archetypes[archetype].wounds if archetype else 6
    out: dict[str, Any] = {"id": member, "status": status,
                           "pv": full if pv is None else pv,
                           "items": dict(entry.get("equipment", {}))}
    out.update(extra)
    return out


def result(scenario: str, winner: str, figures: list[dict[str, Any]],
           zombies: dict[str, str] | None = None) -> dict[str, Any]:
    return {"scenario": scenario, "winner": winner, "reason": "test", "turn": 6,
            "figures": figures, "zombie_players": zombies or {}}


def alive_figs(campaign: Campaign) -> list[dict[str, Any]]:
    """Every living member standing as it is now: nothing happened to anyone."""
    return [{"id": s.id, "status": "standing", "pv": s.pv,
             "items": dict(s.member.equipment), "units": dict(s.units)}
            for s in campaign.alive_members()]


def expected_points(campaign: Campaign) -> int:
    cost = band_cost(campaign.current_roster(), CATALOG, campaign.settings)
    assert campaign.next_scenario is not None
    return CARDS[campaign.next_scenario].zombies.points.points(cost)


# ---------------------------------------------------------------------------------------------
# A whole campaign of three scenarios


def test_three_scenario_campaign() -> None:
    campaign = start()
    assert campaign.draw.scenarios == ("evacuation", "escorte", "helico")
    assert points_for_next(campaign).points == expected_points(campaign) == 50
    assert points_for_next(campaign).split == {"alice": 25, "bob": 25}  # D24

    # 1. Evacuation, the zombies win. m1 leaves the table wounded with a katana found; m3 is
    # down beside a friend; m4 is killed by bob's zombie; m5 is contaminated by alice's; m6,
    # down alone (put down by m5 after it rose), fails its D8 roll.
    first = result("evacuation", "zombies", [
        fig("m1", "evacuated", 5, items={"pistolet": 1, "balles": 1, "katana": 1},
            units={"balles": 7}),
        fig("m2"),
        fig("m3", "down", 0, downed_by="z1", friend_in_contact=True),
        fig("m4", "dead", 0, items={}, downed_by="z2"),
        fig("m5", "contaminated", 0, items={}, downed_by="z1"),
        fig("m6", "down", 0, downed_by="m5"),
    ], zombies={"z1": "alice", "z2": "bob"})
    # dice: m6's D8 roll 2 (dies); consequence 2 (lose a weapon), re-rolled by the Prof: 6
    campaign = record_result(campaign, first, Dice.fixed([2, 2, 6]), reroll=True, seed=1)
    played = campaign.history[0]
    fates = {f.member: f for f in played.fates}
    assert (fates["m1"].status, fates["m1"].pv, fates["m1"].found) == (
        "alive", 5, {"katana": 1})
    assert (fates["m3"].status, fates["m3"].pv, fates["m3"].recovery) == ("alive", 1, "contact")
    assert fates["m3"].roll is None
    assert (fates["m4"].status, fates["m4"].inflicted_by, fates["m4"].lost) == (
        "dead", "bob", {"fronde": 1})
    assert (fates["m5"].status, fates["m5"].inflicted_by) == ("contaminated", "alice")
    assert (fates["m6"].status, fates["m6"].roll, fates["m6"].inflicted_by) == (
        "dead", 2, "alice")  # m5 rose as alice's zombie
    roll = played.consequence
    assert (roll.first, roll.second, roll.prof, roll.face) == (2, 6, "m2", 6)
    assert roll.effect.type == "new_member" and roll.effect.members == ("m7",)
    m7 = campaign.member("m7")
    assert (m7.member.archetype, m7.member.skill, m7.pv, m7.starting) == (
        "ado_h", "agile", 6, False)  # the first follower of the catalog, its first skill
    assert campaign.member("m1").units == {"balles": 7}
    assert campaign.member("m5").status == "contaminated"
    assert campaign.losses() == {"alice": 2, "bob": 1}
    assert [d[1] for d in played.dice] == [2, 2, 6]
    assert played.band_cost == band_cost(campaign.current_roster())
    assert points_for_next(campaign).points == expected_points(campaign)
    assert points_for_next(campaign).points < 50  # the band shrank

    # between scenarios: the Médecin's premiers soins once on m1, then m1's second heal uses
    # his kit
    campaign = heal_between(campaign, "m1", "m3")
    assert campaign.member("m1").pv == 7 and campaign.first_aid == ("m1",)
    campaign = heal_between(campaign, "m1", "m3")
    assert campaign.member("m1").pv == 8 and campaign.member("m3").units == {"soins": 4}
    with pytest.raises(CampaignError, match="Lucas has all their wounds"):
        heal_between(campaign, "m1", "m3")

    # 2. Escorte, the survivors win: a burden joins (the player's pick), then the consequence
    # roll 5 gives a second skill (default: the first member, its first other skill).
    def pick_vieux(c: NewMember, options: Sequence[Recruit]) -> Recruit:
        assert all(CATALOG.archetypes[o.archetype].class_ == "burden" for o in options)
        return dataclasses.replace(
            next(o for o in options if o.archetype == "vieux" and o.skill == "chanceux"),
            name="Mémé")

    before = points_for_next(campaign).band_cost
    second = result("escorte", "survivors", alive_figs(campaign))
    second["figures"][0]["pv"] = 2  # m1 badly hurt
    campaign = record_result(campaign, second, Dice.fixed([5]),
                             choices=Choices(new_member=pick_vieux))
    played = campaign.history[1]
    assert [e.type for e in played.rewards] == ["new_member"]
    assert campaign.member("m8").member.archetype == "vieux"
    assert campaign.member("m8").member.name == "Mémé"
    assert played.consequence.effect.type == "second_skill"
    assert campaign.member("m1").member.second_skill == "tireur_emerite"
    assert played.consequence.second is None and not played.consequence.reroll_asked
    assert campaign.first_aid == ()
    assert points_for_next(campaign).band_cost > before  # a recruit and a skill: dearer
    assert points_for_next(campaign).points == expected_points(campaign)

    # 3. Helico: m1 is killed by an unmapped zombie (credited to the first zombie player);
    # consequence 1: the most wounded (m3, 4 PV lost) dies of his wounds.
    third = result("helico", "zombies", [
        fig("m1", "dead", 0, items={}, downed_by="z9"),
        fig("m2", pv=3), fig("m3", pv=2, items={"soins": 1}),
        fig("m7"), fig("m8", pv=4, items={}),
    ], zombies={"z1": "bob"})
    campaign = record_result(campaign, third, Dice.fixed([1]))
    assert campaign.finished and campaign.next_scenario is None
    assert campaign.member("m3").status == "lost"
    assert campaign.history[2].consequence.effect.members == ("m3",)
    assert campaign.losses() == {"alice": 3, "bob": 1}
    outcome = campaign_outcome(campaign)
    assert (outcome.winner, outcome.zombie_winners) == ("zombies", ("alice",))
    assert (outcome.counted, outcome.needed, outcome.starting) == (1, 3, 6)
    # counting every member: m2, m7 and m8 are alive, half of six
    anyone = dataclasses.replace(campaign, settings=Settings(victory_counts="any_members"))
    assert campaign_outcome(anyone).winner == "survivors"
    with pytest.raises(CampaignError, match="over"):
        record_result(campaign, third, Dice.fixed([1]))

    again = Campaign.from_json(json.loads(json.dumps(campaign.to_json())))
    assert again == campaign
    assert again.to_json() == campaign.to_json()
    assert len(campaign.dice_log) == len(DRAW_DICE) + 3 + 1 + 1


# ---------------------------------------------------------------------------------------------
# Each consequence


def first_scenario(card: str) -> list[int]:
    number = CARDS[card].number
    return [number, 1 if number != 1 else 2, 2]


def record_face(card: str, face: int, campaign: Campaign | None = None,
                **kwargs: Any) -> Campaign:
    campaign = campaign or start(first_scenario(card))
    assert campaign.next_scenario == card
    figures = kwargs.pop("figures", None) or alive_figs(campaign)
    return record_result(campaign, result(card, "draw", figures), Dice.fixed([face]), **kwargs)


def test_nothing() -> None:
    campaign = record_face("nettoyage", 2)
    assert campaign.history[0].consequence.effect.type == "nothing"
    assert campaign.band == start(first_scenario("nettoyage")).band


def test_consequences_and_causes_read_in_french() -> None:
    """What the campaign tells a player (consequences, rewards, causes, notes) is a message
    said in French or English, members and things by their names, never an id."""
    nothing = record_face("nettoyage", 2).history[0].consequence.effect
    assert nothing.text == "nothing happens"
    assert nothing.words == {"code": "campaign.effect.nothing", "params": {}}
    assert render(nothing.words, "fr") == "rien ne se passe"
    weapon = record_face("convoi", 2).history[0].consequence.effect  # lose a weapon
    assert weapon.type == "lose_weapon" and weapon.words is not None
    assert (render(weapon.words, "fr"), weapon.text) == (
        "Marcel perd une arme : Barre de fer", "Marcel loses a weapon: Iron bar")
    joined = record_face("nettoyage", 6).history[0].consequence.effect  # a new member
    assert joined.words is not None and joined.words["code"] == "campaign.effect.joins"
    french = render(joined.words, "fr")
    assert "rejoint la bande" in french and "_" not in french and " m7" not in french
    # a member killed in the game: the cause names the zombie as the game did
    campaign = start(first_scenario("nettoyage"))
    figures = alive_figs(campaign)
    figures[3] = fig("m4", "dead", 0, items={}, downed_by="z2")
    after = record_result(campaign, {**result("nettoyage", "zombies", figures),
                                     "names": {"z2": {"fr": "Rôdeur 2", "en": "Walker 2"}}},
                          Dice.fixed([2]))
    dead = after.member("m4")
    assert dead.cause == "killed by Walker 2" and dead.cause_words is not None
    assert render(dead.cause_words, "fr") == "tué par Rôdeur 2"
    assert "cause_words" in dead.to_json()


def test_new_equipment_goes_to_the_first_member_with_room() -> None:
    campaign = start(first_scenario("evacuation"))
    member = dataclasses.replace(campaign.band[0].member, equipment={
        "pistolet": 1, "balles": 1, "fusil": 1, "barre_de_fer": 1})  # E6 of 6: full
    campaign = dataclasses.replace(campaign, band=(
        dataclasses.replace(campaign.band[0], member=member), *campaign.band[1:]))
    asked: list[tuple[str, list[str]]] = []

    def give(item: str, members: Sequence[str]) -> str | None:
        asked.append((item, list(members)))
        return members[0]

    after = record_face("evacuation", 4, campaign, choices=Choices(give_item=give))
    assert asked[0][0] == "balles" and asked[0][1][0] == "m2"
    assert "m1" not in asked[0][1]
    assert after.member("m2").member.equipment["balles"] == 1
    assert after.member("m2").units == {"balles": 10}


def test_new_equipment_left_behind() -> None:
    after = record_face("evacuation", 5, choices=Choices(give_item=lambda item, members: None))
    effect = after.history[0].consequence.effect
    assert effect.members == () and "left behind" in effect.text


def test_rarity_always_refuses_a_fourth_pistol() -> None:
    campaign = start(first_scenario("evacuation"), settings=Settings(rarity_scope="always"))
    band = list(campaign.band)
    for i in (1, 2):
        equipment = {**band[i].member.equipment, "pistolet": 1}
        band[i] = dataclasses.replace(band[i], member=dataclasses.replace(
            band[i].member, equipment=equipment))
    campaign = dataclasses.replace(campaign, band=tuple(band))
    after = record_face("evacuation", 5, campaign)
    assert "left behind" in after.history[0].consequence.effect.text
    plain = record_face("evacuation", 5, dataclasses.replace(campaign, settings=Settings()))
    assert plain.history[0].consequence.effect.items == {"pistolet": 1}


def test_second_skill_choice() -> None:
    seen: list[SkillOption] = []

    def choose(options: Sequence[SkillOption]) -> SkillOption:
        seen.extend(options)
        return SkillOption("m5", "violent")

    after = record_face("nettoyage", 5, choices=Choices(second_skill=choose))
    assert after.member("m5").member.second_skill == "violent"
    assert SkillOption("m1", "tireur_emerite") == seen[0]
    assert SkillOption("m5", "robuste") not in seen  # not the skill it has
    with pytest.raises(CampaignError, match="choices.second_skill"):
        record_face("nettoyage", 5, choices=Choices(
            second_skill=lambda options: SkillOption("m5", "robuste")))


def test_lose_wounded_most_wounded_and_ties() -> None:
    campaign = start(first_scenario("nettoyage"))
    figures = alive_figs(campaign)
    figures[0]["pv"] = 6  # m1 (8 PV) loses 2
    figures[2]["pv"] = 3  # m3 (6 PV) loses 3: the most wounded
    assert record_face("nettoyage", 1, campaign, figures=figures).member("m3").status == "lost"
    figures[2]["pv"] = 4  # now m1 and m3 both lost 2 PV... m3 has fewer PV left
    assert record_face("nettoyage", 1, campaign, figures=figures).member("m3").status == "lost"
    figures[0]["pv"] = 8
    figures[1]["pv"] = figures[2]["pv"] = 4  # the Prof and the Médecin (6 PV) both lost 2
    asked: list[list[str]] = []

    def zombie_choice(members: Sequence[str]) -> str:
        asked.append(list(members))
        return members[-1]

    after = record_face("nettoyage", 1, campaign, figures=figures,
                        choices=Choices(lose_wounded=zombie_choice))
    assert sorted(asked[0]) == ["m2", "m3"]
    assert after.member(asked[0][-1]).status == "lost"
    default = record_face("nettoyage", 1, campaign, figures=figures)
    assert default.member(asked[0][0]).status == "lost"  # the most costly by default
    nobody = record_face("nettoyage", 1, campaign)
    assert nobody.history[0].consequence.effect.members == ()


def test_lose_weapon_most_valuable_by_default() -> None:
    after = record_face("evacuation", 2)
    effect = after.history[0].consequence.effect
    assert (effect.members, effect.items) == (("m5",), {"barre_de_fer": 1})  # E2, +1
    assert "barre_de_fer" not in after.member("m5").member.equipment
    offered: list[WeaponOption] = []

    def zombie_choice(options: Sequence[WeaponOption]) -> WeaponOption:
        offered.extend(options)
        return WeaponOption("m1", "pistolet")

    after = record_face("evacuation", 2, choices=Choices(lose_weapon=zombie_choice))
    assert offered[:2] == [WeaponOption("m5", "barre_de_fer"), WeaponOption("m1", "pistolet")]
    assert WeaponOption("m3", "soins") not in offered
    assert "pistolet" not in after.member("m1").member.equipment
    assert after.member("m1").member.equipment["balles"] == 1  # ammunition is no weapon


def test_lose_item_and_heal() -> None:
    lost = record_face("escorte", 2)
    assert "soins" not in lost.member("m3").member.equipment and not lost.member("m3").units
    campaign = start(first_scenario("nettoyage"))
    figures = alive_figs(campaign)
    figures[0]["pv"] = 3
    healed = record_face("nettoyage", 4, campaign, figures=figures)
    assert healed.member("m1").pv == 5
    assert healed.history[0].consequence.effect.members == ("m1",)


def test_prof_reroll_policy_and_no_prof() -> None:
    asked: list[tuple[int, str]] = []

    def policy(face: int, consequence: Consequence) -> bool:
        asked.append((face, consequence.type))
        return consequence.type == "lose_weapon"

    campaign = start(first_scenario("evacuation"))
    after = record_result(campaign, result("evacuation", "draw", alive_figs(campaign)),
                          Dice.fixed([2, 3]), reroll=policy)
    roll = after.history[0].consequence
    assert asked == [(2, "lose_weapon")]
    assert (roll.first, roll.second, roll.face, roll.prof) == (2, 3, 3, "m2")
    assert roll.effect.type == "nothing"
    # the Prof killed in the scenario: no re-roll
    figures = alive_figs(campaign)
    figures[1].update(status="dead", pv=0, items={}, downed_by="z1")
    after = record_result(campaign, result("evacuation", "draw", figures), Dice.fixed([2]),
                          reroll=True)
    roll = after.history[0].consequence
    assert (roll.second, roll.prof, roll.reroll_asked) == (None, None, True)
    assert "no living Prof" in after.history[0].notes[0]


def test_band_full_nobody_joins() -> None:
    members = [*BAND["members"],
               {"id": "m7", "archetype": "junkie", "skill": "paume"},
               {"id": "m8", "archetype": "bimbo", "skill": "egoiste"}]
    campaign = new_campaign(Roster.from_json({"name": "huit", "members": members}), 3,
                            Dice.fixed([1, 2, 2]))
    after = record_face("nettoyage", 6, campaign)
    assert len(after.band) == 8 and "full" in after.history[0].consequence.effect.text


# ---------------------------------------------------------------------------------------------
# Down at the end (D8), wounds (D30), once-per-game skills, zombie points


@pytest.mark.parametrize(("setting", "contact", "die", "survives"), [
    ("roll", False, 4, True), ("roll", False, 3, False), ("roll", True, None, True),
    ("survive", False, None, True), ("die", True, None, False),
])
def test_down_at_the_end(setting: str, contact: bool, die: int | None,
                         survives: bool) -> None:
    campaign = start(first_scenario("nettoyage"),
                     settings=Settings.from_json({"down_at_end": setting}))
    figures = alive_figs(campaign)
    figures[3].update(status="down", pv=0, downed_by="z4", friend_in_contact=contact)
    dice = [die, 2] if die is not None else [2]
    after = record_result(campaign, result("nettoyage", "draw", figures, {"z4": "bob"}),
                          Dice.fixed(dice))
    fate = after.history[0].fates[3]
    assert fate.roll == die
    state = after.member("m4")
    if survives:
        assert (state.status, state.pv, fate.status) == ("alive", 1, "alive")
    else:
        assert (state.status, state.inflicted_by, state.member.equipment) == ("dead", "bob", {})
        assert fate.lost == {"fronde": 1}


def test_carried_off_the_table_while_down_recovers() -> None:
    campaign = start(first_scenario("nettoyage"))
    figures = alive_figs(campaign)
    figures[3].update(status="evacuated", pv=0, downed_by="z1")
    after = record_face("nettoyage", 2, campaign, figures=figures)
    fate = after.history[0].fates[3]
    assert (fate.status, fate.pv, fate.recovery, fate.roll) == ("alive", 1, "carried", None)


def test_a_result_without_the_band_is_refused() -> None:
    campaign = start()
    with pytest.raises(CampaignError, match="none of the band") as error:
        record_result(campaign, result("evacuation", "draw", [fig("x9")]), Dice.fixed([3]))
    assert error.value.where == "result.figures"


def test_healing_between_scenarios_rules() -> None:
    campaign = start(settings=Settings(self_heal=False))
    band = list(campaign.band)
    band[2] = dataclasses.replace(band[2], pv=2)  # the Médecin, hurt
    band[4] = dataclasses.replace(band[4], pv=5)  # Marcel
    campaign = dataclasses.replace(campaign, band=tuple(band))
    with pytest.raises(CampaignError, match="cannot heal itself"):
        heal_between(campaign, "m3")
    with pytest.raises(CampaignError, match="no healing item"):
        heal_between(campaign, "m5", "m1")
    once = heal_between(campaign, "m5", "m3")  # premiers soins, no item used
    assert once.member("m5").pv == 7 and once.member("m3").units == {"soins": 5}
    twice = heal_between(once, "m5", "m3")  # premiers soins used on m5: the kit
    assert twice.member("m5").pv == 9 and twice.member("m3").units == {"soins": 4}


def test_wounds_do_not_carry_over_with_the_setting() -> None:
    campaign = start(first_scenario("nettoyage"),
                     settings=Settings(wounds_carry_over=False))
    figures = alive_figs(campaign)
    figures[0]["pv"] = 2
    after = record_face("nettoyage", 2, campaign, figures=figures)
    assert after.history[0].fates[0].pv == 2
    assert after.member("m1").pv == 8


def test_campaign_state_goes_onto_the_next_figures() -> None:
    # "une fois par partie" (L8, L107: the partie is the campaign, R6) is the default
    campaign = start(first_scenario("nettoyage"))
    figures = alive_figs(campaign)
    figures[0].update(pv=4, units={"balles": 3}, used_once=["sprinter"])
    figures[4].update(used_once=["robuste"])
    after = record_face("nettoyage", 2, campaign, figures=figures)
    figs = [survivor_from_member(s.member, CATALOG, 0, 0) for s in after.alive_members()]
    apply_campaign_state(after, figs)
    assert (figs[0].pv, figs[0].units, figs[0].used_game) == (4, {"balles": 3},
                                                              {"sprinter": 1})
    assert figs[4].wounds_ignored == 1
    scenario_scope = record_face("nettoyage", 2, start(
        first_scenario("nettoyage"), settings=Settings(once_per_game_scope="scenario")),
        figures=figures)
    assert scenario_scope.member("m1").used_once == ()


def test_zombie_points_fixed_by_setting() -> None:
    campaign = start(settings=Settings(zombie_points=30))
    points = points_for_next(campaign)
    assert (points.points, points.split) == (30, {"alice": 15, "bob": 15})


def test_used_up_items_are_gone_and_scenario_items_stay_behind() -> None:
    campaign = start(first_scenario("convoi"))
    figures = alive_figs(campaign)
    figures[0].update(items={"pistolet": 1, "balles": 1, "essence": 1}, units={"balles": 0})
    after = record_face("convoi", 3, campaign, figures=figures)
    assert after.member("m1").member.equipment == {"pistolet": 1}
    assert "Lucas: Jerrycan of fuel belongs to the scenario and stays behind" in \
        after.history[0].notes
    (said,) = after.history[0].notes_words
    assert render(said, "fr") == ("Lucas : Jerrican d'essence appartient au scénario et reste "
                                  "sur place")
    assert after.history[0].fates[0].lost == {"balles": 1}


def test_the_final_scenario_chosen_by_a_player() -> None:
    campaign = start([1, 2, 6])  # 6: the survivors choose the conclusive scenario
    assert campaign.draw.choice_pending
    chosen = choose_final(campaign, "remede")
    assert chosen.draw.scenarios[-1] == "remede" and not chosen.draw.choice_pending
    assert Campaign.from_json(chosen.to_json()) == chosen
    with pytest.raises(CampaignError):
        choose_final(chosen, "refuge")
    played = record_face("evacuation", 2, record_face("nettoyage", 2, campaign))
    # recording the card a player picked names it
    after = record_result(played, result("nuit", "draw", alive_figs(played)), Dice.fixed([3]))
    assert after.draw.scenarios[-1] == "nuit" and after.finished


# ---------------------------------------------------------------------------------------------
# Who wins the campaign


def ending(statuses: dict[str, tuple[MemberStatus, str | None]], players: tuple[str, ...],
           **settings: Any) -> Campaign:
    campaign = start([1, 3, 2], zombie_players=players, settings=Settings(**settings))
    band = tuple(dataclasses.replace(s, status=statuses[s.id][0], inflicted_by=statuses[s.id][1])
                 if s.id in statuses else s for s in campaign.band)
    return dataclasses.replace(campaign, band=band, next=3)


def test_survivors_win_with_half_the_starting_band() -> None:
    campaign = ending({"m1": ("dead", "alice"), "m2": ("dead", "alice"),
                       "m3": ("contaminated", "alice")}, ("alice",))
    assert campaign_outcome(campaign).winner == "survivors"  # 3 of 6


def test_zombies_win_and_the_most_losses_among_zombie_players() -> None:
    statuses: dict[str, tuple[MemberStatus, str | None]] = {
        "m1": ("dead", "alice"), "m2": ("dead", "bob"), "m3": ("contaminated", "bob"),
        "m4": ("lost", None)}
    outcome = campaign_outcome(ending(statuses, ("alice", "bob")))
    assert (outcome.winner, outcome.zombie_winners) == ("zombies", ("bob",))
    assert outcome.losses == {"alice": 1, "bob": 2}
    statuses["m5"] = ("dead", "alice")
    tie = campaign_outcome(ending(statuses, ("alice", "bob", "carol")))
    assert tie.zombie_winners == ("alice", "bob")  # tied: they share the win


def test_a_band_wiped_out_ends_the_campaign() -> None:
    campaign = start()
    figures = [fig(m["id"], "dead", 0, items={}, downed_by="z1") for m in BAND["members"]]
    after = record_result(campaign, result("evacuation", "zombies", figures), Dice.fixed([3]))
    assert after.finished and after.next == 1
    assert campaign_outcome(after).zombie_winners == ("alice",)
    assert points_for_next(after).points == 0


# ---------------------------------------------------------------------------------------------
# JSON: round trip and malformed records


DELETE = object()
MALFORMED = [
    ("band.0.pv", "x", "band[0].pv"),
    ("band.1.status", "zombie", "band[1].status"),
    ("band.0.pv", 12, "band[0].pv"),
    ("band.0.inflicted_by", "carol", "band[0].inflicted_by"),
    ("band.0.equipment.laser", 1, "band[0].equipment.laser"),
    ("band.2.id", "m1", "band[2]"),
    ("draw", DELETE, "draw"),
    ("draw.scenarios.0", "nope", "draw.scenarios[0]"),
    ("extra", 1, "extra"),
    ("roster.members.0.archetype", DELETE, "roster.members[0].archetype"),
    ("settings.down_at_end", "maybe", "settings.down_at_end"),
    ("zombie_players", [], "zombie_players"),
    ("next", 2, "history"),
    ("version", 2, "version"),
    ("history.0.consequence.first", 7, "history[0].consequence.first"),
    ("history.0.fates.0.status", "gone", "history[0].fates[0].status"),
    ("history.0.dice.0.value", 0, "history[0].dice[0].value"),
]


def set_path(data: Any, path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for key in parents:
        data = data[int(key)] if isinstance(data, list) else data[key]
    if value is DELETE:
        del data[last]
    elif isinstance(data, list):
        data[int(last)] = value
    else:
        data[last] = value


@pytest.fixture(scope="module")
def played_once() -> dict[str, Any]:
    campaign = start()
    return record_result(campaign, result("evacuation", "draw", alive_figs(campaign)),
                         Dice.fixed([3])).to_json()


@pytest.mark.parametrize(("path", "value", "where"), MALFORMED)
def test_malformed_campaigns_are_named(played_once: dict[str, Any], path: str, value: Any,
                                       where: str) -> None:
    data = copy.deepcopy(played_once)
    set_path(data, path, value)
    with pytest.raises(CampaignError) as error:
        Campaign.from_json(data)
    assert error.value.where == where
    field = where.split(".")[0].split("[")[0]
    named = where.split(".")[-1] if field == "settings" else field  # a setting by its name
    assert named in error.value.message


def test_round_trip(played_once: dict[str, Any]) -> None:
    campaign = Campaign.from_json(played_once)
    assert campaign.to_json() == played_once
    assert Campaign.from_json(json.loads(json.dumps(played_once))) == campaign
    with pytest.raises(CampaignError, match="expected an object"):
        Campaign.from_json([1])


@pytest.mark.parametrize(("change", "where"), [
    ({"winner": "nobody"}, "result.winner"),
    ({"figures": [{"id": "m1"}]}, "result.figures[0].status"),
    ({"figures": [{"id": "m1", "status": "standing"}, {"id": "m1", "status": "dead"}]},
     "result.figures[1]"),
    ({"zombie_players": {"z1": "carol"}}, "result.zombie_players.z1"),
    ({"scenario": "escorte"}, "result.scenario"),
])
def test_malformed_results(change: dict[str, Any], where: str) -> None:
    campaign = start()
    data = {**result("evacuation", "draw", alive_figs(campaign)), **change}
    with pytest.raises(CampaignError) as error:
        record_result(campaign, data, Dice.fixed([3]))
    assert error.value.where == where


def test_member_state_round_trip() -> None:
    state = start().band[0]
    assert MemberState.from_json(state.to_json(), "band[0]") == state


# ---------------------------------------------------------------------------------------------
# A real game


def test_a_real_short_game_is_recorded() -> None:
    campaign = new_campaign(example_bands()["la_zone"], 3, random.Random(5), seed=5)
    game = skirmish(table_data("street"), campaign.current_roster(), seed=21, max_turns=2)
    rng = random.Random(21)
    while not game.is_terminal:
        game.apply(rng.choice(game.legal_actions()))
    scenario = campaign.next_scenario
    assert scenario is not None
    found = result_from_game(game, scenario, {f.id: "zombies" for f in game.figures.values()
                                              if f.is_zombie})
    assert game.outcome is not None and found.winner == game.outcome["winner"]
    after = record_result(campaign, found, random.Random(5), seed=5)
    for fig_ in game.figures.values():
        if fig_.side != "survivors":
            continue
        state = after.member(fig_.id)
        fate = next(f for f in after.history[0].fates if f.member == fig_.id)
        if fig_.status in ("standing", "evacuated"):  # (a consequence may heal it after)
            assert state.alive and fate.pv == fig_.pv or state.status == "lost"
        if fig_.status == "dead":
            assert state.status == "dead"
    assert Campaign.from_json(after.to_json()) == after
    assert after.history[0].band_cost == band_cost(after.current_roster())
    # the game replays from its export to the same result
    again = result_from_game(Game.replay(game.export()), scenario, found.zombie_players)
    assert again == found
    assert isinstance(GameResult.from_json(found.to_json()), GameResult)


# ---------------------------------------------------------------------------------------------
# The command line


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main(list(argv))
    out = capsys.readouterr().out
    try:
        return code, json.loads(out), out
    except json.JSONDecodeError:
        return code, None, out


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    band = tmp_path / "band.json"
    band.write_text(json.dumps(BAND), encoding="utf-8")
    game = skirmish(table_data("junction"), roster(), seed=3, max_turns=2)
    rng = random.Random(3)
    while not game.is_terminal:
        game.apply(rng.choice(game.legal_actions()))
    export = tmp_path / "game.json"
    export.write_text(json.dumps(game.export()), encoding="utf-8")
    return {"band": band, "game": export, "campaign": tmp_path / "campaign.json",
            "dir": tmp_path}


def test_cli_new_show_record(capsys: pytest.CaptureFixture[str],
                             files: dict[str, Path]) -> None:
    code, data, _ = run(capsys, "campaign", "new", "--band", str(files["band"]),
                        "--length", "3", "--seed", "4")
    assert code == 0 and data["format"] == "survive-us/campaign"
    code, _, text = run(capsys, "campaign", "new", "--band", str(files["band"]), "--length",
                        "3", "--seed", "4", "--out", str(files["campaign"]),
                        "--zombie-player", "alice", "--zombie-player", "bob")
    assert code == 0 and "written" in text
    stored = json.loads(files["campaign"].read_text(encoding="utf-8"))
    assert stored["draw"] == data["draw"] and stored["zombie_players"] == ["alice", "bob"]
    code, shown, _ = run(capsys, "campaign", "show", str(files["campaign"]), "--json")
    assert code == 0 and shown["next_scenario"] == stored["draw"]["scenarios"][0]
    assert shown["zombie_points"]["split"].keys() == {"alice", "bob"}
    code, _, text = run(capsys, "campaign", "show", str(files["campaign"]))
    assert code == 0 and "next:" in text
    code, recorded, _ = run(capsys, "campaign", "record", str(files["campaign"]), "--game",
                            str(files["game"]), "--seed", "8", "--dice", "3", "--json")
    assert code == 0 and recorded["played"]["consequence"]["first"] == 3
    stored = json.loads(files["campaign"].read_text(encoding="utf-8"))
    assert stored["next"] == 1 and len(stored["history"]) == 1
    assert stored["history"][0]["seed"] == 8
    code, _, text = run(capsys, "campaign", "record", str(files["campaign"]), "--game",
                        str(files["game"]), "--seed", "8")
    assert code == 0 and "consequence roll" in text
    assert not [p for p in files["dir"].iterdir() if p.name.endswith(".tmp")]


def test_cli_errors_keep_the_campaign(capsys: pytest.CaptureFixture[str],
                                      files: dict[str, Path]) -> None:
    assert main(["campaign", "new", "--band", str(files["band"]), "--length", "3", "--seed",
                 "4", "--out", str(files["campaign"])]) == 0
    capsys.readouterr()
    before = files["campaign"].read_bytes()
    broken = files["dir"] / "broken.json"
    broken.write_text('{"start": {}, "log": []}', encoding="utf-8")
    for argv in (["--game", str(broken)], ["--game", str(files["dir"] / "missing.json")],
                 ["--game", str(files["game"]), "--dice", "7"],
                 ["--game", str(files["game"]), "--scenario", "helico"]):
        code, data, _ = run(capsys, "campaign", "record", str(files["campaign"]), *argv,
                            "--seed", "1", "--json")
        assert code == 2, argv
        assert {"code", "message", "where"} <= set(data["error"]) <= {
            "code", "message", "where", "words"}
        assert files["campaign"].read_bytes() == before
    bad = json.loads(before)
    bad["band"][0]["pv"] = -1
    files["campaign"].write_text(json.dumps(bad), encoding="utf-8")
    code, data, _ = run(capsys, "campaign", "show", str(files["campaign"]), "--json")
    assert code == 2 and data["error"]["where"] == f"{files['campaign']}:band[0].pv"
    assert data["error"]["code"] == "invalid_campaign"
    # without --json: the sentence on stderr, nothing on stdout
    assert main(["campaign", "show", str(files["campaign"])]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"survive-us: {files['campaign']}: ")


@pytest.mark.parametrize(("lang", "said"), [
    ("fr", "ce fichier n'est pas un fichier de campagne (il a un champ « name » qu'une "
           "campagne n'a pas)"),
    ("en", "this file is not a campaign record (it has a field 'name' a campaign does not "
           "have)"),
])
def test_cli_show_says_a_file_is_not_a_campaign(capsys: pytest.CaptureFixture[str],
                                                files: dict[str, Path], lang: str,
                                                said: str) -> None:
    assert main(["--lang", lang, "campaign", "show", str(files["band"])]) == 2
    out, err = capsys.readouterr()
    assert out == "" and said in err and "unknown field" not in err
    assert main(["--lang", lang, "campaign", "show", str(files["band"]), "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "invalid_campaign" and said in error["message"]
    files["game"].write_text('{"roster": {}}', encoding="utf-8")  # no draw, no band
    assert main(["--lang", lang, "campaign", "show", str(files["game"])]) == 2
    err = capsys.readouterr().err
    assert "'draw'" in err or "« draw »" in err


def test_cli_refuses_an_illegal_band(capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    band = tmp_path / "small.json"
    band.write_text(json.dumps({"name": "duo", "members": BAND["members"][:2]}),
                    encoding="utf-8")
    out = tmp_path / "c.json"
    code, data, _ = run(capsys, "campaign", "new", "--band", str(band), "--length", "3",
                        "--seed", "1", "--out", str(out), "--json")
    assert code == 2 and data["error"]["where"] == "band.members" and not out.exists()
    band.write_text(json.dumps({"name": "x", "members": [{"id": 1}]}), encoding="utf-8")
    code, data, _ = run(capsys, "campaign", "new", "--band", str(band), "--length", "3",
                        "--seed", "1", "--json")
    assert code == 2 and data["error"]["where"] == f"{band}:members[0].id"


def test_the_next_game_starts_with_what_the_campaign_carries() -> None:
    """start_next: the living band of the next card, each member at the PV it kept (D30)."""
    import dataclasses as dc

    from scenarios.campaign_record import start_next

    band = example_bands()["cops_and_kids"]
    campaign = new_campaign(band, 3, random.Random(5), seed=5)
    hurt = campaign.band[0]
    campaign = dc.replace(campaign, band=(dc.replace(hurt, pv=2), *campaign.band[1:]))
    game = start_next(campaign, seed=3)
    assert game.referee is not None
    assert game.figures[hurt.id].pv == 2
    others = [game.figures[m.id] for m in campaign.band[1:]]
    assert all(f.pv == f.wounds for f in others)
