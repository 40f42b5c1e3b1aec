"""A move refused for the terrain says what is in the way, by name, and the way that works:
the way round (or through a door) with its length and AP, the nearest spot where the base
fits, the doors to open (rules/routes.py); in French and in English, never with an id."""

from __future__ import annotations

import math
import re

import pytest
from golden_helpers import Golden, start, survivor, zombie

from rules.actions import Door, Move
from rules.errors import IllegalActionError
from rules.game import Game
from rules.routes import moves_needed

# the bar: a wall with a door in it, named as on the town tiles
BAR = [
    {"id": "bar_wall_south", "kind": "wall", "line": [[2, 17], [12, 17]], "thickness": 0.25,
     "name": "Bar, sud et ouest", "name_en": "Bar, south and west"},
    {"id": "bar_door", "kind": "door", "line": [[12, 17], [14, 17]], "thickness": 0.25,
     "open": True, "name": "Porte du bar", "name_en": "Bar door"},
    {"id": "bar_wall_east", "kind": "wall", "line": [[14, 17], [20, 17]], "thickness": 0.25,
     "name": "Bar, est", "name_en": "Bar, east"},
]
IDS = re.compile(r"\b(m1|z32|bar_\w+)\b")


def lucas(x: float = 8, y: float = 14) -> object:
    fig = survivor("m1", "ex_flic_h", x, y)
    fig.name = fig.name_en = "Lucas"  # a band member's own name
    return fig


def bar_game(terrain: list[dict[str, object]] | None = None) -> Game:
    return start([lucas(), zombie("z32", "rodeur", 25, 25)], [6, 6, 6],
                 terrain=BAR if terrain is None else terrain)


def refusal(game: Game, to: tuple[float, float]) -> IllegalActionError:
    before = game.to_json()
    with pytest.raises(IllegalActionError) as caught:
        game.apply(Move("m1", to=to))
    assert game.to_json() == before and caught.value.where == "action.to"
    assert caught.value.words is not None
    for lang in ("fr", "en"):
        assert not IDS.search(caught.value.text(lang)), caught.value.text(lang)
    return caught.value


def test_a_move_through_a_wall_names_the_way_round_by_the_door_with_its_length_and_ap() -> None:
    game = bar_game()
    route = game.space().path("m1", (8, 20))
    assert route.reachable and 10 < route.length < 12  # 6 in straight, through the wall
    error = refusal(game, (8, 20))
    assert error.words is not None and error.words.code == "refusal.too_far_through"
    d, ap = route.length, moves_needed(route.length, 5)
    assert ap == math.ceil(d / 5) == 3
    french = f"{d:.1f}".replace(".", ",")
    assert error.text("fr") == (
        f"Le chemin passe par « Porte du bar » : {french} ps, soit 3 PA de mouvement à 5,0 ps "
        "chacun pour Lucas. Avancez de 5,0 ps sur ce chemin maintenant, le reste ensuite.")
    assert error.text("en") == (
        f"The way there goes through “Bar door”: {d:.1f} in, that is 3 AP of moves at 5.0 in "
        "each for Lucas. Move 5.0 in along it now and the rest after.")
    assert error.message == error.text("en")
    assert error.to_json("fr")["error"]["words"]["code"] == "refusal.too_far_through"


def test_a_wall_with_no_door_names_the_wall_gone_round() -> None:
    game = bar_game([BAR[0]])
    route = game.space().path("m1", (8, 20))
    error = refusal(game, (8, 20))
    assert error.words is not None and error.words.code == "refusal.too_far_around"
    assert error.text("fr").startswith("Le chemin contourne « Bar, sud et ouest » : ")
    assert f"{route.length:.1f} in, that is {moves_needed(route.length, 5)} AP" in error.text(
        "en")


def test_a_piece_the_scene_does_not_name_is_called_by_its_kind() -> None:
    unnamed = [{k: v for k, v in BAR[0].items() if not k.startswith("name")}]
    error = refusal(bar_game(unnamed), (8, 20))
    assert error.text("fr").startswith("Le chemin contourne le mur : ")
    assert error.text("en").startswith("The way there goes round the wall: ")


def test_a_spot_in_the_wall_gives_the_nearest_spot_where_the_base_fits() -> None:
    game = bar_game()
    error = refusal(game, (8, 17.1))
    assert error.words is not None and error.words.code == "refusal.cannot_stand_there_try"
    assert error.text("fr").startswith(
        "Lucas ne peut pas finir son mouvement là : le socle empiéterait sur « Bar, sud et "
        "ouest » à cet endroit. L'endroit le plus proche où le socle tient est à ")
    # the near side of the wall, not the far one behind it
    params = error.words.params
    assert params["gap"] < 1.0 and params["d"] < 3.0 and params["ap"] == 1
    assert error.text("en").endswith("(1 AP of moves).")


def test_a_spot_off_the_table() -> None:
    error = refusal(bar_game(), (40, 5))
    assert error.words is not None and error.words.code == "refusal.cannot_stand_there"
    assert error.text("fr") == ("Lucas ne peut pas finir son mouvement là : le socle dépasserait "
                                "de la table à cet endroit. Choisissez un endroit où le socle "
                                "tient.")


def test_a_closed_room_says_which_door_to_open() -> None:
    closed = [dict(piece, open=False) if piece["kind"] == "door" else piece for piece in BAR]
    room = [*closed, {"id": "back", "kind": "wall", "line": [[2, 17], [2, 24], [20, 24],
                                                               [20, 17]], "thickness": 0.25}]
    touching = 17 - 0.125 - 25 / 25.4 / 2 - 0.005  # the base touches the door
    game = start([lucas(13, touching), zombie("z32", "rodeur", 25, 25)], [6, 6, 6],
                 terrain=room)
    error = refusal(game, (13, 19))
    assert error.words is not None and error.words.code == "refusal.no_way_doors"
    assert error.text("fr") == (
        "Lucas n'a aucun chemin jusque-là avec les portes fermées : ouvrez d'abord « Porte du "
        "bar » (1 PA par porte) ; le chemin fait alors 2,6 ps, 2 PA en tout avec les "
        "mouvements.")
    g = Golden(game)
    assert g(Door("m1", "bar_door")) == ["Lucas opens “Bar door”"]
    g(Move("z32", to=(25, 24)))
    g(Move("m1", to=(13, 19)))  # now the way is open
    g.finish()


def test_a_move_toward_a_figure_walled_off_names_it() -> None:
    closed = [dict(piece, open=False) if piece["kind"] == "door" else piece for piece in BAR]
    room = [*closed, {"id": "back", "kind": "wall", "line": [[2, 17], [2, 24], [20, 24],
                                                               [20, 17]], "thickness": 0.25}]
    game = start([lucas(13, 16), zombie("z32", "rodeur", 10, 21)], [6, 6, 6], terrain=room)
    with pytest.raises(IllegalActionError) as caught:
        game.apply(Move("m1", toward="z32"))
    assert caught.value.where == "action.toward"
    assert caught.value.text("fr").startswith(
        "Lucas n'a aucun chemin jusqu'à Rôdeur 32 avec les portes fermées : ouvrez d'abord « "
        "Porte du bar »")
    assert caught.value.text("en").startswith("Lucas has no way to Walker 32 with the doors shut")


@pytest.mark.parametrize(("length", "per_move", "moves"), [
    (0.0, 5, 0), (4.99, 5, 1), (5.0, 5, 1), (5.01, 5, 2), (11.1, 5, 3), (3.0, 0, 0)])
def test_moves_needed(length: float, per_move: float, moves: int) -> None:
    assert moves_needed(length, per_move) == moves
