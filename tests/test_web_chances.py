"""The page shows the AI's reading of the game: the survivors' chances as a gauge that moves,
the level the AI plays at (kept), its explanation in the page's language, and at the end the
curve over the game with its turning point named."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from tests.test_web import CHROMIUM, api, new_page, start_game

if not CHROMIUM.exists() and not os.environ.get("CI"):
    pytest.skip("chromium is not installed (make test installs it)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

PERCENT = re.compile(r"\d{1,3}\s?%")


def _token(page: Page, game_id: str) -> str:
    return str(page.evaluate("(id) => JSON.parse(localStorage.getItem('survive-us.tokens'))"
                             "['game:' + id]", game_id))


def _act(page: Page, game_id: str, token: str) -> None:
    """The survivors' first listed action, through the API (the page follows)."""
    page.evaluate(
        """async ([id, token]) => {
            const call = async (method, path, body) => (await fetch('api/v1' + path, {method,
              headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + token},
              body: body && JSON.stringify(body)})).json();
            const game = await call('GET', `/games/${id}`);
            const acts = (await call('GET', `/games/${id}/actions`)).actions;
            await call('POST', `/games/${id}/actions`, {version: game.version,
                                                         action: acts[0].action});
        }""", [game_id, token])


def test_the_gauge_moves_and_the_level_is_kept(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    game_id = start_game(page, base_url, "evacuation", seed=4)
    gauge = page.locator("#chances-survivors")
    expect(gauge).to_contain_text("Survivors ")
    first = gauge.inner_text()
    assert PERCENT.search(first), first
    meter = page.locator("#chances [role='meter']")
    expect(meter).to_have_attribute("aria-valuenow", re.compile(r"^\d{1,3}$"))
    chances = api(page, "GET", f"/games/{game_id}/chances")
    assert f"{round(chances['survivors'] * 100)}%" in first

    _act(page, game_id, _token(page, game_id))  # the zombies decide next
    expect(page.locator("#ai .ai-why")).to_contain_text("zombies' chances")
    expect(page.locator("#ai-level")).to_have_value("normal")
    page.select_option("#ai-level", "hard")
    expect(page.locator("#ai .ai-why")).to_contain_text("zombies' chances")
    assert page.evaluate("localStorage.getItem('survive-us.ai-level')") == "hard"
    now = api(page, "GET", f"/games/{game_id}/chances")
    assert now["version"] == 1 and len(now["curve"]) == 2
    page.reload()
    page.wait_for_selector("#ai .ai-why")
    expect(page.locator("#ai-level")).to_have_value("hard")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_in_french_the_chances_and_the_why_are_french(browser: Browser, base_url: str) -> None:
    page = new_page(browser, locale="fr-FR")
    game_id = start_game(page, base_url, "helico", seed=2)
    expect(page.locator("#chances-survivors")).to_contain_text("Survivants ")
    expect(page.locator("#chances-survivors")).to_contain_text("\u202f%")
    expect(page.locator("#chances-zombies")).to_contain_text("Zombies ")  # both sides alike
    _act(page, game_id, _token(page, game_id))
    why = page.locator("#ai .ai-why")
    expect(why).to_contain_text("chances des zombies")
    assert "moves" not in why.inner_text() and "zombies' chances" not in why.inner_text()
    page.context.close()


def _finished_export() -> dict[str, Any]:
    from ai.policy import make_policy
    from ai.simulate import start

    game = start("helico", 11)
    players = {"zombies": make_policy("greedy", "zombies", 11),
               "survivors": make_policy("bot", "survivors", 11)}
    while not game.is_terminal:
        side = "zombies" if game.current_side() == "zombies" else "survivors"
        game.apply(players[side].choose(game).action)
    return game.export()


def test_at_the_end_the_curve_and_the_turning_point(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    page.goto(base_url + "#/")
    made = api(page, "POST", "/games/import", {"export": _finished_export(), "scenario": "helico"})
    page.goto(base_url + f"#/game/{made['id']}")
    page.reload()
    page.wait_for_selector("[data-figure-id]")
    expect(page.locator("#chances svg.chances-curve polyline")).to_have_count(1)
    expect(page.locator("#turning-point")).to_contain_text(re.compile(r"Turning point: in turn \d"))
    chances = api(page, "GET", f"/games/{made['id']}/chances")
    points = page.locator("#chances svg.chances-curve polyline").get_attribute("points") or ""
    assert len(points.split()) == len(chances["curve"])
    assert chances["survivors"] in (0.0, 1.0)  # the result, not a guess
    page.screenshot(path="/tmp/chances-end.png")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
