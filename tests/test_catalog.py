"""The rules data and its loader: golden values from the rulebook, and bad files rejected."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path

import pytest

from geometry.errors import DataError
from rules.catalog import DATA_DIR, Archetype, Catalog, load_catalog
from rules.catalog_schema import source_label

FIELDS = ("cost", "move", "wounds", "attack", "defense", "intelligence", "panic", "encumbrance")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.mark.parametrize(
    ("table", "count"), [("archetypes", 20), ("zombies", 3), ("equipment", 16), ("skills", 38)]
)
def test_counts(catalog: Catalog, table: str, count: int) -> None:
    assert len(getattr(catalog, table)) == count


@pytest.mark.parametrize(
    ("archetype_id", "name", "sex", "class_", "profile", "skills"),
    [
        # profile: cost, M, PV, A, D, I, P, E as printed in the rulebook
        (
            "militaire_h",
            "Militaire",
            "H",
            "hero",
            (10, 6, 10, 4, 5, 5, 2, 6),
            ("violent", "heroique", "entraine"),
        ),
        (
            "militaire_f",
            "Militaire",
            "F",
            "hero",
            (9, 6, 8, 4, 5, 5, 2, 6),
            ("violent", "entraine", "tireur_emerite"),
        ),
        (
            "ado_h",
            "Ado",
            "H",
            "follower",
            (5, 5, 6, 2, 4, 4, 5, 4),
            ("agile", "sprinter", "bon_viseur"),
        ),
        ("ado_f", "Ado", "F", "burden", (4, 5, 6, 2, 4, 3, 6, 3), ("agile", "discrete", "maline")),
        (
            "ex_flic_f",
            "Ex-flic",
            "F",
            "hero",
            (9, 5, 8, 4, 5, 4, 3, 5),
            ("combattant", "tireur_rapide", "autoritaire"),
        ),
        (
            "bourrin",
            "Bourrin",
            "H",
            "hero",
            (9, 4, 10, 4, 4, 6, 3, 6),
            ("robuste", "cogneur", "violent"),
        ),
        (
            "medecin",
            "Médecin",
            "H/F",
            "follower",
            (6, 4, 6, 2, 4, 2, 4, 4),
            ("premiers_soins", "trousse", "chirurgien"),
        ),
        (
            "scientifique",
            "Scientifique",
            "H/F",
            "follower",
            (6, 4, 6, 2, 3, 3, 3, 5),
            ("premiers_soins", "savoir", "didactique"),
        ),
        (
            "enfant",
            "Enfant",
            "H/F",
            "burden",
            (2, 4, 4, 1, 3, 5, 5, 2),
            ("agile", "sprinter", "sac_a_dos"),
        ),
        (
            "vieux",
            "Vieille",
            "F",
            "burden",
            (4, 3, 4, 1, 3, 3, 3, 3),
            ("doyen", "chanceux", "rien_a_perdre"),
        ),
        (
            "prof",
            "Prof",
            "H/F",
            "follower",
            (6, 4, 6, 2, 4, 2, 4, 4),
            ("pragmatique", "pedagogue", "rassurant"),
        ),
    ],
)
def test_archetype_golden(
    catalog: Catalog,
    archetype_id: str,
    name: str,
    sex: str,
    class_: str,
    profile: tuple[int, ...],
    skills: tuple[str, ...],
) -> None:
    archetype = catalog.archetypes[archetype_id]
    assert (archetype.name, archetype.sex, archetype.class_) == (name, sex, class_)
    assert tuple(getattr(archetype, f) for f in FIELDS) == profile
    assert archetype.skills == skills


def test_classes(catalog: Catalog) -> None:
    by_class = {
        c: [a.id for a in catalog.archetypes.values() if a.class_ == c]
        for c in ("hero", "follower", "burden")
    }
    assert {c: len(ids) for c, ids in by_class.items()} == {"hero": 7, "follower": 8, "burden": 5}


def test_every_archetype_offers_three_known_skills(catalog: Catalog) -> None:
    for archetype in catalog.archetypes.values():
        assert len(catalog.skills_of(archetype)) == 3
    assert {s for a in catalog.archetypes.values() for s in a.skills} == set(catalog.skills)


@pytest.mark.parametrize(
    ("skill_id", "archetypes"),
    [
        (
            "violent",
            {
                "anarchiste",
                "bourrin",
                "bourrine",
                "junkie",
                "militaire_h",
                "militaire_f",
                "racaille",
            },
        ),
        ("chanceux", {"bimbo", "mere", "vieux"}),
        ("agile", {"ado_h", "ado_f", "enfant"}),
        ("entraine", {"ex_flic_h", "militaire_h", "militaire_f"}),
        ("tireur_emerite", {"bourrine", "ex_flic_h", "militaire_f"}),
        ("tireur_rapide", {"ex_flic_f", "racaille"}),
        ("discrete", {"ado_f", "mere"}),
        ("rien_a_perdre", {"pere", "vieux"}),
    ],
)
def test_shared_skills_are_one_entry(catalog: Catalog, skill_id: str, archetypes: set[str]) -> None:
    assert {a.id for a in catalog.archetypes.values() if skill_id in a.skills} == archetypes


def test_skill_costs(catalog: Catalog) -> None:
    strong = {
        "chanceux",
        "entraine",
        "tireur_rapide",
        "robuste",
        "savoir",
        "didactique",
        "meneuse",
        "autoritaire",
    }
    assert {s.id for s in catalog.skills.values() if s.cost == 2} == strong
    assert all(s.cost == 1 for s in catalog.skills.values() if s.id not in strong)


@pytest.mark.parametrize(
    ("skill_id", "effect", "params"),
    [
        ("agile", "leave_melee_free", {}),
        ("sprinter", "free_move_once_per_game", {"uses": "game"}),
        ("bon_viseur", "shoot_roll_bonus", {"bonus": 1}),
        ("violent", "free_counterattack_when_wounded", {"bonus": -1}),
        ("autoritaire", "friends_use_her_panic_value", {"radius": 10.0}),
        ("rassurant", "friend_rerolls_panic", {"radius": 6.0, "uses": "turn"}),
        ("pedagogue", "friends_reroll_intelligence", {"radius": 6.0}),
        ("sac_a_dos", "free_extra_encumbrance", {"bonus": 3}),
        ("molotov", "molotov_throws_per_ap", {"count": 2}),
        ("savoir", "cancel_zombie_activation", {"uses": "turn"}),
    ],
)
def test_skill_effects(
    catalog: Catalog, skill_id: str, effect: str, params: dict[str, object]
) -> None:
    skill = catalog.skills[skill_id]
    assert skill.effect == effect
    for name in ("bonus", "radius", "count", "uses"):
        assert getattr(skill, name) == params.get(name)


def test_skill_texts_name_no_other_figure(catalog: Catalog) -> None:
    """The rulebook pasted "l'anarchiste" and "l'ado" into other figures' skills."""
    for skill in catalog.skills.values():
        assert "anarchiste" not in skill.text_fr.lower()
        assert "l'ado" not in skill.text_fr.lower()


