"""Optional rule modules (scenarios/modules.py): each on a small hand-made scene, fixed dice."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from golden_helpers import Golden, R, at, door, survivor, wall, zombie

from i18n import note_text
from rules.actions import Decline, Door, Interact, Melee, Move, Pass, Special
from rules.figures import Fig
from rules.game import Game
from rules.settings import Settings
from scenarios.cards import load_cards
from scenarios.modules import (
    MODULES,
    ModuleError,
    check_points,
    initial_state,
    module_figures,
    parse_pick,
    picks_of,
    prepare_scene,
)
from scenarios.play import ScenarioReferee, start_scenario

X = 10 + 0.125 + R + 0.01  # a base centre touching the barricade at x = 10 from the right
LEFT = 20 - X  # ... and from the left


# These games step from one side's moment to the other's by passing (setting allow_pass; R1's
# default forbids a pass with AP left): they test the modules, not the turn.
STEPPING = Settings(allow_pass=True)


def modular(terrain: Sequence[dict[str, Any]], figures: Sequence[Fig], dice: Sequence[int],
            modules: Sequence[str], markers: Sequence[dict[str, Any]] = (),
            pv: dict[str, int] | None = None) -> Game:
    """A game of the `nettoyage` card on a hand-made scene, with the modules picked (and
    the PV of some figures changed before it starts)."""
    card = load_cards()["nettoyage"]
    picks = picks_of(modules)
    figures = [*figures, *module_figures(picks)]
    for fig in figures:
        fig.pv = (pv or {}).get(fig.id, fig.pv)
    scene: dict[str, Any] = {"terrain": [dict(t) for t in terrain], "figures": []}
    prepare_scene(scene, picks)
    crates = [{"id": m["id"], "loot": {"type": "nothing"}} for m in markers]
    ref = ScenarioReferee.for_figures(card, figures, {}, crates,
                                      initial_state(picks, balanced=False))
    return Game.new(scene, figures, start_dice=dice, referee=ref, max_turns=6,
                    markers=[dict(m) for m in markers], settings=STEPPING)


def english(notes: Sequence[Any]) -> list[str]:
    """The notes as an English reader gets them."""
    return [note_text(n, "en") for n in notes]


def said(notes: Sequence[Any], text: str) -> bool:
    return any(text in n for n in english(notes))


def codes(notes: Sequence[Any]) -> list[str]:
    return [n["code"] for n in notes if isinstance(n, dict)]


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
    assert english(g(Special("s1", "barricade", target="d1"))) == [
        "Ex-cop (M) reinforces the barricade (2 of 3)"]
    assert Special("z1", "cross", target="d1") in game.legal_actions()
    notes = g(Special("z1", "cross", target="d1"), [4])
    assert said(notes, "tears a reinforcement off the barricade (1 left)")
    assert at(game, "z1") == (round(X, 2), 9.5) and reinforcements(game) == {"d1": 1}
    g(Special("s1", "barricade", target="d1"))
    assert said(g(Special("z1", "cross", target="d1"), [3]), "fails to pass the barricade (3)")
    g(Special("s1", "barricade", target="d1"))
    assert reinforcements(game) == {"d1": 3}
    g(Pass())
    g.refused(Special("s1", "barricade", target="d1"), "already has 3 reinforcements")
    # the survivor pulls down 3 reinforcements (3 in of its M 5) and passes
    notes = g(Special("s1", "cross", target="d1"))
    assert english(notes)[0] == "Ex-cop (M) pulls down 3 reinforcements of the barricade"
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
    assert said(g(Special("z1", "cross", target="d1"), [4]), "Walker 1 passes the barricade")
    assert at(game, "z1") == (round(LEFT, 2), 10.0)
    g.refused(Special("s1", "cross", target="d1"), "must touch")
    g.finish()


def test_survivor_barricades_a_door() -> None:
    game = modular(window(), [survivor("s1", "ex_flic_h", LEFT, 10),
                              zombie("z1", "rodeur", 25, 10)], [3, 2, 2], ["barricades"])
    g = Golden(game)
    assert Door("s1", "d1") in game.legal_actions()
    assert english(g(Special("s1", "barricade", target="d1"))) == [
        "Ex-cop (M) barricades the door"]
    assert reinforcements(game) == {"d1": 0}
    piece = next(t for t in game.terrain if t.id == "d1")
    assert piece.movement_blocking and not piece.sight_blocking
    g(Pass())
    assert Door("s1", "d1") not in game.legal_actions()
    g.refused(Door("s1", "d1"), "no door|not a door")  # the engine's words
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
    g.refused(Special("s1", "sewer", marker="sewer_B1"), "no such sewer entrance")
    g.finish()


def crate(cid: str, x: float, y: float) -> dict[str, Any]:
    return {"id": cid, "kind": "crate", "x": x, "y": y, "items": {}, "units": {}, "cost": 1}


def test_night_falls_and_noise() -> None:
    s1 = survivor("s1", "ex_flic_h", 3, 3)
    game = modular([], [s1, zombie("z1", "rodeur", 25, 25)], [3, 2, 2],
                   ["night_falls", "noise"],
                   markers=[crate("c1", 3 + R + 0.5, 3), crate("c2", 3, 3 + R + 0.5),
                            crate("c3", 3 - R - 0.5, 3)])
    g = Golden(game)
    notes = g(Interact("s1", "c1"), [6, 1])  # the night token, then the noise
    assert said(notes, "night falls")
    assert said(notes, "zombies arrive (drawn by the noise of crate 1, at the survivors' edge): "
                "Walker 2")
    assert "z2" in game.figures and game.figures["z2"].y < 1  # the near edge, nearest
    g(Pass())
    g(Interact("s1", "c2"), [1, 3])  # an apocalypse token; no noise
    assert said(g.game.log[-1]["notes"], "the apocalypse level rises to 1")
    assert "z3" not in game.figures
    g(Pass())
    # end of turn 1, then turn 2: survivors' die, the zombies' two, night's and level 1's
    g(Pass(), [4, 1, 1, 5, 2])
    assert game.turn == 2 and game.pools["zombies"] == 9
    notes = g(Interact("s1", "c3"), [6, 6])  # the day token; no noise
    assert said(notes, "day returns")
    g(Pass())
    g(Pass(), [4, 1, 1, 3])  # turn 3: level 1 only
    assert game.pools["zombies"] == 5
    g.finish()


def test_supply_collected_adds_a_die_next_turn() -> None:
    game = modular([], [survivor("s1", "ex_flic_h", 3, 3), zombie("z1", "rodeur", 10, 10)],
                   [3, 2, 2], ["supply:at=[[3.5, 3], [20, 3]]"])
    g = Golden(game)
    assert [t.id for t in game.terrain] == ["supply1", "supply2"]
    g.refused(Special("s1", "collect", marker="supply2"), "must stand on the token")
    assert said(g(Special("s1", "collect", marker="supply1")), "collects a supply token")
    assert [t.id for t in game.terrain] == ["supply2"]
    g(Pass())
    g.refused(Special("s1", "collect", marker="supply1"), "no such supply token left")
    g(Pass(), [4, 1, 1, 6])  # turn 2: one more survivors' die
    assert game.pools["survivors"] == 1 + 4 + 6
    g(Pass())
    g(Pass(), [4, 1, 1])  # turn 3: back to one die
    assert game.pools["survivors"] == 5
    g.finish()


def test_allies_are_led_and_strike() -> None:
    game = modular(window(), [survivor("s1", "ex_flic_h", 3, 3),
                              zombie("z1", "rodeur", 3 + 2 * R + 0.01, 4.0),
                              zombie("z9", "rodeur", 15, 15)],
                   [3, 2, 2], ['barricades:pieces={"d1": 2}', "allies:at=[[3, 4.0]]"])
    g = Golden(game)
    assert game.figures["ally1"].side == "civilians"
    assert (game.figures["ally1"].name, game.figures["ally1"].name_en) == ("Allié", "Ally")
    # the ally strikes the zombie beside it on the survivor's word, 0 AP
    assert game.in_contact("ally1", "z1")
    notes = g(Special("s1", "ally", target="z1", marker="ally1"), [5])
    assert not game.figures["z1"].on_table and game.pools["survivors"] == 4
    g(Pass())
    g.refused(Special("s1", "ally", target="d1", marker="ally1"), "already acted")
    notes = g(Special("s1", "lead", target="ally1", marker=f"{LEFT},12"))
    assert said(notes, "Ex-cop (M) leads Ally 1 toward the point chosen")
    assert "scenario.leads" in codes(game.log[-1]["notes"])
    assert game.in_contact("s1", "ally1") and game.figures["s1"].y > 3
    g.finish()


def test_helpless_cannot_be_contaminated_and_their_death_shakes_the_band() -> None:
    game = modular([], [survivor("s1", "ex_flic_h", 10, 10 - 2 * R - 1.5),
                        zombie("z1", "rodeur", 10 + 2 * R + 0.01, 10),
                        zombie("z9", "rodeur", 20, 20)],
                   [3, 2, 2], ["helpless:at=[[10, 10]]"], pv={"helpless1": 1})
    g = Golden(game)
    assert game.figures["helpless1"].name_en == "Helpless"
    g(Pass())
    notes = g(Melee("z1", "helpless1", 1), [6])
    assert game.figures["helpless1"].status == "down"
    assert game.pending == []  # no contamination offered
    g(Pass())
    notes = g(Melee("z1", "helpless1", 1), [6, 2])  # it dies; s1, 1.5 in away, panics on a 2
    assert said(notes, "Helpless 1 dies: the band is shaken"), notes
    assert game.figures["s1"].panicked
    g.finish()


def test_an_ally_put_down_may_be_contaminated() -> None:
    game = modular([], [survivor("s1", "ex_flic_h", 3, 3),
                        zombie("z1", "rodeur", 10 + 2 * R + 0.01, 10)],
                   [3, 2, 2], ["allies:at=[[10, 10]]"], pv={"ally1": 1})
    g = Golden(game)
    g(Pass())
    g(Melee("z1", "ally1", 1), [6])
    assert game.pending and game.pending[0].kind == "contaminate"


def test_lights_out_stops_survivors_and_taken_over_keeps_them_out() -> None:
    dark = [[10, 0], [20, 0], [20, 8], [10, 8]]
    held = [[0, 10], [8, 10], [8, 20], [0, 20]]
    game = modular([], [survivor("s1", "ex_flic_h", 7, 4), survivor("s2", "ex_flic_h", 4, 6),
                        zombie("z1", "rodeur", 16, 4), zombie("z9", "rodeur", 4, 15)],
                   [3, 2, 2], [f"lights_out:zones=[{dark}]".replace(" ", ""),
                               f"taken_over:zones=[{held}]".replace(" ", "")])
    g = Golden(game)
    assert {t.id for t in game.terrain} == {"dark1", "taken1"}
    g.refused(Move("s1", to=(12.0, 4.0)), "it enters dark building 1")
    g(Move("s1", toward="z1"))
    assert at(game, "s1") == (round(10 + R, 2), 4.0)  # a base radius inside, not 5 in on
    g(Move("z1", toward="s1"))  # the zombies are not stopped
    g.refused(Move("s2", to=(4.0, 9.6)), "the zombies hold building 1")
    g(Move("s2", toward="z9"))
    assert game.figures["s2"].y == pytest.approx(10 - R - 0.01, abs=1e-6)
    g.finish()


def test_grave_weapons_arm_a_zombie_instead_of_two() -> None:
    card = load_cards()["refuge"]  # D3 rôdeurs at the side edges from turn 2
    figures = [survivor("s1", "ex_flic_h", 16, 3), zombie("z1", "rodeur", 16, 12),
               zombie("z2", "rodeur", 16, 3 + 2 * R + 0.01)]
    picks = picks_of(["grave_weapons"])
    ref = ScenarioReferee.for_figures(card, figures, {}, (), initial_state(picks))
    game = Game.new({"terrain": [], "figures": []}, figures, start_dice=[3, 1, 1],
                    referee=ref, max_turns=6, settings=STEPPING)
    g = Golden(game)
    g(Pass())
    g(Pass(), [4, 1, 1])  # turn 2
    g(Pass())
    notes = g(Pass(), [6, 4, 1, 1])  # D3 = 3: one weapon (z1, the nearest far enough), one comes
    assert said(notes, "Walker 1 takes up a grave weapon instead of two more zombies")
    assert game.figures["z1"].attack == 2 and game.figures["z2"].attack == 1
    assert said(notes, "zombies arrive (reinforcements at the ")
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
    assert all(m.words is not None and m.words.text("fr") != m.words.text("en")
               for m in MODULES.values())


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


def test_cli_module_options(capsys: pytest.CaptureFixture[str]) -> None:
    from service.cli import main

    assert main(["scenario", "setup", "nettoyage", "--seed", "1", "--module", "noise",
                 "--module", "sewers:pairs=[[[5,5],[26,26]]]", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["modules"]["points"] == {"survivors": 1, "zombies": 1}
    assert {"sewer_A1", "sewer_A2"} <= {t["id"] for t in out["scene"]["terrain"]}
    assert main(["scenario", "setup", "nettoyage", "--seed", "1", "--module", "barricades",
                 "--module", "night_falls", "--json"]) == 2
    assert "unbalanced" in capsys.readouterr().out


def test_docs_page_is_generated() -> None:
    from pathlib import Path

    from scenarios.modules import markdown

    page = Path(__file__).resolve().parent.parent / "docs" / "modules.md"
    assert page.read_text(encoding="utf-8") == markdown(), "run python -m scenarios.modules"


@pytest.mark.parametrize(("pick", "match"), [
    ('barricades:pieces={"d1": 4}', "pieces"),
    ("sewers:pairs=[[1, 2]]", "pairs"),
    ("allies:at=[[1]]", "at"),
    ("taken_over:zones=[[[0, 0], [1, 1]]]", "zones"),
    ("noise:noise_on=x", "noise_on"),
])
def test_bad_options_are_refused(pick: str, match: str) -> None:
    with pytest.raises(ModuleError, match=match):
        picks_of([pick])


def test_module_figures_find_room_near_their_spot() -> None:
    plain = start_scenario("nettoyage", seed=1)
    taken = plain.figures["m3"]
    game = start_scenario("nettoyage", seed=1, modules=[f"allies:at=[[{taken.x}, {taken.y}]]"])
    ally = game.figures["ally1"]
    assert ally.side == "civilians" and 0.9 < game.distance("ally1", "m3") + 2 * R < 3.5
    assert Game.replay(game.export()).to_json() == game.to_json()
