"""Golden games for each action: move, door, shoot, melee, the 2-AP reaction, down and
contamination, heal, revive and carry; and the errors players get."""

from __future__ import annotations

import math

import pytest
from golden_helpers import TOUCH, Golden, at, d, door, start, survivor, wall, windows, zombie

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
from rules.attacks import defence_of
from rules.errors import IllegalActionError, InvalidActionError

FAR = (18.0, 18.0)  # a zombie parked out of the way, within 20 in: the zombies can act


def far_zombie() -> object:
    return zombie("zf", "rodeur", *FAR)


# --- move ----------------------------------------------------------------------------------


def test_move_to_a_point_within_m() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [1, 1, 1])
    g = Golden(game)
    g.refused(Move("s1", to=(5, 10.1)), r"^That spot is 5\.1 in away and Ex-cop \(M\) moves "
              r"5\.0 in a move: that is 2 AP of moves\. Move 5\.0 in toward it now and the "
              r"rest after\.$", code="refusal.too_far")
    notes = g(Move("s1", to=(5, 10)))
    assert notes == ["Ex-cop (M) moves 5.0 in"]
    assert at(game, "s1") == (5.0, 10.0) and game.figures["s1"].moves == 1
    g.finish()


def test_move_toward_a_figure_stops_in_base_contact() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 4), zombie("z1", "rodeur", 8, 8)], [1, 1, 1])
    g = Golden(game)
    g(Move("s1", to=(5, 5)))
    notes = g(Move("z1", toward="s1"))  # 4.24 in centre to centre, 3.26 in edge to edge
    assert d(game, "z1", "s1") == pytest.approx(0.01)
    assert game.in_contact("z1", "s1")
    assert notes[0] == "Walker 1 moves 3.2 in"  # 3.25 in
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
    assert notes == ["Ex-cop (M) moves 1.0 in: move 3 this turn, so its defence is now 4+"]
    assert s1.moves == 3 and defence_of(s1) == 4
    g(Move("z1", to=(5, 12.5)))
    g(Move("s1", to=(5, 9)))
    assert defence_of(s1) == 3  # the fourth move: -2
    g(Move("z1", toward="s1"))
    g(EndActivations())
    notes = g(Melee("z1", "s1"), [3, 6])
    assert notes[1:4] == ["Slasher 1 rolls 3 (melee, hits on 3+)",
                          "Ex-cop (M) rolls 6 (save on 5+)", "Ex-cop (M) saves the wound"]
    g.finish()


def test_move_around_a_wall() -> None:
    game = start([survivor("s1", "ex_flic_h", 6.5, 5), survivor("s2", "bourrin", 6.5, 9),
                  far_zombie()], [6, 6, 6], terrain=[wall("w", (8, 4), (8, 6))])
    g = Golden(game)
    route = game.space().path("s1", (9.5, 5))
    assert 4.0 < route.length < 5.0  # 3 in straight, but the wall is in the way
    moved = game.clone()
    g.refused(Move("s2", to=(9.5, 5)), r"^That spot is 5\.0 in away and Bruiser \(M\) moves "
              r"4\.0 in a move: that is 2 AP of moves\.", code="refusal.too_far")
    notes = g(Move("s1", to=(9.5, 5)))
    assert notes[0] == f"Ex-cop (M) moves {route.length:.1f} in"
    assert moved.figures["s1"].centre == (6.5, 5)
    g.finish()


DOOR_SCENE = [wall("w1", (0, 10), (10, 10)), door("d1", (10, 10), (12, 10)),
              wall("w2", (12, 10), (31.4961, 10))]


def test_closed_door_blocks_and_the_door_action_opens_it() -> None:
    game = start([survivor("s1", "ex_flic_h", 11, 9.38), survivor("s2", "bourrin", 5, 5),
                  zombie("z1", "rodeur", 11, 14)], [6, 6, 6], terrain=DOOR_SCENE)
    g = Golden(game)
    g.refused(Move("s1", to=(11, 11)), r"^Ex-cop \(M\) has no way there with the doors shut: "
              r"open the door first \(1 AP a door\); the way is then 1\.6 in, 2 AP in all",
              code="refusal.no_way_doors")
    g.refused(Door("s2", "d1"), r"^Bruiser \(M\) is .* in from the door: move into contact with "
              r"it first \(1 AP\)\.$", code="refusal.door_too_far")
    g.refused(Door("s1", "w1"), "^That is not a door: the wall.$", code="refusal.not_a_door")
    g.refused(Door("s1", "w9"), "^There is no such door", code="refusal.no_such_door")
    assert Door("s1", "d1") in game.legal_actions()
    assert game.legal_actions().count(Door("s1", "d1")) == 1
    notes = g(Door("s1", "d1"))
    assert notes == ["Ex-cop (M) opens the door"]
    assert game.pools["survivors"] == 2 + 6 - 1
    assert game.scene_json["terrain"][1]["open"] is True
    g.refused(Door("z1", "d1"), "Zombies can only move, fight and contaminate")
    g(Move("z1", to=(11, 10.5)))  # through the open doorway
    g.refused(Door("s1", "d1"), r"^Walker 1 stands in the doorway \(the door\): it cannot be "
              r"closed\.$", code="refusal.doorway_blocked")
    g(Move("s1", to=(11, 8)))
    g(Move("z1", to=(11, 11.5)))
    g(Move("s1", to=(11, 9.38)))
    g(Move("z1", to=(11, 12)))
    assert g(Door("s1", "d1")) == ["Ex-cop (M) closes the door"]
    g.refused(Move("z1", to=(11, 10.5)), r"^Walker 1 cannot end a move there: the base would "
              r"overlap the door there\. The nearest spot where the base fits is 0\.\d in from "
              r"it, 1\.\d in away \(1 AP of moves\)\.$", code="refusal.cannot_stand_there_try")
    g.finish()


