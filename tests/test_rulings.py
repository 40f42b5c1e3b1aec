"""Golden games for the rulings of issue 12 (docs/rules.md, R1-R7), each under the new
default and, where the old reading stays a setting, under that setting too. Every expected
die and refusal names the rulebook line it comes from."""

from __future__ import annotations

import pytest
from golden_helpers import TOUCH, Golden, english, start, survivor, zombie

from rules.actions import (
    Contaminate,
    Decline,
    EndActivations,
    Heal,
    Melee,
    Move,
    Pass,
    Shoot,
    UseSkill,
)
from rules.settings import Settings
from scenarios.campaign import CampaignError, draw_campaign

UP = 5 + TOUCH


# --- R1: the turn ends when the AP are spent (L74, L104) -------------------------------------


def test_r1_a_side_with_ap_and_an_activation_cannot_pass() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [2, 1, 1])
    g = Golden(game)
    assert game.pools == {"survivors": 3, "zombies": 2}
    for give_up in (Pass(), EndActivations()):
        assert give_up not in game.legal_actions()
        g.refused(give_up, r"^The survivors must activate a figure while they can \(this "
                  r"game's setting\): their AP cannot be kept\.$")
    g(Move("s1", to=(5, 4)))
    g.refused(Pass(), r"^The zombies must activate a figure while they can",
              code="refusal.must_activate.zombies")
    g(Move("z1", to=(5, 14)))
    g(Move("s1", to=(5, 3)))
    g(Move("z1", to=(5, 13)))
    # L74 "jusqu'à ce que chaque camp ait utilisé tous ses PA": the zombies are out, the
    # survivors still hold 1 AP, so the turn goes on until it is spent
    assert game.turn == 1 and game.to_act == "survivors" and game.pools["survivors"] == 1
    g.refused(EndActivations(), "must activate a figure")
    notes = g(Move("s1", to=(5, 2)), [4, 1, 1])
    assert notes[1:3] == ["End of turn 1", "Die: 4 (the survivors' action points)"]
    assert game.turn == 2
    g.finish()


def test_r1_a_forced_pass_keeps_the_ap_and_two_forced_passes_end_the_turn() -> None:
    # the zombie is 21.0 in from the nearest human: L73, no zombie may be activated
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 27)], [1, 2, 2])
    g = Golden(game)
    notes = g(Move("s1", to=(5, 4)))
    assert notes[-1] == "The zombies can activate no one: they pass (4 AP kept)"
    assert game.to_act == "survivors" and game.pools == {"survivors": 1, "zombies": 4}
    notes = g(Move("s1", to=(5, 3)), [3, 1, 1])  # L74: out of AP, the survivors must pass
    assert notes[1:4] == ["The zombies can activate no one: they pass (4 AP kept)",
                          "Both sides passed: the zombies' 4 AP left are lost", "End of turn 1"]
    assert game.turn == 2
    g.finish()


def test_r1_the_old_reading_stays_a_setting() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [2, 1, 1],
                 allow_pass=True)
    assert Pass() in game.legal_actions()
    assert english(game.apply(Pass())) == ["The survivors pass (3 AP kept)"]


# --- R2: katana and fronde always make their two attacks (L230, L233, L118) -------------------


def test_r2_an_enfant_strikes_twice_with_a_katana_for_one_ap() -> None:
    game = start([survivor("s1", "enfant", 5, 5, items={"katana": 1}),
                  zombie("z1", "rodeur", 5, UP), zombie("z2", "rodeur", 25, 25)], [6, 6, 6])
    g = Golden(game)
    assert Melee("s1", "z1", 1, "katana") in game.legal_actions()
    assert Melee("s1", "z1", 2, "katana") not in game.legal_actions()
    g.refused(Melee("s1", "z1", 2, "katana"),
              r"^Kid \(M/F\) rolls at most 2 attack dice with Katana \(A 1, two attacks for 1 "
              r"AP\), which 1 AP give; 2 AP would add none: spend 1 AP\.$",
              code="refusal.too_many_dice_weapon")
    # die 1: a natural 1 misses; die 2: 2 beats the Rôdeur's D2+; its save 6+ fails on a 3
    notes = g(Melee("s1", "z1", 1, "katana"), [1, 2, 3])
    assert notes[0] == "Kid (M/F) attacks Walker 1 with Katana (2 dice)"
    assert game.figures["z1"].status == "removed" and game.pools["survivors"] == 1 + 6 - 1
    g.finish()


