"""The command line takes a thing by its id or by its French or English name (service/lookup.py),
says an unknown one in the command's language with the names and ids it knows, prints the
JSON error body only when its output is JSON, and words its text for a player."""

from __future__ import annotations

import json

import pytest

from service.cli import main
from service.lookup import Choice, find, fold


def test_fold_and_find() -> None:
    assert fold("  Rôdeur ") == "rodeur" and fold("EX-COP  (M)") == "ex-cop (m)"
    choices = [Choice("a_h", {"fr": "Ado (H)", "en": "Teen (M)"}, ("Ado", "Teen")),
               Choice("a_f", {"fr": "Ado (F)", "en": "Teen (F)"}, ("Ado", "Teen")),
               Choice("solo", {"fr": "Seul", "en": "Alone"}, ("Seule",))]
    assert find("teen (m)", choices) == "a_h" and find("A_F", choices) == "a_f"
    assert find("seule", choices) == "solo"
    assert find("Ado", choices) is None  # two answer to it: the player must say which
    assert find("nobody", choices) is None


@pytest.mark.parametrize("attacker", ["ex_flic_h", "Ex-cop (M)", "ex-flic (h)"])
def test_odds_takes_names(attacker: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--attacker", attacker, "--target", "Walker", "--weapon", "Pistol",
                 "--json"]) == 0
    by_name = json.loads(capsys.readouterr().out)
    assert main(["odds", "--attacker", "ex_flic_h", "--target", "rodeur", "--weapon",
                 "pistolet", "--json"]) == 0
    assert by_name == json.loads(capsys.readouterr().out)


def test_odds_skills_and_items_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "fr", "odds", "--attacker", "Rôdeur", "--target", "geek",
                 "--target-item", "Casque", "--target-skill", "Chanceux"]) == 0
    assert "Rôdeur" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "where", "fr", "en"), [
    (["--attacker", "nobody", "--target", "rodeur"], "attacker", "Rôdeur (rodeur)",
     "Walker (rodeur)"),
    (["--attacker", "geek", "--target", "rodeur", "--weapon", "spoon"], "weapon",
     "Pistolet (pistolet)", "Pistol (pistolet)"),
    (["--attacker", "geek", "--target", "rodeur", "--target-item", "hat"], "target_item",
     "Casque (casque)", "Helmet (casque)"),
    (["--attacker", "geek", "--target", "rodeur", "--attacker-skill", "flying"],
     "attacker_skill", "Chanceux (chanceux)", "Lucky (chanceux)"),
])
def test_odds_unknown_names_list_what_exists(argv: list[str], where: str, fr: str, en: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "fr", "odds", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and fr in err and en not in err
    assert main(["--lang", "en", "odds", *argv, "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["where"] == where and en in error["message"] and fr not in error["message"]


def test_scenario_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "show", "The last helicopter", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == "helico"
    assert main(["scenario", "show", "le dernier helico", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == "helico"
    assert main(["--lang", "fr", "scenario", "show", "atlantis"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Le dernier hélico (helico)" in err and "helicopter" not in err


def test_scenario_setup_takes_band_and_table_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "setup", "Civilian escort", "--seed", "4", "--band", "Le lycée",
                 "--table", "Main street", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["band"]["name"] == "Le lycée"


@pytest.mark.parametrize(("lang", "said"), [
    ("fr", "aucune table de démonstration ne s'appelle « rue » (tables : "),
    ("en", "no demo table is called 'rue' (tables: "),
])
def test_demo_unknown_table_is_a_clean_error(lang: str, said: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", lang, "demo", "rue"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"survive-us: {said}") and "(street)" in err


def test_demo_by_name_without_coordinate_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "fr", "demo", "Grand-rue"]) == 0
    out = capsys.readouterr().out
    assert "zombies en vue (" in out and "du bord gauche" in out
    assert " en (" not in out and "vue : " not in out
    assert main(["--lang", "en", "demo", "street"]) == 0
    out = capsys.readouterr().out
    assert "from the left edge" in out and "by a path of" in out and " at (" not in out


def test_band_cost_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "fr", "band", "cost", "rules/data/bands/the_school.json"]) == 0
    out = capsys.readouterr().out
    assert "encombrement " in out and " sur " in out and "(E " not in out
    assert "0 gratuits" not in out
    assert main(["--lang", "en", "band", "cost", "rules/data/bands/the_school.json"]) == 0
    out = capsys.readouterr().out
    assert "(encumbrance " in out and " of " in out and "(E " not in out


def test_simulate_text_in_percent_and_within_bounds(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--scenario", "Le dernier hélico", "--games", "3", "--seed", "1",
            "--zombies", "greedy", "--survivors", "random"]
    assert main(["--lang", "fr", *argv]) == 0
    out = capsys.readouterr().out
    assert "part des parties nulles" in out and "matchs" not in out
    assert " %" in out and "l'IA « greedy »" in out and "-0," not in out
    assert main(["--lang", "en", *argv]) == 0
    out = capsys.readouterr().out
    assert "wounds lost by the band" in out and "PV" not in out and "-0." not in out
    assert "the 'greedy' AI" in out
    assert main(["simulate", "--scenario", "nope", "--games", "1", "--seed", "0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "The last helicopter (helico)" in err


def test_arbitrate_prints_its_json_error_unless_explaining(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("{not json"))
    assert main(["arbitrate"]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out)["error"]["code"] == "invalid_json" and err.startswith("survive-us:")
    monkeypatch.setattr("sys.stdin", io.StringIO("{not json"))
    assert main(["arbitrate", "--explain"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("survive-us:")
