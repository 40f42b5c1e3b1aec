"""Golden games for the skills used as actions or offered in windows, and héroïque,
chirurgien, premiers soins and discrète."""

from __future__ import annotations

import pytest
from golden_helpers import TOUCH, Golden, at, d, start, survivor, windows, zombie

from rules.actions import (
    Contaminate,
    Decline,
    EndActivations,
    Heal,
    Melee,
    Move,
    Pass,
    Revive,
    Shoot,
    UseSkill,
)

UP = 5 + TOUCH
SIDE = 5 + TOUCH


# --- chanceux -------------------------------------------------------------------------------


def test_chanceux_removes_the_two_nearest_zombies_once_per_game() -> None:
    game = start([survivor("s1", "vieux", 5, 5, skill="chanceux"),
                  zombie("z1", "rodeur", 5, 8), zombie("z2", "ignoble", 9, 5),
                  zombie("z3", "rodeur", 5, 12)], [6, 6, 6])
    g = Golden(game)
    assert UseSkill("s1", "chanceux") in game.legal_actions()
    notes = g(UseSkill("s1", "chanceux"))
    assert notes == ["Luck: Walker 1 is killed by another zombie (Lucky)",
                     "Luck: Abomination 2 is killed by another zombie (Lucky)"]
    assert [z for z in ("z1", "z2", "z3") if game.figures[z].on_table] == ["z3"]
    assert game.pools["survivors"] == 1 + 6 - 1
    g(Move("z3", to=(5, 11)))
    g.refused(UseSkill("s1", "chanceux"), r"^Old woman \(F\) has used Lucky already: it is "
              r"once per game\.$", code="refusal.skill_used")
    g.refused(UseSkill("s1", "sprinter"), r"^Old woman \(F\) does not have Sprinter\.$",
              code="refusal.no_skill")
    g(Move("s1", to=(5, 4)))
    g.finish()


def test_chanceux_with_one_zombie_left_removes_it() -> None:
    game = start([survivor("s1", "mere", 5, 5, skill="chanceux"), zombie("z1", "rodeur", 5, 8)],
                 [6, 6, 6])
    g = Golden(game)
    notes = g(UseSkill("s1", "chanceux"))
    assert notes[-1] == "Game over: the survivors win (no zombie is left on the table)"
    g.finish()


# --- sprinter --------------------------------------------------------------------------------


def test_sprinter_free_move_once_per_game() -> None:
    game = start([survivor("s1", "ado_h", 5, 5, skill="sprinter"), zombie("z1", "rodeur", 5, 15)],
                 [6, 6, 6])
    g = Golden(game)
    g.refused(UseSkill("s1", "sprinter", to=(5, 10.5)), "moves 5.0 in a move")
    notes = g(UseSkill("s1", "sprinter", to=(5, 10)))
    assert notes == ["Teen (M) sprints: a free move (Sprinter)", "Teen (M) moves 5.0 in"]
    assert game.pools["survivors"] == 7 and game.to_act == "zombies"
    assert game.figures["s1"].moves == 1  # it counts as a move (D11)
    g(Move("z1", to=(5, 14)))
    g.refused(UseSkill("s1", "sprinter", to=(5, 9)), "has used Sprinter already")
    g.finish()


def test_sprinter_toward_a_zombie() -> None:
    game = start([survivor("s1", "enfant", 5, 5, skill="sprinter"), zombie("z1", "rodeur", 5, 8)],
                 [6, 6, 6])
    g = Golden(game)
    g(UseSkill("s1", "sprinter", target="z1"))
    assert game.in_contact("s1", "z1")
    g.finish()


# --- savoir ----------------------------------------------------------------------------------


def savoir_scene() -> Golden:
    game = start([survivor("s1", "scientifique", 5, 5, skill="savoir"),
                  survivor("s2", "bourrin", 12, 5, pv=1),
                  zombie("z1", "rodeur", 5, 12), zombie("z2", "slasher", 12, 5 + TOUCH)],
                 [6, 2, 3], allow_pass=True)
    g = Golden(game)
    g(Pass())
    return g


