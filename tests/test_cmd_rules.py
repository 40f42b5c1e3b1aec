"""`survive-us rules dump`: the JSON contract of DESIGN.md, the text summary, bad data."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rules.catalog import DATA_DIR, load_catalog
from service.cli import main

ARCHETYPE_KEYS = {
    "id",
    "name",
    "name_en",
    "sex",
    "class",
    "cost",
    "move",
    "wounds",
    "attack",
    "defense",
    "intelligence",
    "panic",
    "encumbrance",
    "skills",
}
ZOMBIE_KEYS = {"id", "name", "name_en", "cost", "move", "attack", "defense"}


@pytest.fixture
def dump(capsys: pytest.CaptureFixture[str]) -> dict[str, list[dict[str, object]]]:
    assert main(["rules", "dump", "--json"]) == 0
    document: dict[str, list[dict[str, object]]] = json.loads(capsys.readouterr().out)
    return document


def test_dump_shape(dump: dict[str, list[dict[str, object]]]) -> None:
    assert set(dump) == {"archetypes", "zombies", "equipment", "skills"}
    assert [len(dump[k]) for k in ("archetypes", "zombies", "equipment")] == [20, 3, 16]
    assert all(set(a) >= ARCHETYPE_KEYS for a in dump["archetypes"])
    assert all(set(z) >= ZOMBIE_KEYS for z in dump["zombies"])
    assert {a["sex"] for a in dump["archetypes"]} == {"H", "F", "H/F"}
    assert {a["class"] for a in dump["archetypes"]} == {"hero", "follower", "burden"}


def test_dump_is_the_catalog(dump: dict[str, list[dict[str, object]]]) -> None:
    assert dump == json.loads(json.dumps(load_catalog().to_json()))


@pytest.mark.parametrize(
    ("table", "entry_id", "expected"),
    [
        (
            "archetypes",
            "militaire_h",
            {
                "name": "Militaire",
                "sex": "H",
                "class": "hero",
                "cost": 10,
                "move": 6,
                "wounds": 10,
                "attack": 4,
                "defense": 5,
                "intelligence": 5,
                "panic": 2,
                "encumbrance": 6,
                "skills": ["violent", "heroique", "entraine"],
            },
        ),
        ("archetypes", "ex_flic_h", {"name": "Ex-flic", "name_en": "Ex-cop", "sex": "H",
                                     "cost": 9, "defense": 5}),
        ("zombies", "rodeur", {"name": "Rôdeur", "name_en": "Walker", "cost": 1, "move": 4,
                               "attack": 1, "defense": 2}),
        (
            "zombies",
            "ignoble",
            {"name": "Ignoble", "cost": 3, "move": 4, "attack": 2, "defense": 4},
        ),
        (
            "equipment",
            "fusil",
            {"name": "Fusil", "kind": "shooting", "range": 35, "rarity": 2, "ammo": "balles"},
        ),
        ("equipment", "arc", {"rarity": None}),
        ("skills", "chanceux", {"name": "Chanceux", "name_en": "Lucky", "cost": 2,
                                "uses": "game"}),
        ("equipment", "casque", {"name": "Casque", "name_en": "Helmet",
                                 "text_en": "+1 to the roll to resist contamination."}),
    ],
)
def test_dump_values(
    dump: dict[str, list[dict[str, object]]], table: str, entry_id: str, expected: dict[str, object]
) -> None:
    entry = next(e for e in dump[table] if e["id"] == entry_id)
    assert {key: entry[key] for key in expected} == expected


def test_every_name_has_its_english_beside_it(dump: dict[str, list[dict[str, object]]]) -> None:
    for table in ("archetypes", "zombies", "equipment", "skills"):
        for entry in dump[table]:
            keys = list(entry)
            assert keys.index("name_en") == keys.index("name") + 1, (table, entry["id"])
            assert isinstance(entry["name_en"], str) and entry["name_en"].strip()


def test_text_summary_in_the_language_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "fr", "rules", "dump"]) == 0
    out = capsys.readouterr().out
    assert "Archétypes (20)" in out and "Zombies (3)" in out and "Équipement (16)" in out
    # each entry's id beside its name: what `odds` and the help's "see rules dump" take
    assert "Militaire (H) (militaire_h), héros, 10 pts : M6 PV10 A4 D5+ I5+ P2+ E6" in out
    assert "Rôdeur (rodeur), 1 pt : M4" in out
    assert "Couvercle de poubelle (couvercle_de_poubelle)" in out
    assert "Soldier (M)" not in out and "Walker" not in out and "follower" not in out
    assert main(["--lang", "en", "rules", "dump"]) == 0
    out = capsys.readouterr().out
    assert "Archetypes (20)" in out and "Zombies (3)" in out and "Equipment (16)" in out
    assert "Soldier (M) (militaire_h), hero, 10 pts: M6 W10 A4 D5+ I5+ P2+ E6" in out
    assert "Walker (rodeur)" in out and "Bin lid" in out and "Hothead (tete_brulee)" in out
    assert "Militaire" not in out and "Rôdeur" not in out and "héros" not in out


def test_action_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["rules"])
    assert caught.value.code == 2
    assert "ACTION" in capsys.readouterr().err


@pytest.fixture
def bad_data(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    path = data / "zombies.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("move = 3", "move = -3"))
    return data


def test_bad_data_json(bad_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "dump", "--json", "--data-dir", str(bad_data)]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "invalid_data"
    assert error["where"] == "zombies.toml:slasher.move"
    assert "entry 'slasher', field 'move'" in error["message"] and "got -3" in error["message"]


def test_bad_data_text(bad_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "dump", "--data-dir", str(bad_data)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "zombies.toml: entry 'slasher', field 'move'" in captured.err


def test_a_name_without_its_english_is_bad_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    path = data / "archetypes.toml"
    path.write_text(path.read_text(encoding="utf-8").replace('name_en = "Thug"\n', ""))
    assert main(["rules", "dump", "--json", "--data-dir", str(data)]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["where"] == "archetypes.toml:racaille.name_en"
    assert "archetypes.toml: entry 'racaille', field 'name_en': missing required field" in (
        error["message"])
