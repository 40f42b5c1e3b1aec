"""Odds: exact values worked by hand, the CLI, and seeded rolls agreeing with the odds."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction as F

import pytest

from rules.combat import AttackDie, attack_die, odds
from rules.dice import Dice, drive
from rules.errors import InvalidActionError
from rules.odds import OddsQuestion, attack_odds
from service.cli import main


@pytest.mark.parametrize(
    ("question", "hit", "saved", "unsaved"),
    [
        # Rôdeur D2: a pistol (+1) hits on anything but a natural 1; zombie saves shots on 5+.
        (OddsQuestion("ex_flic_h", "rodeur", weapon="pistolet"), F(5, 6), F(5, 18), F(5, 9)),
        # Unarmed against an Ignoble (D4): 3/6 hit, melee save 6+.
        (OddsQuestion("bourrine", "ignoble"), F(1, 2), F(1, 12), F(5, 12)),
        # Cogneur +1 against D4: 3, 4, 5, 6 hit.
        (OddsQuestion("bourrin", "ignoble", attacker_skills=("cogneur",)), F(2, 3), F(1, 9),
         F(5, 9)),
        # A Slasher (D3 needed vs the Militaire's 5+): natural 5, 6; survivor saves on 5+.
        (OddsQuestion("slasher", "militaire_h"), F(1, 3), F(1, 9), F(2, 9)),
        # Protection makes D 6+: only a natural 6 hits.
        (OddsQuestion("slasher", "militaire_h", target_items=("protection",)), F(1, 6),
         F(1, 18), F(1, 9)),
        # Four moves lower D by 2 (5+ -> 3+); combattant re-rolls the failed save.
        (OddsQuestion("ignoble", "ex_flic_h", target_moves=4, target_skills=("combattant",)),
         F(2, 3), F(10, 27), F(8, 27)),
        # Vengeur: a saved wound is attacked once more.
        (OddsQuestion("pere", "ignoble", attacker_skills=("vengeur",)), F(1, 2),
         F(1, 144), F(5, 12) + F(1, 12) * F(5, 12)),
        # A natural 1 fails even with +3 (arbalète +2, tireur émérite +1), 6+ needed = D2 hit.
        (OddsQuestion("militaire_f", "rodeur", weapon="arbalete",
                      attacker_skills=("tireur_emerite",)), F(5, 6), F(5, 18), F(5, 9)),
    ],
)
def test_exact_odds(question: OddsQuestion, hit: F, saved: F, unsaved: F) -> None:
    got = attack_odds(question)
    assert got["exact"] == {"hit": f"{hit.numerator}/{hit.denominator}",
                            "saved": f"{saved.numerator}/{saved.denominator}",
                            "unsaved": f"{unsaved.numerator}/{unsaved.denominator}"}
    assert got["hit"] == pytest.approx(float(hit))


@pytest.mark.parametrize(
    ("question", "where"),
    [
        (OddsQuestion("nobody", "rodeur"), "attacker"),
        (OddsQuestion("rodeur", "slasher"), "target"),
        (OddsQuestion("rodeur", "geek", weapon="pistolet"), "weapon"),
        (OddsQuestion("geek", "rodeur", weapon="katana", mode="shoot"), "mode"),
        (OddsQuestion("geek", "rodeur", mode="shoot"), "weapon"),
        (OddsQuestion("geek", "rodeur", attacker_skills=("flying",)), "attacker_skill"),
    ],
)
def test_bad_questions(question: OddsQuestion, where: str) -> None:
    with pytest.raises(InvalidActionError) as caught:
        attack_odds(question)
    assert caught.value.where == where


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--attacker", "ex_flic_h", "--target", "rodeur", "--weapon",
                 "pistolet", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hit"] == pytest.approx(5 / 6) and out["unsaved"] == pytest.approx(5 / 9)
    assert main(["odds", "--attacker", "x", "--target", "rodeur", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["where"] == "attacker"


DIES = [
    AttackDie("melee", 4, 0, 6),
    AttackDie("shoot", 3, 1, 5),
    AttackDie("melee", 5, 0, 5, save_bonus=1, reroll_save=True),
    AttackDie("melee", 4, 1, 6, retry_on_save=True),
    AttackDie("melee", 2, -1, None),
]


@pytest.mark.parametrize("die", DIES)
def test_seeded_rolls_match_the_exact_odds(die: AttackDie) -> None:
    """20000 attacks rolled by the game's own dice: each outcome within 4.5 sigma."""
    n = 20000
    rng = random.Random(1234)
    dice = Dice(rng=rng)
    counts = {"miss": 0, "saved": 0, "unsaved": 0}
    for _ in range(n):
        counts[drive(attack_die(die), dice)] += 1
    exact = odds(die)
    for outcome in ("saved", "unsaved"):
        p = float(exact[outcome])
        sigma = math.sqrt(n * p * (1 - p)) or 1.0
        assert abs(counts[outcome] - n * p) <= 4.5 * sigma, (outcome, counts, p)
