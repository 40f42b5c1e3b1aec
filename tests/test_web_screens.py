"""Every screen at tablet (1024x768, 768x1024) and laptop (1440x900) sizes.

Each screen must fit its width (no sideways scrolling), keep its touch targets at least
40 px, and show no script error. The screenshots go to a temporary folder, or to
docs/img/screens/ with SURVIVE_US_SCREENS=1 (to look at them and refresh the docs).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.test_web import CHROMIUM, api, new_page, play_out

if not CHROMIUM.exists() and not os.environ.get("CI"):
    pytest.skip("chromium is not installed (make test installs it)", allow_module_level=True)

from playwright.sync_api import Browser, Page  # noqa: E402

SIZES = {"tablet-landscape": (1024, 768), "tablet-portrait": (768, 1024),
         "laptop": (1440, 900)}
DOCS = Path(__file__).resolve().parent.parent / "docs" / "img" / "screens"
MIN_TARGET = 40  # px


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if os.environ.get("SURVIVE_US_SCREENS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        return DOCS
    return tmp_path_factory.mktemp("screens")


@pytest.fixture(scope="module")
def world(browser: Browser, base_url: str) -> dict[str, str]:
    """A stored roster and a campaign, with their tokens."""
    page = new_page(browser)
    page.goto(base_url + "#/")
    roster = api(page, "POST", "/rosters", {"roster": {"name": "Le lycée", "members": [
        {"id": "m1", "archetype": "militaire_f", "name": "Sergent Diaz", "skill": "entraine",
         "equipment": {"katana": 1, "fusil": 1, "balles": 2}},
        {"id": "m2", "archetype": "prof", "sex": "F", "name": "Mme Bernard",
         "skill": "pedagogue", "equipment": {"baton": 1}},
        {"id": "m3", "archetype": "ado_h", "name": "Yanis", "skill": "bon_viseur",
         "equipment": {"arc": 1, "fleches": 1}}]}})
    campaign = api(page, "POST", "/campaigns", {"example": "cops_and_kids", "seed": 5})
    # its first scenario played out and recorded, so the page shows a result
    game = page.evaluate(
        """async ([id, token]) => (await fetch(`api/v1/campaigns/${id}/games`, {method: 'POST',
            headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + token},
            body: '{"seed": 1}'})).json()""", [campaign["id"], campaign["token"]])
    assert play_out(page, game["id"], campaign["token"]) > 0
    page.evaluate(
        """async ([id, game, token]) => fetch(`api/v1/campaigns/${id}/results`, {method: 'POST',
            headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + token},
            body: JSON.stringify({game_id: game, seed: 2})})""",
        [campaign["id"], game["id"], campaign["token"]])
    tokens = {f"roster:{roster['id']}": roster["token"],
              f"campaign:{campaign['id']}": campaign["token"]}
    page.context.close()
    return {"roster": roster["id"], "campaign": campaign["id"],
            "tokens": json.dumps(tokens)}


def api_token(page: Page, game: dict[str, str]) -> None:
    """Keep a game's token in the page's localStorage, as the page does when it starts one."""
    page.evaluate("""([id, token]) => { const all = JSON.parse(localStorage.getItem(
        'survive-us.tokens') || '{}'); all['game:' + id] = token;
        localStorage.setItem('survive-us.tokens', JSON.stringify(all)); }""",
                  [game["id"], game["token"]])


def check_screen(page: Page, name: str, size: str, folder: Path) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= width, f"{name} at {size}: {overflow} px wide in a {width} px window"
    if size.startswith("tablet"):
        small = page.evaluate(
            """(min) => [...document.querySelectorAll('button, select, input, a.button')]
                .filter(e => e.offsetParent !== null)
                .map(e => [e.textContent.trim() || e.getAttribute('aria-label') || e.id,
                           e.getBoundingClientRect().height])
                .filter(([, h]) => h < min)""", MIN_TARGET)
        assert not small, f"{name} at {size}: touch targets under {MIN_TARGET} px: {small}"
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(folder / f"{name}-{size}.png"))


SCREENS: list[tuple[str, Callable[[dict[str, str]], str], str]] = [
    ("home", lambda w: "#/", "#new-game"),
    ("game", lambda w: f"#/game/{w['game']}", "[data-figure-id]"),
    ("roster", lambda w: f"#/roster/{w['roster']}", "[data-member]"),
    ("sheet", lambda w: f"#/sheet/{w['roster']}", ".sheet-member"),
    ("campaigns", lambda w: "#/campaigns", ".card"),
    ("campaign", lambda w: f"#/campaign/{w['campaign']}", "#history .card"),
    ("scenario", lambda w: "#/scenario/nettoyage", "#scenario-objectives"),
    ("setup", lambda w: "#/setup/nettoyage?seed=3", "#setup-about"),
]


@pytest.mark.parametrize("size", list(SIZES))
def test_every_screen_fits(browser: Browser, base_url: str, world: dict[str, str],
                           shots: Path, size: str) -> None:
    width, height = SIZES[size]
    page = new_page(browser, locale="fr-FR", width=width, height=height,
                    storage={"survive-us.tokens": world["tokens"]})
    page.goto(base_url + "#/")
    game = api(page, "POST", "/games", {"scenario": "nettoyage", "seed": 3})
    api_token(page, game)
    world = {**world, "game": game["id"]}
    for name, where, ready in SCREENS:
        page.goto(base_url + where(world))
        page.wait_for_selector(ready)
        if name == "game":
            page.click("[data-select='m1']")
            page.wait_for_selector("#actions button")
            page.evaluate("window.scrollTo(0, 0)")  # the card scrolled into view: the table again
            page.click("[data-tool='sight']")
            page.click("[data-figure-id='m1']", force=True)
            page.wait_for_selector(".overlay-sight polygon")
        elif name == "roster":
            page.wait_for_function(
                "/\\d/.test(document.querySelector('#roster-total').textContent)")
        page.wait_for_timeout(150)
        check_screen(page, name, size, shots)
    # the zombies' activation with the AI's ghost move (after one survivor move)
    page.goto(base_url + f"#/game/{world['game']}")
    page.wait_for_selector("[data-figure-id]")
    page.click("[data-select='m1']")
    page.locator("#actions [data-action-type='move']").first.click()
    page.wait_for_selector("#ai .ai-why")
    page.wait_for_timeout(150)
    check_screen(page, "game-ai", size, shots)
    # a die rolled at the table, asked for by name
    page.goto(base_url + "#/")
    game = api(page, "POST", "/games", {"scenario": "nettoyage", "seed": 3})
    api_token(page, game)
    page.goto(base_url + f"#/game/{game['id']}")
    page.click("[data-select='m1']")
    page.check("#table-dice")
    page.locator("#actions [data-action-type='shoot']").first.click()
    page.wait_for_selector("#dice-ask .face")
    page.wait_for_timeout(150)
    check_screen(page, "game-dice", size, shots)
    page.click("#dice-cancel")
    page.uncheck("#table-dice")
    # a finished game: its summary
    over = api(page, "POST", "/games", {"scenario": "nettoyage", "seed": 5})
    api_token(page, over)
    assert play_out(page, over["id"], over["token"]) > 0
    page.goto(base_url + f"#/game/{over['id']}")
    page.wait_for_selector("#game-summary")
    page.wait_for_timeout(150)
    check_screen(page, "game-over", size, shots)
    # a decision window: Inès (tireur rapide) may shoot again after shooting
    page.goto(base_url + "#/")
    game = api(page, "POST", "/games", {"scenario": "nettoyage", "seed": 3})
    api_token(page, game)
    page.goto(base_url + f"#/game/{game['id']}")
    page.click("[data-select='m2']")
    page.fill("#dice-input", "6 6 6 6 6 6")
    page.locator("#actions [data-action-type='shoot']").first.click()
    page.wait_for_selector("#window button")
    page.wait_for_timeout(150)
    check_screen(page, "game-window", size, shots)
    assert re.search(r"#/game/\w+", page.url)
    page.context.close()
