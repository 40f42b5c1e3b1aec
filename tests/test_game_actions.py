"""Golden games for each action: move, door, shoot, melee, the 2-AP reaction, down and
contamination, heal, revive and carry; and the errors players get."""

from __future__ import annotations

import math

import pytest
from golden_helpers import TOUCH, Golden, at, d, door, start, survivor, wall, zombie

from rules.actions import (
    Carry,
    Contaminate,
    Decline,
    Door,
    EndActivations,
    Heal,
    Melee,
    Move,
    Pass,
    Revive,
    Shoot,
)
from rules.errors import IllegalActionError, InvalidActionError
from rules.resolve import defence_of

FAR = (18.0, 18.0)  # a zombie parked out of the way, within 20 in: the zombies can act


def far_zombie() -> object:
    return zombie("zf", "rodeur", *FAR)


# --- move ----------------------------------------------------------------------------------


def test_move_to_a_point_within_m() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [1, 1, 1])
    g = Golden(game)
    g.refused(Move("s1", to=(5, 10.1)), r"^\[5, 10\.1\] is 5\.10 in away along the shortest "
              r"route; Ex-flic \(H\) s1 moves 5 in$")
    notes = g(Move("s1", to=(5, 10)))
    assert notes == ["Ex-flic (H) s1 moves 5.00 in from (5.00, 5.00) to (5.00, 10.00)"]
    assert at(game, "s1") == (5.0, 10.0) and game.figures["s1"].moves == 1
    g.finish()


def test_move_toward_a_figure_stops_in_base_contact() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 4), zombie("z1", "rodeur", 8, 8)], [1, 1, 1])
    g = Golden(game)
    g(Move("s1", to=(5, 5)))
    notes = g(Move("z1", toward="s1"))  # 4.24 in centre to centre, 3.26 in edge to edge
    assert d(game, "z1", "s1") == pytest.approx(0.01)
    assert game.in_contact("z1", "s1")
    assert notes[0].startswith("Rôdeur z1 moves 3.25 in from (8.00, 8.00)")
    g.finish()


def test_move_toward_a_figure_out_of_reach_goes_m_inches() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [1, 1, 1])
    g = Golden(game)
    g(Move("s1", toward="z1"))
    assert at(game, "s1") == (5.0, 10.0)
    g.finish()


def test_third_move_lowers_defence() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "slasher", 5, 14)],
                 [6, 6, 6], allow_pass=True)
    g = Golden(game)
    s1 = game.figures["s1"]
    g(Move("s1", to=(5, 6)))
    g(Move("z1", to=(5, 13.5)))
    g(Move("s1", to=(5, 7)))
    g(Move("z1", to=(5, 13)))
    assert defence_of(s1) == 5
    notes = g(Move("s1", to=(5, 8)))
    assert notes == ["Ex-flic (H) s1 moves 1.00 in from (5.00, 7.00) to (5.00, 8.00), D now 4+"]
    assert s1.moves == 3 and defence_of(s1) == 4
    g(Move("z1", to=(5, 12.5)))
    g(Move("s1", to=(5, 9)))
    assert defence_of(s1) == 3  # the fourth move: -2
    g(Move("z1", toward="s1"))
    g(EndActivations())
    notes = g(Melee("z1", "s1"), [3, 6])
    assert notes[1:4] == ["rolls 3 (melee attack vs 3+, z1)", "rolls 6 (save 5+, s1)",
                          "Ex-flic (H) s1 saves the wound"]
    g.finish()


def test_move_around_a_wall() -> None:
    game = start([survivor("s1", "ex_flic_h", 6.5, 5), survivor("s2", "bourrin", 6.5, 9),
                  far_zombie()], [6, 6, 6], terrain=[wall("w", (8, 4), (8, 6))])
    g = Golden(game)
    route = game.space().path("s1", (9.5, 5))
    assert 4.0 < route.length < 5.0  # 3 in straight, but the wall is in the way
    moved = game.clone()
    g.refused(Move("s2", to=(9.5, 5)), "along the shortest route; Bourrin .* moves 4 in")
    notes = g(Move("s1", to=(9.5, 5)))
    assert notes[0].startswith(f"Ex-flic (H) s1 moves {route.length:.2f} in")
    assert moved.figures["s1"].centre == (6.5, 5)
    g.finish()


DOOR_SCENE = [wall("w1", (0, 10), (10, 10)), door("d1", (10, 10), (12, 10)),
              wall("w2", (12, 10), (31.4961, 10))]


def test_closed_door_blocks_and_the_door_action_opens_it() -> None:
    game = start([survivor("s1", "ex_flic_h", 11, 9.38), survivor("s2", "bourrin", 5, 5),
                  zombie("z1", "rodeur", 11, 14)], [6, 6, 6], terrain=DOOR_SCENE)
    g = Golden(game)
    g.refused(Move("s1", to=(11, 11)), "cannot reach")
    g.refused(Door("s2", "d1"), r"^Bourrin \(H\) s2 is .* in from door d1; touch it first$")
    g.refused(Door("s1", "w1"), "there is no door 'w1'")
    assert Door("s1", "d1") in game.legal_actions()
    assert game.legal_actions().count(Door("s1", "d1")) == 1
    notes = g(Door("s1", "d1"))
    assert notes == ["Ex-flic (H) s1 opens door d1"]
    assert game.pools["survivors"] == 2 + 6 - 1
    assert game.scene_json["terrain"][1]["open"] is True
    g.refused(Door("z1", "d1"), "zombies can only move, fight and contaminate")
    g(Move("z1", to=(11, 10.5)))  # through the open doorway
    g.refused(Door("s1", "d1"), "z1 stands in the doorway of d1")
    g(Move("s1", to=(11, 8)))
    g(Move("z1", to=(11, 11.5)))
    g(Move("s1", to=(11, 9.38)))
    g(Move("z1", to=(11, 12)))
    assert g(Door("s1", "d1")) == ["Ex-flic (H) s1 closes door d1"]
    g.refused(Move("z1", to=(11, 10.5)), "cannot reach")
    g.finish()


# --- shoot ---------------------------------------------------------------------------------


def gunner(x: float = 5, y: float = 5, skill: str = "combattant", **items: int) -> object:
    return survivor("s1", "ex_flic_h", x, y, skill=skill,
                    items=items or {"pistolet": 1, "balles": 1})


def test_shooting_needs_sight_and_range() -> None:
    game = start([gunner(), zombie("z1", "rodeur", 5, 27.5), zombie("z2", "rodeur", 9, 9)],
                 [6, 6, 6], terrain=[wall("w", (7, 3), (7, 14))])
    g = Golden(game)
    g.refused(Shoot("s1", "z2", "pistolet"), r"^z2 is not in sight within 20 in$")
    g.refused(Shoot("s1", "z1", "pistolet"), r"^z1 is not in sight within 20 in$")  # 21.5 in
    assert [a for a in game.legal_actions() if isinstance(a, Shoot)] == []
    g.refused(Shoot("s1", "z2", "fusil"), r"^Ex-flic \(H\) s1 carries no fusil$")
    g.refused(Shoot("s1", "z2", "balles"), r"^balles is not a shooting or throwing weapon$")
    g.refused(Shoot("s1", "z2", "bazooka"), r"^no weapon is called 'bazooka'$")
    g.finish()