# --- shoot ---------------------------------------------------------------------------------


def gunner(x: float = 5, y: float = 5, skill: str = "combattant", **items: int) -> object:
    return survivor("s1", "ex_flic_h", x, y, skill=skill,
                    items=items or {"pistolet": 1, "balles": 1})


def test_shooting_needs_sight_and_range() -> None:
    game = start([gunner(), zombie("z1", "rodeur", 5, 27.5), zombie("z2", "rodeur", 9, 9)],
                 [6, 6, 6], terrain=[wall("w", (7, 3), (7, 14))])
    g = Golden(game)
    g.refused(Shoot("s1", "z2", "pistolet"), r"^Ex-cop \(M\) cannot see Walker 2: move to "
              r"where it is in sight first\.$", code="refusal.shoot_not_seen")
    g.refused(Shoot("s1", "z1", "pistolet"), r"^Walker 1 is 21\.5 in from Ex-cop \(M\), beyond "
              r"the 20\.0 in of Pistol: move closer first\.$", code="refusal.shoot_out_of_range")
    assert [a for a in game.legal_actions() if isinstance(a, Shoot)] == []
    g.refused(Shoot("s1", "z2", "fusil"), r"^Ex-cop \(M\) does not carry Rifle\.$",
              code="refusal.carries_no")
    g.refused(Shoot("s1", "z2", "balles"), r"^10 rounds is not a shooting or throwing weapon\.$")
    g.refused(Shoot("s1", "z2", "bazooka"), r"^There is no such weapon\.$",
              code="refusal.unknown_weapon")
    g.finish()


def test_target_priority_nearest_or_threatening() -> None:
    game = start([gunner(), survivor("s2", "bourrin", 15, 5),
                  zombie("z1", "rodeur", 5, 10), zombie("z2", "rodeur", 15, 7.5),
                  zombie("z3", "rodeur", 5, 16)], [6, 6, 6])
    g = Golden(game)
    g.refused(Shoot("s1", "z3", "pistolet"),
              r"^Walker 3 may not be shot now: shoot the nearest zombie \(Walker 1\) or one "
              r"within 2 in of a survivor \(Walker 2\)\.$", code="refusal.shoot_priority")
    shots = {a.target for a in game.legal_actions() if isinstance(a, Shoot)}
    assert shots == {"z1", "z2"}  # z2 is 1.5 in from s2: it threatens a survivor
    notes = g(Shoot("s1", "z2", "pistolet"), [4, 2])
    assert notes == ["Ex-cop (M) shoots at Walker 2 with Pistol (1 attack)",
                     "Ex-cop (M) rolls 4 (shot, hits on 2+ counting the +1)",
                     "Walker 2 rolls 2 (save on 5+)",
                     "Ex-cop (M) kills Walker 2"]
    assert game.figures["z2"].status == "removed" and game.pools["survivors"] == 7
    g.finish()


def test_rifle_costs_two_ap_and_uses_rounds() -> None:
    game = start([gunner(fusil=1, balles=1), zombie("z1", "ignoble", 5, 24)], [6, 2, 3],
                 two_ap_reaction="off")
    g = Golden(game)
    notes = g(Shoot("s1", "z1", "fusil"), [3])
    assert notes[-1] == "Ex-cop (M) misses Abomination 1"  # no bonus: 3 < 4+
    assert game.pools == {"survivors": 7 - 2, "zombies": 5}
    assert game.figures["s1"].units == {"balles": 9}
    g.finish()


def test_ammunition_runs_out_and_the_empty_item_is_discarded() -> None:
    s1 = gunner()
    s1.units = {**s1.units, "balles": 1}
    game = start([s1, zombie("z1", "ignoble", 5, 20), zombie("z2", "ignoble", 9, 24)],
                 [6, 6, 6])
    g = Golden(game)
    g(Shoot("s1", "z1", "pistolet"), [4, 6])  # 4 + 1 hits the 4+; the 6 saves
    assert game.figures["s1"].items == {"pistolet": 1}
    assert game.figures["s1"].units == {}
    g(Move("z1", to=(5, 17)))
    g.refused(Shoot("s1", "z1", "pistolet"),
              r"^Ex-cop \(M\) has no ammunition left for Pistol: take some from a friend or a "
              r"crate, or use another weapon\.$", code="refusal.no_ammo")
    g.finish()


