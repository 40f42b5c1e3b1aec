"""Golden games for the turn: action points, alternation, passing, end of turn, end of game."""

from __future__ import annotations

import pytest
from golden_helpers import Golden, at, english, start, survivor, zombie

from rules.actions import EndActivations, Melee, Move, Pass
from rules.dice import DiceError, NeedDice
from rules.errors import IllegalActionError
from rules.game import Game


def _band() -> list:
    return [
        survivor("s1", "ex_flic_h", 5, 5),
        survivor("s2", "bimbo", 8, 5),
        survivor("s3", "enfant", 11, 5, pv=0, status="down"),
    ]


@pytest.mark.parametrize(("counts", "expected"), [("standing", 2 + 4), ("all", 3 + 4)])
def test_ap_pools_at_turn_start(counts: str, expected: int) -> None:
    game = start([*_band(), zombie("z1", "rodeur", 5, 15)], [4, 3, 5], ap_pool_counts=counts)
    assert game.turn == 1
    assert game.pools == {"survivors": expected, "zombies": 8}
    assert game.to_act == "survivors"
    assert game.log[0]["dice"] == [4, 3, 5]
    assert english(game.log[0]["notes"])[-1] == (f"Turn 1: the survivors have {expected} AP, "
                                                 "the zombies 8 AP")


def test_start_needs_its_dice_and_refuses_bad_ones() -> None:
    with pytest.raises(NeedDice, match=r"^Roll a die \(the zombies' action points\) and type "
                       r"in the result\.$") as missing:
        start([*_band(), zombie("z1", "rodeur", 5, 15)], [4, 3])
    assert missing.value.text("fr") == ("Lancez un dé (points d'action des zombies) et saisissez "
                                        "le résultat.")
    with pytest.raises(DiceError, match=r"A die shows 1 to 6, not 7") as bad:
        start([*_band(), zombie("z1", "rodeur", 5, 15)], [4, 7, 1])
    assert bad.value.where == "dice[1]"


def test_panicked_survivor_still_counts_in_the_pool() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [1, 1, 1])
    game.figures["s1"].panicked = True  # D9: panicked figures count; panic ends with the turn
    assert game.survivors_counted() == 1


def test_alternation_and_a_side_out_of_ap_keeps_the_other_going() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [1, 1, 2],
                 max_turns=3)
    g = Golden(game)
    assert game.pools == {"survivors": 2, "zombies": 3}
    g(Move("s1", to=(5, 6)))
    assert game.to_act == "zombies" and game.pools == {"survivors": 1, "zombies": 3}
    g.refused(Move("s1", to=(5, 7)), r"^It is the zombies' turn to activate a figure, and "
              r"Ex-cop \(M\) is not a zombie\.$", code="refusal.not_your_turn.zombies")
    g(Move("z1", to=(5, 14)))
    assert game.to_act == "survivors"
    g(Move("s1", to=(5, 7)))
    assert game.pools == {"survivors": 0, "zombies": 2}
    # the survivors are out of AP: the zombies activate one after another
    assert game.to_act == "zombies"
    g(Move("z1", to=(5, 13)))
    assert game.to_act == "zombies" and game.pools["zombies"] == 1
    # L74 "jusqu'à ce que chaque camp ait utilisé tous ses PA" (R1): no giving up with AP left
    assert EndActivations() not in game.legal_actions() and Pass() not in game.legal_actions()
    notes = g(Move("z1", to=(5, 12)), [6, 3, 4])
    assert notes[1:] == [
        "End of turn 1", "Die: 6 (the survivors' action points)",
        "Die: 3 (the zombies' action points)", "Die: 4 (the zombies' action points)",
        "Turn 2: the survivors have 7 AP, the zombies 7 AP"]
    assert (game.turn, game.to_act, game.pools) == (2, "survivors", {"survivors": 7, "zombies": 7})
    assert game.figures["s1"].moves == 0 and game.figures["z1"].moves == 0
    g.finish()