def test_target_priority_nearest_or_threatening() -> None:
    game = start([gunner(), survivor("s2", "bourrin", 15, 5),
                  zombie("z1", "rodeur", 5, 10), zombie("z2", "rodeur", 15, 7.5),
                  zombie("z3", "rodeur", 5, 16)], [6, 6, 6])
    g = Golden(game)
    g.refused(Shoot("s1", "z3", "pistolet"),
              r"^z3 is not a legal target: shoot the nearest zombie \(z1\) or one within 2 in "
              r"of a survivor \(z2\)$")
    shots = {a.target for a in game.legal_actions() if isinstance(a, Shoot)}
    assert shots == {"z1", "z2"}  # z2 is 1.5 in from s2: it threatens a survivor
    notes = g(Shoot("s1", "z2", "pistolet"), [4, 2])
    assert notes == ["Ex-flic (H) s1 shoots Rôdeur z2 with the pistolet (1 attack)",
                     "rolls 4 (shoot attack vs 2+, s1)", "rolls 2 (save 5+, z2)",
                     "Ex-flic (H) s1 kills Rôdeur z2"]
    assert game.figures["z2"].status == "removed" and game.pools["survivors"] == 7
    g.finish()


def test_rifle_costs_two_ap_and_uses_rounds() -> None:
    game = start([gunner(fusil=1, balles=1), zombie("z1", "ignoble", 5, 24)], [6, 2, 3],
                 two_ap_reaction="off")
    g = Golden(game)
    notes = g(Shoot("s1", "z1", "fusil"), [3])
    assert notes[-1] == "Ex-flic (H) s1 misses Ignoble z1"  # no bonus: 3 < 4+
    assert game.pools == {"survivors": 7 - 2, "zombies": 5}
    assert game.figures["s1"].units == {"balles": 9}
    g.finish()


def test_ammunition_runs_out_and_the_empty_item_is_discarded() -> None:
    s1 = gunner()
    s1.units["balles"] = 1
    game = start([s1, zombie("z1", "ignoble", 5, 20), zombie("z2", "ignoble", 9, 24)],
                 [6, 6, 6])
    g = Golden(game)
    g(Shoot("s1", "z1", "pistolet"), [4, 6])  # 4 + 1 hits the 4+; the 6 saves
    assert game.figures["s1"].items == {"pistolet": 1}
    assert game.figures["s1"].units == {}
    g(Move("z1", to=(5, 17)))
    g.refused(Shoot("s1", "z1", "pistolet"),
              r"^Ex-flic \(H\) s1 has no ammunition left for the pistolet$")
    g.finish()


def test_track_ammunition_off_needs_no_rounds() -> None:
    game = start([gunner(pistolet=1), zombie("z1", "rodeur", 5, 20)], [6, 6, 6],
                 track_ammunition=False)
    g = Golden(game)
    g(Shoot("s1", "z1", "pistolet"), [1])
    g.finish()


@pytest.mark.parametrize(("roll", "weapon", "skill", "hit"), [
    (3, "pistolet", "combattant", True),   # 3 + 1 (pistolet) >= 4
    (3, "arc", "combattant", False),       # no bonus
    (3, "arc", "tireur_emerite", True),    # tireur émérite +1
    (2, "pistolet", "tireur_emerite", True),
    (1, "pistolet", "tireur_emerite", False),  # a natural 1 always fails
    (6, "arc", "combattant", True),
])
def test_shooting_roll_bonuses(roll: int, weapon: str, skill: str, hit: bool) -> None:
    ammo = {"pistolet": "balles", "arc": "fleches"}[weapon]
    game = start([gunner(skill=skill, **{weapon: 1, ammo: 1}), zombie("z1", "ignoble", 5, 12)],
                 [6, 6, 6])
    g = Golden(game)
    notes = g(Shoot("s1", "z1", weapon), [roll, 4] if hit else [roll])
    assert notes[1] == f"rolls {roll} (shoot attack vs 4+, s1)"
    assert game.figures["z1"].on_table is not hit
    g.finish()


def test_bon_viseur_adds_one() -> None:
    game = start([survivor("s1", "ado_h", 5, 5, skill="bon_viseur",
                           items={"arc": 1, "fleches": 1}), zombie("z1", "ignoble", 5, 12)],
                 [6, 6, 6])
    g = Golden(game)
    g(Shoot("s1", "z1", "arc"), [3, 5])  # 3 + 1 hits the 4+; the zombie saves on 5
    assert game.figures["z1"].on_table
    g.finish()


@pytest.mark.parametrize(("save", "kept"), [(4, False), (5, True), (6, True), (1, False)])
def test_zombie_saves_shooting_on_5(save: int, kept: bool) -> None:
    game = start([gunner(), zombie("z1", "rodeur", 5, 12), far_zombie()], [6, 6, 6])
    g = Golden(game)
    notes = g(Shoot("s1", "z1", "pistolet"), [5, save])
    assert notes[2] == f"rolls {save} (save 5+, z1)"
    assert game.figures["z1"].on_table is kept
    g.finish()


def test_fronde_two_dice_per_ap_and_no_ammunition() -> None:
    game = start([gunner(fronde=1), zombie("z1", "ignoble", 5, 9), far_zombie()], [6, 6, 6])
    g = Golden(game)
    notes = g(Shoot("s1", "z1", "fronde"), [2, 5, 6])  # miss; hit and the 6 saves
    assert notes[0] == "Ex-flic (H) s1 shoots Ignoble z1 with the fronde (2 attacks)"
    assert game.pools["survivors"] == 7 - 1 and game.figures["z1"].on_table
    g(Move("z1", to=(5, 8)))
    notes = g(Shoot("s1", "z1", "fronde"), [5, 1])  # the first kills: the second is lost
    assert notes[-1] == "Ex-flic (H) s1 kills Ignoble z1"
    g(Move("zf", to=(18, 17)))
    g.refused(Shoot("s1", "zf", "fronde"), "not in sight within 5 in")
    g.finish()


def test_molotov_two_cocktails_per_ap_and_the_second_one_retargeted() -> None:
    game = start([survivor("s1", "anarchiste", 5, 5, skill="molotov",
                           items={"cocktail_molotov": 2}),
                  zombie("z1", "rodeur", 5, 8), zombie("z2", "rodeur", 7, 8), far_zombie()],
                 [6, 6, 6])
    g = Golden(game)
    assert game.figures["s1"].units == {"cocktail_molotov": 4}
    notes = g(Shoot("s1", "z1", "cocktail_molotov"), [2, 3])  # 2 + 1 hits the 2+, kills
    assert notes[0] == ("Anarchiste (H/F) s1 shoots Rôdeur z1 with the cocktail_molotov "
                        "(2 attacks)")
    assert game.pending == [{"kind": "throw_again", "figure": "s1", "weapon": "cocktail_molotov",
                             "dice": 1, "side": "survivors"}]
    assert game.figures["s1"].units == {"cocktail_molotov": 3}
    assert game.legal_actions() == [Shoot("s1", "z2", "cocktail_molotov"), Decline()]
    g.refused(Move("s1", to=(5, 4)), "may throw its other cocktail_molotov")
    notes = g(Shoot("s1", "z2", "cocktail_molotov"), [5, 6])
    assert notes[:2] == ["Anarchiste (H/F) s1 throws again at Rôdeur z2",
                         "rolls 5 (shoot attack vs 2+, s1)"]
    assert game.pools["survivors"] == 7 - 1 and game.to_act == "zombies"
    assert game.figures["s1"].items == {"cocktail_molotov": 1}
    assert game.figures["s1"].units == {"cocktail_molotov": 2}
    g(Move("z2", to=(7, 7)))
    g(Shoot("s1", "z2", "cocktail_molotov"), [1, 1])
    assert game.figures["s1"].items == {} and game.figures["s1"].units == {}
    g.finish()