@pytest.mark.parametrize(
    ("spelling", "skill_id"),
    [
        ("Violente", "violent"),
        ("tireuse émérite", "tireur_emerite"),
        ("ENTRAINÉE", "entraine"),
        ("Chanceuse", "chanceux"),
        ("sac_a_dos", "sac_a_dos"),
        ("Tête brulée", "tete_brulee"),
    ],
)
def test_skill_named(catalog: Catalog, spelling: str, skill_id: str) -> None:
    assert catalog.skill_named(spelling).id == skill_id


def test_skill_named_unknown(catalog: Catalog) -> None:
    with pytest.raises(KeyError):
        catalog.skill_named("télépathe")


@pytest.mark.parametrize(
    ("item_id", "expected"),
    [
        (
            "arbalete",
            {
                "kind": "shooting",
                "encumbrance": 2,
                "rarity": 1,
                "ap_cost": 2,
                "range": 20,
                "roll_bonus": 2,
                "ammo": "carreaux",
            },
        ),
        (
            "arc",
            {"kind": "shooting", "encumbrance": 1, "rarity": None, "range": 10, "ammo": "fleches"},
        ),
        ("pistolet", {"rarity": 3, "range": 20, "roll_bonus": 1, "ammo": "balles"}),
        ("fusil", {"encumbrance": 2, "rarity": 2, "ap_cost": 2, "range": 35, "ammo": "balles"}),
        ("katana", {"kind": "melee", "reach": 0, "attacks_per_ap": 2, "rarity": 1}),
        ("baton", {"kind": "melee", "reach": 1, "rarity": None, "ap_cost": 1}),
        (
            "barre_de_fer",
            {"encumbrance": 2, "rarity": 3, "reach": 1, "roll_bonus": 1, "ap_cost": 2},
        ),
        ("fronde", {"range": 5, "attacks_per_ap": 2, "ammo": None}),
        (
            "cocktail_molotov",
            {
                "kind": "throwing",
                "range": 5,
                "roll_bonus": 1,
                "units": 2,
                "rarity": 10,
                "ammo": None,
            },
        ),
        ("balles", {"kind": "ammunition", "units": 10, "rarity": None}),
        ("soins", {"kind": "healing", "units": 5, "effect": "heal", "bonus": 2, "ap_cost": 1}),
        ("protection", {"encumbrance": 2, "rarity": 1, "effect": "defense_bonus", "bonus": 1}),
        ("couvercle_de_poubelle", {"rarity": 3, "effect": "melee_save_bonus", "bonus": 1}),
        ("casque", {"rarity": 3, "effect": "contamination_save_bonus", "bonus": 1}),
    ],
)
def test_equipment_golden(catalog: Catalog, item_id: str, expected: dict[str, object]) -> None:
    item = catalog.equipment[item_id]
    assert {key: getattr(item, key) for key in expected} == expected


