"""A figure's JSON form: every field, its containers copied; its name in both languages."""

from __future__ import annotations

import pickle
from dataclasses import asdict

import pytest
from golden_helpers import CAT, start, survivor, zombie

from rules.figures import Fig, civilian, english_name, survivor_from_member
from rules.game import Game
from rules.warband import Member


def test_figure_json_is_asdict_with_copied_containers() -> None:
    fig = survivor("s1", "ex_flic_h", 3, 4)
    fig.items = fig.counted("items", "pistolet", 1)
    fig.used_turn = fig.counted("used_turn", "sprinter", 1)
    data = fig.to_json()
    plain = {k: list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v
             for k, v in asdict(fig).items()}
    assert data == plain and type(data["items"]) is dict and type(data["skills"]) is list
    data["skills"].append("robuste")
    data["items"]["pistolet"] = 9
    data["used_turn"].clear()
    assert "robuste" not in fig.skills and fig.items["pistolet"] == 1 and fig.used_turn
    assert Fig.from_json(fig.to_json()) == fig


def test_every_figure_carries_its_name_in_english() -> None:
    assert (survivor("s1", "ex_flic_h", 3, 4).name, survivor("s1", "ex_flic_h", 3, 4).name_en) \
        == ("Ex-flic (H)", "Ex-cop (M)")
    walker = zombie("z1", "rodeur", 5, 5)
    assert (walker.name, walker.name_en) == ("Rôdeur", "Walker")
    assert (civilian("c1", 1, 1).name, civilian("c1", 1, 1).name_en) == ("Civil", "Civilian")
    named = survivor_from_member(Member(id="m1", archetype="vieux", name="Mémé"), CAT, 1, 1)
    assert (named.name, named.name_en) == ("Mémé", "Mémé")  # a person's name stays as it is
    recruit = survivor_from_member(Member(id="m2", archetype="vieux", name="Vieille"), CAT, 1, 1)
    assert recruit.name_en == "Old woman"  # a recruit named after the archetype


@pytest.mark.parametrize(
    ("side", "kind", "name", "english"),
    [
        ("zombies", "ignoble", "Ignoble", "Abomination"),
        ("survivors", "geek", "Geek (H/F)", "Geek (M/F)"),
        ("survivors", "pere", "Père", "Father"),
        ("survivors", "pere", "Jean", "Jean"),
        ("civilians", "civilian", "Allié", "Ally"),
        ("civilians", "civilian", "Réfugié", "Réfugié"),  # a card's civilian: only the French
    ],
)
def test_a_figure_saved_without_an_english_name_gets_one(side: str, kind: str, name: str,
                                                         english: str) -> None:
    saved = {**zombie("z1", "rodeur", 5, 5).to_json(), "side": side, "kind": kind,
             "name": name}
    del saved["name_en"]
    fig = Fig.from_json(saved)
    assert fig.name_en == "" and english_name(fig, CAT) == english
    game = Game.from_json({**start([survivor("s1", "geek", 1, 1), zombie("z2", "slasher", 9, 9)],
                                   [3, 3, 3]).to_json(),
                           "figures": [saved]})
    assert game.figures["z1"].name_en == english


def test_a_figures_counts_are_replaced_never_changed_in_place() -> None:
    """A copy of a figure (and of a game) shares its counts: changing them in place would
    change every copy, so it is refused at once."""
    fig = survivor("s1", "ex_flic_h", 3, 4)
    fig.items = {"pistolet": 1}
    copy = fig.copy()
    with pytest.raises(TypeError, match="replaced"):
        copy.items["pistolet"] = 2  # type: ignore[index]
    with pytest.raises(TypeError):
        copy.used_game.setdefault("sprinter", 1)  # type: ignore[attr-defined]
    copy.items = copy.counted("items", "pistolet", 2)
    copy.skills = ["robuste"]
    assert fig.items == {"pistolet": 1} and copy.items == {"pistolet": 2}
    assert copy.skills == ["robuste"] and "robuste" not in fig.skills
    with pytest.raises(TypeError):
        copy.skills.append("violent")  # type: ignore[attr-defined]
    assert copy.counted("items", "pistolet", 0) == {}
    assert pickle.loads(pickle.dumps(copy)) == copy