def test_a_cocktail_without_the_molotov_skill_is_one_per_ap() -> None:
    game = start([survivor("s1", "anarchiste", 5, 5, skill="violent",
                           items={"cocktail_molotov": 1}),
                  zombie("z1", "rodeur", 5, 8), far_zombie()], [6, 6, 6])
    g = Golden(game)
    notes = g(Shoot("s1", "z1", "cocktail_molotov"), [1])
    assert notes[0].endswith("(1 attack)") and game.figures["s1"].units == {"cocktail_molotov": 1}
    g.finish()


# --- melee ---------------------------------------------------------------------------------

UP = 5 + TOUCH  # y of a base in contact with one at (5, 5)


def fighter(archetype: str = "militaire_h", skill: str = "heroique", **items: int) -> object:
    return survivor("s1", archetype, 5, 5, skill=skill, items=items)


def test_melee_needs_base_contact_or_reach() -> None:
    game = start([fighter(baton=1, barre_de_fer=1), zombie("z1", "rodeur", 5, UP + 0.9),
                  far_zombie()], [6, 6, 6])
    g = Golden(game)
    g.refused(Melee("s1", "z1"), r"^Rôdeur z1 is 0\.91 in away; melee needs base contact$")
    g.refused(Melee("s1", "s1"), "'s1' is not an enemy on the table")
    g.refused(Melee("s1", "z1", weapon="katana"), "carries no katana")
    notes = g(Melee("s1", "z1", weapon="baton"), [1])
    assert notes[:2] == ["Militaire (H) s1 attacks Rôdeur z1 (1 dice)",
                         "rolls 1 (melee attack vs 2+, s1)"]
    g(Move("zf", to=(18, 19)))
    g(Melee("s1", "z1", ap=2, weapon="barre_de_fer"), [2, 6])  # 1 die for 2 AP; saved on 6
    g.finish()


def test_melee_dice_capped_by_attack() -> None:
    game = start([fighter(katana=1, barre_de_fer=1), zombie("z1", "ignoble", 5, UP),
                  far_zombie()], [6, 6, 6])
    g = Golden(game)
    g.refused(Melee("s1", "z1", ap=5),
              r"^Militaire \(H\) s1 rolls at most 4 attack dice \(A\); 5 AP would give 5$")
    # L230 "deux attaques pour 1PA", L118 A caps the dice (R2): 2 AP give A4's 4 dice
    g.refused(Melee("s1", "z1", ap=3, weapon="katana"),
              r"at most 4 attack dice with the katana \(A 4, two attacks for 1 AP\), which 2 AP "
              r"give; 3 AP would add none$")
    g.refused(Melee("s1", "z1", ap=3, weapon="barre_de_fer"),
              "a barre_de_fer attack costs 2 AP per die; spend a multiple of 2")
    g.refused({"type": "melee", "figure": "s1", "target": "z1", "ap": 0}, "action.ap",
              InvalidActionError)
    notes = g(Melee("s1", "z1", ap=2, weapon="katana"), [1, 3, 2, 4, 5])
    assert notes[0] == "Militaire (H) s1 attacks Ignoble z1 (4 dice)"
    assert notes[-3:] == ["rolls 5 (save 6+, z1)", "Militaire (H) s1 kills Ignoble z1",
                          "the survivors spent 2 AP at once: one zombie may react for 1 AP"]
    assert game.pools["survivors"] == 7 - 2
    g.finish()


@pytest.mark.parametrize(("setting", "ap", "ok"), [("one", 1, True), ("one", 2, False),
                                                   ("attack", 4, True)])
def test_melee_ap_cap_setting(setting: str, ap: int, ok: bool) -> None:
    game = start([fighter(), zombie("z1", "ignoble", 5, UP), far_zombie()], [6, 6, 6],
                 melee_ap_cap=setting, two_ap_reaction="off")
    g = Golden(game)
    if ok:
        g(Melee("s1", "z1", ap=ap), [1] * ap)
    else:
        g.refused(Melee("s1", "z1", ap=ap), "one attack per activation")


@pytest.mark.parametrize(("save", "kept"), [(5, False), (6, True)])
def test_zombie_saves_melee_on_6(save: int, kept: bool) -> None:
    game = start([fighter(), zombie("z1", "slasher", 5, UP), far_zombie()], [6, 6, 6])
    g = Golden(game)
    notes = g(Melee("s1", "z1"), [3, save])
    assert notes[1:3] == ["rolls 3 (melee attack vs 3+, s1)", f"rolls {save} (save 6+, z1)"]
    assert game.figures["z1"].on_table is kept
    g.finish()


@pytest.mark.parametrize(("items", "skill", "rolls", "pv"), [
    ({}, "heroique", [4, 4], 9),                          # hit 4+ (D4 ... Bourrin), save 5+ fails
    ({}, "heroique", [4, 5], 10),                         # saved on 5
    ({"couvercle_de_poubelle": 1}, "heroique", [4, 4], 10),  # bin lid: saves on 4+
    ({"couvercle_de_poubelle": 1}, "heroique", [4, 1], 9),   # natural 1 fails even so
    ({"protection": 1}, "heroique", [4], 10),             # armour: D 5+, the 4 misses
    ({"protection": 1}, "heroique", [5, 2], 9),
])
def test_survivor_melee_save_and_protections(items: dict[str, int], skill: str,
                                             rolls: list[int], pv: int) -> None:
    game = start([survivor("s1", "militaire_h", 5, 5, skill=skill, items=items, defense=4),
                  zombie("z1", "rodeur", 5, UP)], [6, 6, 6], allow_pass=True)
    g = Golden(game)
    g(EndActivations())
    g(Melee("z1", "s1"), rolls)
    assert game.figures["s1"].pv == pv
    g.finish()


def test_protection_effects_cosmetic() -> None:
    game = start([survivor("s1", "bourrin", 5, 5, skill="cogneur",
                           items={"protection": 1, "couvercle_de_poubelle": 1}),
                  zombie("z1", "rodeur", 5, UP)], [6, 6, 6], protection_effects="cosmetic",
                 allow_pass=True)
    g = Golden(game)
    g(EndActivations())
    notes = g(Melee("z1", "s1"), [4, 4])
    assert notes[1:3] == ["rolls 4 (melee attack vs 4+, z1)", "rolls 4 (save 5+, s1)"]
    assert game.figures["s1"].pv == 9
    g.finish()


def test_combattant_rerolls_a_failed_melee_save() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, skill="combattant"),
                  zombie("z1", "ignoble", 5, UP)], [6, 6, 6], allow_pass=True)
    g = Golden(game)
    g(EndActivations())
    notes = g(Melee("z1", "s1", ap=2), [5, 2, 5, 6, 2, 3])
    assert notes[1:8] == [
        "rolls 5 (melee attack vs 5+, z1)", "rolls 2 (save 5+, s1)",
        "rolls 5 (save re-roll 5+, s1)", "Ex-flic (H) s1 saves the wound",
        "rolls 6 (melee attack vs 5+, z1)", "rolls 2 (save 5+, s1)",
        "rolls 3 (save re-roll 5+, s1)"]
    assert game.figures["s1"].pv == 7
    g.finish()