def test_track_ammunition_off_needs_no_rounds() -> None:
    game = start([gunner(pistolet=1), zombie("z1", "rodeur", 5, 20)], [6, 6, 6],
                 track_ammunition=False)
    g = Golden(game)
    g(Shoot("s1", "z1", "pistolet"), [1])
    g.finish()


# the roll names the face it needs with the modifier counted, and the modifier
@pytest.mark.parametrize(("roll", "weapon", "skill", "hit", "needs"), [
    (3, "pistolet", "combattant", True, "3+ counting the +1"),   # 3 + 1 (pistolet) >= 4
    (3, "arc", "combattant", False, "4+"),                       # no bonus
    (3, "arc", "tireur_emerite", True, "3+ counting the +1"),    # tireur émérite +1
    (2, "pistolet", "tireur_emerite", True, "2+ counting the +2"),
    (1, "pistolet", "tireur_emerite", False, "2+ counting the +2"),  # a natural 1 fails
    (6, "arc", "combattant", True, "4+"),
])
def test_shooting_roll_bonuses(roll: int, weapon: str, skill: str, hit: bool,
                               needs: str) -> None:
    ammo = {"pistolet": "balles", "arc": "fleches"}[weapon]
    game = start([gunner(skill=skill, **{weapon: 1, ammo: 1}), zombie("z1", "ignoble", 5, 12)],
                 [6, 6, 6])
    g = Golden(game)
    notes = g(Shoot("s1", "z1", weapon), [roll, 4] if hit else [roll])
    assert notes[1] == f"Ex-cop (M) rolls {roll} (shot, hits on {needs})"
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
    assert notes[2] == f"Walker 1 rolls {save} (save on 5+)"
    assert game.figures["z1"].on_table is kept
    g.finish()


def test_fronde_two_dice_per_ap_and_no_ammunition() -> None:
    game = start([gunner(fronde=1), zombie("z1", "ignoble", 5, 9), far_zombie()], [6, 6, 6])
    g = Golden(game)
    notes = g(Shoot("s1", "z1", "fronde"), [2, 5, 6])  # miss; hit and the 6 saves
    assert notes[0] == "Ex-cop (M) shoots at Abomination 1 with Slingshot (2 attacks)"
    assert game.pools["survivors"] == 7 - 1 and game.figures["z1"].on_table
    g(Move("z1", to=(5, 8)))
    notes = g(Shoot("s1", "z1", "fronde"), [5, 1])  # the first kills: the second is lost
    assert notes[-1] == "Ex-cop (M) kills Abomination 1"
    g(Move("zf", to=(18, 17)))
    g.refused(Shoot("s1", "zf", "fronde"), "beyond the 5.0 in of Slingshot")
    g.finish()


def test_molotov_two_cocktails_per_ap_and_the_second_one_retargeted() -> None:
    game = start([survivor("s1", "anarchiste", 5, 5, skill="molotov",
                           items={"cocktail_molotov": 2}),
                  zombie("z1", "rodeur", 5, 8), zombie("z2", "rodeur", 7, 8), far_zombie()],
                 [6, 6, 6])
    g = Golden(game)
    assert game.figures["s1"].units == {"cocktail_molotov": 4}
    notes = g(Shoot("s1", "z1", "cocktail_molotov"), [2, 3])  # 2 + 1 hits the 2+, kills
    assert notes[0] == "Anarchist (M/F) throws Molotov cocktail at Walker 1 (2 attacks)"
    assert windows(game) == [{"kind": "throw_again", "figure": "s1", "weapon": "cocktail_molotov",
                             "dice": 1, "side": "survivors"}]
    assert game.figures["s1"].units == {"cocktail_molotov": 3}
    assert game.legal_actions() == [Shoot("s1", "z2", "cocktail_molotov"), Decline()]
    g.refused(Move("s1", to=(5, 4)), "^Now Anarchist \\(M/F\\) may throw Molotov cocktail "
              "again at another target, or decline.$", code="refusal.now_throw_again")
    notes = g(Shoot("s1", "z2", "cocktail_molotov"), [5, 6])
    assert notes[:2] == ["Anarchist (M/F) throws Molotov cocktail again, at Walker 2",
                         "Anarchist (M/F) rolls 5 (shot, hits on 2+ counting the +1)"]
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
    g.refused(Melee("s1", "z1"), r"^Walker 1 is 0\.9 in from Soldier \(M\): melee needs the "
              r"bases in contact\. Move into contact first \(1 AP\)\.$",
              code="refusal.melee_not_in_contact")
    g.refused(Melee("s1", "s1"), r"^Soldier \(M\) is on Soldier \(M\)'s side",
              code="refusal.not_an_enemy")
    g.refused(Melee("s1", "z1", weapon="katana"), "does not carry Katana")
    notes = g(Melee("s1", "z1", weapon="baton"), [1])
    assert notes[:2] == ["Soldier (M) attacks Walker 1 with Staff (1 die)",
                         "Soldier (M) rolls 1 (melee, hits on 2+)"]
    g(Move("zf", to=(18, 19)))
    g(Melee("s1", "z1", ap=2, weapon="barre_de_fer"), [2, 6])  # 1 die for 2 AP; saved on 6
    g.finish()