def test_savoir_cancels_a_zombie_activation_once_per_turn() -> None:
    g = savoir_scene()
    game = g.game
    notes = g(Move("z1", to=(5, 11)))
    assert notes == ["Walker 1 is about to move: Scientist (M/F) may cancel it (Know-how)"]
    assert windows(game) == [{"kind": "savoir", "figure": "s1", "side": "survivors",
                             "deferred": {"type": "move", "figure": "z1", "to": [5, 11]}}]
    assert game.current_side() == "survivors" and game.pools["zombies"] == 4
    assert game.legal_actions() == [UseSkill("s1", "savoir"), Decline()]
    notes = g(UseSkill("s1", "savoir"))
    assert notes == ["Scientist (M/F) saw it coming: Walker 1's activation is cancelled "
                     "(Know-how)"]
    assert at(game, "z1") == (5.0, 12.0) and game.to_act == "survivors"
    g(Pass())
    notes = g(Move("z1", to=(5, 11)))  # used this turn: no window
    assert notes == ["Walker 1 moves 1.0 in"]
    g.finish()


def test_savoir_declined_lets_the_activation_happen() -> None:
    g = savoir_scene()
    g(Move("z1", to=(5, 11)))
    notes = g(Decline())
    assert notes == ["Declined: Know-how", "Walker 1 moves 1.0 in"]
    assert g.game.pools["zombies"] == 4 and g.game.to_act == "survivors"
    g.finish()


def test_savoir_cancels_a_contamination() -> None:
    g = savoir_scene()
    game = g.game
    g(Move("z1", to=(5, 11)))
    g(Decline())
    g(Pass())
    g(Melee("z2", "s2"))  # savoir is offered at each zombie activation until used
    g(Decline(), [5, 1])
    assert game.pending[0].kind == "contaminate"
    g(Contaminate("z2", "s2"))
    assert game.pending[0].kind == "savoir" and game.pools["zombies"] == 5 - 3
    g(UseSkill("s1", "savoir"))
    assert game.figures["s2"].status == "down" and game.figures["s2"].side == "survivors"
    g.finish()


def test_savoir_cancels_a_two_ap_reaction() -> None:
    game = start([survivor("s1", "scientifique", 5, 5, skill="savoir"),
                  survivor("s2", "militaire_h", 12, 5, skill="heroique",
                           items={"fusil": 1, "balles": 1}),
                  zombie("z1", "rodeur", 12, 12)], [6, 2, 3], two_ap_reaction="before")
    g = Golden(game)
    g(Shoot("s2", "z1", "fusil"))
    notes = g(Move("z1", toward="s2"))
    assert notes[-1] == "Walker 1 is about to move: Scientist (M/F) may cancel it (Know-how)"
    notes = g(UseSkill("s1", "savoir"), [2, 3])  # cancelled: then the held-back shot
    assert notes[1:3] == ["Soldier (M) shoots at Walker 1 with Rifle (1 attack)",
                          "Soldier (M) rolls 2 (shot, hits on 2+)"]
    assert at(game, "z1") == (12.0, 12.0) and not game.figures["z1"].on_table
    g.finish()


def test_no_savoir_when_the_scientist_is_down() -> None:
    game = start([survivor("s1", "scientifique", 5, 5, skill="savoir", pv=0, status="down"),
                  survivor("s2", "bourrin", 12, 5), zombie("z1", "rodeur", 5, 12)], [6, 2, 3],
                 allow_pass=True)
    g = Golden(game)
    g(Pass())
    assert g(Move("z1", to=(5, 11)))[0].startswith("Walker 1 moves")
    g.finish()


# --- didactique ------------------------------------------------------------------------------


def test_didactique_rerolls_the_ap_die_once_per_game() -> None:
    game = start([survivor("s1", "scientifique", 5, 5, skill="didactique"),
                  zombie("z1", "rodeur", 5, 12)], [1, 2, 3], max_turns=3, allow_pass=True)
    g = Golden(game)
    assert windows(game) == [{"kind": "didactique", "figure": "s1", "side": "survivors",
                             "die": 1}]
    assert game.legal_actions() == [UseSkill("s1", "didactique"), Decline()]
    notes = g(UseSkill("s1", "didactique"), [5])
    assert notes == ["Scientist (M/F) rolls 5 (the action point die, re-rolled)",
                     "Didactic: the AP die is re-rolled (1 → 5); now 6 AP"]
    assert game.pools["survivors"] == 6 and game.to_act == "survivors"
    g(Pass())
    notes = g(Pass(), [2, 1, 1])
    assert game.turn == 2 and game.pending == []  # used: not offered again
    g.finish()