def test_cogneur_adds_one_in_melee() -> None:
    game = start([survivor("s1", "bourrin", 5, 5, skill="cogneur"),
                  zombie("z1", "ignoble", 5, UP), far_zombie()], [6, 6, 6])
    g = Golden(game)
    g(Melee("s1", "z1"), [3, 5])  # 3 + 1 hits the 4+; 5 does not save (6+)
    assert not game.figures["z1"].on_table
    g.finish()


@pytest.mark.parametrize(("gap", "hit"), [(3.0, False), (4.9, False), (5.0, True), (8.0, True)])
def test_rien_a_perdre_when_no_friend_less_than_5_in_away(gap: float, hit: bool) -> None:
    game = start([survivor("s1", "pere", 5, 5, skill="rien_a_perdre"),
                  survivor("s2", "bourrin", 5, 5 + TOUCH - 0.01 + gap),
                  zombie("z1", "ignoble", 5 + TOUCH, 5), far_zombie()], [6, 6, 6])
    assert d(game, "s1", "s2") == pytest.approx(gap)
    g = Golden(game)
    g(Melee("s1", "z1"), [3, 1] if hit else [3])  # 3 + 1 hits the 4+ when alone
    assert game.figures["z1"].on_table is not hit
    g.finish()


def test_rien_a_perdre_ignores_down_friends_and_civilians() -> None:
    from rules.figures import civilian

    game = start([survivor("s1", "pere", 5, 5, skill="rien_a_perdre"),
                  survivor("s2", "bourrin", 5, 7, pv=0, status="down"), civilian("c1", 7, 5),
                  zombie("z1", "ignoble", 5 + TOUCH, 5), far_zombie()], [6, 6, 6])
    g = Golden(game)
    g(Melee("s1", "z1"), [3, 1])
    assert not game.figures["z1"].on_table
    g.finish()


def test_vengeur_attacks_again_when_the_zombie_saves() -> None:
    game = start([survivor("s1", "pere", 5, 5, skill="vengeur"), zombie("z1", "rodeur", 5, UP),
                  far_zombie()], [6, 6, 6])
    g = Golden(game)
    notes = g(Melee("s1", "z1", ap=2), [2, 6, 4, 6, 5, 3])
    # die 1: hit, saved (6), vengeur die: hit, saved again: no third go
    # die 2: hit, the save (3) fails
    assert notes[1:] == [
        "rolls 2 (melee attack vs 2+, s1)", "rolls 6 (save 6+, z1)",
        "rolls 4 (melee attack vs 2+, s1)", "rolls 6 (save 6+, z1)", "Rôdeur z1 saves the wound",
        "rolls 5 (melee attack vs 2+, s1)", "rolls 3 (save 6+, z1)", "Père (H) s1 kills Rôdeur z1",
        "the survivors spent 2 AP at once: one zombie may react for 1 AP"]
    g.finish()


def test_robuste_ignores_the_first_wound_of_the_game() -> None:
    game = start([survivor("s1", "bourrin", 5, 5, skill="robuste"),
                  zombie("z1", "ignoble", 5, UP)], [6, 6, 6], allow_pass=True)
    g = Golden(game)
    g(EndActivations())
    notes = g(Melee("z1", "s1", ap=2), [4, 1, 4, 2])
    assert notes[3] == "Bourrin (H) s1 shrugs off the first wound (robuste)"
    assert notes[6] == "Bourrin (H) s1 loses 1 PV (9 left)"
    assert game.figures["s1"].pv == 9 and game.figures["s1"].wounds_ignored == 1
    g.finish()


def test_violent_hits_back_once_after_the_attack_at_minus_one() -> None:
    game = start([survivor("s1", "bourrin", 5, 5, skill="violent", items={"barre_de_fer": 1}),
                  zombie("z1", "ignoble", 5, UP), far_zombie()], [6, 6, 6], allow_pass=True)
    g = Golden(game)
    g(EndActivations())
    notes = g(Melee("z1", "s1", ap=2), [4, 1, 5, 2, 4, 5])
    assert notes[1:] == [
        "rolls 4 (melee attack vs 4+, z1)", "rolls 1 (save 5+, s1)",
        "Bourrin (H) s1 loses 1 PV (9 left)",
        "rolls 5 (melee attack vs 4+, z1)", "rolls 2 (save 5+, s1)",
        "Bourrin (H) s1 loses 1 PV (8 left)",
        "Bourrin (H) s1 hits back (violent, -1)",
        "rolls 4 (melee attack vs 4+, s1)",   # 4 + 1 (barre de fer) - 1 hits
        "rolls 5 (save 6+, z1)", "Bourrin (H) s1 kills Ignoble z1"]
    g.finish()


def test_violent_does_not_answer_a_free_attack() -> None:
    game = start([survivor("s1", "bourrin", 5, 5, skill="violent"),
                  zombie("z1", "ignoble", 5, UP), far_zombie()], [6, 6, 6])
    g = Golden(game)
    notes = g(Move("s1", to=(5, 3)), [4, 1])
    assert notes[:4] == [
        "Bourrin (H) s1 leaves the melee: Ignoble z1 strikes first",
        "rolls 4 (melee attack vs 4+, z1)", "rolls 1 (save 5+, s1)",
        "Bourrin (H) s1 loses 1 PV (9 left)"]
    assert notes[4] == "Bourrin (H) s1 moves 2.00 in from (5.00, 5.00) to (5.00, 3.00)"
    g.finish()


# --- leaving a melee ------------------------------------------------------------------------


def test_leaving_a_melee_gives_each_enemy_a_free_attack() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, skill="combattant"),
                  zombie("z1", "rodeur", 5, UP), zombie("z2", "slasher", 5 + TOUCH, 5)],
                 [6, 6, 6])
    g = Golden(game)
    notes = g(Move("s1", to=(3, 3)), [4, 5, 2, 2])
    assert notes == [
        "Ex-flic (H) s1 leaves the melee: Rôdeur z1 strikes first",
        "rolls 4 (melee attack vs 5+, z1)", "Rôdeur z1 misses Ex-flic (H) s1",
        "Ex-flic (H) s1 leaves the melee: Slasher z2 strikes first",
        "rolls 5 (melee attack vs 5+, z2)", "rolls 2 (save 5+, s1)",
        "rolls 2 (save re-roll 5+, s1)", "Ex-flic (H) s1 loses 1 PV (7 left)",
        "Ex-flic (H) s1 moves 2.83 in from (5.00, 5.00) to (3.00, 3.00)"]
    g.finish()


def test_sliding_round_an_enemy_in_contact_is_not_leaving() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, UP)], [6, 6, 6])
    g = Golden(game)
    spot = (5 + TOUCH * math.sin(0.6), UP - TOUCH * math.cos(0.6))
    notes = g(Move("s1", to=spot))
    assert len(notes) == 1 and notes[0].startswith("Ex-flic (H) s1 moves 0.")
    assert game.in_contact("s1", "z1")
    g.finish()


@pytest.mark.parametrize(("skill", "setting"), [("agile", True), ("sprinter", False)])
def test_agile_or_the_setting_leave_without_free_attacks(skill: str, setting: bool) -> None:
    game = start([survivor("s1", "ado_h", 5, 5, skill=skill), zombie("z1", "rodeur", 5, UP)],
                 [6, 6, 6], leave_melee_free_attack=setting)
    g = Golden(game)
    notes = g(Move("s1", to=(5, 3)))
    assert notes == ["Ado (H) s1 moves 2.00 in from (5.00, 5.00) to (5.00, 3.00)"]
    g.finish()