def test_r2_a_racaille_spends_two_ap_on_three_katana_dice() -> None:
    game = start([survivor("s1", "racaille", 5, 5, items={"katana": 1}),
                  zombie("z1", "ignoble", 5, UP), zombie("z2", "rodeur", 25, 25)], [6, 6, 6])
    g = Golden(game)
    offered = [a for a in game.legal_actions() if isinstance(a, Melee) and a.weapon == "katana"]
    assert offered == [Melee("s1", "z1", 1, "katana"), Melee("s1", "z1", 2, "katana")]
    g.refused(Melee("s1", "z1", 3, "katana"), "at most 3 attack dice with Katana")
    notes = g(Melee("s1", "z1", 2, "katana"), [1, 3, 2])  # dice = min(2 x 2, max(3, 2)) = 3
    assert notes[0] == "Thug (M/F) attacks Abomination 1 with Katana (3 dice)"
    assert notes[-1] == "The survivors spent 2 AP at once: one zombie may react for 1 AP"
    g.finish()


def test_r2_within_attack_keeps_the_old_cap() -> None:
    game = start([survivor("s1", "enfant", 5, 5, items={"katana": 1}),
                  zombie("z1", "rodeur", 5, UP)], [6, 6, 6], two_attacks_per_ap="within_attack")
    assert not [a for a in game.legal_actions() if isinstance(a, Melee) and a.weapon]
    with pytest.raises(ValueError, match=r"rolls at most 1 attack dice \(A 1\); 1 AP would "
                       r"give 2"):
        game.apply(Melee("s1", "z1", 1, "katana"))


@pytest.mark.parametrize("setting", ["always", "within_attack"])
def test_r2_the_fronde_throws_two_stones_for_one_ap_whatever_a(setting: str) -> None:
    game = start([survivor("s1", "enfant", 5, 5, items={"fronde": 1}),
                  zombie("z1", "rodeur", 5, 9)], [6, 6, 6], two_attacks_per_ap=setting)
    g = Golden(game)
    assert Shoot("s1", "z1", "fronde") in game.legal_actions()
    notes = g(Shoot("s1", "z1", "fronde"), [1, 1])
    assert notes[0] == "Kid (M/F) shoots at Walker 1 with Slingshot (2 attacks)"
    g.finish()


# --- R3: chirurgien uses any friend's healing item (L183) ------------------------------------


def test_r3_the_medecin_raises_a_friend_with_an_item_carried_across_the_table() -> None:
    game = start([survivor("s1", "medecin", 5, 5, skill="chirurgien"),
                  survivor("s3", "geek", 5, UP, pv=0, status="down"),
                  survivor("s4", "ado_h", 25, 25, items={"soins": 1}),
                  zombie("z1", "rodeur", 20, 5)], [6, 6, 6])
    g = Golden(game)
    assert Heal("s1", "s3") in game.legal_actions()
    notes = g(Heal("s1", "s3"))
    assert notes == ["Doctor (M/F) heals Geek (M/F) with Teen (M)'s heals (back to 2 wounds)"]
    assert game.figures["s4"].units == {"soins": 4} and game.figures["s3"].status == "standing"
    g.finish()


# --- R4: out of action is not death (L86, L100, L117) ----------------------------------------


def test_r4_the_second_die_on_a_fallen_survivor_is_lost_and_it_can_be_contaminated() -> None:
    game = start([survivor("s1", "enfant", 5, 5, pv=1), survivor("s2", "bourrin", 15, 5),
                  zombie("z1", "slasher", 5, UP)], [6, 6, 6])
    g = Golden(game)
    g(Move("s2", to=(15, 4)))
    # die 1 hits (3 vs D3+), the save 5+ fails on a 2: down; die 2 is not rolled (L117)
    notes = g(Melee("z1", "s1", ap=2), [3, 2])
    assert notes[-1] == "Kid (M/F) is down"
    assert game.figures["s1"].status == "down" and game.pending[0].kind == "contaminate"
    g(Decline())  # L100: the zombie may contaminate at once; here it does not
    g(Move("s2", to=(15, 5)))
    assert not [a for a in game.legal_actions() if isinstance(a, Melee)]
    g.refused(Melee("z1", "s1"), r"^Kid \(M/F\) is down and cannot be attacked")
    g.refused(Contaminate("z1", "s1"), "A zombie contaminates only right after putting")
    g.finish()


