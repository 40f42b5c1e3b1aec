"""Dice at the table on the game page (issue 15, point 4), in the real browser: an attack
button says its dice, faces and chances as the service computed them; with "I roll the dice
at the table" each die is asked for by name and the action played with those faces; a tap
beside a small base picks it; a finished game shows its summary."""

from __future__ import annotations

import json
import math
import os
import re

import pytest

from tests.test_web import CHROMIUM, api, new_page, play_out, start_game, table_point

if not CHROMIUM.exists() and not os.environ.get("CI"):
    pytest.skip("chromium is not installed (make test installs it)", allow_module_level=True)

from playwright.sync_api import Browser, expect  # noqa: E402


def test_an_attack_says_its_odds_and_table_dice_are_asked_by_name(browser: Browser,
                                                                   base_url: str) -> None:
    page = new_page(browser)
    game_id = start_game(page, base_url, seed=3)
    page.click("[data-select='m1']")
    shoot = page.locator("#actions [data-action-type='shoot']").first
    listed = api(page, "GET", f"/games/{game_id}/actions?figure=m1")["actions"]
    first = next(a for a in listed if a["action"]["type"] == "shoot")
    odds = first["odds"]
    # the button says what the service computed: dice, faces, the save, the chance
    pct = f"{round(odds['down'] * 100)}%"
    expect(shoot.locator(".odds")).to_have_text(
        f"1 die · hits on {odds['hits_on']}+ · save on {odds['save_on']}+ · {pct} to put it down")
    page.check("#table-dice")
    shoot.click()
    ask = page.locator("#dice-ask")
    expect(ask).to_be_visible()
    expect(ask.locator(".dice-which")).to_have_text(re.compile(r"^Lucas: shot, hits on \d\+"))
    # cancelled: nothing played
    page.click("#dice-cancel")
    expect(ask).to_have_count(0)
    assert api(page, "GET", f"/games/{game_id}")["version"] == 0
    shoot.click()
    page.click("#dice-ask [data-face='6']")  # a 6 always hits: the zombie's save is asked
    expect(ask.locator(".dice-which")).to_contain_text("save on 5+")
    expect(ask.locator("#dice-sofar")).to_contain_text("6")
    page.click("#dice-ask [data-face='1']")
    page.wait_for_function("document.querySelector('#log').children.length === 2")
    log = api(page, "GET", f"/games/{game_id}/export")["export"]["log"]
    assert log[-1]["action"] == first["action"] and log[-1]["dice"] == [6, 1]
    target = first["action"]["target"]
    assert next(f for f in api(page, "GET", f"/games/{game_id}")["state"]["figures"]
                if f["id"] == target)["status"] == "removed"
    # the choice is remembered
    page.reload()
    expect(page.locator("#table-dice")).to_be_checked()
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_tap_beside_a_small_base_picks_it(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    game_id = start_game(page, base_url, seed=3)
    figures = api(page, "GET", f"/games/{game_id}")["state"]["figures"]
    on_table = [f for f in figures if f["status"] == "standing"]

    def room(f: dict[str, float]) -> float:
        return min(math.dist((f["x"], f["y"]), (o["x"], o["y"])) for o in on_table if o is not f)

    lone = max(on_table, key=room)  # the figure farthest from any other
    x, y = table_point(page, lone["x"], lone["y"])
    px_per_in = math.dist((x, y), table_point(page, lone["x"] + 1, lone["y"]))
    assert 0.49 * px_per_in < 22 and room(lone) * px_per_in > 44
    page.mouse.click(x + 19, y)  # outside its base (under 44 px across), 19 px off centre
    expect(page.locator(f".figure.selected[data-figure-id='{lone['id']}']")).to_have_count(1)
    page.context.close()


def test_a_finished_game_shows_its_summary(browser: Browser, base_url: str) -> None:
    page = new_page(browser, locale="fr-FR")
    page.goto(base_url + "#/")
    made = api(page, "POST", "/games", {"scenario": "nettoyage", "seed": 5})
    page.evaluate("([k, v]) => localStorage.setItem('survive-us.tokens', JSON.stringify({[k]: v}))",
                  [f"game:{made['id']}", made["token"]])
    assert play_out(page, made["id"], made["token"]) > 0
    page.goto(base_url + f"#/game/{made['id']}")
    summary = page.locator("#game-summary")
    expect(summary).to_be_visible()
    answer = api(page, "GET", f"/games/{made['id']}/summary")
    assert answer["terminal"] and answer["ap_spent"]
    expect(summary.locator("[data-summary]")).to_have_count(len(answer["figures"]))
    expect(summary.locator("[data-summary='m1']")).to_contain_text("encore sur la table")
    expect(summary).to_contain_text("Points d'action dépensés")
    assert json.dumps(answer["figures"])  # the page drew what the service said
    page.context.close()
