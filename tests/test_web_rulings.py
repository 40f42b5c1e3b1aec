"""The page offers what the rulings of issue 12 made legal (docs/rules.md D40) and nothing the
engine refuses: a katana in an Enfant's hands (A1), a 2-AP katana attack for a Racaille
(A3), the Médecin's heal with a far friend's item, and standing still in place of a pass."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import pytest
from golden_helpers import TOUCH, start, survivor, zombie

from tests.test_web import CHROMIUM, api, new_page

if not CHROMIUM.exists() and not os.environ.get("CI"):
    pytest.skip("chromium is not installed (make test installs it)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

UP = 5 + TOUCH


def open_position(browser: Browser, base_url: str, figures: list[Any]) -> tuple[Page, str]:
    """The page on a game set up with these figures (imported, its token remembered)."""
    export = start(figures, [6, 6, 6]).export()
    page = new_page(browser)
    page.goto(base_url + "#/")
    made = api(page, "POST", "/games/import", {"export": export})
    page.evaluate("([id, token]) => localStorage.setItem('survive-us.tokens', "
                  "JSON.stringify({['game:' + id]: token}))", [made["id"], made["token"]])
    page.goto(base_url + f"#/game/{made['id']}")
    page.reload()  # a fresh load: the home screen's late drawing cannot cover the game's
    page.wait_for_selector("[data-figure-id]")
    return page, str(made["id"])


def buttons_of(page: Page, game_id: str, figure: str) -> list[str]:
    """The action buttons the page shows for a figure, checked against the engine's list."""
    folded = page.locator("#figure-list:not([open]) summary")  # the zombies, while the AI
    if folded.count():  # proposes their move
        folded.click()
    page.click(f"[data-select='{figure}']")
    legal = api(page, "GET", f"/games/{game_id}/actions?figure={figure}")["actions"]
    expect(page.locator("#actions button")).to_have_count(len(legal))
    texts: list[str] = page.locator("#actions button").all_inner_texts()
    return texts


def test_katana_attacks_are_offered_at_a1_and_two_ap_at_a3(browser: Browser,
                                                             base_url: str) -> None:
    page, game_id = open_position(browser, base_url, [
        survivor("s1", "enfant", 5, 5, items={"katana": 1}), zombie("z1", "rodeur", 5, UP),
        zombie("z2", "rodeur", 25, 25)])
    katana = [t for t in buttons_of(page, game_id, "s1") if "katana" in t.lower()]
    assert len(katana) == 1 and "1 AP" in katana[0], katana
    page.locator("#actions button", has_text=re.compile("katana", re.I)).click()
    page.wait_for_function("document.querySelector('#log').children.length === 2")
    expect(page.locator("#log li").first).to_contain_text(re.compile("katana", re.I))
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()

    page, game_id = open_position(browser, base_url, [
        survivor("s1", "racaille", 5, 5, items={"katana": 1}), zombie("z1", "ignoble", 5, UP),
        zombie("z2", "rodeur", 25, 25)])
    katana = [t for t in buttons_of(page, game_id, "s1") if "katana" in t.lower()]
    # the two attacks by their cost, said once beside each (not in the text too)
    assert [re.findall(r"(\d) AP", t) for t in katana] == [["1"], ["2"]], katana
    page.context.close()


def test_the_medecin_heals_with_a_far_friend_s_item(browser: Browser, base_url: str) -> None:
    page, game_id = open_position(browser, base_url, [
        survivor("s1", "medecin", 5, 5, skill="chirurgien"),
        survivor("s3", "geek", 5, UP, pv=0, status="down"),
        survivor("s4", "ado_h", 25, 25, items={"soins": 1}), zombie("z1", "rodeur", 20, 5)])
    heal = [t for t in buttons_of(page, game_id, "s1") if t.startswith("heal")]
    names = api(page, "GET", f"/games/{game_id}")["names"]
    assert heal and names["s3"]["en"] in heal[0] and "s3" not in heal[0]
    page.locator("#actions button", has_text="heal").click()
    page.wait_for_function("document.querySelector('#log').children.length === 2")
    game = api(page, "GET", f"/games/{game_id}")
    s4 = next(f for f in game["state"]["figures"] if f["id"] == "s4")
    assert s4["units"] == {"soins": 4}
    page.context.close()


def test_no_pass_while_ap_last_but_standing_still(browser: Browser, base_url: str) -> None:
    page, game_id = open_position(browser, base_url, [
        survivor("s1", "ex_flic_h", 5, 5), zombie("z1", "rodeur", 5, 15)])
    texts = buttons_of(page, game_id, "s1")
    assert [t for t in texts if t.startswith("stand still (the AP cannot be kept)")]
    assert not [t for t in texts if t.startswith("pass") or t.startswith("end activations")]
    side = api(page, "GET", f"/games/{game_id}/actions")["actions"]
    assert not [a for a in side if a["action"]["type"] in ("pass", "end_activations")]
    page.locator("#actions button", has_text="stand still").click()
    page.wait_for_function("document.querySelector('#log').children.length === 2")
    assert json.dumps(api(page, "GET", f"/games/{game_id}")["state"]["pools"]) == \
        json.dumps({"survivors": 1 + 6 - 1, "zombies": 12})
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_a_campaign_of_two_is_refused_by_the_page(browser: Browser, base_url: str) -> None:
    """L7 "3 (ou plus) scénarii" (R7): the form will not send 2 (the API refuses it too)."""
    page = new_page(browser)
    page.goto(base_url + "#/campaigns")
    page.fill("#campaign-length", "2")
    page.click("#campaigns-form button[type='submit']")
    assert page.evaluate("document.getElementById('campaign-length').validity.rangeUnderflow")
    page.wait_for_timeout(300)
    assert page.url.endswith("#/campaigns")  # no campaign was made
    page.fill("#campaign-length", "3")
    page.click("#campaigns-form button[type='submit']")
    page.wait_for_url(re.compile(r"#/campaign/\w+"))
    page.context.close()
