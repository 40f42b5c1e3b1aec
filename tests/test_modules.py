"""Optional rule modules (scenarios/modules.py): each on a small hand-made scene, fixed dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from golden_helpers import Golden, R, at, door, survivor, wall, zombie

from rules.actions import Decline, Door, Interact, Move, Pass, Special
from rules.figures import Fig
from rules.game import Game
from scenarios.cards import load_cards
from scenarios.modules import (
    MODULES,
    ModuleError,
    check_points,
    initial_state,
    parse_pick,
    picks_of,
    prepare_scene,
)
from scenarios.play import ScenarioReferee, start_scenario

X = 10 + 0.125 + R + 0.01  # a base centre touching the barricade at x = 10 from the right
LEFT = 20 - X  # ... and from the left


def modular(terrain: Sequence[dict[str, Any]], figures: Sequence[Fig], dice: Sequence[int],
            modules: Sequence[str], markers: Sequence[dict[str, Any]] = ()) -> Game:
    """A game of the `nettoyage` card on a hand-made scene, with the modules picked."""
    card = load_cards()["nettoyage"]
    picks = picks_of(modules)
    scene: dict[str, Any] = {"terrain": [dict(t) for t in terrain], "figures": []}
    prepare_scene(scene, picks)
    crates = [{"id": m["id"], "loot": {"type": "nothing"}} for m in markers]
    ref = ScenarioReferee.for_figures(card, figures, {}, crates,
                                      initial_state(picks, balanced=False))
    return Game.new(scene, figures, start_dice=dice, referee=ref, max_turns=6,
                    markers=[dict(m) for m in markers])


def said(notes: list[str], text: str) -> bool:
    return any(text in n for n in notes)


def window() -> list[dict[str, Any]]:
    return [wall("w1", (10, 3), (10, 9)), door("d1", (10, 9), (10, 11)),
            wall("w2", (10, 11), (10, 17))]


def reinforcements(game: Game) -> dict[str, int]:
    return dict(game.referee.state["modules"]["barricades"])  # type: ignore[union-attr]


def test_barricade_reinforced_torn_down_and_passed() -> None:
    game = modular(window(), [survivor("s1", "ex_flic_h", LEFT, 10.5),
                              zombie("z1", "rodeur", X, 9.5)],
                   [3, 2, 2], ['barricades:pieces={"d1": 1}'])
    g = Golden(game)
    # a barricade blocks movement, not sight
    assert game.space().sight("s1", "z1").visible
    assert game.space().path("z1", (LEFT, 9.5)).length > 5
    assert g(Special("s1", "barricade", target="d1")) == ["Ex-flic (H) s1 reinforces d1 (2 of 3)"]
    assert Special("z1", "cross", target="d1") in game.legal_actions()
    notes = g(Special("z1", "cross", target="d1"), [4])
    assert said(notes, "tears a reinforcement off d1 (1 left)")
    assert at(game, "z1") == (round(X, 2), 9.5) and reinforcements(game) == {"d1": 1}
    g(Special("s1", "barricade", target="d1"))
    assert said(g(Special("z1", "cross", target="d1"), [3]), "fails to pass d1 (3)")
    g(Special("s1", "barricade", target="d1"))
    assert reinforcements(game) == {"d1": 3}
    g(Pass())
    g.refused(Special("s1", "barricade", target="d1"), "already has 3 reinforcements")
    # the survivor pulls down 3 reinforcements (3 in of its M 5) and passes
    notes = g(Special("s1", "cross", target="d1"))
    assert notes[0].endswith("pulls down 3 reinforcements of d1")
    assert at(game, "s1") == at(game, "z1")[:1] + (10.5,) and reinforcements(game) == {"d1": 0}
    assert game.pools["survivors"] == 0
    g.finish()


def test_zombie_passes_a_bare_barricade_on_4_plus() -> None:
    game = modular(window(), [survivor("s1", "ex_flic_h", 3, 10),
                              zombie("z1", "rodeur", X, 10)],
                   [3, 2, 2], ['barricades:pieces={"d1": 0}'])
    g = Golden(game)
    g(Pass())
    assert said(g(Special("z1", "cross", target="d1"), [1]), "fails")  # a natural 1 fails
    g(Pass())
    assert said(g(Special("z1", "cross", target="d1"), [4]), "Rôdeur z1 passes barricade d1")
    assert at(game, "z1") == (round(LEFT, 2), 10.0)
    g.refused(Special("s1", "cross", target="d1"), "must touch")
    g.finish()


def test_survivor_barricades_a_door() -> None:
    game = modular(window(), [survivor("s1", "ex_flic_h", LEFT, 10),
                              zombie("z1", "rodeur", 25, 10)], [3, 2, 2], ["barricades"])
    g = Golden(game)
    assert Door("s1", "d1") in game.legal_actions()
    assert g(Special("s1", "barricade", target="d1")) == ["Ex-flic (H) s1 barricades d1"]
    assert reinforcements(game) == {"d1": 0}
    piece = next(t for t in game.terrain if t.id == "d1")
    assert piece.movement_blocking and not piece.sight_blocking
    g(Pass())
    assert Door("s1", "d1") not in game.legal_actions()
    g.refused(Door("s1", "d1"), "no door")
    g.finish()


def test_zombie_has_no_other_special() -> None:
    game = modular(window(), [survivor("s1", "ex_flic_h", 3, 10),
                              zombie("z1", "rodeur", X, 10)], [3, 2, 2], ["barricades"])
    g = Golden(game)
    g(Pass())
    g.refused(Special("z1", "barricade", target="d1"), "only survivors build")
    g.refused(Special("z1", "treat", target="s1"), "no scenario action")


def test_sewers_take_survivors_and_zombies_across() -> None:
    game = modular([], [survivor("s1", "ex_flic_h", 3, 3), zombie("z1", "rodeur", 25, 24.2)],
                   [3, 2, 2], ["sewers:pairs=[[[3, 3], [25, 25]]]"])
    g = Golden(game)
    assert [t.id for t in game.terrain] == ["sewer_A1", "sewer_A2"]
    assert Special("s1", "sewer", marker="sewer_A1") in game.legal_actions()
    g(Special("s1", "sewer", marker="sewer_A1"))
    g(Decline())  # a 2-AP action: the zombies may react
    assert game.pools["survivors"] == 2
    s1 = game.figures["s1"]
    assert abs(s1.x - 25) < 1.5 and abs(s1.y - 25) < 1.5  # beside the zombie on the entrance
    assert game.distance("s1", "z1") >= -1e-9
    g(Special("z1", "sewer", marker="sewer_A2"))
    assert at(game, "z1") == (3.0, 3.0) and game.pools["zombies"] == 2
    g.refused(Special("s1", "sewer", marker="sewer_B1"), "no sewer entrance")
    g.finish()


def crate(cid: str, x: float, y: float) -> dict[str, Any]:
    return {"id": cid, "kind": "crate", "x": x, "y": y, "items": {}, "units": {}, "cost": 1}


def test_night_falls_and_noise() -> None:
    s1 = survivor("s1", "ex_flic_h", 3, 3)
    game = modular([], [s1, zombie("z1", "rodeur", 25, 25)], [3, 2, 2],
                   ["night_falls", "noise"], markers=[crate("c1", 3 + R + 0.5, 3)])
    g = Golden(game)
    notes = g(Interact("s1", "c1"), [6, 1])  # the night token, then the noise
    assert any("night falls (apocalypse level 1)" in n for n in notes)
    assert any("1 Rôdeur arrive (the noise of c1" in n for n in notes)
    state = game.referee.state["modules"]  # type: ignore[union-attr]
    assert state["night_falls"]["until"] == 3
    assert "z2" in game.figures and game.figures["z2"].y < 1  # the near edge, nearest
    g(Pass())
    # end of turn 1, then turn 2: survivors' die, the zombies' two and the night's one more
    g(Pass(), [4, 1, 1, 5])
    assert game.turn == 2 and game.pools["zombies"] == 7
    g(Pass())
    g(Pass(), [4, 1, 1, 2])  # turn 3: still night
    assert game.pools["zombies"] == 4
    g(Pass())
    notes = g(Pass(), [4, 1, 1])  # turn 3 ends: day returns, two dice again
    assert "day returns" in notes and game.pools["zombies"] == 2
    g.finish()


def test_points_must_match_when_both_sides_pick() -> None:
    assert check_points(picks_of(["barricades", "sewers:pairs=[[[1,1],[5,5]]]",
                                  "night_falls"])) == {"survivors": 2, "zombies": 2}
    assert check_points(picks_of(["barricades"])) == {"survivors": 1, "zombies": 0}
    with pytest.raises(ModuleError, match="survivors 1 points, zombies 2"):
        check_points(picks_of(["barricades", "night_falls"]))
    assert check_points(picks_of(["barricades", "night_falls"]), balanced=False) == {
        "survivors": 1, "zombies": 2}
    with pytest.raises(ModuleError, match="no rule module 'nope'"):
        picks_of(["nope"])
    with pytest.raises(ModuleError, match="no option 'x'"):
        picks_of(["noise:x=1"])
    assert parse_pick("noise:noise_on=3,zombie=slasher").options == {
        "noise_on": 3, "zombie": "slasher"}
    assert all(m.name_fr and m.name_en and m.text and m.points > 0 for m in MODULES.values())


def test_start_scenario_with_modules_replays() -> None:
    with pytest.raises(ModuleError, match="unbalanced"):
        start_scenario("nettoyage", seed=3, modules=["barricades", "night_falls"])
    game = start_scenario("nettoyage", seed=3, modules=["noise", "sewers:pairs=[[[5,5],[26,26]]]"])
    assert game.referee is not None
    assert game.referee.state["modules"]["points"] == {"survivors": 1, "zombies": 1}
    for _ in range(12):
        if game.is_terminal:
            break
        actions = game.legal_actions()
        game.apply(next((a for a in actions if isinstance(a, Move | Special)), actions[-1]))
    again = Game.replay(game.export())
    assert again.to_json() == game.to_json()
