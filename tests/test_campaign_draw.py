"""The campaign draw (L29-30, D21): exact cases with typed dice, statistics over many seeds."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from scipy.stats import binomtest, chi2

from rules.dice import Dice
from scenarios.campaign import CampaignError, chosen_by, draw_campaign
from scenarios.cards import Card, cards_by_number, load_cards
from service.cli import main

DRAWS = 24000
ALPHA = 1e-4  # fixed seeds: a true failure, not bad luck, at this level


@pytest.fixture(scope="module")
def cards() -> dict[str, Card]:
    return load_cards()


def chi_square_p(counts: list[int]) -> float:
    """p-value of counts against a uniform spread."""
    total = sum(counts)
    expected = total / len(counts)
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    return float(chi2.sf(statistic, len(counts) - 1))


def test_typed_dice_draw_exactly_as_written(cards: dict[str, Card]) -> None:
    regular = cards_by_number(cards, "regular")
    conclusive = cards_by_number(cards, "conclusive")
    draw = draw_campaign(4, Dice.fixed([4, 4, 2, 4, 6, 3]))
    assert draw.scenarios == (regular[4].id, regular[2].id, regular[6].id, conclusive[2].id)
    assert [r.die for r in draw.rolls] == [4, 4, 2, 4, 6, 3]
    assert [r.rerolled for r in draw.rolls] == [False, True, False, True, False, False]
    assert draw.final_roll == 3 and draw.final_chosen_by == "dice"
    assert not draw.choice_pending


@pytest.mark.parametrize(("die", "number"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_conclusive_faces_two_to_five(cards: dict[str, Card], die: int, number: int) -> None:
    draw = draw_campaign(3, Dice.fixed([1, 2, die]))
    assert draw.scenarios[-1] == cards_by_number(cards, "conclusive")[number].id
    assert cards[draw.scenarios[-1]].draw_roll == (die,)


@pytest.mark.parametrize(("die", "who"), [(1, "zombies"), (6, "survivors")])
def test_a_player_chooses_on_one_and_six(cards: dict[str, Card], die: int, who: str) -> None:
    conclusive = cards_by_number(cards, "conclusive")
    pending = draw_campaign(3, Dice.fixed([5, 2, die]))
    assert pending.final_chosen_by == who and pending.choice_pending
    assert pending.scenarios[-1] == conclusive[1].id  # the documented placeholder
    assert pending.options == tuple(conclusive[n].id for n in range(1, 5))
    assert pending.to_json()["final_choice"]["placeholder"] is True
    asked: list[tuple[str, int]] = []

    def choose(side: str, options: object) -> str:
        assert isinstance(options, list)
        asked.append((side, len(options)))
        return conclusive[3].id

    chosen = draw_campaign(3, Dice.fixed([5, 2, die]), choose=choose)
    assert asked == [(who, 4)]
    assert chosen.scenarios[-1] == conclusive[3].id and not chosen.choice_pending
    with pytest.raises(CampaignError, match="must choose one of"):
        draw_campaign(3, Dice.fixed([5, 2, die]), choose=lambda side, options: "evacuation")


def test_chosen_by() -> None:
    assert [chosen_by(d) for d in range(1, 7)] == [
        "zombies", "dice", "dice", "dice", "dice", "survivors"]


@pytest.mark.parametrize("length", [0, 1, 2, 8, 3.0, True])  # 2: "3 (ou plus) scénarii" (L7)
def test_bad_lengths(length: object) -> None:
    with pytest.raises(CampaignError, match="3 to 7 scenarios") as caught:
        draw_campaign(length, random.Random(1))  # type: ignore[arg-type]
    assert caught.value.where == "length"


def test_many_draws(cards: dict[str, Card]) -> None:
    """Over many seeds: no repeats, the last is conclusive, 1/6 zombie choice, 1/6 survivor
    choice, the four conclusive cards uniform otherwise, regular cards uniform at every place."""
    regular_ids = {c.id for c in cards.values() if c.kind == "regular"}
    conclusive = cards_by_number(cards, "conclusive")
    finals: Counter[int] = Counter()
    by_dice: Counter[str] = Counter()
    places: list[Counter[str]] = [Counter() for _ in range(3)]
    for seed in range(DRAWS):
        draw = draw_campaign(4, random.Random(seed))
        *firsts, last = draw.scenarios
        assert len(set(draw.scenarios)) == 4
        assert set(firsts) <= regular_ids
        assert cards[last].kind == "conclusive"
        assert draw.rolls[-1].table == "conclusive" and draw.rolls[-1].die == draw.final_roll
        kept = [r.scenario for r in draw.rolls if r.table == "regular" and not r.rerolled]
        assert kept == firsts
        for i, roll in enumerate(draw.rolls[:-1]):  # a re-roll names one already drawn
            earlier = [r.scenario for r in draw.rolls[:i] if not r.rerolled]
            assert roll.rerolled == (roll.scenario in earlier)
        finals[draw.final_roll] += 1
        if draw.final_chosen_by == "dice":
            by_dice[last] += 1
            assert last == conclusive[draw.final_roll - 1].id
        for place, card_id in zip(places, firsts, strict=True):
            place[card_id] += 1
    for face in (1, 6):
        assert binomtest(finals[face], DRAWS, 1 / 6).pvalue > ALPHA
    assert chi_square_p([finals[f] for f in range(1, 7)]) > ALPHA
    assert set(by_dice) == {c.id for c in conclusive.values()}
    assert chi_square_p(list(by_dice.values())) > ALPHA
    for place in places:
        assert set(place) == regular_ids
        assert chi_square_p(list(place.values())) > ALPHA


def test_a_full_campaign_uses_every_regular_scenario(cards: dict[str, Card]) -> None:
    regular_ids = {c.id for c in cards.values() if c.kind == "regular"}
    for seed in range(200):
        draw = draw_campaign(7, random.Random(seed))
        assert set(draw.scenarios[:6]) == regular_ids
        assert cards[draw.scenarios[6]].kind == "conclusive"


def test_same_seed_same_draw() -> None:
    assert draw_campaign(5, random.Random(9)) == draw_campaign(5, random.Random(9))


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["campaign", "draw", "--length", "4", "--seed", "7", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == json.loads(json.dumps(draw_campaign(4, random.Random(7)).to_json()))
    assert {"scenarios", "final_roll", "final_chosen_by", "rolls"} <= set(out)
    assert len(out["scenarios"]) == 4 and 1 <= out["final_roll"] <= 6
    assert out["final_chosen_by"] in ("dice", "zombies", "survivors")


def test_cli_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["campaign", "draw", "--length", "3", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("1. ") and "3. " in text and "conclusive" in text
    assert main(["campaign", "draw", "--length", "9", "--seed", "1", "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "invalid_campaign" and error["where"] == "length"
    # "3 (ou plus) scénarii" (L7, R7): a campaign of 2 is refused too
    assert main(["campaign", "draw", "--length", "2", "--seed", "1", "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert "3 to 7 scenarios" in error["message"] and error["where"] == "length"


def test_cli_says_who_must_choose(capsys: pytest.CaptureFixture[str]) -> None:
    seed = next(s for s in range(100)
                if draw_campaign(3, random.Random(s)).final_chosen_by != "dice")
    draw = draw_campaign(3, random.Random(seed))
    assert main(["campaign", "draw", "--length", "3", "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    assert "player chooses the last scenario" in out
    # the placeholder card is not named as if chosen: the line says who chooses among what
    last = out.splitlines()[2]
    assert last.startswith("3. a conclusive scenario, to be chosen by the ") and "among: " in last
    assert "[conclusive]" not in out
    # the legend of the '*' only when a die was re-rolled
    assert ("re-rolled" in out) == any(r.rerolled for r in draw.rolls)
    assert main(["--lang", "fr", "campaign", "draw", "--length", "3", "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    assert "à choisir par le joueur " in out and "parmi : " in out
    assert "joueur survivants" not in out


def test_cli_dice_legend_only_with_a_rerolled_die(capsys: pytest.CaptureFixture[str]) -> None:
    plain = next(s for s in range(200)
                 if not any(r.rerolled for r in draw_campaign(5, random.Random(s)).rolls))
    starred = next(s for s in range(200)
                   if any(r.rerolled for r in draw_campaign(5, random.Random(s)).rolls))
    assert main(["--lang", "fr", "campaign", "draw", "--length", "5", "--seed", str(plain)]) == 0
    assert "relancé" not in capsys.readouterr().out
    assert main(["--lang", "fr", "campaign", "draw", "--length", "5", "--seed", str(starred)]) == 0
    assert "(* relancé : déjà tiré)" in capsys.readouterr().out