def test_a_zombie_leaving_a_melee_suffers_the_free_attack_too() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, items={"barre_de_fer": 1}),
                  survivor("s2", "bimbo", 9, 5), zombie("z1", "ignoble", 5, UP)], [6, 6, 6])
    g = Golden(game)
    g(Move("s2", to=(9, 4)))
    notes = g(Move("z1", toward="s2"), [3, 5])  # 3 + 1 (barre de fer) hits the 4+; 5 < 6
    assert notes == ["Ignoble z1 leaves the melee: Ex-flic (H) s1 strikes first",
                     "rolls 3 (melee attack vs 4+, s1)", "rolls 5 (save 6+, z1)",
                     "Ex-flic (H) s1 kills Ignoble z1",
                     "game over: survivors win (no zombie is left on the table)"]
    assert at(game, "z1") == (5.0, round(UP, 2))  # removed where it stood
    assert game.outcome is not None and game.outcome["winner"] == "survivors"
    g.finish()


def test_a_figure_downed_by_a_free_attack_does_not_move_and_is_not_contaminated() -> None:
    game = start([survivor("s1", "enfant", 5, 5, pv=1), survivor("s2", "bourrin", 12, 5),
                  zombie("z1", "rodeur", 5, UP)], [6, 6, 6])
    g = Golden(game)
    notes = g(Move("s1", to=(5, 3)), [3, 4])
    assert notes[-1] == "Enfant (H/F) s1 is down"
    assert at(game, "s1") == (5.0, 5.0) and game.figures["s1"].status == "down"
    assert game.pending == [] and game.to_act == "zombies"
    g.finish()


# --- the 2-AP reaction (D6) -----------------------------------------------------------------


def rifle_scene(**settings: object) -> Golden:
    game = start([survivor("s1", "militaire_h", 5, 5, skill="heroique",
                           items={"fusil": 1, "balles": 1}),
                  zombie("z1", "rodeur", 5, 15), zombie("z2", "rodeur", 8, 8)], [6, 2, 3],
                 **settings)
    return Golden(game)


def test_after_a_two_ap_action_one_zombie_may_react() -> None:
    g = rifle_scene()
    game = g.game
    notes = g(Shoot("s1", "z2", "fusil"), [2, 6])
    assert notes[-1] == "the survivors spent 2 AP at once: one zombie may react for 1 AP"
    assert game.pending == [{"kind": "reaction", "side": "zombies"}]
    assert game.current_side() == "zombies" and game.pools == {"survivors": 5, "zombies": 5}
    assert Decline() in game.legal_actions()
    assert all(a.ap == 1 for a in game.legal_actions() if isinstance(a, Melee))
    g.refused(Move("s1", to=(5, 4)), r"is not a zombie")
    g.refused(Melee("z2", "s1", ap=2), "the reaction is a 1-AP activation")
    notes = g(Move("z2", toward="s1"))
    assert game.pending == [] and game.to_act == "zombies"  # then their normal activation
    assert game.pools["zombies"] == 4
    g(Melee("z2", "s1"), [1])
    assert game.to_act == "survivors"
    g.finish()


def test_the_reaction_may_be_declined() -> None:
    g = rifle_scene()
    g(Shoot("s1", "z2", "fusil"), [1])
    assert g(Decline()) == ["zombies let the reaction pass"]
    assert g.game.to_act == "zombies" and g.game.pools["zombies"] == 5
    g.refused(Decline(), "there is nothing to decline now")
    g.finish()


def test_reaction_before_the_action_resolves() -> None:
    g = rifle_scene(two_ap_reaction="before")
    game = g.game
    notes = g(Shoot("s1", "z2", "fusil"))
    assert notes == ["the survivors commit 2 AP: one zombie may react for 1 AP before it "
                     "resolves"]
    assert game.pools["survivors"] == 5 and game.figures["s1"].units == {"balles": 10}
    notes = g(Move("z2", toward="s1"), [3, 2])  # now the shot: hits, the save fails
    assert notes[1:] == ["Militaire (H) s1 shoots Rôdeur z2 with the fusil (1 attack)",
                         "rolls 3 (shoot attack vs 2+, s1)", "rolls 2 (save 5+, z2)",
                         "Militaire (H) s1 kills Rôdeur z2"]
    assert game.to_act == "zombies" and game.pools == {"survivors": 5, "zombies": 4}
    g.finish()


def test_reaction_before_can_spoil_the_action() -> None:
    game = start([survivor("s1", "militaire_h", 5, 5, skill="heroique",
                           items={"fusil": 1, "balles": 1}),
                  zombie("z1", "rodeur", 5, 9), zombie("z2", "rodeur", 10, 5)], [6, 2, 3],
                 two_ap_reaction="before")
    g = Golden(game)
    g(Shoot("s1", "z1", "fusil"))
    notes = g(Move("z2", toward="s1"))  # z2 is now the nearest: z1 is no longer legal
    assert notes[-1] == ("Militaire (H) s1 can no longer do it: z1 is not a legal target: "
                         "shoot the nearest zombie (z2); no other zombie is within 2 in of a "
                         "survivor")
    assert game.pools["survivors"] == 5 and game.figures["s1"].units == {"balles": 10}
    g.finish()


def test_no_reaction_when_off() -> None:
    g = rifle_scene(two_ap_reaction="off")
    g(Shoot("s1", "z2", "fusil"), [1])
    assert g.game.pending == [] and g.game.to_act == "zombies"
    g.finish()


def test_no_reaction_with_an_empty_zombie_pool() -> None:
    game = start([survivor("s1", "militaire_h", 5, 5, skill="heroique",
                           items={"fusil": 1, "balles": 1}),
                  zombie("z1", "rodeur", 5, 15)], [6, 1, 1])
    g = Golden(game)
    g(Move("s1", to=(5, 4)))
    g(Move("z1", to=(5, 14)))
    g(Move("s1", to=(5, 5)))
    g(Move("z1", to=(5, 13)))
    assert game.pools == {"survivors": 5, "zombies": 0}
    g(Shoot("s1", "z1", "fusil"), [1])
    assert game.pending == [] and game.to_act == "survivors"
    g.finish()


@pytest.mark.parametrize(("scope", "act", "dice", "reacts"), [
    ("two_or_more", Melee("s1", "z2", ap=2), [1, 1], True),
    ("fixed_cost", Melee("s1", "z2", ap=2), [1, 1], False),
    ("fixed_cost", Melee("s1", "z2", ap=2, weapon="barre_de_fer"), [1], True),
    ("fixed_cost", Shoot("s1", "z2", "fusil"), [1], True),
])
def test_two_ap_reaction_scope(scope: str, act: Melee | Shoot, dice: list[int],
                               reacts: bool) -> None:
    game = start([survivor("s1", "militaire_h", 5, 5, skill="heroique",
                           items={"fusil": 1, "balles": 1, "barre_de_fer": 1}),
                  zombie("z2", "ignoble", 5, UP), far_zombie()], [6, 2, 3],
                 two_ap_reaction_scope=scope)
    g = Golden(game)
    g(act, dice)
    assert bool(game.pending) is reacts
    g.finish()