def test_didactique_declined_is_offered_again_next_turn() -> None:
    game = start([survivor("s1", "scientifique", 5, 5, skill="didactique"),
                  zombie("z1", "rodeur", 5, 12)], [1, 2, 3], allow_pass=True)
    g = Golden(game)
    g(Decline())
    assert game.pools["survivors"] == 2
    g(Pass())
    g(Pass(), [2, 1, 1])
    assert game.pending[0].kind == "didactique" and game.pending[0].die == 2
    g.finish()


# --- extrémiste ------------------------------------------------------------------------------


def extremiste(**settings: object) -> Golden:
    game = start([survivor("s1", "anarchiste", 5, 5, skill="extremiste"),
                  zombie("z1", "rodeur", 5, UP), zombie("z2", "rodeur", 12, 5)], [6, 6, 6],
                 **settings)
    g = Golden(game)
    notes = g(Melee("s1", "z1"), [3, 2])
    assert notes[-1] == "Anarchist (M/F) kills Walker 1"
    assert windows(game) == [{"kind": "extremiste", "figure": "s1", "side": "survivors"}]
    return g


def test_extremiste_free_move_toward_the_nearest_zombie() -> None:
    g = extremiste()
    game = g.game
    assert game.legal_actions() == [UseSkill("s1", "extremiste"), Decline()]
    notes = g(UseSkill("s1", "extremiste"))
    assert notes[0] == "Anarchist (M/F) charges the nearest zombie (Extremist)"
    assert at(game, "s1") == (10.0, 5.0) and game.pools["survivors"] == 1 + 6 - 1
    assert game.figures["s1"].moves == 1 and game.to_act == "zombies"
    g.finish()


def test_extremiste_is_optional_unless_mandatory() -> None:
    g = extremiste()
    assert g(Decline()) == ["Declined: Extremist"]
    g.finish()
    g = extremiste(extremiste_move="mandatory")
    assert g.game.legal_actions() == [UseSkill("s1", "extremiste")]
    g.refused(Decline(), r"^Anarchist \(M/F\) must make the Extremist move \(this game's "
              r"setting\): it cannot be declined\.$", code="refusal.must_charge")
    g(UseSkill("s1", "extremiste"))
    g.finish()


# --- entraîné and tireur rapide --------------------------------------------------------------


def test_entraine_may_fight_again_once() -> None:
    game = start([survivor("s1", "militaire_h", 5, 5, skill="entraine"),
                  zombie("z1", "ignoble", 5, UP), zombie("z2", "rodeur", SIDE, 5)], [6, 6, 6])
    g = Golden(game)
    g(Melee("s1", "z1"), [3])
    assert windows(game) == [{"kind": "reactivate", "figure": "s1", "action": "melee",
                             "side": "survivors"}]
    g.refused(Move("s1", to=(4, 4)), r"^Now Soldier \(M\) may attack again, or decline\.$",
              code="refusal.now_melee_again")
    notes = g(Melee("s1", "z2"), [4, 5])
    assert notes[-1] == "Soldier (M) kills Walker 2"
    assert game.pending == [] and game.to_act == "zombies"  # no third go
    assert game.pools["survivors"] == 1 + 6 - 2
    g.finish()


def test_tireur_rapide_may_shoot_again_or_decline() -> None:
    game = start([survivor("s1", "racaille", 5, 5, skill="tireur_rapide",
                           items={"pistolet": 1, "balles": 1}),
                  zombie("z1", "rodeur", 5, 10)], [6, 6, 6])
    g = Golden(game)
    g(Shoot("s1", "z1", "pistolet"), [1])
    assert game.legal_actions() == [Shoot("s1", "z1", "pistolet"), Decline()]
    g(Decline())
    assert game.to_act == "zombies" and game.pools["survivors"] == 6
    g.finish()


# --- héroïque --------------------------------------------------------------------------------


