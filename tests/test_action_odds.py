"""What an attack button says before it is played (rules.odds.action_odds), checked against
the dice the engine then rolls, and the end-of-game summary (rules.summary)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from golden_helpers import TOUCH, start, survivor, zombie

from rules.actions import Melee, Shoot
from rules.dice import NeedDice
from rules.game import Game
from rules.odds import action_odds
from rules.summary import game_summary


def played(game: Game, act: Melee | Shoot, faces: tuple[int, ...]) -> Game | None:
    """The game after `act` with exactly these faces, or None when they are not what the
    action rolls (too few: more were needed; too many: some were left over)."""
    trial = game.clone()
    trial.rng = None
    try:
        trial.apply(act, dice=list(faces))
    except NeedDice:
        return None
    return trial if len(trial.log[-1]["dice"]) == len(faces) else None


def exact_chances(game: Game, act: Melee | Shoot, target: str) -> tuple[Fraction, Fraction]:
    """P(the target loses at least one PV or is removed), P(it is put out), by playing the
    action with every sequence of faces the engine asks for."""
    wound = down = Fraction(0)
    before = game.figures[target]
    for n in range(1, 7):
        for faces in itertools.product(range(1, 7), repeat=n):
            after = played(game, act, faces)
            if after is None:
                continue
            fig = after.figures[target]
            weight = Fraction(1, 6 ** n)
            out = fig.status in ("removed", "down", "dead")
            if out or fig.pv < before.pv:
                wound += weight
            if out:
                down += weight
    return wound, down


def test_a_shot_says_its_die_face_save_and_chance() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, items={"pistolet": 1, "balles": 2}),
                  zombie("z1", "rodeur", 5, 12)], [6, 6, 6])
    odds = action_odds(game, Shoot("s1", "z1", "pistolet"))
    assert odds is not None
    # a walker's D2+ (the pistol's +1 changes nothing then): 2+; it saves a shot on 5+
    assert (odds["dice"], odds["defence"], odds["bonus"]) == (1, 2, 1)
    assert (odds["hits_on"], odds["save_on"]) == (2, 5)
    assert odds["ends"] == "removed" and odds["need"] == 1
    assert odds["down"] == pytest.approx(5 / 6 * 4 / 6)
    wound, down = exact_chances(game, Shoot("s1", "z1", "pistolet"), "z1")
    assert odds["down"] == pytest.approx(float(down)) and odds["wound"] == pytest.approx(
        float(wound))


def test_a_zombie_strike_on_a_survivor_with_several_pv_matches_the_engine() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "ignoble", 5, 5 + TOUCH)],
                 [1, 6, 6])
    game.to_act = "zombies"
    strike = next(a for a in game.legal_actions() if isinstance(a, Melee) and a.figure == "z1")
    odds = action_odds(game, strike)
    assert odds is not None and odds["ends"] == "down"
    assert odds["need"] == game.figures["s1"].pv and odds["save_on"] == 5
    wound, down = exact_chances(game, strike, "s1")
    assert odds["wound"] == pytest.approx(float(wound))
    assert odds["down"] == pytest.approx(float(down))


def test_an_action_without_dice_has_no_odds() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 20)], [6, 6, 6])
    moves = [a for a in game.legal_actions() if a.type == "move"]
    assert moves and all(action_odds(game, a) is None for a in moves)


def test_the_summary_counts_kills_wounds_and_ap_as_played() -> None:
    game = start([survivor("s1", "ex_flic_h", 5, 5, items={"pistolet": 1, "balles": 2}),
                  survivor("s2", "bimbo", 12, 5),
                  zombie("z1", "rodeur", 5, 12), zombie("z2", "rodeur", 25, 25)], [6, 6, 6])
    game.rng = None
    game.apply(Shoot("s1", "z1", "pistolet"), dice=[6, 1])  # hit, save failed: removed
    summary = game_summary(game)
    by_id = {f["id"]: f for f in summary["figures"]}
    assert by_id["s1"]["kills"] == 1 and by_id["s2"]["kills"] == 0
    assert summary["zombies_down"] == 1
    assert summary["ap_spent"] == {"survivors": 1}
    assert all(f["status"] == "standing" and f["wounds_taken"] == 0 for f in by_id.values())