def test_melee_dice_capped_by_attack() -> None:
    game = start([fighter(katana=1, barre_de_fer=1), zombie("z1", "ignoble", 5, UP),
                  far_zombie()], [6, 6, 6])
    g = Golden(game)
    g.refused(Melee("s1", "z1", ap=5),
              r"^Soldier \(M\) rolls at most 4 attack dice \(A 4\); 5 AP would give 5: spend "
              r"fewer AP\.$", code="refusal.too_many_dice")
    # L230 "deux attaques pour 1PA", L118 A caps the dice (R2): 2 AP give A4's 4 dice
    g.refused(Melee("s1", "z1", ap=3, weapon="katana"),
              r"at most 4 attack dice with Katana \(A 4, two attacks for 1 AP\), which 2 AP "
              r"give; 3 AP would add none: spend 2 AP\.$")
    g.refused(Melee("s1", "z1", ap=3, weapon="barre_de_fer"),
              "An attack with Iron bar costs 2 AP a die: spend a multiple of 2 AP.")
    g.refused({"type": "melee", "figure": "s1", "target": "z1", "ap": 0}, "1 or more, not 0",
              InvalidActionError, code="refusal.action.bad_ap")
    notes = g(Melee("s1", "z1", ap=2, weapon="katana"), [1, 3, 2, 4, 5])
    assert notes[0] == "Soldier (M) attacks Abomination 1 with Katana (4 dice)"
    assert notes[-3:] == ["Abomination 1 rolls 5 (save on 6+)",
                          "Soldier (M) kills Abomination 1",
                          "The survivors spent 2 AP at once: one zombie may react for 1 AP"]
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
        g.refused(Melee("s1", "z1", ap=ap), "^One attack per activation in this game: spend 1 "
                  "AP on it.$", code="refusal.one_attack")


@pytest.mark.parametrize(("save", "kept"), [(5, False), (6, True)])
def test_zombie_saves_melee_on_6(save: int, kept: bool) -> None:
    game = start([fighter(), zombie("z1", "slasher", 5, UP), far_zombie()], [6, 6, 6])
    g = Golden(game)
    notes = g(Melee("s1", "z1"), [3, save])
    assert notes[1:3] == ["Soldier (M) rolls 3 (melee, hits on 3+)",
                          f"Slasher 1 rolls {save} (save on 6+)"]
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
    assert notes[1:3] == ["Walker 1 rolls 4 (melee, hits on 4+)",
                          "Bruiser (M) rolls 4 (save on 5+)"]
    assert game.figures["s1"].pv == 9
    g.finish()


def test_combattant_rerolls_a_failed_melee_save() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, skill="combattant"),
                  zombie("z1", "ignoble", 5, UP)], [6, 6, 6], allow_pass=True)
    g = Golden(game)
    g(EndActivations())
    notes = g(Melee("z1", "s1", ap=2), [5, 2, 5, 6, 2, 3])
    assert notes[1:8] == [
        "Abomination 1 rolls 5 (melee, hits on 5+)", "Ex-cop (M) rolls 2 (save on 5+)",
        "Ex-cop (M) rolls 5 (save re-rolled, on 5+)", "Ex-cop (M) saves the wound",
        "Abomination 1 rolls 6 (melee, hits on 5+)", "Ex-cop (M) rolls 2 (save on 5+)",
        "Ex-cop (M) rolls 3 (save re-rolled, on 5+)"]
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
        "Father (M) rolls 2 (melee, hits on 2+)", "Walker 1 rolls 6 (save on 6+)",
        "Father (M) rolls 4 (melee, hits on 2+)", "Walker 1 rolls 6 (save on 6+)",
        "Walker 1 saves the wound",
        "Father (M) rolls 5 (melee, hits on 2+)", "Walker 1 rolls 3 (save on 6+)",
        "Father (M) kills Walker 1",
        "The survivors spent 2 AP at once: one zombie may react for 1 AP"]
    g.finish()


def test_robuste_ignores_the_first_wound_of_the_game() -> None:
    game = start([survivor("s1", "bourrin", 5, 5, skill="robuste"),
                  zombie("z1", "ignoble", 5, UP)], [6, 6, 6], allow_pass=True)
    g = Golden(game)
    g(EndActivations())
    notes = g(Melee("z1", "s1", ap=2), [4, 1, 4, 2])
    assert notes[3] == "Bruiser (M) shrugs off the first wound (Tough)"
    assert notes[6] == "Bruiser (M) loses a wound (9 left)"
    assert game.figures["s1"].pv == 9 and game.figures["s1"].wounds_ignored == 1
    g.finish()


