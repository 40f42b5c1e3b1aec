"""Golden games for panic: the three triggers, failure, and the skills that change the test."""

from __future__ import annotations

import pytest
from golden_helpers import TOUCH, Golden, start, survivor, windows, zombie

from rules.actions import Contaminate, Decline, EndActivations, Melee, Move, Pass, UseSkill
from rules.attacks import defence_of

UP = 5 + TOUCH


def death_scene(witness: str = "geek", skill: str | None = None, sex: str | None = None,
                **settings: object) -> Golden:
    """s1 lies down at (5, 5) with z1 on it; s2 is 2 in away, s3 4.5 in away. Under the
    settings where a down survivor dies of an unsaved wound and only a death is a trigger
    (the rules before R4 and R5); `fall_scene` is the default rules' version."""
    game = start([survivor("s1", "enfant", 5, 5, pv=0, status="down"),
                  survivor("s2", witness, 5 - TOUCH - 1.99, 5, skill=skill, sex=sex),
                  survivor("s3", "geek", 5 + TOUCH + 4.49, 5),
                  zombie("z1", "slasher", 5, UP)], [6, 6, 6],
                 **{"allow_pass": True, "down_survivor_death": "unsaved_wound",
                    "panic_friend_falls": "death", **settings})
    g = Golden(game)
    g(Pass())
    return g


def test_a_death_within_4_in_is_tested_and_failure_freezes_the_figure() -> None:
    g = death_scene(allow_pass=True)
    game = g.game
    notes = g(Melee("z1", "s1"), [3, 4, 4])
    assert notes[3:] == ["Kid (M/F) dies", "Geek (M/F) 2 rolls 4 (panic test on 5+: Kid (M/F) "
                         "died within 4 in)", "Geek (M/F) 2 panics (Kid (M/F) died within 4 in): "
                         "no action this turn, D -1"]
    s2 = game.figures["s2"]
    assert s2.panicked and s2.panic_malus == 1 and defence_of(s2) == 3
    assert game.figures["s3"].panic_tests == 0  # 4.5 in away: no test
    g.refused(Move("s2", to=(2, 2)), r"^Geek \(M/F\) 2 panicked this turn and cannot act\.$",
              code="refusal.panicked")
    g(Move("s3", to=(5 + TOUCH + 4.49, 5)))
    g(Move("z1", toward="s2"))
    g(EndActivations())
    notes = g(Melee("z1", "s2"), [3, 6])
    assert notes[1] == "Slasher 1 rolls 3 (melee, hits on 3+)"  # D 4+ lowered to 3+
    g(EndActivations(), [1, 1, 1])
    assert not game.figures["s2"].panicked and defence_of(game.figures["s2"]) == 4
    g.finish()


def test_a_passed_test_changes_nothing() -> None:
    g = death_scene(allow_pass=True)
    notes = g(Melee("z1", "s1"), [3, 4, 5])
    assert notes[-1] == "Geek (M/F) 2 keeps calm"
    assert not g.game.figures["s2"].panicked
    g.finish()


def test_egoiste_takes_no_test_when_a_friend_dies() -> None:
    g = death_scene("bimbo", "egoiste", allow_pass=True)
    notes = g(Melee("z1", "s1"), [3, 4])
    assert notes[-1] == "Bimbo (F) takes no panic test for a friend's death (Selfish)"
    g.finish()


@pytest.mark.parametrize(("counts", "tested"), [(True, True), (False, False)])
def test_a_contamination_counts_as_a_death(counts: bool, tested: bool) -> None:
    game = start([survivor("s1", "enfant", 5, 5, pv=1), survivor("s2", "geek", 2, 5),
                  zombie("z1", "slasher", 5, UP)], [6, 6, 6],
                 contamination_counts_as_death=counts, allow_pass=True, panic_friend_falls="death")
    g = Golden(game)
    g(Pass())
    g(Melee("z1", "s1"), [3, 4])
    notes = g(Contaminate("z1", "s1"), [3, 1] + ([6] if tested else []))
    assert ("Geek (M/F) rolls 6 (panic test on 5+: Kid (M/F) was contaminated within 4 in)"
            in notes) is tested
    g.finish()


def test_down_figures_never_test() -> None:
    game = start([survivor("s1", "enfant", 5, 5, pv=0, status="down"),
                  survivor("s2", "geek", 2, 5, pv=0, status="down"), survivor("s3", "geek", 20, 5),
                  zombie("z1", "slasher", 5, UP)], [6, 6, 6],
                 allow_pass=True, down_survivor_death="unsaved_wound")
    g = Golden(game)
    g(Pass())
    notes = g(Melee("z1", "s1"), [3, 4])
    assert notes[-1] == "Kid (M/F) dies"
    g.finish()


