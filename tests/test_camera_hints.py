"""What a game tells the camera: base sizes per side and base heights (service/camera_hints.py)."""

from __future__ import annotations

import pytest
from golden_helpers import survivor, zombie

from rules.game import Game
from service.camera_hints import HeightError, check_heights, hints_for
from vision.hints import COMMON_BASE_MM, DEFAULT_BASE_HEIGHT_MM


def _game() -> Game:
    big = zombie("z2", "rodeur", 9, 10)
    big.base_mm = 40.0
    gone = zombie("z3", "rodeur", 12, 9)
    gone.base_mm = 50.0
    gone.status = "removed"
    return Game.new({"terrain": [], "figures": []},
                    [survivor("s1", "ex_flic_h", 3, 3, base_mm=32.0), zombie("z1", "rodeur", 5, 9),
                     big, gone], seed=1)


def test_sizes_are_the_figures_and_the_common_ones() -> None:
    game = _game()
    game.figures["s1"].base_mm = 33.0  # a size no shop sells: looked for beside the common
    hints = hints_for(game, {})
    assert hints.sizes_for("survivors") == tuple(sorted((33.0, *COMMON_BASE_MM)))
    # every common size too: a card's set-up says 25 mm whatever stands on the table
    assert hints.sizes_for("zombies") == COMMON_BASE_MM
    assert hints.sizes_for("civilians") == COMMON_BASE_MM  # none in the game: any common size


def test_heights_per_side_and_per_figure_reach_the_tags() -> None:
    settings = {"tags": {"5": "s1", "6": "z1", "7": "z2"},
                "base_height_mm": {"zombies": 4.0},
                "figure_base_height_mm": {"z2": 5.0}}
    hints = hints_for(_game(), settings)
    assert hints.height_for(5) == (DEFAULT_BASE_HEIGHT_MM, False)  # nobody said: the guess
    assert hints.height_for(6) == (4.0, True)  # its side's
    assert hints.height_for(7) == (5.0, True)  # its own, over its side's
    assert hints.height_for(None, "zombies") == (4.0, True)  # a red rim, before matching
    assert hints.height_for(None, "survivors") == (DEFAULT_BASE_HEIGHT_MM, False)


def test_a_figure_the_game_does_not_hold_is_named() -> None:
    with pytest.raises(HeightError) as caught:
        check_heights(_game(), {"z1": 3.0, "z9": 3.0})
    assert caught.value.where == "figure_base_height_mm.z9"
    assert "z9" in caught.value.words.text("fr") and "figure_base_height_mm.z9" in str(caught.value)


def test_good_heights_pass() -> None:
    check_heights(_game(), {"s1": 2.0})
    check_heights(_game(), None)