def test_zombies_out_of_reach_pass_and_keep_their_ap() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 27)], [1, 2, 2],
                 allow_pass=True)
    g = Golden(game)
    notes = g(Move("s1", to=(5, 6)))  # still 21.0 in away
    assert notes[-1] == "The zombies can activate no one: they pass (4 AP kept)"
    assert game.pools == {"survivors": 1, "zombies": 4} and game.to_act == "survivors"
    assert game.passes == 1
    g(Move("s1", to=(5, 7)))  # now 19.0 in away: the zombies may act
    assert game.to_act == "zombies" and game.passes == 0
    g(Move("z1", to=(5, 26)))
    assert game.to_act == "zombies" and game.passes == 1  # the survivors, out of AP, passed
    notes = g(Pass(), [1, 1, 1])  # so a zombie pass ends the turn
    assert notes[:3] == ["The zombies pass (3 AP kept)",
                         "Both sides passed: the zombies' 3 AP left are lost", "End of turn 1"]
    assert game.turn == 2 and game.pools == {"survivors": 2, "zombies": 2}
    g.finish()


def test_survivors_with_nobody_to_activate_pass() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [3, 1, 1])
    game.apply(Move("s1", to=(5, 6)))
    game.figures["s1"].panicked = True  # as after a failed panic test (see test_game_panic)
    notes = english(game.apply(Move("z1", to=(5, 14))))
    assert notes[-1] == "The survivors can activate no one: they pass (3 AP kept)"
    assert game.pools == {"survivors": 3, "zombies": 1} and game.to_act == "zombies"
    notes = english(game.apply(Move("z1", to=(5, 13)), dice=[1, 1, 1]))
    assert notes[1:3] == ["The survivors can activate no one: they pass (3 AP kept)",
                          "Both sides passed: the survivors' 3 AP left are lost"]


def test_two_passes_in_a_row_end_the_turn() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [2, 1, 1],
                 allow_pass=True)
    g = Golden(game)
    assert Pass() in game.legal_actions()
    assert g(Pass()) == ["The survivors pass (3 AP kept)"]
    assert game.to_act == "zombies" and game.pools == {"survivors": 3, "zombies": 2}
    g(Move("z1", to=(5, 14)))  # an activation: the passes start again
    assert game.to_act == "survivors" and game.passes == 0
    g(Pass())
    notes = g(Pass(), [5, 1, 1])
    assert notes[:3] == ["The zombies pass (1 AP kept)",
                         "Both sides passed: the survivors' 3 AP left are lost",
                         "Both sides passed: the zombies' 1 AP left are lost"]
    assert game.turn == 2 and game.pools == {"survivors": 6, "zombies": 2}
    g.finish()


def test_allow_pass_false_forces_an_activation() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [2, 1, 1],
                 allow_pass=False)
    g = Golden(game)
    assert Pass() not in game.legal_actions() and EndActivations() not in game.legal_actions()
    g.refused(Pass(), r"^The survivors must activate a figure while they can \(this game's "
              r"setting\): their AP cannot be kept\.$", code="refusal.must_activate.survivors")
    g.refused(EndActivations(), "must activate a figure")
    g(Move("s1", to=(5, 4)))
    g.finish()


def test_end_activations_gives_up_the_pool() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [2, 1, 1],
                 allow_pass=True)
    g = Golden(game)
    notes = g(EndActivations())
    assert notes == ["The survivors end their activations (3 AP unused)"]
    assert game.pools == {"survivors": 0, "zombies": 2} and game.to_act == "zombies"
    g(EndActivations(), [1, 1, 1])
    assert game.turn == 2
    g.finish()


def test_end_of_turn_resets_moves_panic_and_resting() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), survivor("s2", "bimbo", 8, 5),
                  zombie("z1", "rodeur", 5, 15)], [1, 1, 1], allow_pass=True)
    s2 = game.figures["s2"]
    s2.panicked, s2.panic_malus, s2.resting = True, 1, False
    g = Golden(game)
    g(Move("s1", to=(5, 6)))
    g(Move("z1", to=(5, 14)))
    g(Move("s1", to=(5, 7)))
    g(Move("z1", to=(5, 13)))
    assert game.figures["s1"].moves == 2
    g(EndActivations(), [2, 1, 1])
    assert game.turn == 2
    assert (s2.panicked, s2.panic_malus, game.figures["s1"].moves) == (False, 0, 0)
    assert game.pools["survivors"] == 2 + 2


