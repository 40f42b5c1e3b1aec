"""Warband building: example bands, each rule alone, many at once, costs, JSON, the CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from rules.settings import Settings
from rules.warband import (
    BANDS_DIR,
    Member,
    Problem,
    Roster,
    RosterError,
    band_cost,
    cost_breakdown,
    example_bands,
    figure_cost,
    is_legal,
    validate,
)
from service.cli import main

# Hand-computed costs: base + skill(s) + encumbrance paid (docs/rules.md D4, D35).
EXPECTED_COSTS = {
    "cops_and_kids": {
        "m1": 9 + 1 + (1 + 2),  # Ex-flic (H), combattant, pistolet E1 + 2 balles E1
        "m2": 9 + 2 + (2 + 1 + 1),  # Ex-flic (F), tireur rapide, fusil E2, balles, casque
        "m3": 5 + 1 + (1 + 1),  # Mère, maternelle, bâton, soins
        "m4": 2 + 1 + 2,  # Enfant, sac à dos: carries 5 (E2 + 3), pays only its E2
        "m5": 2 + 1,  # Enfant, agile, nothing
        "m6": 6 + 1 + (1 + 1 + 1),  # Médecin, trousse: 2 of 3 soins free; pistolet, balles
    },
    "la_zone": {
        "m1": 8 + 1 + (4 + 1),  # Anarchiste, molotov, 4 cocktails E1 each, bâton
        "m2": 8 + 2 + (1 + 1 + 2),  # Racaille, tireur rapide, pistolet, balles, barre de fer
        "m3": 9 + 2 + (2 + 2 + 1),  # Bourrin, robuste, barre, protection, couvercle
        "m4": 6 + 1 + 4,  # Geek, sac à dos: carries 7 (E4 + 3), pays 4
        "m5": 2 + 1 + 1,  # Junkie, insensible, bâton
        "m6": 3 + 2,  # Bimbo, chanceux
        "m7": 4 + 1 + 1,  # Vieux, doyen, soins
    },
    "the_school": {
        "m1": 9 + (2 + 1) + (1 + 2 + 2),  # Militaire (F), entraîné + violent, katana, fusil
        "m2": 6 + 1 + 1,  # Prof, pédagogue, bâton
        "m3": 5 + 1 + (1 + 1),  # Ado (H), bon viseur, arc, flèches
        "m4": 4 + 1 + 1,  # Ado (F), discrète, fronde
        "m5": 6 + 2 + (2 + 1),  # Scientifique, savoir, 2 soins, casque
    },
}


def band(name: str = "cops_and_kids") -> Roster:
    return Roster.load(BANDS_DIR / f"{name}.json")


def edit(roster: Roster, member_id: str, **changes: Any) -> Roster:
    members = tuple(replace(m, **changes) if m.id == member_id else m for m in roster.members)
    return replace(roster, members=members)


def drop(roster: Roster, *ids: str) -> Roster:
    return replace(roster, members=tuple(m for m in roster.members if m.id not in ids))


def add(roster: Roster, *members: Member) -> Roster:
    return replace(roster, members=roster.members + members)


def kid(member_id: str, **changes: Any) -> Member:
    return replace(Member(id=member_id, archetype="enfant", skill="agile"), **changes)


class Said(NamedTuple):
    """A problem as the English reader gets it (its messages rendered in English)."""

    where: str
    message: str
    fix: str
    severity: str = "error"
    code: str = ""


def said(problems: list[Problem]) -> list[Said]:
    return [Said(p.where, p.message, p.fix, p.severity, p.code) for p in problems]


# ---------------------------------------------------------------------------------------------
# Legal bands and costs


@pytest.mark.parametrize("name", sorted(EXPECTED_COSTS))
def test_example_bands_are_legal_with_hand_computed_costs(name: str) -> None:
    roster = band(name)
    assert validate(roster) == []
    assert is_legal(roster)
    assert {m.id: figure_cost(m) for m in roster.members} == EXPECTED_COSTS[name]
    assert band_cost(roster) == sum(EXPECTED_COSTS[name].values())


def test_example_band_totals() -> None:
    assert {k: band_cost(r) for k, r in example_bands().items()} == {
        "cops_and_kids": 54,
        "la_zone": 70,
        "the_school": 50,
    }


def test_cost_breakdown_parts() -> None:
    members = {m.id: m for m in band().members}
    assert cost_breakdown(members["m4"]) == {
        "base": 2,
        "skill": 1,
        "second_skill": 0,
        "equipment": 2,
        "free": 3,
        "total": 5,
        "carried": 5,
        "capacity": 5,
    }
    assert cost_breakdown(members["m6"]) == {
        "base": 6,
        "skill": 1,
        "second_skill": 0,
        "equipment": 3,
        "free": 2,
        "total": 10,
        "carried": 3,
        "capacity": 4,
    }
    school = {m.id: m for m in band("the_school").members}
    parts = cost_breakdown(school["m1"])
    assert (parts["skill"], parts["second_skill"], parts["total"]) == (2, 1, 17)


@pytest.mark.parametrize(
    ("name", "flat", "expected"),
    [
        ("cops_and_kids", 1, 54 - 1),  # tireur rapide 2 -> 1
        ("cops_and_kids", 0, 54 - 7),  # six skills worth 7 points become free
        ("cops_and_kids", 2, 54 + 5),  # five 1-pt skills become 2
        ("the_school", 1, 50 - 2),  # entraîné and savoir 2 -> 1; violent (second) stays 1
        ("la_zone", 1, 70 - 3),
    ],
)
def test_flat_skill_cost(name: str, flat: int, expected: int) -> None:
    settings = Settings(skill_cost=flat)
    assert band_cost(band(name), settings=settings) == expected
    assert validate(band(name), settings=settings) == []


def test_second_skill_cost_is_added() -> None:
    roster = edit(band(), "m1", second_skill="entraine")
    assert validate(roster) == []
    assert figure_cost(roster.members[0]) == 13 + 2


@pytest.mark.parametrize(
    ("archetype", "skill", "second", "equipment", "paid", "free", "capacity"),
    [
        ("enfant", "sac_a_dos", None, {}, 0, 0, 5),
        ("enfant", "sac_a_dos", None, {"baton": 1}, 1, 0, 5),
        ("enfant", "sac_a_dos", None, {"baton": 1, "casque": 1}, 2, 0, 5),  # E used: paid
        ("enfant", "sac_a_dos", None, {"baton": 1, "casque": 1, "fronde": 1}, 2, 1, 5),
        ("enfant", "sac_a_dos", None, {"fusil": 1, "balles": 3}, 2, 3, 5),  # full backpack
        ("enfant", "agile", None, {"baton": 1, "casque": 1}, 2, 0, 2),  # no backpack
        ("geek", "maline", "sac_a_dos", {"arc": 1, "fleches": 6}, 4, 3, 7),  # as second skill
        ("medecin", "trousse", None, {"soins": 2}, 0, 2, 4),  # two heals free
        ("medecin", "trousse", None, {"soins": 1}, 0, 1, 4),
        ("medecin", "trousse", None, {"soins": 3}, 1, 2, 4),  # the third is paid
        ("medecin", "trousse", None, {"soins": 2, "fusil": 1, "balles": 2}, 4, 2, 4),
        ("medecin", "premiers_soins", None, {"soins": 2}, 2, 0, 4),  # no trousse: paid
    ],
)
def test_sac_a_dos_and_trousse(
    archetype: str,
    skill: str,
    second: str | None,
    equipment: dict[str, int],
    paid: int,
    free: int,
    capacity: int,
) -> None:
    member = Member(
        id="x", archetype=archetype, skill=skill, second_skill=second, equipment=equipment
    )
    parts = cost_breakdown(member)
    assert (parts["equipment"], parts["free"], parts["capacity"]) == (paid, free, capacity)
    roster = add(band(), member)
    assert [p for p in validate(roster) if p.severity == "error"] == []


def test_sac_a_dos_overloaded_pays_the_excess() -> None:
    member = kid("m5", skill="sac_a_dos", equipment={"fusil": 1, "balles": 2, "baton": 2})
    assert cost_breakdown(member)["carried"] == 6
    assert cost_breakdown(member)["equipment"] == 6 - 3
    problems = validate(edit(band(), "m5", skill="sac_a_dos", equipment=dict(member.equipment)))
    assert said(problems) == [
        Said(
            "members[4].equipment",
            "Léa carries 6 encumbrance points but can carry 5 (E2 + 3 from Backpack)",
            "remove 1 point of equipment (e.g. 10 rounds, E1)",
            code="encumbrance",
        )
    ]


def test_trousse_overloaded_names_the_free_items() -> None:
    roster = edit(band(), "m6", equipment={"soins": 2, "fusil": 1, "balles": 2, "baton": 1})
    assert said(validate(roster)) == [
        Said(
            "members[5].equipment",
            "Dr Martin carries 5 encumbrance points (not counting 2 healing items carried "
            "free with Medkit) but can carry 4",
            "remove 1 point of equipment (e.g. 10 rounds, E1)",
            code="encumbrance",
        )
    ]


# ---------------------------------------------------------------------------------------------
# Each rule alone

Edit = Callable[[Roster], Roster]

SINGLE_VIOLATIONS: list[tuple[str, Edit, Said]] = [
    (
        "too_few",
        lambda r: drop(r, "m2", "m3"),
        Said(
            "members",
            "the band has 4 figures but needs 5 to 8",
            "add 1 figure",
            code="band_size",
        ),
    ),
    (
        "too_many",
        lambda r: add(r, kid("k1"), kid("k2"), kid("k3")),
        Said(
            "members",
            "the band has 9 figures but needs 5 to 8",
            "remove 1 figure",
            code="band_size",
        ),
    ),
    (
        "no_burden",
        lambda r: edit(
            edit(r, "m4", archetype="ado_h", skill="agile", equipment={}, sex=None),
            "m5",
            archetype="ado_h",
            sex=None,
        ),
        Said(
            "members",
            "the band has no burden; it needs at least one hero, one follower and one burden",
            "add a burden, one of: Teen (F), Bimbo, Kid, Junkie, and Old woman",
            code="no_burden",
        ),
    ),
    (
        "no_hero",
        lambda r: edit(
            edit(r, "m1", archetype="pere", skill="vengeur"),
            "m2",
            archetype="mere",
            skill="chanceux",
            equipment={"fusil": 1, "balles": 1},
        ),
        Said(
            "members",
            "the band has no hero; it needs at least one hero, one follower and one burden",
            "add a hero, one of: Anarchist, Bruiser (M), Ex-cop (M), Ex-cop (F), Soldier (M), "
            "Soldier (F), and Thug",
            code="no_hero",
        ),
    ),
    (
        "no_follower",
        lambda r: edit(
            edit(r, "m3", archetype="racaille", skill="violent"),
            "m6",
            archetype="junkie",
            skill="paume",
            equipment={"pistolet": 1, "balles": 1},
        ),
        Said(
            "members",
            "the band has no follower; it needs at least one hero, one follower and one burden",
            "add a follower, one of: Teen (M), Bruiser (F), Geek, Doctor, Father, Mother, Teacher, "
            "and Scientist",
            code="no_follower",
        ),
    ),
    (
        "unknown_archetype",
        lambda r: edit(r, "m5", archetype="enfnat"),
        Said(
            "members[4].archetype",
            "Léa has an unknown archetype 'enfnat'",
            "did you mean Kid?",
            code="unknown_archetype",
        ),
    ),
    (
        "duplicate_id",
        lambda r: edit(r, "m5", id="m4"),
        Said(
            "members[4].id",
            "Léa has the same id as an earlier member",
            "give it an id no other member has",
            code="duplicate_id",
        ),
    ),
    (
        "wrong_sex",
        lambda r: edit(r, "m3", sex="H"),
        Said(
            "members[2].sex",
            "Sophie is a woman (F) in the rulebook, not M",
            "set the sex to F or leave it out",
            code="sex",
        ),
    ),
    (
        "no_skill",
        lambda r: edit(r, "m1", skill=None),
        Said(
            "members[0].skill",
            "Lucas has no skill",
            "choose one of the Ex-cop (M) profile's skills: Fighter (1 pt), Marksman (1 pt), "
            "and Trained (2 pts)",
            code="no_skill",
        ),
    ),
    (
        "skill_not_offered",
        lambda r: edit(r, "m1", skill="agile"),
        Said(
            "members[0].skill",
            "Lucas cannot have the skill Agile",
            "choose one of the Ex-cop (M) profile's skills: Fighter (1 pt), Marksman (1 pt), "
            "and Trained (2 pts)",
            code="skill_not_offered",
        ),
    ),
    (
        "skill_spelling",
        lambda r: edit(r, "m2", skill="Combattante"),
        Said(
            "members[1].skill",
            "Inès cannot have the skill Combattante",
            "choose Fighter from the list of skills",
            code="skill_not_offered",
        ),
    ),
    (
        "second_skill_repeated",
        lambda r: edit(r, "m1", second_skill="combattant"),
        Said(
            "members[0].second_skill",
            "Lucas's second skill, Fighter, is the skill it already has",
            "choose another skill of the profile (one of: Marksman (1 pt) and Trained (2 pts)) "
            "or remove the second skill",
            code="second_skill_repeated",
        ),
    ),
    (
        "second_skill_not_offered",
        lambda r: edit(r, "m1", second_skill="robuste"),
        Said(
            "members[0].second_skill",
            "Lucas cannot have Tough as a second skill",
            "choose another skill of the profile (one of: Marksman (1 pt) and Trained (2 pts)) "
            "or remove the second skill",
            code="second_skill_not_offered",
        ),
    ),
    (
        "unknown_item",
        lambda r: edit(r, "m5", equipment={"katan": 1}),
        Said(
            "members[4].equipment.katan",
            "Léa carries an unknown item 'katan'",
            "did you mean one of these: Katana and Staff?",
            code="unknown_item",
        ),
    ),
    (
        "encumbrance",
        lambda r: edit(r, "m5", equipment={"fusil": 1, "balles": 1}),
        Said(
            "members[4].equipment",
            "Léa carries 3 encumbrance points but can carry 2",
            "remove 1 point of equipment (e.g. 10 rounds, E1)",
            code="encumbrance",
        ),
    ),
    (
        "encumbrance_big_item",
        lambda r: edit(r, "m3", equipment={"baton": 1, "protection": 1, "barre_de_fer": 1}),
        Said(
            "members[2].equipment",
            "Sophie carries 5 encumbrance points but can carry 4",
            "remove 1 point of equipment (e.g. Staff, E1)",
            code="encumbrance",
        ),
    ),
    (
        "encumbrance_two_points",
        lambda r: edit(
            r, "m3", equipment={"baton": 1, "protection": 1, "barre_de_fer": 1, "casque": 1}
        ),
        Said(
            "members[2].equipment",
            "Sophie carries 6 encumbrance points but can carry 4",
            "remove 2 points of equipment (e.g. Body armour, E2)",
            code="encumbrance",
        ),
    ),
    (
        "rarity_across_members",
        lambda r: edit(
            edit(r, "m3", equipment={"baton": 1, "soins": 1, "pistolet": 1, "balles": 1}),
            "m5",
            equipment={"pistolet": 1, "balles": 1},
        ),
        Said(
            "members[*].equipment.pistolet",
            "the band holds 4 × Pistol (Lucas: 1, Sophie: 1, Léa: 1, and Dr Martin: 1) but its "
            "rarity is 3",
            "remove 1 × Pistol from the band",
            code="rarity",
        ),
    ),
    (
        "rarity_in_one_member",
        lambda r: edit(r, "m1", equipment={"pistolet": 1, "balles": 1, "protection": 2}),
        Said(
            "members[*].equipment.protection",
            "the band holds 2 × Body armour (Lucas: 2) but its rarity is 1",
            "remove 1 × Body armour from the band",
            code="rarity",
        ),
    ),
    (
        "ammunition_without_weapon",
        lambda r: edit(r, "m5", equipment={"carreaux": 1}),
        Said(
            "members[4].equipment.carreaux",
            "Léa carries 10 bolts but no weapon that uses them (Crossbow)",
            "add a weapon that uses them (Crossbow) or remove the 10 bolts",
            severity="warning",
            code="ammunition_without_weapon",
        ),
    ),
    (
        "weapon_without_ammunition",
        lambda r: edit(r, "m1", equipment={"pistolet": 1}),
        Said(
            "members[0].equipment.pistolet",
            "Lucas carries a Pistol but no ammunition to shoot it with (10 rounds)",
            "add 10 rounds (E1) or remove the Pistol",
            severity="warning",
            code="weapon_without_ammunition",
        ),
    ),
    (
        "meneuse_needs_sexes",
        lambda r: edit(
            edit(r, "m3", archetype="bourrine", skill="meneuse", equipment={}),
            "m5",
            sex=None,
        ),
        Said(
            "members[4].sex",
            "Léa may be a man or a woman and has no sex set, and a member of the band has "
            "Ringleader (she leads the women of the band)",
            "set the sex: M or F",
            severity="warning",
            code="sex_unknown",
        ),
    ),
]


@pytest.mark.parametrize(
    ("change", "expected"),
    [(change, expected) for _, change, expected in SINGLE_VIOLATIONS],
    ids=[name for name, _, _ in SINGLE_VIOLATIONS],
)
def test_each_rule_alone(change: Edit, expected: Said) -> None:
    roster = change(band())
    assert said(validate(roster)) == [expected]
    assert is_legal(roster) is (expected.severity == "warning")


def test_fronde_needs_no_ammunition() -> None:
    roster = edit(band(), "m5", equipment={"fronde": 1})
    assert validate(roster) == []


def test_untracked_ammunition_needs_none() -> None:
    roster = edit(band(), "m1", equipment={"pistolet": 1})
    assert validate(roster, settings=Settings(track_ammunition=False)) == []


def test_shared_ammunition_needs_a_weapon_of_the_same_figure() -> None:
    roster = edit(band(), "m5", equipment={"balles": 1})  # m1 has a pistolet, m5 none
    assert [p.code for p in validate(roster)] == ["ammunition_without_weapon"]
    assert "(Pistol and Rifle)" in validate(roster)[0].message


@pytest.mark.parametrize(("cocktails", "legal"), [(10, True), (11, False)])
def test_molotov_rarity_counts_items(cocktails: int, legal: bool) -> None:
    roster = edit(band("la_zone"), "m4", equipment={"cocktail_molotov": cocktails - 4})
    problems = validate(roster)
    assert is_legal(roster) is legal
    if not legal:
        assert [p.code for p in problems] == ["rarity"]
        assert "holds 11 × Molotov cocktail (Rosa: 4 and Théo: 7)" in problems[0].message


@pytest.mark.parametrize(("limit", "legal"), [(54, True), (53, False), (None, True)])
def test_points_limit(limit: int | None, legal: bool) -> None:
    problems = validate(band(), settings=Settings(band_points_limit=limit))
    if legal:
        assert problems == []
    else:
        assert said(problems) == [
            Said(
                "members",
                "the band costs 54 pts but the points limit is 53 pts",
                "remove 1 point: equipment, a cheaper skill or a figure",
                code="points_limit",
            )
        ]


def test_prof_printed_skills() -> None:
    roster = band("the_school")
    printed = Settings(prof_skills="printed")
    assert said(validate(roster, settings=printed)) == [
        Said(
            "members[1].skill",
            "Mme Bernard cannot have the skill Tutor (with the Prof's skills as printed, the "
            "Prof only has Pragmatic)",
            "choose one of the Teacher profile's skills: Pragmatic (1 pt)",
            code="skill_not_offered",
        )
    ]
    second = edit(roster, "m2", skill="pragmatique", second_skill="rassurant")
    assert validate(second) == []
    assert [p.fix for p in validate(second, settings=printed)] == [
        "remove the second skill: the profile offers no other"
    ]


def test_four_rules_at_once_lists_all_four() -> None:
    roster = drop(band(), "m2", "m3")  # 4 figures
    roster = edit(roster, "m1", skill="agile")  # not an Ex-flic skill
    kit = {"fronde": 1, "soins": 1, "couvercle_de_poubelle": 1, "casque": 2, "baton": 1}
    roster = edit(roster, "m4", equipment=kit)  # E6 of 2 + 3 sac à dos
    roster = edit(roster, "m5", equipment={"katana": 1})
    roster = edit(roster, "m6", equipment={"soins": 3, "pistolet": 1, "balles": 1, "katana": 1})
    problems = validate(roster)
    assert [(p.code, p.where) for p in problems] == [
        ("band_size", "members"),
        ("skill_not_offered", "members[0].skill"),
        ("encumbrance", "members[1].equipment"),
        ("rarity", "members[*].equipment.katana"),
    ]
    assert all(p.severity == "error" for p in problems)


def test_unknown_ids_still_check_the_rest() -> None:
    roster = edit(band(), "m1", archetype="flic", equipment={"pistolet": 9, "laser": 1})
    codes = [p.code for p in validate(roster, settings=Settings(band_points_limit=10))]
    # the figure's items are still checked and counted; the points limit cannot be priced
    assert codes == ["unknown_archetype", "unknown_item", "weapon_without_ammunition", "rarity"]


def test_costs_refuse_unknown_ids() -> None:
    with pytest.raises(RosterError) as caught:
        figure_cost(Member(id="m9", archetype="flic"))
    assert caught.value.where == "m9.archetype" and caught.value.code == "invalid_band"
    with pytest.raises(RosterError, match="unknown item 'laser'"):
        figure_cost(Member(id="m9", archetype="enfant", equipment={"laser": 1}))
    with pytest.raises(RosterError, match="unknown skill 'vol'"):
        figure_cost(Member(id="m9", archetype="enfant", skill="vol"))


def test_problem_json() -> None:
    problem = Problem("members", "m", "f", code="band_size")
    assert problem.to_json() == {
        "severity": "error",
        "code": "band_size",
        "where": "members",
        "message": "m",
        "fix": "f",
    }
    (said_one,) = validate(drop(band(), "m2", "m3"))
    assert said_one.to_json() == {
        "severity": "error",
        "code": "band_size",
        "where": "members",
        "message": "the band has 4 figures but needs 5 to 8",
        "fix": "add 1 figure",
        "words": {"code": "warband.band_size", "params": {"n": 4, "min": 5, "max": 8}},
        "fix_words": {"code": "warband.fix.add_figures.one", "params": {}},
    }


def test_problems_and_fixes_in_french() -> None:
    """A French player reads every problem and its fix in French, members by their name and
    things by the rulebook's names, never an id or a path."""
    roster = edit(band(), "m5", equipment={"fusil": 1, "balles": 1})
    roster = edit(roster, "m1", skill="agile")
    found = validate(roster)
    assert [(p.text("fr"), p.fix_text("fr")) for p in found] == [
        ("Lucas ne peut pas avoir la compétence Agile",
         "choisissez une compétence du profil Ex-flic (H), au choix : Combattant (1 pt), "
         "Tireur émérite (1 pt) et Entraîné (2 pts)"),
        ("Léa porte 3 points d'encombrement mais ne peut en porter que 2",
         "retirez 1 point d'équipement (par exemple 10 balles, E1)"),
    ]
    crowded = edit(add(band(), kid("k1"), kid("k2"), kid("k3")), "m1",
                   equipment={"pistolet": 1, "balles": 1, "protection": 2})
    assert [(p.text("fr"), p.fix_text("fr")) for p in validate(crowded)] == [
        ("la bande compte 9 figurines, il en faut de 5 à 8", "retirez une figurine"),
        ("la bande a 2 × Protection (Lucas : 2) mais sa rareté est de 1",
         "retirez 1 × Protection de la bande"),
    ]
    unnamed = validate(edit(roster, "m5", name=None))
    assert unnamed[1].text("fr").startswith("Enfant (H/F) porte 3 points")
    assert unnamed[1].text("en").startswith("Kid (M/F) carries 3 encumbrance points")
    for problem in found + validate(crowded):
        assert "members[" not in problem.text("fr") + problem.fix_text("fr")
        assert problem.words is not None and problem.fix_words is not None