def heroic(death: str = "never", **items: int) -> Golden:
    game = start([survivor("s1", "militaire_h", 5, 5, skill="heroique", pv=0, status="down",
                           items=items),
                  survivor("s2", "bourrin", 15, 5), zombie("z1", "rodeur", 5, UP)], [6, 6, 6],
                 allow_pass=True, down_survivor_death=death)
    assert game.pools["survivors"] == 1 + 6
    return Golden(game)


def test_a_down_heroique_acts_once_a_turn_for_one_ap() -> None:
    g = heroic(katana=1)
    game = g.game
    g.refused(Melee("s1", "z1", ap=2), r"^Soldier \(M\) is down: Heroic allows only 1-AP "
              r"actions\.$", code="refusal.heroic_one_ap")
    notes = g(Melee("s1", "z1", weapon="katana"), [1, 1])  # one AP: two katana dice
    assert notes[0] == "Soldier (M) attacks Walker 1 with Katana (2 dice)"
    assert game.pending == [] and game.pools["survivors"] == 6
    g(Pass())
    g.refused(Melee("s1", "z1"), r"^Soldier \(M\) is down and cannot act\.$",
              code="refusal.is_down")
    g.finish()


@pytest.mark.parametrize(("death", "dice"), [("never", []), ("unsaved_wound", [1])])
def test_a_down_heroique_may_crawl_but_not_revive_itself(death: str, dice: list[int]) -> None:
    g = heroic(death)
    g.refused(Revive("s1", "s1"), "down: Heroic allows only 1-AP actions")
    # leaving the zombie: no free attack on a figure out of action (L86, L117, R4), unless
    # down survivors may be finished off (then it misses)
    notes = g(Move("s1", to=(5, 3)), dice)
    assert notes[-1] == "Soldier (M) moves 2.0 in"
    assert g.game.figures["s1"].status == "down"
    g.finish()


def test_a_down_heroique_heals_itself_back_to_its_feet() -> None:
    g = heroic(soins=1)
    game = g.game
    notes = g(Heal("s1", "s1"))
    assert notes == ["Soldier (M) tends to their own wounds (back to 2 wounds)"]
    s1 = game.figures["s1"]
    assert (s1.status, s1.pv, s1.resting) == ("standing", 2, True)
    g(Pass())
    g.refused(Move("s1", to=(5, 3)), "was revived this turn")
    g.finish()


# --- healing skills --------------------------------------------------------------------------


def test_premiers_soins_heals_without_an_item_but_cannot_raise_the_fallen() -> None:
    game = start([survivor("s1", "medecin", 5, 5, skill="premiers_soins"),
                  survivor("s2", "bourrin", SIDE, 5, pv=3),
                  survivor("s3", "geek", 5, UP, pv=0, status="down"),
                  zombie("z1", "rodeur", 20, 20)], [6, 6, 6])
    g = Golden(game)
    g(Heal("s1", "s2"))
    assert game.figures["s2"].pv == 5 and game.figures["s1"].units == {}
    g(Move("z1", to=(20, 19)))
    g.refused(Heal("s1", "s3"), r"^Geek \(M/F\) is down: revive them instead \(2 AP\)\.$")
    g.finish()


@pytest.mark.parametrize(("owner", "items", "ok"), [
    ("s1", "any_friend", True), ("s3", "any_friend", True), ("s2", "any_friend", True),
    # L183 "équipement Soins de n'importe lequel des personnages amis" (R3): s4, 10 in away
    ("s4", "any_friend", True),
    ("s1", "in_contact", True), ("s3", "in_contact", True), ("s2", "in_contact", True),
    ("s4", "in_contact", False)])