@pytest.mark.parametrize(
    ("zombie_id", "name", "profile", "from_class"),
    [
        ("rodeur", "Rôdeur", (1, 4, 1, 1, 2), "burden"),
        ("slasher", "Slasher", (2, 3, 1, 2, 3), "follower"),
        ("ignoble", "Ignoble", (3, 4, 1, 2, 4), "hero"),
    ],
)
def test_zombie_golden(
    catalog: Catalog, zombie_id: str, name: str, profile: tuple[int, ...], from_class: str
) -> None:
    zombie = catalog.zombies[zombie_id]
    assert zombie.name == name
    assert (zombie.cost, zombie.move, zombie.wounds, zombie.attack, zombie.defense) == profile
    assert catalog.zombie_for(zombie.from_class) is zombie
    assert zombie.from_class == from_class


def test_catalog_is_immutable(catalog: Catalog) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        catalog.archetypes["ado_h"].move = 9  # type: ignore[misc]
    with pytest.raises(TypeError):
        catalog.archetypes["ado_h"] = catalog.archetypes["ado_f"]  # type: ignore[index]


def test_default_catalog_is_cached_and_equal_to_a_fresh_load() -> None:
    assert load_catalog() is load_catalog()
    assert load_catalog(DATA_DIR) == load_catalog()


def test_to_json(catalog: Catalog) -> None:
    document = json.loads(json.dumps(catalog.to_json()))
    assert list(document) == ["archetypes", "zombies", "equipment", "skills"]
    militaire = next(a for a in document["archetypes"] if a["id"] == "militaire_h")
    assert militaire["class"] == "hero" and militaire["skills"] == [
        "violent",
        "heroique",
        "entraine",
    ]
    assert isinstance(catalog.archetypes["ado_h"], Archetype)
    assert catalog.archetypes["ex_flic_h"].label == "Ex-flic (H)"


# --- bad files -------------------------------------------------------------------------------


def broken_copy(tmp_path: Path, file: str, entry: str | None, old: str, new: str) -> Path:
    """Copy the data directory and replace `old` by `new` in `file`, after entry `entry`."""
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    path = data / file
    text = path.read_text(encoding="utf-8")
    start = 0 if entry is None else text.index(f'id = "{entry}"')
    at = text.index(old, start)
    path.write_text(text[:at] + new + text[at + len(old) :], encoding="utf-8")
    return data