# --- surrounded -----------------------------------------------------------------------------


def surrounded(skill: str | None = None, friend: tuple[float, float] = (20.0, 10.0),
               archetype: str = "geek", **settings: object) -> Golden:
    """s1 at (10, 10) with two zombies 0.99 in away; z3 comes within 3 in when it moves."""
    figs = [survivor("s1", archetype, 10, 10, skill=skill), survivor("s2", "bourrin", *friend),
            zombie("z1", "rodeur", 10, 10 + TOUCH + 0.98),
            zombie("z2", "rodeur", 10 + TOUCH + 0.98, 10),
            zombie("z3", "rodeur", 10 - TOUCH - 4, 10)]
    g = Golden(start(figs, [6, 6, 6], **settings, allow_pass=True))
    g(Pass())
    return g


def test_three_zombies_within_3_in_and_no_friend_closer() -> None:
    g = surrounded()
    notes = g(Move("z3", to=(10 - TOUCH - 2.5, 10)), [2])
    assert notes[1:] == ["Geek (M/F) rolls 2 (panic test on 5+: surrounded by 3 zombies within "
                         "3 in)", "Geek (M/F) panics (surrounded by 3 zombies within 3 in): no "
                         "action this turn, D -1"]
    g(Move("s2", to=(20, 9)))
    g(Move("z3", to=(10 - TOUCH - 2.4, 10)))  # once per turn: no second test
    assert g.game.figures["s1"].surrounded_tested
    g.finish()


def test_tete_brulee_takes_no_test_when_surrounded() -> None:
    g = surrounded("tete_brulee", archetype="racaille")
    notes = g(Move("z3", to=(10 - TOUCH - 2.5, 10)))
    assert notes[-1] == "Thug (M/F) takes no panic test for being surrounded (Hothead)"
    g.finish()


@pytest.mark.parametrize(("friend", "rule", "tested"), [
    ((10.0, 10 - TOUCH - 2.0), "closer_than_third_zombie", False),  # 2 in: closer than 2.5
    ((10.0, 10 - TOUCH - 2.75), "closer_than_third_zombie", True),  # 2.75 in: further
    ((10.0, 10 - TOUCH - 2.75), "within_3", False),
    ((10.0, 10 - TOUCH - 3.25), "within_3", True),
])
def test_a_standing_friend_close_enough_prevents_the_test(friend: tuple[float, float], rule: str,
                                                          tested: bool) -> None:
    g = surrounded(friend=friend, surrounded_friend_rule=rule)
    notes = g(Move("z3", to=(10 - TOUCH - 2.5, 10)), [6] if tested else [])
    assert any("surrounded" in n for n in notes) is tested
    g.finish()


def test_a_down_friend_does_not_count() -> None:
    figs = [survivor("s1", "geek", 10, 10), survivor("s2", "bourrin", 10, 10 - TOUCH - 1,
                                                      pv=0, status="down"),
            survivor("s3", "bourrin", 20, 10),
            zombie("z1", "rodeur", 10, 10 + TOUCH + 0.98),
            zombie("z2", "rodeur", 10 + TOUCH + 0.98, 10),
            zombie("z3", "rodeur", 10 - TOUCH - 4, 10)]
    g = Golden(start(figs, [6, 6, 6], allow_pass=True))
    g(Pass())
    notes = g(Move("z3", to=(10 - TOUCH - 2.5, 10)), [6])
    assert "(panic test on 5+: surrounded" in notes[-2] and notes[-1] == "Geek (M/F) keeps calm"
    g.finish()


# --- half PV ----------------------------------------------------------------------------------


def test_losing_half_the_pv_is_tested_once() -> None:
    game = start([survivor("s1", "geek", 5, 5, pv=4), zombie("z1", "slasher", 5, UP)],
                 [6, 6, 6], allow_pass=True)
    g = Golden(game)
    g(EndActivations())
    notes = g(Melee("z1", "s1"), [4, 1, 6])  # from 4 PV to 3, half of 6
    assert notes[4:] == ["Geek (M/F) rolls 6 (panic test on 5+: is down to half their "
                         "starting wounds)",
                         "Geek (M/F) keeps calm"]
    notes = g(Melee("z1", "s1"), [4, 1])  # 2 PV: tested already
    assert notes[-1] == "Geek (M/F) loses a wound (2 left)"
    g.finish()


def test_no_half_pv_test_when_already_below_half() -> None:
    game = start([survivor("s1", "geek", 5, 5, pv=2), zombie("z1", "slasher", 5, UP)],
                 [6, 6, 6], allow_pass=True)
    g = Golden(game)
    g(EndActivations())
    notes = g(Melee("z1", "s1"), [4, 1])
    assert notes[-1] == "Geek (M/F) loses a wound (1 left)"
    g.finish()


