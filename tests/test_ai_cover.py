"""Cover from shooters: where a zombie could be shot (the shooting-target priority, sight,
range), and the tactician stopping in cover instead of at the end of an exposed walk."""

from __future__ import annotations

import math

from golden_helpers import start, survivor, wall, zombie

from ai.cover import covered_spot, exposed, shooters
from ai.zombies import Tactician
from rules import legal
from rules.actions import Move
from rules.figures import Fig
from rules.game import Game
from rules.movement import plan_move
from rules.names import figure_name

GUN = {"pistolet": 1, "balles": 6}
WALL = (wall("w", (17, 14), (30, 14)),)  # the shooter at (15, 4) cannot see behind it


def _game(*figs: Fig) -> Game:
    """The zombies' hand on turn 1, the wall on the table (m1 steps back first)."""
    game = start(list(figs), [6, 3, 3], terrain=WALL)
    m1 = game.figures["m1"]
    game.apply(Move("m1", to=(m1.x, m1.y - 0.1)))
    assert game.current_side() == "zombies"
    return game


def test_exposed_follows_sight_range_and_the_target_priority() -> None:
    game = _game(survivor("m1", "ex_flic_h", 15, 4, items=GUN),
                 zombie("z1", "rodeur", 20, 19), zombie("z2", "rodeur", 8, 10))
    who = shooters(game)
    assert [s.fig.id for s in who] == ["m1"]
    z1 = game.figures["z1"]
    assert exposed(game, z1, [(4, 20)], who) == [[]]  # z2 is nearer: not the one shot first
    assert exposed(game, z1, [(22, 17)], who) == [[]]  # behind the wall
    assert exposed(game, z1, [(15, 30)], who) == [[]]  # beyond the pistol's 20 in
    game.figures["z2"].x, game.figures["z2"].y = 2.0, 30.0
    game.moved()
    assert exposed(game, z1, [(4, 20)], who) == [["m1"]]  # now the nearest it sees
    assert exposed(game, z1, [(15, 6.5)], who) == [["m1"]]  # a threat may always be shot


def test_no_bullets_no_shooter() -> None:
    game = _game(survivor("m1", "ex_flic_h", 15, 4, items={"pistolet": 1}),
                 zombie("z1", "rodeur", 20, 19))
    assert shooters(game) == []


def test_covered_spot_keeps_progress_out_of_sight() -> None:
    game = _game(survivor("m1", "ex_flic_h", 15, 4, items=GUN), zombie("z1", "rodeur", 20, 19))
    z1, m1 = game.figures["z1"], game.figures["m1"]
    who = shooters(game)
    end, _ = plan_move(game, z1, None, "m1", z1.move)
    assert exposed(game, z1, [end], who) == [["m1"]]  # round the wall's end, in the open
    found = covered_spot(game, z1, m1, end, who)
    assert found is not None
    spot, gap = found
    assert exposed(game, z1, [spot], who) == [[]]
    before = math.dist(z1.centre, m1.centre)
    assert before - math.dist(spot, m1.centre) >= 0.5 * (before - math.dist(end, m1.centre))
    assert gap == math.dist(spot, m1.centre) - z1.radius - m1.radius
    legal.check(game, Move("z1", to=spot))


def test_the_tactician_stops_in_cover_and_says_who_could_shoot() -> None:
    figs = (survivor("m1", "ex_flic_h", 15, 4, items=GUN), zombie("z1", "rodeur", 20, 19))
    game = _game(*figs)
    careful = Tactician("normal")
    careful.COVER = True  # off by default: see Tactician.COVER
    choice = careful.choose(game)
    act = choice.action
    assert isinstance(act, Move) and act.to is not None, choice.explanation
    assert "stops in cover" in choice.explanation
    shooter = figure_name(game, "m1")
    assert f"{shooter['en']} could shoot it" in choice.explanation
    assert f"à portée de tir d'{shooter['fr']}" in choice.text("fr")  # (Ex-flic: elided)
    legal.check(game, act)
    assert exposed(game, game.figures["z1"], [act.to], shooters(game)) == [[]]
    # with cover off (the default), the same zombie walks straight at the survivor
    other = Tactician("normal").choose(_game(*figs)).action
    assert isinstance(other, Move) and other.toward == "m1"


def test_a_charge_into_contact_is_not_held_back() -> None:
    game = _game(survivor("m1", "ex_flic_h", 15, 4, items=GUN), zombie("z1", "rodeur", 15, 8))
    careful = Tactician("normal")
    careful.COVER = True
    act = careful.choose(game).action
    assert isinstance(act, Move) and act.toward == "m1"