# ---------------------------------------------------------------------------------------------
# Plain data


@pytest.mark.parametrize("name", sorted(EXPECTED_COSTS))
def test_json_round_trip(name: str) -> None:
    data = json.loads((BANDS_DIR / f"{name}.json").read_text(encoding="utf-8"))
    roster = Roster.from_json(data)
    assert roster.to_json() == data
    assert Roster.from_json(json.loads(json.dumps(roster.to_json()))) == roster


def test_minimal_member_defaults() -> None:
    roster = Roster.from_json({"name": "b", "members": [{"id": "a", "archetype": "enfant"}]})
    assert roster.members[0] == Member(id="a", archetype="enfant")
    assert roster.to_json()["members"][0] == {
        "id": "a",
        "archetype": "enfant",
        "skill": None,
        "second_skill": None,
        "equipment": {},
    }


def test_member_is_frozen() -> None:
    member = band().members[0]
    with pytest.raises(AttributeError):
        member.skill = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        member.equipment["pistolet"] = 3  # type: ignore[index]


def _malformed(where: str, value: Any) -> dict[str, Any]:
    """The cops band with one value replaced, `where` in the roster's own path syntax."""
    data = band().to_json()
    target: Any = data
    keys = [
        int(k) if k.isdigit() else k for k in where.replace("[", ".").replace("]", "").split(".")
    ]
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = value
    return data


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        (
            "members[2].equipment.pistolet",
            0,
            "members[2].equipment.pistolet: expected a whole number >= 1, got 0",
        ),
        ("members[0].equipment.balles", True, "expected a whole number >= 1, got True"),
        ("members[0].equipment.balles", 1.5, "expected a whole number >= 1, got 1.5"),
        ("members[1].equipment", ["fusil"], "members[1].equipment: expected an object"),
        ("members[3].sex", "X", "members[3].sex: expected 'H', 'F' or null, got 'X'"),
        ("members[0].id", "", "members[0].id: expected a non-empty string, got ''"),
        ("members[0].archetype", 3, "members[0].archetype: expected a non-empty string"),
        ("members[4].skill", ["agile"], "members[4].skill: expected a non-empty string"),
        ("members[1].colour", "red", "members[1].colour: unknown field (allowed: id,"),
        ("members[2]", "mere", "members[2]: expected an object, got 'mere'"),
        ("members", {"m1": {}}, "members: expected a list"),
        ("name", None, "name: expected a non-empty string, got None"),
        ("founded", 2024, "founded: unknown field (allowed: name, name_en, members)"),
    ],
)
def test_malformed_rosters_name_the_field(where: str, value: Any, message: str) -> None:
    with pytest.raises(RosterError) as caught:
        Roster.from_json(_malformed(where, value))
    assert caught.value.where == where
    assert message in caught.value.message
    assert caught.value.message.startswith(where)
    assert isinstance(caught.value, ValueError) and caught.value.code == "invalid_band"


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ([], "band"),
        ({"name": "x"}, "members"),
        ({"members": []}, "name"),
        ({"name": "x", "members": [{"archetype": "enfant"}]}, "members[0].id"),
    ],
)
def test_missing_parts(data: Any, where: str) -> None:
    with pytest.raises(RosterError) as caught:
        Roster.from_json(data)
    assert caught.value.where == where