BAD_FIELDS = [
    # file, entry patched, old text, new text, entry named in the error, field, quoted value
    ("archetypes.toml", "ado_h", "move = 5", "move = -5", "ado_h", "move", "-5"),
    ("archetypes.toml", "militaire_h", 'sex = "H"', 'sex = "M"', "militaire_h", "sex", '"M"'),
    ("archetypes.toml", "bourrin", "defense = 4", "defense = 7", "bourrin", "defense", "7"),
    ("archetypes.toml", "enfant", "panic = 5", 'panic = "5+"', "enfant", "panic", '"5+"'),
    ("archetypes.toml", "junkie", "wounds = 6", "wounds = true", "junkie", "wounds", "true"),
    (
        "archetypes.toml",
        "bimbo",
        'class = "burden"',
        'class = "boulet"',
        "bimbo",
        "class",
        '"boulet"',
    ),
    ("archetypes.toml", "geek", '"maline"', '"malin"', "geek", "skills", '"malin"'),
    (
        "archetypes.toml",
        "prof",
        '"pragmatique", "pedagogue", "rassurant"',
        '"pragmatique"',
        "prof",
        "skills",
        '["pragmatique"]',
    ),
    (
        "archetypes.toml",
        "vieux",
        "encumbrance = 3",
        'encumbrance = 3\ncolour = "grey"',
        "vieux",
        "colour",
        '"grey"',
    ),
    ("archetypes.toml", "ado_f", 'id = "ado_f"', 'id = "ado_h"', "ado_h", "id", '"ado_h"'),
    ("archetypes.toml", "ado_f", 'id = "ado_f"', 'id = "Ado F"', "#2", "id", '"Ado F"'),
    ("skills.toml", "sprinter", 'uses = "game"', 'uses = "week"', "sprinter", "uses", '"week"'),
    ("skills.toml", "savoir", "cost = 2", "cost = 3", "savoir", "cost", "3"),
    ("skills.toml", "doyen", "radius = 10", "radius = 0", "doyen", "radius", "0"),
    (
        "skills.toml",
        "violent",
        'aliases = ["Violente"]',
        'aliases = ["Violente", "Agile"]',
        "violent",
        "aliases",
        '"Agile"',
    ),
    (
        "equipment.toml",
        "pistolet",
        'ammo = "balles"',
        'ammo = "katana"',
        "pistolet",
        "ammo",
        '"katana"',
    ),
    ("equipment.toml", "katana", "reach = 0", "reach = -1", "katana", "reach", "-1"),
    ("equipment.toml", "fusil", "rarity = 2", "rarity = 0", "fusil", "rarity", "0"),
    ("equipment.toml", "baton", 'kind = "melee"', 'kind = "club"', "baton", "kind", '"club"'),
    ("equipment.toml", "katana", "reach = 0", "range = 1.5", "katana", "range", "1.5"),
    ("equipment.toml", "casque", "ap_cost = 0", "ap_cost = 1.5", "casque", "ap_cost", "1.5"),
    # the second zombie claiming a class is the one named
    (
        "zombies.toml",
        "slasher",
        'from_class = "follower"',
        'from_class = "hero"',
        "ignoble",
        "from_class",
        '"hero"',
    ),
    ("zombies.toml", "rodeur", "defense = 2", "defense = 1", "rodeur", "defense", "1"),
]


@pytest.mark.parametrize(("file", "entry", "old", "new", "named", "field", "value"), BAD_FIELDS)
def test_bad_field(
    tmp_path: Path, file: str, entry: str, old: str, new: str, named: str, field: str, value: str
) -> None:
    data = broken_copy(tmp_path, file, entry, old, new)
    with pytest.raises(DataError) as caught:
        load_catalog(data)
    entry_text = named if named.startswith("#") else repr(named)
    assert caught.value.message.startswith(f"{data / file}: entry {entry_text}, field {field!r}: ")
    assert caught.value.message.endswith(f"got {value}")
    assert caught.value.where == f"{file}:{named}.{field}"


def test_bad_value_message_in_full(tmp_path: Path) -> None:
    data = broken_copy(tmp_path, "archetypes.toml", "ado_h", "move = 5", "move = -5")
    with pytest.raises(DataError, match="expected a positive integer, got -5$") as caught:
        load_catalog(data)
    assert str(caught.value) == (
        f"{data}/archetypes.toml: entry 'ado_h', field 'move': expected a positive integer, got -5"
    )


