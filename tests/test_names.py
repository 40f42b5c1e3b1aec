"""What a person calls a figure (rules/names.py)."""

from __future__ import annotations

from ai.simulate import start
from rules.names import figure_name, figure_names, number_of


def test_zombies_carry_their_number_and_survivors_their_own_name() -> None:
    game = start("escorte", 3)
    names = figure_names(game)
    zombie = next(f for f in game.figures.values() if f.side == "zombies")
    assert names[zombie.id]["fr"] == f"{zombie.name} {number_of(zombie.id)}"
    assert names[zombie.id]["en"].endswith(number_of(zombie.id))
    assert names[zombie.id]["en"] != names[zombie.id]["fr"]  # Rôdeur / Walker ...
    for fig in game.figures.values():
        assert fig.id not in names[fig.id]["fr"].split() + names[fig.id]["en"].split()
        assert figure_name(game, fig.id) == names[fig.id]
    alone = [f for f in game.figures.values() if f.side == "survivors"
             and sum(g.name == f.name for g in game.figures.values()) == 1]
    assert alone and all(names[f.id] == {"fr": f.name, "en": f.name_en or f.name}
                         for f in alone)


def test_two_survivors_of_one_name_are_told_apart() -> None:
    game = start("escorte", 3)
    a, b = [f for f in game.figures.values() if f.side == "survivors"][:2]
    b.name, b.name_en = a.name, a.name_en
    names = figure_names(game)
    assert names[a.id] != names[b.id]
    assert names[a.id]["fr"].startswith(a.name)


def test_a_figure_the_game_no_longer_holds_is_named_by_its_number() -> None:
    game = start("escorte", 3)
    assert figure_name(game, "z999") == {"fr": "n° 999", "en": "no. 999"}
    assert number_of("z012") == "12" and number_of("crate") == "" and number_of("z0") == "0"