# ---------------------------------------------------------------------------------------------
# Command line


def _write(tmp_path: Path, roster: Roster | Any, name: str = "band.json") -> str:
    data = roster.to_json() if isinstance(roster, Roster) else roster
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_cli_check_legal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["band", "check", str(BANDS_DIR / "cops_and_kids.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is True and out["problems"] == [] and out["errors"] == 0
    assert out["cost"]["band"] == 54
    assert [m["total"] for m in out["cost"]["members"]] == [13, 15, 8, 5, 3, 10]


def test_cli_check_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["band", "check", str(BANDS_DIR / "la_zone.json")]) == 0
    out = capsys.readouterr().out
    assert "The Zone: legal" in out and "band: 70 pts" in out


def test_cli_check_lists_every_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roster = edit(drop(band(), "m2", "m3"), "m1", skill="agile", equipment={"pistolet": 1})
    assert main(["band", "check", _write(tmp_path, roster), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is False and (out["errors"], out["warnings"]) == (2, 1)
    assert [p["code"] for p in out["problems"]] == [
        "band_size",
        "skill_not_offered",
        "weapon_without_ammunition",
    ]
    assert all(p["fix"] for p in out["problems"])


def test_cli_check_text_shows_fixes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roster = edit(band(), "m5", equipment={"fusil": 1, "balles": 1})
    assert main(["band", "check", _write(tmp_path, roster)]) == 1
    out = capsys.readouterr().out
    assert "error: Léa carries 3 encumbrance points" in out
    assert "fix: remove 1 point of equipment (e.g. 10 rounds, E1)" in out


def test_cli_limit_and_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(BANDS_DIR / "cops_and_kids.json")
    assert main(["band", "check", path, "--limit", "50", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [p["code"] for p in out["problems"]] == ["points_limit"]
    assert out["cost"]["limit"] == 50
    settings = _write(tmp_path, {"skill_cost": 0}, "settings.json")
    assert main(["band", "cost", path, "--settings", settings, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cost"]["band"] == 47


@pytest.mark.parametrize(
    ("content", "code", "where"),
    [
        ("{not json", "invalid_json", None),
        (
            json.dumps({"name": "x", "members": [{"id": "a"}]}),
            "invalid_band",
            "members[0].archetype",
        ),
        (json.dumps([1]), "invalid_band", "band"),
    ],
)
def test_cli_malformed_exits_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: str,
    code: str,
    where: str | None,
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert main(["band", "check", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    error = json.loads(captured.out)["error"]
    assert error["code"] == code and {"code", "message", "where"} <= set(error)
    if code == "invalid_band":  # said in the language asked for, its message beside
        assert error["words"]["code"].startswith("warband.json.")
    if where is not None:
        assert error["where"] == where
    assert captured.err.startswith("survive-us:")
    assert main(["band", "check", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("survive-us: ")


def test_cli_bad_settings_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = _write(tmp_path, {"skill_cost": "lots"}, "settings.json")
    path = str(BANDS_DIR / "cops_and_kids.json")
    assert main(["band", "check", path, "--settings", settings, "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "invalid_settings"


def test_cli_cost(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["band", "cost", str(BANDS_DIR / "the_school.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cost"]["band"] == 50
    assert out["cost"]["members"][0] == {
        "id": "m1",
        **cost_breakdown(band("the_school").members[0]),
    }
    unknown = _write(tmp_path, edit(band(), "m1", archetype="flic"))
    assert main(["band", "cost", unknown, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["cost"]["band"] is None and out["cost"]["members"][0] == {"id": "m1", "total": None}
    assert main(["band", "cost", unknown]) == 1
    assert "Lucas: cannot be priced" in capsys.readouterr().out
