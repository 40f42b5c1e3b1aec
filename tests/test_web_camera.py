"""The page's camera panel in a real browser (Playwright driving Debian's chromium).

A solo game where the zombies decide; photos of the table drawn from the game's positions
(tests/synth_colour.py, 1080p) are sent through the panel's file input: the camera's rings
appear on the SVG table, a moved survivor gets its arrow, and the AI's zombie is either
confirmed (within 0.25 in of where the AI asked) or shown where to go; confirming plays it.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from synth_colour import ColourFigure, render_colour
from synth_frames import Effects, encode_jpeg
from test_web import new_page, start_game

FX = Effects(blur_sigma=0.7, noise_sigma=2.0, jpeg_quality=90)


def call(page: Page, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    return page.evaluate(
        """async ([method, path, body, token]) => {
            const headers = {'Content-Type': 'application/json'};
            if (token) headers.Authorization = 'Bearer ' + token;
            const r = await fetch('api/v1' + path, {method, headers,
              body: body === null ? undefined : JSON.stringify(body)});
            return r.json();
        }""", [method, path, body, token])


def photo(folder: Path, name: str, figures: list[dict[str, Any]],
          moves: dict[str, tuple[float, float]]) -> str:
    drawn = [ColourFigure(f["side"], *moves.get(f["id"], (f["x"], f["y"]))) for f in figures]
    path = folder / name
    path.write_bytes(encode_jpeg(render_colour(drawn, effects=FX, seed=7).image, 90))
    return str(path)


def free_spot(figures: list[dict[str, Any]], avoid: list[float],
              dist: float) -> tuple[dict[str, Any], tuple[float, float]]:
    """A survivor and a point `dist` in away, clear of every base and of `avoid`."""
    for fig in figures:
        if fig["side"] != "survivors":
            continue
        others = [(f["x"], f["y"]) for f in figures if f is not fig] + [tuple(avoid)]
        for k in range(24):
            a = 2 * math.pi * k / 24
            x, y = fig["x"] + dist * math.cos(a), fig["y"] + dist * math.sin(a)
            if 1.5 < x < 30 and 1.5 < y < 30 and all(
                    math.hypot(x - u, y - v) > 1.2 for u, v in others):
                return fig, (x, y)
    raise AssertionError("no survivor can move")


def test_camera_panel_rings_arrow_and_ai_confirmation(browser: Browser, base_url: str,
                                                      tmp_path: Path) -> None:
    page = new_page(browser)
    game_id = start_game(page, base_url, "nettoyage", 3)
    token = page.evaluate("id => JSON.parse(localStorage.getItem('survive-us.tokens'))"
                          "['game:' + id]", game_id)
    listed = call(page, "GET", f"/games/{game_id}/actions", None, token)["actions"]
    start = {f["id"]: [f["x"], f["y"]] for f in call(page, "GET", f"/games/{game_id}")["state"][
        "figures"]}
    hold = next(a["action"] for a in listed if a["action"]["type"] == "move"  # R1: no pass,
                and a["action"].get("to") == start[a["action"]["figure"]])  # stand still
    changed = call(page, "POST", f"/games/{game_id}/actions",
                   {"version": 0, "action": hold}, token)
    assert changed["game"]["deciding"] == "zombies", changed
    expect(page.locator("#ai")).to_be_visible()  # the page follows and asks the AI
    suggested = call(page, "POST", f"/games/{game_id}/ai/suggest", {"version": 1})
    zombie = suggested["action"]["figure"]
    end = call(page, "POST", f"/games/{game_id}/preview", {"action": suggested["action"]})["end"]
    figures = [f for f in changed["game"]["state"]["figures"]
               if f["status"] in ("standing", "down")]
    survivor, spot = free_spot(figures, end, 1.5)

    # the zombie 0.6 in from where the AI asked: "move it here", the spot drawn
    off = photo(tmp_path, "off.jpg", figures, {zombie: (end[0] + 0.6, end[1]),
                                              survivor["id"]: spot})
    page.set_input_files("#camera-file", off)
    confirm = page.locator("#camera-confirm")
    expect(confirm).to_have_attribute("data-state", "move_it")
    expect(confirm).to_contain_text(changed["game"]["names"][zombie]["en"])  # its name, no id
    expect(confirm).to_contain_text(re.compile(r"0\.\d\d in to the (west|north-west|south-west)"))
    expect(page.locator(f'[data-camera-target="{zombie}"]')).to_have_count(1)
    expect(page.locator("[data-camera-figure]")).to_have_count(len(figures))
    expect(page.locator(f'[data-camera-moved="{survivor["id"]}"]')).to_be_visible()
    expect(page.locator(".cam-arrow")).to_have_count(2)  # the survivor and the zombie moved
    ring = page.locator(f'[data-camera-figure="{survivor["id"]}"]')
    assert float(ring.get_attribute("cx") or 0) == pytest.approx(spot[0], abs=0.1)
    assert float(ring.get_attribute("cy") or 0) == pytest.approx(spot[1], abs=0.1)

    # put where the AI asked (0.1 in off): confirmed, and confirming plays the AI's move
    there = photo(tmp_path, "there.jpg", figures, {zombie: (end[0] + 0.1, end[1])})
    page.set_input_files("#camera-file", there)
    expect(confirm).to_have_attribute("data-state", "in_place")
    expect(page.locator(".cam-target.ok")).to_have_count(1)
    page.click("#camera-ai-confirm")
    expect(page.locator("#log li")).to_have_count(3)  # start, the pass, the zombie's move
    expect(page.locator("[data-camera-figure]")).to_have_count(0)  # the view was of before
    game = call(page, "GET", f"/games/{game_id}")
    assert game["version"] == 2
    moved = next(f for f in game["state"]["figures"] if f["id"] == zombie)
    assert math.hypot(moved["x"] - end[0], moved["y"] - end[1]) < 1e-6
    assert page.errors == []  # type: ignore[attr-defined]


def test_read_only_page_cannot_send_but_sees_what_watch_posted(browser: Browser,
                                                               base_url: str) -> None:
    page = new_page(browser)
    game_id = start_game(page, base_url, "nettoyage", 4)
    token = page.evaluate("id => JSON.parse(localStorage.getItem('survive-us.tokens'))"
                          "['game:' + id]", game_id)
    other = new_page(browser)
    other.goto(f"{base_url}#/game/{game_id}")
    expect(other.locator("#camera")).to_contain_text("token")
    expect(other.locator("#camera-file")).to_have_count(0)
    expect(page.locator("#camera-file")).to_have_count(1)
    other.click("#camera-last")
    expect(other.locator("#camera-error")).to_contain_text("vision watch")
    # positions as `vision watch` posts them (colour mode), one zombie 2 in off
    game = call(page, "GET", f"/games/{game_id}")
    figures = [f for f in game["state"]["figures"] if f["status"] in ("standing", "down")]
    zombie = next(f for f in figures if f["side"] == "zombies")
    seen = [{"side": f["side"], "x": f["x"], "y": f["y"], "uncertainty": 0.03,
             "track": f"{f['side']}#{n}"} for n, f in enumerate(figures) if f is not zombie]
    answer = call(page, "POST", f"/games/{game_id}/frames/positions",
                  {"frame": 3, "mode": "colour", "table": {"found": True, "markers": [0, 1, 2, 3]},
                   "figures": seen, "moved": [], "appeared": [], "vanished": []}, token)
    assert answer["vanished"] == [zombie["id"]], answer
    other.click("#camera-last")
    expect(other.locator("[data-camera-figure]")).to_have_count(len(figures) - 1)
    expect(other.locator("#camera-lost")).to_contain_text(game["names"][zombie["id"]]["en"])
    assert other.errors == [] and page.errors == []  # type: ignore[attr-defined]
