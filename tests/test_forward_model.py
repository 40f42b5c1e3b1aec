"""The engine as a forward model (issue 24): copies that never touch the game they came
from, take-backs that give the state back exactly, a listing kept for its state, and the
dice as chance outcomes a search can branch on."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import pytest
from golden_helpers import TOUCH, start, survivor, zombie

from ai.simulate import start as start_card
from rules import legal
from rules.actions import Melee, Move
from rules.attacks import attack_spec
from rules.combat import odds
from rules.dice import FACES, NeedDice, Roll, RollKind
from rules.game import UNDO_DEPTH, Game


def _state(game: Game) -> str:
    """Everything a game is, as its records keep it (the log included)."""
    return json.dumps({"state": game.to_json(), "log": game.export()["log"]}, sort_keys=True)


def _random_walk(game: Game, rng: random.Random, steps: int) -> list[Game]:
    """The game after each of `steps` random legal actions (copies)."""
    seen = []
    for _ in range(steps):
        if game.is_terminal:
            break
        game.apply(rng.choice(game.legal_actions()))
        seen.append(game.clone())
    return seen


@pytest.mark.parametrize("card", ["caisses", "escorte", "sauvetage", "nuit"])
def test_a_copy_plays_on_without_touching_the_game_it_came_from(card: str) -> None:
    """Crates opened, items taken, wounds and falls on the copy: the game stays as it was."""
    game = start_card(card, 3)
    rng = random.Random(card)
    for _ in range(40):
        if game.is_terminal:
            break
        before = _state(game)
        trial = game.clone()
        for act in rng.sample(trial.legal_actions(), k=min(3, len(trial.legal_actions()))):
            copy = trial.clone()
            copy.apply(act)
            _random_walk(copy, rng, 4)
        assert _state(game) == before
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("card", ["caisses", "escorte", "refuge"])
def test_undo_gives_back_exactly_the_state_each_action_started_from(card: str) -> None:
    game = start_card(card, 5)
    rng = random.Random(card)
    states = [_state(game)]
    for _ in range(UNDO_DEPTH + 6):
        if game.is_terminal:
            break
        game.apply(rng.choice(game.legal_actions()))
        states.append(_state(game))
    while len(states) > 1:
        states.pop()
        game.undo()  # the last UNDO_DEPTH from the kept states, the older ones replayed
        assert _state(game) == states[-1]
    with pytest.raises(Exception, match="nothing"):
        game.undo()


def test_apply_then_undo_then_apply_again_plays_on_as_before() -> None:
    game = start_card("escorte", 2)
    rng = random.Random(2)
    for _ in range(30):
        act = rng.choice(game.legal_actions())
        copy = game.clone()
        copy.apply(act, dice=[4, 4, 4, 4, 4, 4, 4, 4])
        game.apply(act, dice=[4, 4, 4, 4, 4, 4, 4, 4])
        game.undo()
        game.apply(act, dice=[4, 4, 4, 4, 4, 4, 4, 4])
        assert _state(game) == _state(copy)
        if game.is_terminal:
            break


def test_the_listing_is_kept_for_its_state_and_made_again_after_a_change() -> None:
    game = start_card("helico", 1)
    first = game.legal_actions()
    assert game.legal_actions() == first and game.legal_actions() is not first
    assert all(legal.is_known_legal(game, a) for a in first)
    game.apply(first[0])
    assert game.listed.get("legal") is None  # a new state: nothing listed yet
    assert game.legal_actions() != first


@pytest.mark.parametrize("card,seed", [("escorte", 4), ("nuit", 2), ("caisses", 6)])
def test_one_figures_actions_are_those_of_the_whole_listing(card: str, seed: int) -> None:
    """Asked alone (`legal.actions_of`), in a window or not, a figure's actions are its own
    part of `legal_actions`, in the same order (its way to stand still under R1 aside)."""
    game = start_card(card, seed)
    rng = random.Random(seed)
    for _ in range(60):
        if game.is_terminal:
            break
        fresh = game.clone()
        fresh.listed = {}
        everyone = fresh.legal_actions()
        for fig in game.figures.values():
            alone = game.clone()
            alone.listed = {}
            assert legal.actions_of(alone, alone.figures[fig.id]) == [
                a for a in everyone if getattr(a, "figure", None) == fig.id
                and not (legal.is_hold(game, a) and a not in legal.actions_of(game, fig))]
        game.apply(rng.choice(everyone))


def _melee_game() -> Game:
    s1 = survivor("s1", "ex_flic_h", 5, 5)
    return start([s1, zombie("z1", "rodeur", 5, 5 + TOUCH)], [1, 6, 6])


def test_a_search_meets_the_dice_as_chance_outcomes() -> None:
    """No RNG, no dice typed: `apply` stops at the first die, names it (its kind, the face
    it needs, its outcomes) and changes nothing; branching on one face of each group of
    faces the rules treat alike reaches every outcome with its exact chance."""
    game = _melee_game()
    game.rng = None
    act = Melee("s1", "z1")
    before = _state(game)
    with pytest.raises(NeedDice) as stopped:
        game.apply(act)
    assert _state(game) == before
    request = stopped.value.request
    assert isinstance(request, Roll) and request.kind is RollKind.ATTACK
    assert request.outcomes() == tuple((f, Fraction(1, 6)) for f in FACES)
    assert sum(p for _, p in request.groups()) == 1

    def explore(dice: list[int], weight: Fraction) -> dict[str, Fraction]:
        trial = game.clone()
        try:
            trial.apply(act, dice=dice)
        except NeedDice as more:
            assert more.request is not None
            out: dict[str, Fraction] = {}
            for faces, p in more.request.groups():
                for k, v in explore([*dice, faces[0]], weight * p).items():
                    out[k] = out.get(k, Fraction(0)) + v
            return out
        return {trial.figures["z1"].status: weight}

    got = explore([], Fraction(1))
    s, z = game.figures["s1"], game.figures["z1"]
    exact = odds(attack_spec(game, s, z, "melee", None))
    assert got["removed"] == exact["unsaved"] and sum(got.values()) == 1


def test_every_die_of_a_turn_says_what_it_is_for() -> None:
    kinds: list[Any] = []

    class Watch(random.Random):
        def roll_for(self, request: Roll) -> int:
            kinds.append((request.kind, request.purpose))
            return self.randint(1, 6)

    game = start_card("escorte", 1)
    game.rng = Watch(1)
    for _ in range(200):
        if game.is_terminal:
            break
        game.apply(random.Random(len(kinds)).choice(game.legal_actions()))
    assert kinds and all(isinstance(k, RollKind) for k, _ in kinds)
    assert {p for k, p in kinds if k is RollKind.ACTION_POINTS} >= {
        "survivors' action points", "zombies' action points"}
    assert all("action points" in p for k, p in kinds if k is RollKind.ACTION_POINTS)
    assert RollKind.ATTACK in {k for k, _ in kinds}


def test_a_roll_knows_its_chances() -> None:
    shot = Roll("shoot attack vs 4+", kind=RollKind.ATTACK, need=4, modifier=1, ones=True)
    assert shot.success_chance() == Fraction(4, 6)
    assert shot.groups() == (((1,), Fraction(1, 6)), ((2,), Fraction(1, 6)),
                             ((3, 4, 5, 6), Fraction(4, 6)))
    ap = Roll("survivors' action points", kind=RollKind.ACTION_POINTS)
    assert ap.success_chance() is None and len(ap.groups()) == 6


def test_an_action_checked_for_a_state_is_known_legal_there_until_it_changes() -> None:
    game = _melee_game()
    act = Move("s1", to=(5.0, 4.0))
    assert not legal.is_known_legal(game, act)
    legal.check(game, act)
    assert legal.is_known_legal(game, act)
    game.apply(act, dice=[1])  # the walker's free attack as the survivor leaves: a miss
    assert not legal.is_known_legal(game, act)


@pytest.mark.parametrize("card,modules", [("escorte", ()), ("nuit", ()),
                                          ("convoi", ("barricades", "sewers")),
                                          ("caisses", ("allies", "taken_over", "noise"))])
def test_a_zombies_kept_listing_is_the_listing_made_afresh(card: str,
                                                          modules: tuple[str, ...]) -> None:
    """A zombie's listing kept by what it depends on (`rulebook._zombie_key`) is the one
    made afresh, whatever moved since, in windows and with the card's actions about."""
    from rules import rulebook
    from scenarios.play import start_scenario

    game = start_scenario(card, seed=8, modules=list(modules), balanced=False)
    rng = random.Random(card)
    for _ in range(120):
        if game.is_terminal:
            break
        for z in [f for f in game.figures.values() if f.is_zombie and f.on_table]:
            for kinds, max_ap in (((), None), (("move", "melee"), 1)):
                kept = rulebook.figure_actions(game, z, kinds=kinds, max_ap=max_ap)
                pool = game.pools.get("zombies", 0)
                budget = pool if max_ap is None else min(pool, max_ap)
                fresh = rulebook._listed(game, z, False, pool, budget,
                                         lambda k, kinds=kinds: not kinds or k in kinds)
                assert kept == fresh, (z.id, kinds)
        game.apply(rng.choice(game.legal_actions()))
