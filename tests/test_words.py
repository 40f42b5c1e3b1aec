"""The engine's words (rules/words.py and every note and refusal of rules/): messages kept
as JSON in the log, said in French or English at the edge, naming figures, items, skills and
terrain by their names and never by an id; a game with notes replays to the same log, and a
record whose notes are older English text still loads."""

from __future__ import annotations

import copy
import random
import re

import pytest
from golden_helpers import Golden, english, start, survivor, zombie

from i18n import Message, note_text
from rules.actions import Melee, Move, Shoot
from rules.errors import IllegalActionError
from rules.game import Game
from rules.words import by_side, item, marker, who

IDS = re.compile(r"\b(?:[msz]\d+|zf)\b|\b[a-z]+_[a-z_]+\b|\[")


def band() -> list[object]:
    lucas = survivor("m1", "ex_flic_h", 5, 5, items={"pistolet": 1, "balles": 1})
    lea = survivor("m2", "militaire_f", 8, 5, skill="entraine",
                   items={"barre_de_fer": 1, "soins": 1})
    for fig, name in ((lucas, "Lucas"), (lea, "Léa")):
        fig.name = fig.name_en = name
    return [lucas, lea]


def test_a_note_and_a_refusal_in_french_and_in_english() -> None:
    game = start([*band(), zombie("z32", "rodeur", 5, 12), zombie("z4", "rodeur", 15, 20)],
                 [6, 6, 6])
    g = Golden(game)
    with pytest.raises(IllegalActionError) as caught:
        game.apply(Melee("m2", "m1"))
    assert caught.value.text("fr") == ("Lucas est du même camp que Léa : on n'attaque que ses "
                                       "ennemis.")
    assert caught.value.text("en") == "Lucas is on Léa's side: only enemies can be attacked."
    assert caught.value.words is not None and caught.value.words.code == "refusal.not_an_enemy"
    assert g(Shoot("m1", "z32", "pistolet"), [5, 2]) == [
        "Lucas shoots at Walker 32 with Pistol (1 attack)",
        "Lucas rolls 5 (shot, hits on 2+ counting the +1)",
        "Walker 32 rolls 2 (save on 5+)", "Lucas kills Walker 32"]
    notes = game.log[-1]["notes"]
    assert english(notes, "fr") == ["Lucas tire sur Rôdeur 32 avec Pistolet (1 attaque)",
                                    "Lucas lance un dé : 5 (tir, touche sur 2+ en comptant le +1)",
                                    "Rôdeur 32 lance un dé : 2 (sauvegarde sur 5+)",
                                    "Lucas élimine Rôdeur 32"]
    assert notes[0] == {"code": "engine.shoots_one", "params": {
        "who": {"fr": "Lucas", "en": "Lucas"}, "target": {"fr": "Rôdeur 32", "en": "Walker 32"},
        "weapon": {"fr": "Pistolet", "en": "Pistol"}, "n": 1}}
    g.finish()


def test_the_log_keeps_messages_and_the_record_replays_to_the_same_notes() -> None:
    game = start([*band(), zombie("z32", "rodeur", 5, 12), zombie("z7", "slasher", 9, 7)],
                 [6, 6, 6])
    game.apply(Shoot("m1", "z7", "pistolet"), dice=[1])
    game.apply(Move("z7", toward="m2"))
    again = Game.replay(game.export())
    assert again.log == game.log and again.to_json() == game.to_json()
    assert all(isinstance(n, dict) and set(n) == {"code", "params"}
               for entry in game.log for n in entry["notes"])


def test_a_record_with_english_notes_still_loads_and_replays() -> None:
    game = start([*band(), zombie("z32", "rodeur", 5, 12)], [6, 6, 6])
    game.apply(Move("m1", to=(5, 6)))
    record = copy.deepcopy(game.export())
    for entry in record["log"]:  # as saved before the notes were messages
        entry["notes"] = [note_text(n) for n in entry["notes"]]
    assert record["log"][1]["notes"] == ["Lucas moves 1.0 in"]
    again = Game.replay(record)
    assert again.to_json() == game.to_json()
    assert [note_text(n, "fr") for n in record["log"][1]["notes"]] == ["Lucas moves 1.0 in"]
    assert english(again.log[1]["notes"], "fr") == ["Lucas se déplace de 1,0 ps"]


def test_a_game_played_to_its_end_never_says_an_id() -> None:
    """Random legal play: every note of every action is a message, and neither its French
    nor its English has a figure's id, an item's id or a list of coordinates."""
    rng = random.Random(7)
    figures = [*band(), survivor("m3", "enfant", 11, 5, items={"cocktail_molotov": 1}),
               zombie("z1", "rodeur", 5, 9), zombie("z2", "slasher", 9, 10),
               zombie("z3", "ignoble", 12, 9), zombie("z4", "rodeur", 20, 20)]
    game = Game.new({"terrain": [], "figures": []}, figures, seed=3)
    seen: set[str] = set()
    for _ in range(80):
        if game.is_terminal:
            break
        game.apply(rng.choice(game.legal_actions()))
    for entry in game.log:
        for note in entry["notes"]:
            assert isinstance(note, dict), note
            seen.add(note["code"])
            for lang in ("fr", "en"):
                words = note_text(note, lang)
                assert not IDS.search(words), (lang, words)
                assert "{" not in words, words  # every placeholder filled
    assert {"engine.turn", "engine.roll"} <= seen and len(seen) > 8


def test_names_of_things() -> None:
    game = start([*band(), zombie("z32", "rodeur", 5, 12)], [6, 6, 6])
    assert who(game, "z32") == {"fr": "Rôdeur 32", "en": "Walker 32"}
    assert who(game, "m1") == {"fr": "Lucas", "en": "Lucas"}
    assert who(game, "z99") == {"fr": "n° 99", "en": "no. 99"}  # gone from the game
    assert item(game, "barre_de_fer") == {"fr": "Barre de fer", "en": "Iron bar"}
    assert item(game, None) == Message("engine.item.bare_hands")
    assert item(game, "bazooka") == Message("engine.item.unknown")
    crate = {"id": "crate3", "kind": "crate", "x": 1, "y": 1}
    assert marker(game, crate).text("fr") == "la caisse 3"  # type: ignore[union-attr]
    gear = {"id": "m2-gear", "kind": "items", "x": 1, "y": 1}
    assert marker(game, gear).text("en") == "Léa's gear"  # type: ignore[union-attr]
    said = {"survivors": Message("engine.passes.survivors"),
            "zombies": Message("engine.passes.zombies"), "band": Message("engine.passes.band")}
    assert by_side("B", said, ap=2).text("fr") == "La bande B passe (2 PA gardés)"
    assert by_side("zombies", said, ap=1).text("en") == "The zombies pass (1 AP kept)"