def test_violent_hits_back_once_after_the_attack_at_minus_one() -> None:
    game = start([survivor("s1", "bourrin", 5, 5, skill="violent", items={"barre_de_fer": 1}),
                  zombie("z1", "ignoble", 5, UP), far_zombie()], [6, 6, 6], allow_pass=True)
    g = Golden(game)
    g(EndActivations())
    notes = g(Melee("z1", "s1", ap=2), [4, 1, 5, 2, 4, 5])
    assert notes[1:] == [
        "Abomination 1 rolls 4 (melee, hits on 4+)", "Bruiser (M) rolls 1 (save on 5+)",
        "Bruiser (M) loses a wound (9 left)",
        "Abomination 1 rolls 5 (melee, hits on 4+)", "Bruiser (M) rolls 2 (save on 5+)",
        "Bruiser (M) loses a wound (8 left)",
        "Bruiser (M) hits back at Abomination 1 (Violent, -1)",
        "Bruiser (M) rolls 4 (melee, hits on 4+)",   # 4 + 1 (barre de fer) - 1 hits
        "Abomination 1 rolls 5 (save on 6+)", "Bruiser (M) kills Abomination 1"]
    g.finish()


def test_violent_does_not_answer_a_free_attack() -> None:
    game = start([survivor("s1", "bourrin", 5, 5, skill="violent"),
                  zombie("z1", "ignoble", 5, UP), far_zombie()], [6, 6, 6])
    g = Golden(game)
    notes = g(Move("s1", to=(5, 3)), [4, 1])
    assert notes[:4] == [
        "Bruiser (M) leaves the melee: Abomination 1 strikes first",
        "Abomination 1 rolls 4 (melee, hits on 4+)", "Bruiser (M) rolls 1 (save on 5+)",
        "Bruiser (M) loses a wound (9 left)"]
    assert notes[4] == "Bruiser (M) moves 2.0 in"
    g.finish()


# --- leaving a melee ------------------------------------------------------------------------


def test_leaving_a_melee_gives_each_enemy_a_free_attack() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, skill="combattant"),
                  zombie("z1", "rodeur", 5, UP), zombie("z2", "slasher", 5 + TOUCH, 5)],
                 [6, 6, 6])
    g = Golden(game)
    notes = g(Move("s1", to=(3, 3)), [4, 5, 2, 2])
    assert notes == [
        "Ex-cop (M) leaves the melee: Walker 1 strikes first",
        "Walker 1 rolls 4 (melee, hits on 5+)", "Walker 1 misses Ex-cop (M)",
        "Ex-cop (M) leaves the melee: Slasher 2 strikes first",
        "Slasher 2 rolls 5 (melee, hits on 5+)", "Ex-cop (M) rolls 2 (save on 5+)",
        "Ex-cop (M) rolls 2 (save re-rolled, on 5+)", "Ex-cop (M) loses a wound (7 left)",
        "Ex-cop (M) moves 2.8 in"]
    g.finish()


def test_sliding_round_an_enemy_in_contact_is_not_leaving() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, UP)], [6, 6, 6])
    g = Golden(game)
    spot = (5 + TOUCH * math.sin(0.6), UP - TOUCH * math.cos(0.6))
    notes = g(Move("s1", to=spot))
    assert notes in (["Ex-cop (M) moves 0.6 in"], ["Ex-cop (M) moves 0.7 in"])
    assert game.in_contact("s1", "z1")
    g.finish()


@pytest.mark.parametrize(("skill", "setting"), [("agile", True), ("sprinter", False)])
def test_agile_or_the_setting_leave_without_free_attacks(skill: str, setting: bool) -> None:
    game = start([survivor("s1", "ado_h", 5, 5, skill=skill), zombie("z1", "rodeur", 5, UP)],
                 [6, 6, 6], leave_melee_free_attack=setting)
    g = Golden(game)
    notes = g(Move("s1", to=(5, 3)))
    assert notes == ["Teen (M) moves 2.0 in"]
    g.finish()


def test_a_zombie_leaving_a_melee_suffers_the_free_attack_too() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, items={"barre_de_fer": 1}),
                  survivor("s2", "bimbo", 9, 5), zombie("z1", "ignoble", 5, UP)], [6, 6, 6])
    g = Golden(game)
    g(Move("s2", to=(9, 4)))
    notes = g(Move("z1", toward="s2"), [3, 5])  # 3 + 1 (barre de fer) hits the 4+; 5 < 6
    assert notes == ["Abomination 1 leaves the melee: Ex-cop (M) strikes first",
                     "Ex-cop (M) rolls 3 (melee, hits on 3+ counting the +1)",
                     "Abomination 1 rolls 5 (save on 6+)", "Ex-cop (M) kills Abomination 1",
                     "Game over: the survivors win (no zombie is left on the table)"]
    assert at(game, "z1") == (5.0, round(UP, 2))  # removed where it stood
    assert game.outcome is not None and game.outcome["winner"] == "survivors"
    g.finish()