def test_project_files_are_named_relative_to_the_project() -> None:
    assert source_label(DATA_DIR / "archetypes.toml") == "rules/data/archetypes.toml"


def test_data_error_is_a_value_error(tmp_path: Path) -> None:
    data = broken_copy(tmp_path, "zombies.toml", "rodeur", "move = 4", "move = 0")
    with pytest.raises(ValueError, match="field 'move'") as caught:
        load_catalog(data)
    assert isinstance(caught.value, DataError) and caught.value.code == "invalid_data"


@pytest.mark.parametrize(
    ("file", "entry", "old", "new", "named", "field"),
    [
        ("archetypes.toml", "anarchiste", "move = 5\n", "", "anarchiste", "move"),
        ("archetypes.toml", None, 'id = "ado_h"\n', "", "#1", "id"),
        ("equipment.toml", "arc", "range = 10\n", "", "arc", "range"),
        (
            "equipment.toml",
            "casque",
            'effect = "contamination_save_bonus"\n',
            "",
            "casque",
            "effect",
        ),
    ],
)
def test_missing_field(
    tmp_path: Path, file: str, entry: str | None, old: str, new: str, named: str, field: str
) -> None:
    data = broken_copy(tmp_path, file, entry, old, new)
    entry_text = named if named.startswith("#") else repr(named)
    with pytest.raises(DataError, match="missing required field") as caught:
        load_catalog(data)
    assert caught.value.message.startswith(f"{data / file}: entry {entry_text}, field {field!r}")


@pytest.mark.parametrize(
    ("file", "old", "new", "fragment"),
    [
        ("archetypes.toml", "[[archetypes]]", "[[archetypes]", "not valid TOML"),
        ("skills.toml", "[[skills]]", "version = 2\n[[skills]]", "unknown top-level key 'version'"),
        ("zombies.toml", "[[zombies]]", "[[zombie]]", "unknown top-level key 'zombie'"),
    ],
)
def test_bad_file(tmp_path: Path, file: str, old: str, new: str, fragment: str) -> None:
    data = broken_copy(tmp_path, file, None, old, new)
    with pytest.raises(DataError, match=fragment) as caught:
        load_catalog(data)
    assert caught.value.message.startswith(f"{data / file}: ")


def test_missing_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    (data / "zombies.toml").unlink()
    with pytest.raises(DataError, match="zombies.toml: cannot read the file"):
        load_catalog(data)


def test_every_class_needs_a_zombie(tmp_path: Path) -> None:
    text = (DATA_DIR / "zombies.toml").read_text(encoding="utf-8")
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    (data / "zombies.toml").write_text(text[: text.index('[[zombies]]\nid = "ignoble"')])
    with pytest.raises(DataError, match='no zombie has from_class "hero"'):
        load_catalog(data)


# --- names in French and English --------------------------------------------------------------

NAMED = [("archetypes.toml", "archetypes"), ("zombies.toml", "zombies"),
         ("equipment.toml", "equipment"), ("skills.toml", "skills")]


@pytest.mark.parametrize("table", [table for _, table in NAMED])
def test_every_entry_is_named_in_french_and_english(catalog: Catalog, table: str) -> None:
    for entry in getattr(catalog, table).values():
        assert entry.name.strip() and entry.name_en.strip(), entry.id
        assert entry.name_en != entry.id and "_" not in entry.name_en, entry.id


def test_texts_shown_to_players_are_in_both_languages(catalog: Catalog) -> None:
    for item in (*catalog.skills.values(), *catalog.equipment.values()):
        assert item.text_fr.strip() and item.text_en.strip(), item.id
        assert item.text_en != item.text_fr, item.id