def test_a_reactivation_of_two_ap_earns_its_own_reaction() -> None:
    game = start([survivor("s1", "ex_flic_f", 5, 5, skill="tireur_rapide",
                           items={"pistolet": 1, "fusil": 1, "balles": 1}),
                  zombie("z1", "rodeur", 5, 10), zombie("z2", "rodeur", 9, 12)], [6, 2, 3])
    g = Golden(game)
    g(Shoot("s1", "z1", "pistolet"), [3, 2])
    assert game.pending == [{"kind": "reactivate", "figure": "s1", "action": "shoot",
                             "side": "survivors"}]
    g.refused(Melee("s1", "z2"), "now s1 may shoot again")
    notes = g(Shoot("s1", "z2", "fusil"), [1])
    assert notes[-1] == "the survivors spent 2 AP at once: one zombie may react for 1 AP"
    assert game.pending == [{"kind": "reaction", "side": "zombies"}]
    assert game.pools == {"survivors": 7 - 3, "zombies": 5}
    g(Decline())
    assert game.to_act == "zombies"
    g.finish()


# --- down, death and contamination ----------------------------------------------------------


def test_a_survivor_at_zero_pv_is_down_and_may_be_contaminated() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, skill="combattant", pv=1),
                  survivor("s2", "bourrin", 15, 5), zombie("z1", "ignoble", 5, UP)], [6, 6, 6])
    g = Golden(game)
    g(Move("s2", to=(15, 4)))
    notes = g(Melee("z1", "s1"), [5, 1, 4])
    assert notes[-2:] == ["Ex-flic (H) s1 loses 1 PV (0 left)", "Ex-flic (H) s1 is down"]
    s1 = game.figures["s1"]
    assert (s1.status, s1.pv, s1.downed_by) == ("down", 0, "z1")
    assert game.pending == [{"kind": "contaminate", "figure": "z1", "target": "s1",
                             "side": "zombies"}]
    assert game.legal_actions() == [Contaminate("z1", "s1"), Decline()]
    g.refused(Move("z1", to=(5, 7)), "now z1 may contaminate s1")
    notes = g(Contaminate("z1", "s1"), [5, 1])
    assert notes == [
        "rolls 5 (contaminate vs 5+, z1)", "rolls 1 (resist contamination 4+, s1)",
        "Ex-flic (H) s1 is contaminated and rises as an Ignoble"]
    assert game.pools["zombies"] == 12 - 2
    s1 = game.figures["s1"]  # (a failed try restores the figures: fetch them again)
    assert (s1.side, s1.kind, s1.name, s1.origin, s1.status) == (
        "zombies", "ignoble", "Ignoble", "ex_flic_h", "standing")
    assert (s1.move, s1.attack, s1.defense, s1.skills, s1.items, s1.units) == (
        4, 2, 4, [], {}, {})
    assert game.outcome is None and game.to_act == "survivors"
    g(Move("s2", to=(15, 5)))
    g(Move("s1", toward="s2"))  # the new zombie acts at once
    g.finish()


@pytest.mark.parametrize(("archetype", "becomes"), [
    ("racaille", "Ignoble"), ("geek", "Slasher"), ("junkie", "Rôdeur")])
def test_contaminated_class_becomes_its_zombie(archetype: str, becomes: str) -> None:
    game = start([survivor("s1", archetype, 5, 5, pv=1), survivor("s2", "bourrin", 15, 5),
                  zombie("z1", "slasher", 5, UP)], [6, 6, 6])
    g = Golden(game)
    g(Move("s2", to=(15, 4)))
    g(Melee("z1", "s1"), [6, 1])
    notes = g(Contaminate("z1", "s1"), [6, 1])
    article = "an" if becomes == "Ignoble" else "a"
    assert notes[-1].endswith(f"s1 is contaminated and rises as {article} {becomes}")
    assert game.figures["s1"].name == becomes and game.figures["s1"].is_zombie
    english = {"Ignoble": "Abomination", "Slasher": "Slasher", "Rôdeur": "Walker"}[becomes]
    assert game.figures["s1"].name_en == english
    g.finish()


def test_contamination_resisted_or_missed() -> None:
    game = start([survivor("s1", "enfant", 5, 5, pv=1, items={"casque": 1}),
                  survivor("s2", "bourrin", 15, 5), zombie("z1", "slasher", 5, UP)], [6, 6, 6],
                 down_survivor_death="unsaved_wound")
    g = Golden(game)
    g(Move("s2", to=(15, 4)))
    g(Melee("z1", "s1"), [3, 2])
    notes = g(Contaminate("z1", "s1"), [3, 3])  # casque: 3 + 1 resists on 4+
    assert notes[-1] == "Enfant (H/F) s1 resists the contamination and stays down"
    assert game.figures["s1"].status == "down" and game.figures["s1"].side == "survivors"
    g(Move("s2", to=(15, 5)))
    g.refused(Contaminate("z1", "s1"), "a zombie contaminates only right after putting")
    g(Melee("z1", "s1"), [4, 4])  # an unsaved wound kills a down survivor
    assert game.figures["s1"].status == "dead"
    g.finish()


def test_the_contamination_roll_can_miss_and_the_window_be_declined() -> None:
    game = start([survivor("s1", "enfant", 5, 5, pv=1), survivor("s2", "bourrin", 15, 5),
                  zombie("z1", "slasher", 5, UP), zombie("z2", "slasher", 5 - TOUCH, 5)],
                 [6, 6, 6], down_survivor_death="unsaved_wound")
    g = Golden(game)
    g(Move("s2", to=(15, 4)))
    g(Melee("z1", "s1"), [3, 2])
    notes = g(Contaminate("z1", "s1"), [2])
    assert notes == ["rolls 2 (contaminate vs 3+, z1)",
                     "Slasher z1 fails to contaminate Enfant (H/F) s1"]
    g(Move("s2", to=(15, 5)))
    g(Melee("z2", "s1", ap=2), [1, 6, 1])  # the second die hits: the down enfant dies
    assert game.figures["s1"].status == "dead"
    g.finish()


def test_a_second_hit_in_the_same_attack_kills_the_fallen_survivor() -> None:
    """Under the setting down_survivor_death = unsaved_wound (R4's default is no death while
    out of action: tests/test_rulings.py)."""
    game = start([survivor("s1", "enfant", 5, 5, pv=1), survivor("s2", "bourrin", 15, 5),
                  zombie("z1", "slasher", 5, UP)], [6, 6, 6], down_survivor_death="unsaved_wound")
    g = Golden(game)
    g(Move("s2", to=(15, 4)))
    notes = g(Melee("z1", "s1", ap=2), [3, 2, 3, 4])
    assert notes[-3:] == ["Enfant (H/F) s1 is down", "rolls 3 (melee attack vs 3+, z1)",
                          "rolls 4 (save 5+, s1)"] or "Enfant (H/F) s1 dies" in notes
    assert game.figures["s1"].status == "dead"
    assert game.pending == []  # no contamination of the dead
    g.finish()


def test_down_survivor_death_never() -> None:
    game = start([survivor("s1", "enfant", 5, 5, pv=0, status="down"),
                  survivor("s2", "bourrin", 15, 5), zombie("z1", "slasher", 5, UP)], [6, 6, 6],
                 down_survivor_death="never")
    g = Golden(game)
    g(Move("s2", to=(15, 4)))
    g.refused(Melee("z1", "s1"), r"^Enfant \(H/F\) s1 is down and cannot be attacked "
              r"\(setting down_survivor_death = never\)$")
    g.finish()


# --- heal, revive, carry --------------------------------------------------------------------

SIDE = 5 + TOUCH  # x of a base in contact with one at (5, 5)