def test_chirurgien_raises_the_fallen_with_a_friend_s_item(owner: str, items: str,
                                                          ok: bool) -> None:
    kit = {"soins": 1}
    game = start([survivor("s1", "medecin", 5, 5, skill="chirurgien",
                           items=kit if owner == "s1" else {}),
                  survivor("s2", "bourrin", SIDE, 5, items=kit if owner == "s2" else {}),
                  survivor("s3", "geek", 5, UP, pv=0, status="down",
                           items=kit if owner == "s3" else {}),
                  survivor("s4", "ado_h", 15, 5, items=kit if owner == "s4" else {}),
                  zombie("z1", "rodeur", 20, 20)], [6, 6, 6], chirurgien_items=items)
    g = Golden(game)
    if not ok:
        g.refused(Heal("s1", "s3"), r"^Doctor \(M/F\) needs heals: their own, Geek \(M/F\)'s "
                  r"or those of a friend in contact, and none has any left\.$",
                  code="refusal.no_heals_contact")
        return
    notes = g(Heal("s1", "s3"))
    lender = "" if owner == "s1" else f" with {game.figures[owner].name_en}'s heals"
    assert notes == [f"Doctor (M/F) heals Geek (M/F){lender} (back to 2 wounds)"]
    s3 = game.figures["s3"]
    assert (s3.status, s3.pv, s3.resting) == ("standing", 2, True)
    assert game.figures[owner].units == {"soins": 4}
    assert game.pools["survivors"] == 3 + 6 - 1 and game.pending == []  # 1 AP: no reaction
    g.finish()


# --- discrète ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("start_gap", "reaches"), [(2.9, True), (3.0, False), (3.5, False)])
def test_discrete_zombies_reach_her_only_from_within_3_in(start_gap: float,
                                                          reaches: bool) -> None:
    game = start([survivor("s1", "ado_f", 5, 5, skill="discrete"),
                  zombie("z1", "rodeur", 5, UP - 0.01 + start_gap)], [6, 6, 6], allow_pass=True)
    g = Golden(game)
    assert d(game, "s1", "z1") == pytest.approx(start_gap)
    g(Pass())
    if not reaches:
        g.refused(Move("z1", to=(5, UP)), r"^Teen \(F\) has Stealthy: Walker 1 must start its "
                  r"move less than 3 in from her to reach her\.$", code="refusal.discrete")
    g(Move("z1", toward="s1"))
    assert game.in_contact("s1", "z1") is reaches
    if not reaches:
        assert d(game, "s1", "z1") == pytest.approx(0.3)
        g(Pass())
        g(Move("z1", to=(5, UP)))  # now it starts 0.3 in from her
        assert game.in_contact("s1", "z1")
    g.finish()


def test_sprinter_with_an_empty_pool() -> None:
    game = start([survivor("s1", "ado_h", 5, 5, skill="sprinter"), zombie("z1", "rodeur", 5, 15)],
                 [1, 1, 2])
    g = Golden(game)
    g(Move("s1", to=(5, 4)))
    g(Move("z1", to=(5, 14)))
    g(Move("s1", to=(5, 5)))
    assert game.pools == {"survivors": 0, "zombies": 2} and game.to_act == "zombies"
    g(Move("z1", to=(5, 13)))
    assert game.to_act == "survivors"  # out of AP, but a sprint is still possible
    # "un joueur n'ayant plus de PA doit passer son tour" (L74, R1): with no AP the pass is
    # offered beside the sprint
    assert game.legal_actions() == [UseSkill("s1", "sprinter", target="z1"), Pass(),
                                    EndActivations()]
    g.refused(Move("s1", to=(5, 5)), "This costs 1 AP and only 0 are left",
              code="refusal.not_enough_ap")
    g(UseSkill("s1", "sprinter", to=(5, 9)))
    assert game.to_act == "zombies"
    g(Move("z1", to=(5, 12)), [1, 1, 1])  # the survivors cannot act: the turn ends
    assert game.turn == 2
    g.finish()


def test_end_activations_ends_the_side_s_turn_even_with_a_sprint_left() -> None:
    game = start([survivor("s1", "ado_h", 5, 5, skill="sprinter"), zombie("z1", "rodeur", 5, 15)],
                 [1, 1, 2], allow_pass=True)
    g = Golden(game)
    g(EndActivations())
    assert game.ended == ["survivors"] and game.to_act == "zombies"
    g(Move("z1", to=(5, 14)))
    g(Move("z1", to=(5, 13)))
    assert game.to_act == "zombies"
    g(Move("z1", to=(5, 12)), [1, 1, 1])
    assert game.turn == 2 and game.ended == [] and game.to_act == "survivors"
    g.finish()