def test_a_figure_downed_by_a_free_attack_does_not_move_and_is_not_contaminated() -> None:
    game = start([survivor("s1", "enfant", 5, 5, pv=1), survivor("s2", "bourrin", 12, 5),
                  zombie("z1", "rodeur", 5, UP)], [6, 6, 6])
    g = Golden(game)
    notes = g(Move("s1", to=(5, 3)), [3, 4])
    assert notes[-1] == "Kid (M/F) is down"
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
    assert notes[-1] == "The survivors spent 2 AP at once: one zombie may react for 1 AP"
    assert windows(game) == [{"kind": "reaction", "side": "zombies"}]
    assert game.current_side() == "zombies" and game.pools == {"survivors": 5, "zombies": 5}
    assert Decline() in game.legal_actions()
    assert all(a.ap == 1 for a in game.legal_actions() if isinstance(a, Melee))
    g.refused(Move("s1", to=(5, 4)), r"^Soldier \(M\) is not a zombie: only a zombie may "
              r"react\.$", code="refusal.not_a_zombie")
    g.refused(Melee("z2", "s1", ap=2), "The reaction is a 1-AP activation")
    notes = g(Move("z2", toward="s1"))
    assert game.pending == [] and game.to_act == "zombies"  # then their normal activation
    assert game.pools["zombies"] == 4
    g(Melee("z2", "s1"), [1])
    assert game.to_act == "survivors"
    g.finish()


def test_the_reaction_may_be_declined() -> None:
    g = rifle_scene()
    g(Shoot("s1", "z2", "fusil"), [1])
    assert g(Decline()) == ["Declined: the zombies' reaction"]
    assert g.game.to_act == "zombies" and g.game.pools["zombies"] == 5
    g.refused(Decline(), "There is nothing to decline now", code="refusal.nothing_to_decline")
    g.finish()


def test_reaction_before_the_action_resolves() -> None:
    g = rifle_scene(two_ap_reaction="before")
    game = g.game
    notes = g(Shoot("s1", "z2", "fusil"))
    assert notes == ["The survivors commit 2 AP: one zombie may react for 1 AP before the "
                     "action resolves"]
    assert game.pools["survivors"] == 5 and game.figures["s1"].units == {"balles": 10}
    notes = g(Move("z2", toward="s1"), [3, 2])  # now the shot: hits, the save fails
    assert notes[1:] == ["Soldier (M) shoots at Walker 2 with Rifle (1 attack)",
                         "Soldier (M) rolls 3 (shot, hits on 2+)", "Walker 2 rolls 2 (save on 5+)",
                         "Soldier (M) kills Walker 2"]
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
    assert notes[-1] == ("Soldier (M) can no longer do it: Walker 1 may not be shot now: "
                         "shoot the nearest zombie (Walker 2); no other is within 2 in of a "
                         "survivor.")
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
    assert windows(game) == [{"kind": "reactivate", "figure": "s1", "action": "shoot",
                             "side": "survivors"}]
    g.refused(Melee("s1", "z2"), r"^Now Ex-cop \(F\) may shoot again, or decline\.$",
              code="refusal.now_shoot_again")
    notes = g(Shoot("s1", "z2", "fusil"), [1])
    assert notes[-1] == "The survivors spent 2 AP at once: one zombie may react for 1 AP"
    assert windows(game) == [{"kind": "reaction", "side": "zombies"}]
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
    assert notes[-2:] == ["Ex-cop (M) loses a wound (0 left)", "Ex-cop (M) is down"]
    s1 = game.figures["s1"]
    assert (s1.status, s1.pv, s1.downed_by) == ("down", 0, "z1")
    assert windows(game) == [{"kind": "contaminate", "figure": "z1", "target": "s1",
                             "side": "zombies"}]
    assert game.legal_actions() == [Contaminate("z1", "s1"), Decline()]
    g.refused(Move("z1", to=(5, 7)), r"^Now Abomination 1 may contaminate Ex-cop \(M\), or "
              r"decline\.$", code="refusal.now_contaminate")
    notes = g(Contaminate("z1", "s1"), [5, 1])
    assert notes == [
        "Abomination 1 rolls 5 (contamination, on 5+)",
        "Ex-cop (M) rolls 1 (resisting the contamination, on 4+)",
        "Ex-cop (M) is contaminated and rises again as a zombie: Abomination"]
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
    english = {"Ignoble": "Abomination", "Slasher": "Slasher", "Rôdeur": "Walker"}[becomes]
    assert notes[-1].endswith(f"is contaminated and rises again as a zombie: {english}")
    assert game.figures["s1"].name == becomes and game.figures["s1"].is_zombie
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
    assert notes[-1] == "Kid (M/F) resists the contamination and stays down"
    assert game.figures["s1"].status == "down" and game.figures["s1"].side == "survivors"
    g(Move("s2", to=(15, 5)))
    g.refused(Contaminate("z1", "s1"), "A zombie contaminates only right after putting",
              code="refusal.contaminate_when")
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
    assert notes == ["Slasher 1 rolls 2 (contamination, on 3+)",
                     "Slasher 1 fails to contaminate Kid (M/F)"]
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
    assert notes[-3:] == ["Kid (M/F) is down", "Slasher 1 rolls 3 (melee, hits on 3+)",
                          "Kid (M/F) rolls 4 (save on 5+)"] or "Kid (M/F) dies" in notes
    assert game.figures["s1"].status == "dead"
    assert game.pending == []  # no contamination of the dead
    g.finish()