def test_survivors_win_after_max_turns() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 27)], [1, 1, 1],
                 max_turns=2, allow_pass=True)
    g = Golden(game)
    g(Move("s1", to=(5, 4)))
    g(EndActivations(), [1, 1, 1])
    assert game.turn == 2 and not game.is_terminal
    notes = g(EndActivations())
    assert notes[-2:] == ["End of turn 2",
                          "Game over: the survivors win (the survivors held out for 2 turns)"]
    assert game.outcome == {"winner": "survivors", "reason": "the survivors held out for 2 turns",
                            "turn": 2, "words": {"code": "engine.end.held_out",
                                                        "params": {"turns": 2}}}
    assert game.legal_actions() == []
    g.refused(Move("s1", to=(5, 5)), r"The game is over \(the survivors held out",
              code="refusal.game_over")
    g.finish()


def test_survivors_win_when_no_zombie_is_left() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 5 + 0.995)],
                 [1, 1, 1])
    g = Golden(game)
    notes = g(Melee("s1", "z1"), [4, 2])  # hits the 2+, the melee save 6+ fails
    assert notes[-1] == "Game over: the survivors win (no zombie is left on the table)"
    assert game.figures["z1"].status == "removed"
    assert game.outcome is not None and game.outcome["winner"] == "survivors"
    g.finish()


def test_zombies_win_when_the_last_survivor_falls() -> None:
    game = start([survivor("s1", "enfant", 5, 5, pv=1), zombie("z1", "slasher", 5, 5.995)],
                 [1, 1, 1], allow_pass=True)
    g = Golden(game)
    g(EndActivations())
    notes = g(Melee("z1", "s1"), [5, 2])  # hits the enfant's 3+, the 5+ save fails
    assert "Kid (M/F) is down" in notes
    assert notes[-1] == "Game over: the zombies win (no survivor is left standing)"
    assert game.pending == []  # no contamination window once the game is over
    assert game.outcome == {"winner": "zombies", "reason": "no survivor is left standing",
                            "turn": 1, "words": {"code": "engine.end.no_survivor",
                                                        "params": {}}}
    assert english(game.log[-1]["notes"], "fr")[-1] == (
        "Fin de la partie : les zombies l'emportent (plus aucun survivant n'est debout)")
    g.finish()


def test_replay_and_undo_of_the_start() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)], [5, 2, 3])
    again = Game.replay(game.export())
    assert again.to_json() == game.to_json()
    with pytest.raises(IllegalActionError, match="nothing to take back"):
        game.undo()


# --- zombie activation: the 20 in rule -----------------------------------------------------


def test_zombie_beyond_20_in_is_refused_with_the_distance() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 3), zombie("z1", "rodeur", 5, 27.4),
                  zombie("z2", "rodeur", 5, 10)], [1, 1, 1])
    g = Golden(game)
    g(Move("s1", to=(5, 2)))
    g.refused(Move("z1", to=(5, 26)),
              r"^Walker 1 is 24\.4 in from the nearest human: a zombie acts only within 20 in "
              r"of one\.$", code="refusal.zombie_too_far")
    assert Move("z1", toward="s1") not in game.legal_actions()
    g(Move("z2", to=(5, 9)))
    g.finish()


@pytest.mark.parametrize("human", ["down", "civilian"])
def test_a_down_survivor_or_a_civilian_wakes_zombies_up(human: str) -> None:
    from rules.figures import civilian

    near = (survivor("s2", "bimbo", 5, 20, pv=0, status="down") if human == "down"
            else civilian("c1", 5, 20))
    game = start([survivor("s1", "ex_flic_h", 5, 3), near, zombie("z1", "rodeur", 5, 27.4)],
                 [1, 1, 1])
    g = Golden(game)
    g(Move("s1", to=(5, 2)))
    assert game.to_act == "zombies"
    g(Move("z1", to=(5, 26)))
    assert at(game, "z1") == (5.0, 26.0)
    g.finish()
