"""The variant "Guerre en territoire zombie" (D23): two bands among zombies, golden games."""

from __future__ import annotations

import random
from typing import Any

import pytest
from golden_helpers import TOUCH, Golden, english, survivor, zombie

from rules.actions import Decline, Melee, Move, Shoot
from rules.figures import Fig
from rules.game import Game
from rules.settings import Settings
from rules.setup import zombie_war
from rules.warband import example_bands
from scenarios.tables import table_data


def war(figures: list[Fig], dice: list[int], **settings: Any) -> Game:
    return Game.new({"terrain": [], "figures": []}, figures, start_dice=dice,
                    settings=Settings.from_json(settings), mode="zombie_war")


def band(fig: Fig, name: str) -> Fig:
    fig.band = name
    return fig


def test_each_band_rolls_its_own_pool_and_band_a_starts() -> None:
    game = war([band(survivor("a1", "ex_flic_h", 5, 3), "A"),
                band(survivor("b1", "racaille", 5, 28), "B"),
                band(survivor("b2", "geek", 8, 28), "B"),
                zombie("z1", "rodeur", 5, 15)], dice=[3, 4])
    assert game.pools == {"A": 1 + 3, "B": 2 + 4, "zombies": 0}
    assert game.to_act == "A" and game.sides() == ("A", "B")


def test_after_its_activation_a_band_sets_a_zombie_on_the_other_band() -> None:
    a1 = band(survivor("a1", "ex_flic_h", 5, 3, items={"pistolet": 1, "balles": 1}), "A")
    b1 = band(survivor("b1", "racaille", 20, 20), "B")
    near_b = zombie("z1", "rodeur", 20, 20 + TOUCH)  # in contact with b1
    far = zombie("z2", "rodeur", 30, 1)  # more than 20 in from band B
    g = Golden(war([a1, b1, near_b, far], dice=[6, 6]))
    g(Move("a1", to=(5.0, 6.0)))
    window = g.game.pending[0]
    assert window.to_json() == {"kind": "zombie_control", "side": "A", "enemy": "B"}
    options = g.game.legal_actions()
    assert Melee("z1", "b1", 1) in options and Decline() in options
    assert not any(getattr(o, "figure", "") == "z2" for o in options)
    g.refused(Move("z2", toward="b1"), "^Walker 2 is not a zombie within 20 in of band B.$",
              code="refusal.not_controllable")
    pools = dict(g.game.pools)
    g(Melee("z1", "b1", 1), dice=[6, 1])  # hits, b1 fails its 5+ save
    assert g.game.figures["b1"].pv == 7
    assert g.game.pools == pools, "zombies move for free"
    assert g.game.to_act == "B" and not g.game.pending
    g.finish()


def test_rival_survivors_shoot_each_other_and_save_on_6() -> None:
    a1 = band(survivor("a1", "ex_flic_h", 5, 5, items={"pistolet": 1, "balles": 1}), "A")
    b1 = band(survivor("b1", "racaille", 5, 15), "B")
    g = Golden(war([a1, b1, zombie("z1", "rodeur", 28, 28)], dice=[6, 6]))
    assert Shoot("a1", "b1", "pistolet") in g.game.legal_actions()
    g(Shoot("a1", "b1", "pistolet"), dice=[4, 5])  # 4 +1 hits D4; a 5 does not save (6+)
    assert g.game.figures["b1"].pv == 7
    g.finish()


def test_insensible_rerolls_the_shooting_save() -> None:
    a1 = band(survivor("a1", "ex_flic_h", 5, 5, items={"pistolet": 1, "balles": 1}), "A")
    b1 = band(survivor("b1", "junkie", 5, 15, skill="insensible"), "B")
    g = Golden(war([a1, b1, zombie("z1", "rodeur", 28, 28)], dice=[6, 6]))
    g(Shoot("a1", "b1", "pistolet"), dice=[4, 2, 6])
    assert g.game.figures["b1"].pv == 6


def test_no_zombie_reaction_in_the_variant() -> None:
    a1 = band(survivor("a1", "militaire_h", 5, 5, items={"fusil": 1, "balles": 1}), "A")
    b1 = band(survivor("b1", "racaille", 28, 28), "B")
    g = Golden(war([a1, b1, zombie("z1", "rodeur", 5, 15)], dice=[6, 6]))
    g(Shoot("a1", "z1", "fusil"), dice=[1])  # a 2-AP shot: no reaction window follows
    assert not any(w.kind == "reaction" for w in g.game.pending)


def test_a_band_with_no_one_standing_loses() -> None:
    a1 = band(survivor("a1", "bourrin", 10, 10, items={"katana": 1}), "A")
    b1 = band(survivor("b1", "enfant", 10, 10 + TOUCH, pv=1), "B")
    g = Golden(war([a1, b1, zombie("z1", "rodeur", 28, 28)], dice=[6, 6]))
    g(Melee("a1", "b1", 1, "katana"), dice=[5, 1])
    assert g.game.outcome == {"winner": "A", "reason": "band B has no one left standing",
                              "turn": 1, "words": {"code": "engine.end.war_wiped",
                                                          "params": {"band": "B"}}}
    assert english(g.game.log[-1]["notes"])[-1] == ("Game over: band A wins (band B has no one "
                                                    "left standing)")


@pytest.mark.parametrize("seed", range(6))
def test_random_war_games_replay(seed: int) -> None:
    bands = example_bands()
    game = zombie_war(table_data(["street", "junction", "ruined_block"][seed % 3]),
                      bands["cops_and_kids"], bands["the_school"], seed=seed, max_turns=3)
    rng = random.Random(seed)
    while not game.is_terminal:
        game.apply(rng.choice(game.legal_actions()))
        assert all(v >= 0 for v in game.pools.values())
    assert game.outcome is not None and game.outcome["winner"] in ("A", "B", "draw", "zombies")
    assert Game.replay(game.export()).to_json() == game.to_json()