# --- skills that change the test ------------------------------------------------------------


def half_pv_test(others: list[object], skill: str | None = None, archetype: str = "geek",
                 sex: str | None = None, dice: tuple[int, ...] = ()) -> list[str]:
    """s1 loses its 4th PV of 6 to z1 and tests panic; returns the notes of that attack."""
    game = start([survivor("s1", archetype, 5, 5, skill=skill, sex=sex, pv=4), *others,
                  zombie("z1", "slasher", 5, UP)], [6, 6, 6], allow_pass=True)
    g = Golden(game)
    g(Pass())
    notes = g(Melee("z1", "s1"), [4, 1, *dice])
    g.finish()
    return notes[4:]


def test_maline_passes_her_first_test_then_rolls() -> None:
    assert half_pv_test([], "maline", "ado_f") == [
        "Teen (F) passes their first panic test automatically (Savvy)"]
    game = start([survivor("s1", "ado_f", 5, 5, skill="maline", pv=4),
                  survivor("s3", "enfant", 5 - TOUCH, 5, pv=0, status="down"),
                  zombie("z1", "slasher", 5, UP), zombie("z2", "slasher", 5 - TOUCH, 5 - TOUCH)],
                 [6, 6, 6], allow_pass=True, down_survivor_death="unsaved_wound",
                 panic_friend_falls="death")
    g = Golden(game)
    g(Pass())
    g(Melee("z1", "s1"), [4, 1])
    g(Pass())
    notes = g(Melee("z2", "s3"), [3, 4, 5])
    assert notes[-3:] == ["Teen (F) rolls 5 (panic test on 6+: Kid (M/F) died within 4 in)",
                          "Teen (F) panics (Kid (M/F) died within 4 in): no action this turn, "
                          "D -1", "The survivors can activate no one: they pass (7 AP kept)"]
    g.finish()


def test_paume_rerolls_once_even_with_rassurant_near() -> None:
    notes = half_pv_test([survivor("s2", "prof", 8, 5, skill="rassurant")], "paume", "junkie",
                         dice=(2, 3))
    assert notes == ["Junkie (M/F) rolls 2 (panic test on 6+: is down to half their "
                     "starting wounds)",
                     "Junkie (M/F) re-rolls the failed panic test (Spaced out)",
                     "Junkie (M/F) rolls 3 (panic test re-rolled, on 6+: is down to half their "
                     "starting wounds)",
                     "Junkie (M/F) panics (is down to half their starting wounds): no action "
                     "this turn, D -1"]


@pytest.mark.parametrize(("x", "rerolls"), [(5 + TOUCH + 5.99, True), (5 + TOUCH + 6.5, False)])
def test_rassurant_friend_within_6_in_rerolls(x: float, rerolls: bool) -> None:
    notes = half_pv_test([survivor("s2", "prof", x, 5, skill="rassurant")],
                         dice=(2, 5) if rerolls else (2,))
    if rerolls:
        assert notes[1:3] == ["Teacher (M/F) calms Geek (M/F) down: re-roll (Reassuring)",
                              "Geek (M/F) rolls 5 (panic test re-rolled, on 5+: is down to half "
                              "their starting wounds)"]
    else:
        assert notes[-1].startswith("Geek (M/F) panics")


@pytest.mark.parametrize(("sex", "value"), [("F", 3), ("H", 5)])
def test_meneuse_lends_her_p_to_women_anywhere(sex: str, value: int) -> None:
    notes = half_pv_test([survivor("s2", "bourrine", 30, 30, skill="meneuse")], sex=sex,
                         dice=(4,))
    assert notes[0] == f"Geek (M/F) rolls 4 (panic test on {value}+: is down to half their " \
                       "starting wounds)"
    if sex == "F":
        assert notes[1] == "Geek (M/F) keeps calm (tested on Bruiser (F)'s 3+, Ringleader)"


@pytest.mark.parametrize(("gap", "value"), [(10.0, 3), (10.5, 5)])
def test_autoritaire_within_10_in(gap: float, value: int) -> None:
    notes = half_pv_test([survivor("s2", "ex_flic_f", 5 + TOUCH - 0.01 + gap, 5,
                                   skill="autoritaire")], dice=(4,))
    assert notes[0] == f"Geek (M/F) rolls 4 (panic test on {value}+: is down to half their " \
                       "starting wounds)"


@pytest.mark.parametrize(("gap", "passed"), [(10.0, True), (10.5, False)])
def test_doyen_adds_one_within_10_in(gap: float, passed: bool) -> None:
    notes = half_pv_test([survivor("s2", "vieux", 5 + TOUCH - 0.01 + gap, 5, skill="doyen")],
                         dice=(4,))
    assert notes[0] == ("Geek (M/F) rolls 4 (panic test on 5+: is down to half their starting "
                        "wounds)")
    assert notes[1].startswith("Geek (M/F) keeps calm" if passed else "Geek (M/F) panics")


