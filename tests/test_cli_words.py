"""The command line in one language: `--lang fr` prints French and `--lang en` English, never
a mix and never an id; `--json` keeps its fields and adds the words as messages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from service.cli import main

BANDS = Path(__file__).resolve().parent.parent / "rules" / "data" / "bands"
EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "arbitrate.json"
# words an English sentence has and a French one does not
ENGLISH = re.compile(r"\b(the|and|with|against|cannot|sees|edge|hits|saved|legal|warnings?|"
                     r"errors?|fix|band|nearest|reaches|turn|wins?)\b")
FRENCH = re.compile(r"\b(le|la|les|et|avec|contre|sur|voit|bord|touche|sauvegarde|bande|"
                    r"erreur|correction|plus|proche|gagnent|tours?)\b")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def french_only(text: str) -> None:
    assert FRENCH.search(text), text
    assert not ENGLISH.search(text), ENGLISH.findall(text)


def english_only(text: str) -> None:
    assert ENGLISH.search(text), text
    assert not FRENCH.search(text), FRENCH.findall(text)


def test_odds(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("odds", "--attacker", "ex_flic_h", "--target", "rodeur", "--weapon", "pistolet")
    code, fr = run(capsys, "--lang", "fr", *args)
    assert code == 0
    assert fr.splitlines() == [
        "Ex-flic (H) avec Pistolet, au tir, contre Rôdeur : touche sur 2+ avec +1 au dé ; "
        "sauvegarde sur 5+",
        "touche 83\xa0% (5/6), sauvegardée 28\xa0% (5/18), blessure 56\xa0% (5/9)"]
    french_only(fr)
    code, en = run(capsys, "--lang", "en", *args)
    assert en.splitlines() == [
        "Ex-cop (M) with Pistol, shooting, against Walker: hits on 2+ with +1 to the roll; "
        "saved on 5+",
        "hit 83% (5/6), saved 28% (5/18), wound 56% (5/9)"]
    english_only(en.replace("Walker", ""))
    code, out = run(capsys, "--lang", "fr", *args, "--json")
    data = json.loads(out)
    assert {"hit", "saved", "unsaved", "exact", "die", "explain", "explain_words"} == set(data)
    assert data["explain"] == fr.splitlines()[0]
    assert data["explain_words"]["code"] == "cli.odds.attack_weapon"


def test_band_check(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    band = str(BANDS / "la_zone.json")
    code, fr = run(capsys, "--lang", "fr", "band", "check", band)
    assert code == 0
    assert fr.splitlines()[0] == "La zone : bande légale ; avertissements : 0"
    assert ("  Rosa : 14 pts = base 8 + compétences 1 + équipement 5 (encombrement 5 sur 5, "
            "aucun point gratuit)") in fr
    assert fr.splitlines()[-1] == "  bande : 70 pts"
    code, en = run(capsys, "--lang", "en", "band", "check", band)
    assert en.splitlines()[0] == "The Zone: legal; warnings: 0"
    assert en.splitlines()[-1] == "  band: 70 pts"
    roster = json.loads((BANDS / "la_zone.json").read_text(encoding="utf-8"))
    roster["members"] = roster["members"][:2]
    small = tmp_path / "small.json"
    small.write_text(json.dumps(roster), encoding="utf-8")
    code, fr = run(capsys, "--lang", "fr", "band", "check", str(small))
    assert code == 1
    assert fr.startswith("La zone : bande NON légale ; erreurs : ")
    problems = [line for line in fr.splitlines() if line.startswith("  erreur : ")]
    fixes = [line for line in fr.splitlines() if line.startswith("      correction : ")]
    assert problems and len(fixes) >= len(problems)
    french_only("\n".join(problems + fixes).replace("La zone", ""))
    code, en = run(capsys, "--lang", "en", "band", "check", str(small))
    assert any(line.startswith("  error: ") for line in en.splitlines())
    assert any(line.startswith("      fix: ") for line in en.splitlines())


def test_scenario_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, fr = run(capsys, "--lang", "fr", "scenario", "show", "remede")
    assert code == 0
    lines = fr.splitlines()
    assert lines[0] == "Le remède, scénario conclusif n° 3"
    assert lines[2].startswith("Les survivants gagnent : ")
    assert lines[3].startswith("Les zombies gagnent : ")
    assert "8 tours au plus." in lines
    french_only(fr)
    code, en = run(capsys, "--lang", "en", "scenario", "show", "remede")
    assert en.splitlines()[0] == "The cure, conclusive scenario no. 3"
    assert "At most 8 turns." in en.splitlines()
    assert "Le remède" not in en and "Les survivants" not in en


def scene_request() -> dict[str, object]:
    """One question of each kind on a small scene: a block between the survivor and one
    zombie, another zombie in reach, a third far away."""
    return {
        "scene": {
            "terrain": [{"id": "block", "kind": "polygon", "name": "Kiosque",
                         "name_en": "Kiosk", "polygon": [[8, 3], [9, 3], [9, 7], [8, 7]]}],
            "figures": [
                {"id": "s1", "side": "survivors", "x": 5.0, "y": 5.0, "name": "Lucas"},
                {"id": "z1", "side": "zombies", "x": 12.0, "y": 5.0, "name": "Rôdeur",
                 "name_en": "Walker"},
                {"id": "z2", "side": "zombies", "x": 5.0, "y": 8.0, "name": "Rôdeur",
                 "name_en": "Walker"},
                {"id": "z3", "side": "zombies", "x": 28.0, "y": 29.0, "name": "Rôdeur",
                 "name_en": "Walker"}]},
        "questions": [
            {"ask": "distance", "a": "s1", "b": "z2"},
            {"ask": "line_of_sight", "from": "s1", "to": "z1"},
            {"ask": "line_of_sight", "from": "s1", "to": "z2"},
            {"ask": "activatable_zombies"},
            {"ask": "engaged", "figure": "s1"},
            {"ask": "shooting_targets", "shooter": "s1", "range": 12},
            {"ask": "path", "figure": "s1", "to": [14, 5]},
            {"ask": "visibility", "figure": "s1"},
            {"ask": "reach", "figure": "s1", "inches": 4}]}


def test_arbitrate_explain(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(scene_request()), encoding="utf-8")
    code, fr = run(capsys, "--lang", "fr", "arbitrate", "--explain", str(path))
    assert code == 0
    lines = fr.splitlines()
    assert len(lines) == 9
    assert lines[0] == "1. de Lucas à Rôdeur 2 : 2,0 ps bord à bord"
    assert lines[1] == "2. Lucas ne voit pas le socle de Rôdeur 1"
    assert lines[3].startswith("4. Rôdeur 1 : humain le plus proche Lucas à ")
    assert "Rôdeur 3 : humain le plus proche Lucas à " in lines[3]
    assert "trop loin pour être activé" in lines[3]
    assert lines[4] == "5. Lucas ne touche aucun socle ennemi"
    assert lines[5].startswith("6. Lucas : zombies en vue à 12,0 ps ou moins : 1 ; peut tirer "
                               "sur Rôdeur 2")
    assert lines[6].startswith("7. Lucas atteint le point (14,0 ; 5,0) en ")
    for line in lines:
        assert not re.search(r"\b[sz]\d\b", line), line  # never an id
    french_only(fr)
    code, en = run(capsys, "--lang", "en", "arbitrate", "--explain", str(path))
    lines = en.splitlines()
    assert lines[0] == "1. Lucas to Walker 2: 2.0 in edge to edge"
    assert lines[1] == "2. Lucas cannot see Walker 1's base"
    assert "Walker 3: nearest human Lucas at " in lines[3] and "too far" in lines[3]
    assert not re.search(r"\b(Rôdeur|bord|voit)\b", en)
    code, out = run(capsys, "--lang", "fr", "arbitrate", str(path))
    answers = json.loads(out)["answers"]
    assert answers[0]["inches"] == pytest.approx(3.0 - 25.0 / 25.4)  # edge to edge
    assert answers[0]["explain"] == "de Lucas à Rôdeur 2 : 2,0 ps bord à bord"
    assert answers[0]["explain_words"][0]["code"] == "service.explain.distance"


def test_the_readme_example_explains_itself(capsys: pytest.CaptureFixture[str]) -> None:
    code, fr = run(capsys, "--lang", "fr", "arbitrate", "--explain", str(EXAMPLE))
    assert code == 0 and len(fr.splitlines()) == 6
    assert "voit 50\xa0% du socle de" in fr


def test_replay_tells_the_story(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, _ = run(capsys, "scenario", "play", "nuit", "--seed", "2", "--turns", "1",
                  "--record", str(record))
    assert code == 0
    code, fr = run(capsys, "--lang", "fr", "replay", str(record))
    lines = fr.splitlines()
    assert lines[0] == "  0. Mise en place et points d'action du premier tour"
    assert lines[-1].startswith("tour 1 ; PA restants : ")
    assert not re.search(r"\b[mz]\d+\b|'type'", fr)  # no id, no raw action
    code, en = run(capsys, "--lang", "en", "replay", str(record))
    assert en.splitlines()[0] == "  0. Set-up and first turn's action points"
    assert en.splitlines()[-1].startswith("turn 1; AP left: ")


def test_scenario_setup_keeps_the_crates_hidden_unless_asked(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, hidden = run(capsys, "--lang", "en", "scenario", "setup", "caisses", "--seed", "3")
    assert code == 0 and "contents of crate" not in hidden
    assert "6 crates: their contents are rolled and kept hidden" in hidden
    assert "band “Cops and kids”" in hidden  # the example band by its English name
    code, shown = run(capsys, "--lang", "en", "scenario", "setup", "caisses", "--seed", "3",
                      "--show-crates")
    assert code == 0 and shown.count("contents of crate") == 6