# --- R5: panic when a friend falls within 4 in (L127) ----------------------------------------


def fall_scene(witness: str = "geek", skill: str | None = None, **settings: object) -> Golden:
    """s1 (PV 1) with z1 on it; the witness s2 is 3.0 in away, s3 4.5 in away; the survivors
    have made one move, so the zombies act."""
    game = start([survivor("s1", "enfant", 5, 5, pv=1),
                  survivor("s2", witness, 5 - TOUCH - 2.99, 5, skill=skill),
                  survivor("s3", "geek", 5 + TOUCH + 4.49, 5),
                  zombie("z1", "slasher", 5, UP)], [6, 6, 6], **settings)
    g = Golden(game)
    g(Move("s3", to=(5 + TOUCH + 4.49, 5)))
    return g


def test_r5_a_friend_put_out_of_action_3_in_away_causes_a_test() -> None:
    g = fall_scene()
    notes = g(Melee("z1", "s1"), [3, 2, 4])
    assert notes[-2:] == [
        "Geek (M/F) 2 rolls 4 (panic test on 5+: Kid (M/F) was put out of action within 4 in)",
        "Geek (M/F) 2 panics (Kid (M/F) was put out of action within 4 in): no action this "
        "turn, D -1"]
    assert g.game.figures["s2"].panicked and g.game.figures["s3"].panic_tests == 0
    g.finish()


def test_r5_a_contamination_is_a_second_fall() -> None:
    g = fall_scene()
    g(Melee("z1", "s1"), [3, 2, 6])  # s2 keeps calm
    notes = g(Contaminate("z1", "s1"), [3, 1, 5])  # contaminated (3 vs 3+, resist 1 < 4+)
    assert ("Geek (M/F) 2 rolls 5 (panic test on 5+: Kid (M/F) was contaminated within 4 in)"
            in notes)
    g.finish()


def test_r5_egoiste_and_the_old_trigger() -> None:
    notes = english(fall_scene("bimbo", "egoiste").game.apply(Melee("z1", "s1"), dice=[3, 2]))
    assert notes[-1] == "Bimbo (F) takes no panic test for a friend's death (Selfish)"
    notes = english(fall_scene(panic_friend_falls="death").game.apply(Melee("z1", "s1"),
                                                                      dice=[3, 2]))
    assert notes[-1] == "Kid (M/F) is down"  # only a death is tested


# --- R6: once per partie is once per campaign (L8, L107) -------------------------------------


def test_r6_once_per_game_skills_are_spent_for_the_whole_campaign_by_default() -> None:
    assert Settings().once_per_game_scope == "campaign"


# --- R7: a campaign is 3 or more scenarios (L7) ----------------------------------------------


def test_r7_two_scenarios_are_refused() -> None:
    with pytest.raises(CampaignError, match=r"a campaign has 3 to 7 scenarios \(the rulebook "
                       r"plays 3 or more"):
        draw_campaign(2)
    assert len(draw_campaign(3).scenarios) == 3


# --- D14: chanceuse's tie is the survivors player's to break ---------------------------------


def test_chanceuse_names_the_tied_zombie_taken() -> None:
    game = start([survivor("s1", "bimbo", 10, 10, skill="chanceux"),
                  zombie("z1", "rodeur", 10, 10 + TOUCH), zombie("z2", "rodeur", 10 + TOUCH, 10),
                  zombie("z3", "rodeur", 10 - TOUCH, 10), zombie("z4", "rodeur", 20, 20)],
                 [6, 6, 6])
    g = Golden(game)
    offered = [a for a in game.legal_actions() if isinstance(a, UseSkill)]
    assert offered == [UseSkill("s1", "chanceux")] + [
        UseSkill("s1", "chanceux", target=z) for z in ("z1", "z2", "z3")]  # all in contact
    g.refused(UseSkill("s1", "chanceux", target="z4"), r"^Name a zombie only to break a tie "
              r"for nearest: Walker 1, Walker 2, and Walker 3\.$", code="refusal.lucky_tie")
    notes = g(UseSkill("s1", "chanceux", target="z3"))
    assert [n.split(" is killed")[0] for n in notes] == ["Luck: Walker 3", "Luck: Walker 1"]
    assert game.figures["z2"].on_table and game.figures["z4"].on_table
    g.finish()