def test_best_p_then_doyen() -> None:
    notes = half_pv_test([survivor("s2", "ex_flic_f", 10, 5, skill="autoritaire"),
                          survivor("s3", "vieux", 10, 8, skill="doyen")], dice=(2,))
    assert notes == ["Geek (M/F) rolls 2 (panic test on 3+: is down to half their starting "
                     "wounds)",
                     "Geek (M/F) keeps calm (tested on Ex-cop (F)'s 3+, Commanding)"]


@pytest.mark.parametrize(("archetype", "skill"), [("pere", "paternel"), ("mere", "maternelle")])
@pytest.mark.parametrize("child", ["standing", "down", "dead", None])
def test_a_parent_never_panics_with_a_child_in_the_band(archetype: str, skill: str,
                                                         child: str | None) -> None:
    others = [] if child is None else [survivor("s9", "enfant", 30, 30, status=child)]
    pv = {"pere": 5, "mere": 4}[archetype]  # one more than half: the next wound is tested
    game = start([survivor("s1", archetype, 5, 5, skill=skill, pv=pv), *others,
                  zombie("z1", "slasher", 5, UP)], [6, 6, 6], allow_pass=True)
    g = Golden(game)
    g(EndActivations())
    immune = child in ("standing", "down")
    name = {"paternel": "Fatherly", "maternelle": "Motherly"}[skill]
    who = {"pere": "Father (M)", "mere": "Mother (F)"}[archetype]
    notes = g(Melee("z1", "s1"), [4, 1] + ([] if immune else [4]))
    if immune:
        assert notes[-1].endswith(f"never panics while a child is in the band ({name})")
    else:
        assert notes[-2].startswith(f"{who} rolls 4 (panic test on 4+")
    g.finish()


def test_hysterique_runs_after_failing() -> None:
    notes = half_pv_test([], "hysterique", "bimbo", dice=(2,))
    assert notes[-1] == ("Bimbo (F) panics (is down to half their starting wounds): no action this "
                         "turn, D -1")


def hysterique(mover: str) -> Golden:
    game = start([survivor("s1", "bimbo", 5, 5, skill="hysterique", pv=4),
                  survivor("s2", "bourrin", 15, 5), zombie("z1", "slasher", 5, UP)], [6, 6, 6],
                 hysterique_mover=mover, allow_pass=True)
    g = Golden(game)
    g(EndActivations())
    g(Melee("z1", "s1"), [4, 1, 2])
    assert windows(game) == [{"kind": "hysterique", "figure": "s1", "side": mover}]
    assert game.current_side() == mover
    return g


def test_hysterique_free_move_where_the_player_wants() -> None:
    g = hysterique("survivors")
    game = g.game
    g.refused(UseSkill("s1", "hysterique"), "^Hysterical: say where to run",
              code="refusal.hysterical_where")
    g.refused(UseSkill("s1", "hysterique", to=(5, 11)), "moves 5.0 in a move")
    notes = g(UseSkill("s1", "hysterique", to=(5, 0.6)), [3, 6])  # leaving: a free attack
    assert notes[:4] == ["Bimbo (F) runs off screaming (Hysterical)",
                         "Bimbo (F) leaves the melee: Slasher 1 strikes first",
                         "Slasher 1 rolls 3 (melee, hits on 2+)", "Bimbo (F) rolls 6 (save on 5+)"]
    s1 = game.figures["s1"]
    assert (s1.x, s1.y) == (5, 0.6) and s1.panicked and s1.moves == 1
    g.finish()


def test_hysterique_mover_zombies() -> None:
    g = hysterique("zombies")
    assert g(Decline()) == ["Declined: Hysterical"]
    g.finish()


def test_rassurant_once_per_turn() -> None:
    game = start([survivor("s1", "geek", 5, 5, pv=4), survivor("s3", "geek", 9, 5, pv=4),
                  survivor("s2", "prof", 7, 8, skill="rassurant"),
                  zombie("z1", "slasher", 5, 5 - TOUCH), zombie("z3", "slasher", 9, 5 - TOUCH)],
                 [6, 6, 6], allow_pass=True)
    g = Golden(game)
    g(Pass())
    notes = g(Melee("z1", "s1"), [4, 1, 2, 3])
    assert "Teacher (M/F) calms Geek (M/F) 1 down: re-roll (Reassuring)" in notes
    g(Pass())
    notes = g(Melee("z3", "s3"), [4, 1, 2])
    assert notes[-1].startswith("Geek (M/F) 3 panics")
    g(Pass())
    g(Pass(), [1, 1, 1])
    assert game.figures["s2"].used_turn == {}
    g.finish()