def test_heal_uses_an_item_and_gives_two_pv() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, items={"soins": 1}),
                  survivor("s2", "bourrin", SIDE, 5, pv=9), survivor("s3", "geek", 12, 5),
                  far_zombie()], [6, 6, 6])
    g = Golden(game)
    g.refused(Heal("s1", "s3"), r"^Geek \(H/F\) s3 is not in base contact with s1$")
    g.refused(Heal("s3", "s3"), r"^Geek \(H/F\) s3 has all its PV$")
    g.refused(Heal("s2", "s1"), r"^Ex-flic \(H\) s1 has all its PV$")
    notes = g(Heal("s1", "s2"))
    assert notes == ["Ex-flic (H) s1 heals Bourrin (H) s2 (PV 10)"]  # never above 10
    assert game.figures["s1"].units == {"soins": 4} and game.pools["survivors"] == 8
    g(Move("zf", to=(18, 19)))
    g.refused(Heal("s2", "s1"), "has all its PV")
    g.finish()


def test_heal_without_item_is_refused_and_the_last_use_discards_it() -> None:
    s1 = survivor("s1", "ex_flic_h", 5, 5, items={"soins": 1}, pv=2)
    s1.units["soins"] = 1
    game = start([s1, survivor("s2", "bourrin", SIDE, 5, pv=5), far_zombie()], [6, 6, 6])
    g = Golden(game)
    g(Heal("s1", "s1"))  # self_heal: true by default
    assert game.figures["s1"].pv == 4 and game.figures["s1"].items == {}
    g(Move("zf", to=(18, 19)))
    g.refused(Heal("s1", "s2"), r"^Ex-flic \(H\) s1 has no healing item \(soins\) left$")
    g.finish()


def test_self_heal_setting() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, items={"soins": 1}, pv=2), far_zombie()],
                 [6, 6, 6], self_heal=False)
    Golden(game).refused(Heal("s1", "s1"), "a figure cannot heal itself")


def test_revive_costs_two_ap_and_the_friend_rests_this_turn() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5),
                  survivor("s2", "bourrin", SIDE, 5, pv=0, status="down"),
                  zombie("z1", "rodeur", 5, 15)], [6, 2, 2], allow_pass=True)
    g = Golden(game)
    assert game.pools["survivors"] == 1 + 6  # the down Bourrin does not count
    g.refused(Heal("s1", "s2"), r"^Bourrin \(H\) s2 is down: revive it \(2 AP\) instead$")
    g.refused(Revive("s1", "s1"), "cannot revive itself")
    notes = g(Revive("s1", "s2"))
    assert notes == ["Ex-flic (H) s1 revives Bourrin (H) s2 (PV 2); it receives no AP this turn",
                     "the survivors spent 2 AP at once: one zombie may react for 1 AP"]
    s2 = game.figures["s2"]
    assert (s2.status, s2.pv, s2.resting) == ("standing", 2, True)
    g.refused(Revive("s1", "s2"), r"^the zombies' reaction is one 1-AP move or attack")
    g(Decline())
    g(Move("z1", to=(5, 14)))
    g.refused(Move("s2", to=(SIDE, 6)), r"^Bourrin \(H\) s2 was revived this turn and receives "
              r"no AP$")
    g(Move("s1", to=(5, 4)))
    g(Move("z1", to=(5, 13)))
    g(EndActivations())
    g(EndActivations(), [1, 1, 1])
    assert game.turn == 2 and not game.figures["s2"].resting
    assert game.pools["survivors"] == 2 + 1
    g(Move("s2", to=(SIDE, 6)))
    g.finish()


@pytest.mark.parametrize(("whose", "ok"), [("reviver", True), ("friend", True), ("none", False)])
def test_revive_needs_healing_item_setting(whose: str, ok: bool) -> None:
    kit = {"soins": 1}
    game = start([survivor("s1", "ex_flic_h", 5, 5, items=kit if whose == "reviver" else {}),
                  survivor("s2", "bourrin", SIDE, 5, pv=0, status="down",
                           items=kit if whose == "friend" else {}),
                  far_zombie()], [6, 6, 6], revive_needs_healing_item=True)
    g = Golden(game)
    if not ok:
        g.refused(Revive("s1", "s2"), "reviving needs a healing item")
        return
    g(Revive("s1", "s2"))
    owner = "s1" if whose == "reviver" else "s2"
    assert game.figures[owner].units == {"soins": 4}
    g.finish()


def test_carry_moves_m_minus_one_and_the_fallen_ends_in_contact() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5),
                  survivor("s2", "ado_h", 5, UP, pv=0, status="down"),
                  survivor("s3", "geek", 12, 5, pv=0, status="down"), far_zombie()], [6, 6, 6])
    g = Golden(game)
    g.refused(Carry("s1", "s2", to=(10, 5)), r"is 5\.00 in away along the shortest route; "
              r"Ex-flic \(H\) s1 moves 4 in")
    g.refused(Carry("s1", "s3", to=(9, 5)), "not in base contact")
    notes = g(Carry("s1", "s2", to=(9, 5)))
    assert notes == ["Ex-flic (H) s1 moves 4.00 in from (5.00, 5.00) to (9.00, 5.00)"]
    assert at(game, "s1") == (9.0, 5.0)
    assert game.in_contact("s1", "s2") and game.figures["s2"].status == "down"
    assert game.figures["s1"].moves == 1
    g.finish()


@pytest.mark.parametrize(("penalty", "reach"), [(1, 4.0), (2, 3.0), ("per_inch", 1.0)])
def test_carry_move_penalty_setting(penalty: object, reach: float) -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5),
                  survivor("s2", "ado_h", 5, UP, pv=0, status="down"), far_zombie()], [6, 6, 6],
                 carry_move_penalty=penalty)
    g = Golden(game)
    g.refused(Carry("s1", "s2", to=(5 + reach + 0.1, 5)), f"moves {reach:g} in")
    g(Carry("s1", "s2", to=(5 + reach, 5)))
    g.finish()


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "where", "message"), [
    ([], "action", "action: expected an object, got []"),
    ({"type": "fly"}, "action.type", "action.type: unknown action 'fly' (known: move, shoot"),
    ({"type": "move"}, "action.figure", "action: 'move' needs 'figure'"),
    ({"type": "move", "figure": "s1", "to": [1]}, "action.to",
     "action.to: expected an [x, y] pair, got [1]"),
    ({"type": "move", "figure": "s1", "to": [1, float("nan")]}, "action.to",
     "action.to: expected an [x, y] pair, got [1, nan]"),
    ({"type": "move", "figure": 3, "to": [1, 2]}, "action.figure",
     "action.figure: expected an id, got 3"),
    ({"type": "melee", "figure": "s1", "target": "z1", "ap": True}, "action.ap",
     "action.ap: expected a whole number >= 1, got True"),
    ({"type": "shoot", "figure": "s1", "target": "z1", "weapon": "arc", "dice": 3},
     "action.dice", "action: unknown field 'dice' for 'shoot'"),
])
def test_malformed_actions_name_the_field(action: object, where: str, message: str) -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [1, 1, 1])
    before = game.to_json()
    with pytest.raises(InvalidActionError) as error:
        game.apply(action)  # type: ignore[arg-type]
    assert error.value.where == where
    assert str(error.value).startswith(message)
    assert isinstance(error.value, ValueError) and game.to_json() == before


