"""Golden games for each action: move, door, shoot, melee, the 2-AP reaction, down and
contamination, heal, revive and carry; and the errors players get."""

from __future__ import annotations

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
                 [6, 6, 6])
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
    g.refused(Melee("s1", "z1", ap=3, weapon="katana"), "3 AP would give 6")
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
                  zombie("z1", "rodeur", 5, UP)], [6, 6, 6])
    g = Golden(game)
    g(EndActivations())
    g(Melee("z1", "s1"), rolls)
    assert game.figures["s1"].pv == pv
    g.finish()


def test_protection_effects_cosmetic() -> None:
    game = start([survivor("s1", "bourrin", 5, 5, skill="cogneur",
                           items={"protection": 1, "couvercle_de_poubelle": 1}),
                  zombie("z1", "rodeur", 5, UP)], [6, 6, 6], protection_effects="cosmetic")
    g = Golden(game)
    g(EndActivations())
    notes = g(Melee("z1", "s1"), [4, 4])
    assert notes[1:3] == ["rolls 4 (melee attack vs 4+, z1)", "rolls 4 (save 5+, s1)"]
    assert game.figures["s1"].pv == 9
    g.finish()


def test_combattant_rerolls_a_failed_melee_save() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, skill="combattant"),
                  zombie("z1", "ignoble", 5, UP)], [6, 6, 6])
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