def test_down_survivor_death_never() -> None:
    game = start([survivor("s1", "enfant", 5, 5, pv=0, status="down"),
                  survivor("s2", "bourrin", 15, 5), zombie("z1", "slasher", 5, UP)], [6, 6, 6],
                 down_survivor_death="never")
    g = Golden(game)
    g(Move("s2", to=(15, 4)))
    g.refused(Melee("z1", "s1"), r"^Kid \(M/F\) is down and cannot be attacked: in this game "
              r"a fallen survivor cannot be finished off\.$", code="refusal.down_not_attacked")
    g.finish()


# --- heal, revive, carry --------------------------------------------------------------------

SIDE = 5 + TOUCH  # x of a base in contact with one at (5, 5)


def test_heal_uses_an_item_and_gives_two_pv() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, items={"soins": 1}),
                  survivor("s2", "bourrin", SIDE, 5, pv=9), survivor("s3", "geek", 12, 5),
                  far_zombie()], [6, 6, 6])
    g = Golden(game)
    g.refused(Heal("s1", "s3"), r"^Geek \(M/F\) is 6\.0 in from Ex-cop \(M\): their bases "
              r"must touch\. Move into contact first \(1 AP\)\.$", code="refusal.not_in_contact")
    g.refused(Heal("s3", "s3"), r"^Geek \(M/F\) has all 6 wounds: there is nothing to heal\.$",
              code="refusal.heal_full")
    g.refused(Heal("s2", "s1"), r"^Ex-cop \(M\) has all 8 wounds")
    notes = g(Heal("s1", "s2"))
    assert notes == ["Ex-cop (M) heals Bruiser (M) (back to 10 wounds)"]  # never above 10
    assert game.figures["s1"].units == {"soins": 4} and game.pools["survivors"] == 8
    g(Move("zf", to=(18, 19)))
    g.refused(Heal("s2", "s1"), "has all 8 wounds")
    g.finish()


def test_heal_without_item_is_refused_and_the_last_use_discards_it() -> None:
    s1 = survivor("s1", "ex_flic_h", 5, 5, items={"soins": 1}, pv=2)
    s1.units = {**s1.units, "soins": 1}
    game = start([s1, survivor("s2", "bourrin", SIDE, 5, pv=5), far_zombie()], [6, 6, 6])
    g = Golden(game)
    g(Heal("s1", "s1"))  # self_heal: true by default
    assert game.figures["s1"].pv == 4 and game.figures["s1"].items == {}
    g(Move("zf", to=(18, 19)))
    g.refused(Heal("s1", "s2"), r"^Ex-cop \(M\) has no heals left: get some from a friend or "
              r"a crate first\.$", code="refusal.no_heals")
    g.finish()


def test_self_heal_setting() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, items={"soins": 1}, pv=2), far_zombie()],
                 [6, 6, 6], self_heal=False)
    Golden(game).refused(Heal("s1", "s1"), "a figure cannot heal itself",
                         code="refusal.no_self_heal")


def test_revive_costs_two_ap_and_the_friend_rests_this_turn() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5),
                  survivor("s2", "bourrin", SIDE, 5, pv=0, status="down"),
                  zombie("z1", "rodeur", 5, 15)], [6, 2, 2], allow_pass=True)
    g = Golden(game)
    assert game.pools["survivors"] == 1 + 6  # the down Bourrin does not count
    g.refused(Heal("s1", "s2"), r"^Bruiser \(M\) is down: revive them instead \(2 AP\)\.$",
              code="refusal.heal_down")
    g.refused(Revive("s1", "s1"), "cannot revive themself", code="refusal.revive_self")
    notes = g(Revive("s1", "s2"))
    assert notes == ["Ex-cop (M) revives Bruiser (M) (2 wounds): no AP for them this turn",
                     "The survivors spent 2 AP at once: one zombie may react for 1 AP"]
    s2 = game.figures["s2"]
    assert (s2.status, s2.pv, s2.resting) == ("standing", 2, True)
    g.refused(Revive("s1", "s2"), r"^The zombies' reaction is one 1-AP move or attack",
              code="refusal.reaction_kind")
    g(Decline())
    g(Move("z1", to=(5, 14)))
    g.refused(Move("s2", to=(SIDE, 6)), r"^Bruiser \(M\) was revived this turn and gets no "
              r"AP\.$", code="refusal.resting")
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
        g.refused(Revive("s1", "s2"), "reviving takes heals, and neither Ex-cop \\(M\\) nor "
                  "Teen \\(M\\)|reviving takes heals", code="refusal.revive_needs_heals")
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
    g.refused(Carry("s1", "s2", to=(10, 5)), r"^That spot is 5\.0 in away and Ex-cop \(M\) "
              r"moves 4\.0 in a move", code="refusal.too_far")
    g.refused(Carry("s1", "s3", to=(9, 5)), "their bases must touch")
    notes = g(Carry("s1", "s2", to=(9, 5)))
    assert notes == ["Ex-cop (M) moves 4.0 in"]
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
    g.refused(Carry("s1", "s2", to=(5 + reach + 0.1, 5)), f"moves {reach:.1f} in a move")
    g(Carry("s1", "s2", to=(5 + reach, 5)))
    g.finish()


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "where", "message"), [
    ([], "action", "An action is an object with a “type”, not []."),
    ({"type": "fly"}, "action.type", 'There is no action "fly": the actions are move, shoot'),
    ({"type": "move"}, "action.figure", "An action “move” needs the field “figure”."),
    ({"type": "move", "figure": "s1", "to": [1]}, "action.to",
     "The action's point (action.to) must be two numbers, [x, y], not [1]."),
    ({"type": "move", "figure": "s1", "to": [1, float("nan")]}, "action.to",
     "The action's point (action.to) must be two numbers, [x, y], not [1, NaN]."),
    ({"type": "move", "figure": 3, "to": [1, 2]}, "action.figure",
     "“figure” must name something (an id), not 3."),
    ({"type": "melee", "figure": "s1", "target": "z1", "ap": True}, "action.ap",
     "The AP spent must be a whole number, 1 or more, not true."),
    ({"type": "shoot", "figure": "s1", "target": "z1", "weapon": "arc", "dice": 3},
     "action.dice", "An action “shoot” has no field “dice”."),
])
def test_malformed_actions_name_the_field(action: object, where: str, message: str) -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [1, 1, 1])
    before = game.to_json()
    with pytest.raises(InvalidActionError) as error:
        game.apply(action)  # type: ignore[arg-type]
    assert error.value.where == where
    assert str(error.value).startswith(message)
    assert error.value.words is not None and error.value.words.code.startswith("refusal.action.")
    assert isinstance(error.value, ValueError) and game.to_json() == before