@pytest.mark.parametrize(
    ("table", "entry_id", "name", "name_en"),
    [
        ("archetypes", "ex_flic_h", "Ex-flic", "Ex-cop"),
        ("archetypes", "militaire_f", "Militaire", "Soldier"),
        ("zombies", "rodeur", "Rôdeur", "Walker"),
        ("zombies", "ignoble", "Ignoble", "Abomination"),
        ("skills", "tete_brulee", "Tête brûlée", "Hothead"),
        ("equipment", "couvercle_de_poubelle", "Couvercle de poubelle", "Bin lid"),
    ],
)
def test_names(catalog: Catalog, table: str, entry_id: str, name: str, name_en: str) -> None:
    entry = getattr(catalog, table)[entry_id]
    assert (entry.name, entry.name_en) == (name, name_en)


def test_labels_in_both_languages(catalog: Catalog) -> None:
    labels = {a.id: (a.label, a.label_en) for a in catalog.archetypes.values()}
    assert labels["ex_flic_f"] == ("Ex-flic (F)", "Ex-cop (F)")
    assert labels["militaire_h"] == ("Militaire (H)", "Soldier (M)")
    assert labels["geek"] == ("Geek (H/F)", "Geek (M/F)")


def test_english_names_tell_the_figures_apart_as_the_french_do(catalog: Catalog) -> None:
    """Two archetypes share an English heading only when the French tells them apart no
    better than by sex (Bourrin / Bourrine are both Bruisers)."""
    for table in ("zombies", "equipment", "skills"):
        names = [e.name_en.casefold() for e in getattr(catalog, table).values()]
        assert len(names) == len(set(names)), table
    labels = [a.label_en for a in catalog.archetypes.values()]
    assert len(labels) == len(set(labels))


@pytest.mark.parametrize(("spelling", "skill_id"), [("Hothead", "tete_brulee"),
                                                    ("good shot", "bon_viseur")])
def test_skill_named_in_english(catalog: Catalog, spelling: str, skill_id: str) -> None:
    assert catalog.skill_named(spelling).id == skill_id


@pytest.mark.parametrize(("file", "entry"), [("archetypes.toml", "junkie"),
                                             ("zombies.toml", "slasher"),
                                             ("equipment.toml", "casque"),
                                             ("skills.toml", "doyen")])
def test_a_missing_english_name_is_refused(tmp_path: Path, file: str, entry: str) -> None:
    text = (DATA_DIR / file).read_text(encoding="utf-8")
    line = re.compile(r'name_en = "[^"]*"\n').search(text, text.index(f'id = "{entry}"'))
    assert line is not None
    data = broken_copy(tmp_path, file, entry, line.group(0), "")
    with pytest.raises(DataError, match="missing required field") as caught:
        load_catalog(data)
    assert caught.value.message.startswith(f"{data / file}: entry {entry!r}, field 'name_en'")
    assert caught.value.where == f"{file}:{entry}.name_en"


@pytest.mark.parametrize(
    ("file", "entry", "old", "new", "field", "value"),
    [
        ("archetypes.toml", "prof", 'name_en = "Teacher"', 'name_en = "  "', "name_en", '"  "'),
        ("zombies.toml", "rodeur", 'name_en = "Walker"', "name_en = 1", "name_en", "1"),
        ("equipment.toml", "arc", 'text_en = "Shoots at 10 in, 1 AP."', 'text_en = ""',
         "text_en", '""'),
        # an English name must not be another skill's spelling: skill_named would be ambiguous
        ("skills.toml", "savoir", 'name_en = "Know-how"', 'name_en = "Agile"', "name_en",
         '"Agile"'),
    ],
)
def test_a_bad_english_name_is_refused(tmp_path: Path, file: str, entry: str, old: str,
                                       new: str, field: str, value: str) -> None:
    data = broken_copy(tmp_path, file, entry, old, new)
    with pytest.raises(DataError) as caught:
        load_catalog(data)
    assert caught.value.message.startswith(f"{data / file}: entry {entry!r}, field {field!r}: ")
    assert caught.value.message.endswith(f"got {value}")


def test_equipment_needs_its_english_text(tmp_path: Path) -> None:
    data = broken_copy(tmp_path, "equipment.toml", "fusil", 'text_en = "Shoots at 35 in, 2 AP."\n',
                       "")
    with pytest.raises(DataError, match="entry 'fusil', field 'text_en': missing required field"):
        load_catalog(data)