@pytest.mark.parametrize(("action", "where", "message"), [
    (Move("s9", to=(1, 1)), "action.figure", "there is no figure 's9'"),
    (Move("z1", to=(5, 14)), "action.figure", "it is the survivors' activation, not the zombies'"),
    (Move("s1", to=(40, 5)), "action.to", "Ex-flic (H) s1 cannot reach [40, 5]"),
    (Move("s1", to=(5, 5), toward="z1"), "action",
     "a move needs either 'to' (a point) or 'toward' (a figure or point)"),
    (Move("s1", toward="zz"), "action.toward", "there is no figure 'zz' on the table"),
    (Contaminate("z1", "s1"), "action.type", "a zombie contaminates only right after"),
    (Decline(), "action.type", "there is nothing to decline now"),
    (Melee("s1", "z1", ap=9), "action", "melee costs 9 AP and only 2 are left"),
])
def test_illegal_actions_say_which_rule(action: object, where: str, message: str) -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [1, 1, 1])
    before = game.to_json()
    with pytest.raises(IllegalActionError) as error:
        game.apply(action)  # type: ignore[arg-type]
    assert error.value.where == where
    assert str(error.value).startswith(message)
    assert game.to_json() == before
    assert error.value.to_json()["error"]["code"] == "illegal_action"


def test_dice_typed_in_are_checked_and_missing_dice_change_nothing() -> None:
    from rules.dice import DiceError, NeedDice

    game = start([gunner(), zombie("z1", "rodeur", 5, 12)], [6, 6, 6])
    before = game.to_json()
    with pytest.raises(DiceError, match=r"dice\[0\]: a D6 shows 1 to 6, got 0"):
        game.apply(Shoot("s1", "z1", "pistolet"), dice=[0])
    with pytest.raises(NeedDice, match=r"roll 1D6 \(save 5\+ for z1\) and type the result in"):
        game.apply(Shoot("s1", "z1", "pistolet"), dice=[4])
    assert game.to_json() == before and len(game.log) == 1


@pytest.mark.parametrize(("roll", "target", "modifier", "ok"), [
    (1, 2, 5, False), (6, 6, -1, True), (6, 7, -3, True), (5, 6, 1, True), (5, 6, 0, False),
    (2, 2, -1, False)])
def test_natural_one_fails_and_natural_six_succeeds(roll: int, target: int, modifier: int,
                                                    ok: bool) -> None:
    from rules.dice import succeeds

    assert succeeds(roll, target, modifier) is ok


def test_shooting_a_zombie_in_base_contact() -> None:
    game = start([gunner(), zombie("z1", "rodeur", 5, UP), zombie("z2", "rodeur", 9, 5)],
                 [6, 6, 6])
    g = Golden(game)
    g.refused(Shoot("s1", "z2", "pistolet"), r"shoot the nearest zombie \(z1\)")
    g(Shoot("s1", "z1", "pistolet"), [2, 1])
    assert not game.figures["z1"].on_table
    g.finish()


@pytest.mark.parametrize(("items", "rolls", "contaminated"), [
    ({}, [5, 3], True),                      # D 5+: the 5 bites; 3 does not resist
    ({"protection": 1}, [5], False),          # armour: D 6+, the 5 fails
    ({"casque": 1}, [5, 3], False),           # helmet: 3 + 1 resists on 4+
    ({"casque": 1}, [5, 2], True),
])
def test_contamination_roll_and_protections(items: dict[str, int], rolls: list[int],
                                            contaminated: bool) -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, skill="combattant", pv=1, items=items),
                  survivor("s2", "bourrin", 15, 5), zombie("z1", "ignoble", 5, UP)], [6, 6, 6],
                 allow_pass=True)
    g = Golden(game)
    g(Pass())
    g(Melee("z1", "s1"), [6, 1, 1])
    g(Contaminate("z1", "s1"), rolls)
    assert game.figures["s1"].is_zombie is contaminated
    g.finish()


def test_friendly_fire_on_a_natural_1() -> None:
    """friendly_fire = on_natural_1: the friend in contact with the target takes the shot."""
    from golden_helpers import TOUCH, Golden, start, survivor, zombie

    from rules.actions import Shoot

    shooter = survivor("s1", "ex_flic_h", 5, 5, items={"pistolet": 1, "balles": 1})
    friend = survivor("s2", "geek", 15, 5)
    z = zombie("z1", "rodeur", 15 + TOUCH, 5)
    g = Golden(start([shooter, friend, z], dice=[6, 1, 1], friendly_fire="on_natural_1"))
    notes = g(Shoot("s1", "z1", "pistolet"), dice=[1, 2])  # a natural 1, then s2 fails 5+
    assert any("friendly fire" in n for n in notes)
    assert g.game.figures["s2"].pv == g.game.figures["s2"].wounds - 1
    g.finish()
    plain = Golden(start([survivor("s1", "ex_flic_h", 5, 5, items={"pistolet": 1, "balles": 1}),
                          survivor("s2", "geek", 15, 5), zombie("z1", "rodeur", 15 + TOUCH, 5)],
                         dice=[6, 1, 1]))
    plain(Shoot("s1", "z1", "pistolet"), dice=[1])
    assert plain.game.figures["s2"].pv == plain.game.figures["s2"].wounds


def test_a_survivor_who_takes_up_a_gun_may_shoot_before_anything_moves() -> None:
    """What each armed survivor sees is worked out once until something moves; a survivor
    armed since (a gun taken from a marker, which moves nothing) used to be missing from
    it, and listing its shots failed with KeyError (found by the group survivor player)."""
    from rules.resolve import shooting_legal

    game = start([survivor("s1", "ex_flic_h", 5, 5, items={"pistolet": 1, "balles": 1}),
                  survivor("s2", "ex_flic_h", 8, 5, items={"balles": 1}),
                  zombie("z1", "rodeur", 5, 12)], [1, 1, 1])
    assert shooting_legal(game, game.figures["s1"], "pistolet") == ["z1"]
    s2 = game.figures["s2"]
    s2.items["pistolet"] = 1
    assert shooting_legal(game, s2, "pistolet") == ["z1"]


def test_a_door_opened_on_a_clone_stays_shut_in_the_game() -> None:
    """Clones share the scene until one changes it (the AI copies the game for every
    choice it weighs)."""
    game = start([survivor("s1", "ex_flic_h", 11, 9.38), zombie("z1", "rodeur", 11, 14)],
                 [6, 6, 6], terrain=DOOR_SCENE)
    trial = game.clone()
    trial.apply(Door("s1", "d1"))
    assert trial.scene_json["terrain"][1]["open"] is True
    assert game.scene_json["terrain"][1].get("open") is not True
    assert trial.figures["s1"] is not game.figures["s1"]
    trial.figures["s1"].items["pistolet"] = 1
    assert "pistolet" not in game.figures["s1"].items


def test_contamination_chance_is_the_bite_then_the_failed_resist() -> None:
    """D36: a die against the target's D (an Ex-flic: 5+, 2 faces of 6), then the target
    resists on 4+ (3 faces): 1/3 x 1/2. With a casque it resists on 3+ (4 faces): 1/3 x
    1/3."""
    from rules.resolve import contamination_chance

    game = start([survivor("s1", "ex_flic_h", 5, 5), survivor("s2", "ex_flic_h", 8, 5,
                                                              items={"casque": 1}),
                  zombie("z1", "rodeur", 5, 12)], [1, 1, 1])
    s1, s2 = game.figures["s1"], game.figures["s2"]
    assert defence_of(s1, game.settings) == defence_of(s2, game.settings) == 5
    assert contamination_chance(game, s1) == pytest.approx(1 / 6)
    assert contamination_chance(game, s2) == pytest.approx(1 / 9)