@pytest.mark.parametrize(("action", "where", "message"), [
    (Move("s9", to=(1, 1)), "action.figure", "That figure is not in this game."),
    (Move("z1", to=(5, 14)), "action.figure",
     "It is the survivors' turn to activate a figure, and Walker 1 is not one of theirs."),
    (Move("s1", to=(40, 5)), "action.to", "Ex-cop (M) cannot end a move there: the base would "
     "not be wholly on the table there. Pick a spot where the base fits."),
    (Move("s1", to=(5, 5), toward="z1"), "action",
     "Say where to move: a spot on the table or a figure to go toward, not both."),
    (Move("s1", toward="zz"), "action.toward", "That figure is not in this game."),
    (Contaminate("z1", "s1"), "action.type", "A zombie contaminates only right after"),
    (Decline(), "action.type", "There is nothing to decline now."),
    (Melee("s1", "z1", ap=9), "action", "This costs 9 AP and only 2 are left: choose something "
     "cheaper, or pass."),
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
    with pytest.raises(DiceError, match=r"^A die shows 1 to 6, not 0: type in the number on "
                       r"its face\.$") as bad:
        game.apply(Shoot("s1", "z1", "pistolet"), dice=[0])
    assert bad.value.where == "dice[0]"
    with pytest.raises(NeedDice, match=r"^Roll a die for Walker 1 \(save on 5\+\) and type in "
                       r"the result\.$") as missing:
        game.apply(Shoot("s1", "z1", "pistolet"), dice=[4])
    assert missing.value.text("fr") == ("Lancez un dé pour Rôdeur 1 (sauvegarde sur 5+) et "
                                        "saisissez le résultat.")
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
    g.refused(Shoot("s1", "z2", "pistolet"), r"shoot the nearest zombie \(Walker 1\)")
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
    from rules.attacks import shooting_legal

    game = start([survivor("s1", "ex_flic_h", 5, 5, items={"pistolet": 1, "balles": 1}),
                  survivor("s2", "ex_flic_h", 8, 5, items={"balles": 1}),
                  zombie("z1", "rodeur", 5, 12)], [1, 1, 1])
    assert shooting_legal(game, game.figures["s1"], "pistolet") == ["z1"]
    s2 = game.figures["s2"]
    s2.items = {**s2.items, "pistolet": 1}
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
    trial.figures["s1"].items = {**trial.figures["s1"].items, "pistolet": 1}
    assert "pistolet" not in game.figures["s1"].items
    with pytest.raises(TypeError):  # shared with the clone: replaced, never changed
        trial.figures["s1"].items["pistolet"] = 2  # type: ignore[index]


def test_contamination_chance_is_the_bite_then_the_failed_resist() -> None:
    """D36: a die against the target's D (an Ex-flic: 5+, 2 faces of 6), then the target
    resists on 4+ (3 faces): 1/3 x 1/2. With a casque it resists on 3+ (4 faces): 1/3 x
    1/3."""
    from rules.attacks import contamination_chance

    game = start([survivor("s1", "ex_flic_h", 5, 5), survivor("s2", "ex_flic_h", 8, 5,
                                                              items={"casque": 1}),
                  zombie("z1", "rodeur", 5, 12)], [1, 1, 1])
    s1, s2 = game.figures["s1"], game.figures["s2"]
    assert defence_of(s1, game.settings) == defence_of(s2, game.settings) == 5
    assert contamination_chance(game, s1) == pytest.approx(1 / 6)
    assert contamination_chance(game, s2) == pytest.approx(1 / 9)
