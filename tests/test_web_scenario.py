"""The scenario card page (#/scenario/ID), the printable set-up sheet (#/setup/ID) and the
notices kept in view, in the real browser (issue 15, point 7).

From the home page a card opens its page: its map drawn by the server in the page's
language, the objectives as the card words them, "5 to 8 turns" for the night; "Play this
card" starts the game of the seed shown, and its figures stand where the sheet of that seed
says. The sheet lists every figure and marker of the set-up with its distances from the
edges and prints on A4. A notice stays inside the viewport however the page is scrolled,
clear of the AI's proposal, and an error stays until it is closed.
"""

from __future__ import annotations

import os
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest

from tests.test_web import CHROMIUM, api, new_page, start_game

if not CHROMIUM.exists() and not os.environ.get("CI"):
    pytest.skip("chromium is not installed (make test installs it)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

SIZES = {"tablet-landscape": (1024, 768), "tablet-portrait": (768, 1024),
         "laptop": (1440, 900)}
DOCS = Path(__file__).resolve().parent.parent / "docs" / "img" / "screens"


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if os.environ.get("SURVIVE_US_SCREENS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        return DOCS
    return tmp_path_factory.mktemp("scenario-shots")


def map_loaded(page: Page, selector: str) -> None:
    page.wait_for_function(
        f"(() => {{ const i = document.querySelector({selector!r}); return i && i.complete "
        "&& i.naturalWidth > 0; })()")


def test_a_card_opens_its_page_with_its_map_and_plays(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    page.goto(base_url + "#/")
    # the night lasts until dawn: not "8 turns"
    expect(page.locator("[data-scenario='nuit']")).to_contain_text("5 to 8 turns")
    page.click("a[data-scenario='sauvetage']")
    page.wait_for_url(re.compile(r"#/scenario/sauvetage"))
    map_loaded(page, "#scenario-map")
    card = api(page, "GET", "/scenarios/sauvetage")
    for side in ("survivors", "zombies"):
        expect(page.locator(f"#scenario-objectives [data-objective='{side}']")).to_contain_text(
            card["objectives"][side]["text"]["en"])
    expect(page.locator("#scenario-rules li")).to_have_count(len(card["special_rules"]))
    assert "lang=en" in (page.get_attribute("#scenario-map", "src") or "")
    # another seed: another map, the print link follows, and the address keeps it
    page.fill("#scenario-seed", "4")
    page.locator("#scenario-seed").dispatch_event("change")
    expect(page.locator("#scenario-map")).to_have_attribute("src", re.compile(r"seed=4&"))
    expect(page.locator("#print-setup")).to_have_attribute("href", "#/setup/sauvetage?seed=4")
    assert page.url.endswith("#/scenario/sauvetage?seed=4")
    map_loaded(page, "#scenario-map")
    page.click("#play-card")
    page.wait_for_url(re.compile(r"#/game/\w+"))
    game = api(page, "GET", f"/games/{page.url.rsplit('/', 1)[1]}")
    assert (game["scenario"], game["seed"]) == ("sauvetage", 4)
    # the game starts from the set-up of its seed: every figure where the sheet puts it
    sheet = api(page, "GET", "/scenarios/sauvetage/setup?seed=4")
    placed = {f["id"]: (f["x"], f["y"]) for side in sheet["figures"].values() for f in side}
    started = {f["id"]: (round(f["x"], 2), round(f["y"], 2))
               for f in game["state"]["figures"]}
    assert placed == started
    assert not page.errors  # type: ignore[attr-defined]


def test_the_card_page_speaks_french(browser: Browser, base_url: str) -> None:
    page = new_page(browser, locale="fr-FR")
    page.goto(base_url + "#/scenario/nuit?seed=2")
    map_loaded(page, "#scenario-map")
    card = api(page, "GET", "/scenarios/nuit")
    expect(page.locator("#scenario-objectives [data-objective='survivors']")).to_contain_text(
        card["objectives"]["survivors"]["text"]["fr"])
    expect(page.locator("#scenario-turns")).to_have_text("5 à 8 tours")
    expect(page.locator("#scenario-end-roll")).to_contain_text("sur 4+")
    src = page.get_attribute("#scenario-map", "src") or ""
    assert "lang=fr" in src and "seed=2" in src
    svg = page.evaluate("async (src) => (await fetch(src)).text()", src)
    assert "Bord des survivants" in svg and "La nuit la plus longue" in svg
    assert "Survivors' edge" not in svg
    assert not page.errors  # type: ignore[attr-defined]


def one_decimal(value: float) -> str:
    """As the page's numbers round (Intl: half away from zero)."""
    return str(Decimal(str(value)).quantize(Decimal("0.1"), ROUND_HALF_UP))


def where_words(at: list[dict[str, Any]]) -> str:
    edge = {"left": "left edge", "right": "right edge", "near": "survivors' edge",
            "far": "far edge"}
    return ", ".join(f"{one_decimal(e['inches'])} in from the {edge[e['edge']]}" for e in at)


def test_the_setup_sheet_lists_every_figure_and_prints_on_a4(
        browser: Browser, base_url: str, shots: Path, tmp_path: Path) -> None:
    page = new_page(browser)
    page.goto(base_url + "#/setup/escorte?seed=3")
    map_loaded(page, "#setup-map")
    sheet = api(page, "GET", "/scenarios/escorte/setup?seed=3")
    expected = {f["id"]: f for side in sheet["figures"].values() for f in side}
    expected |= {m["id"]: m for m in sheet["crates"] + sheet["items"]}
    rows = page.locator("[data-place]")
    listed = {rows.nth(i).get_attribute("data-place"): rows.nth(i).locator(".where").inner_text()
              for i in range(rows.count())}
    assert len(listed) == rows.count()  # each once
    assert set(listed) == set(expected)
    assert sheet["figures"]["civilians"] and sheet["figures"]["zombies"] and sheet["crates"]
    for ident, text in listed.items():
        # said as the server measured it: the two nearest edges, one decimal
        assert text == where_words(expected[ident]["at"]), (ident, text)
    # the deployment zone, each exit and the terrain are there too
    expect(page.locator("#setup-survivors .zone-line")).to_contain_text("Deployment zone")
    expect(page.locator("#setup-exits [data-exit]")).to_have_count(len(sheet["exits"]))
    expect(page.locator("#setup-terrain tbody tr").first).to_be_visible()
    # what the crate holds is never said
    expect(page.locator("#setup-crates")).to_contain_text("found when it is opened")
    # print: A4, no page chrome, the map first
    page.emulate_media(media="print")
    assert not page.locator(".topbar").is_visible() and not page.locator("#print").is_visible()
    box = page.locator("#setup-map").bounding_box()
    assert box is not None and box["width"] > 500
    page.screenshot(path=str(shots / "setup-sheet-print.png"), full_page=True)
    pdf = tmp_path / "setup.pdf"
    page.pdf(path=str(pdf), format="A4")
    pages = len(pdfium.PdfDocument(str(pdf)))
    assert 1 <= pages <= 4, pages
    page.emulate_media(media="screen")
    # the sheet of a game is the set-up the game started from
    game_id = start_game(page, base_url, "escorte", seed=3)
    page.goto(base_url + f"#/setup/escorte?game={game_id}")
    map_loaded(page, "#setup-map")
    expect(page.locator("#setup-back")).to_have_attribute("href", f"#/game/{game_id}")
    assert page.locator("[data-place]").count() == len(expected)
    assert not page.errors  # type: ignore[attr-defined]


def inside(box: dict[str, float] | None, width: int, height: int) -> bool:
    return box is not None and box["x"] >= 0 and box["y"] >= 0 and \
        box["x"] + box["width"] <= width and box["y"] + box["height"] <= height


def apart(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    assert a is not None and b is not None
    return (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
            or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def scroll_to_bottom(page: Page) -> None:
    page.evaluate("""() => { window.scrollTo(0, document.documentElement.scrollHeight);
        const panel = document.querySelector('.panel');
        if (panel) panel.scrollTop = panel.scrollHeight; }""")


def until_the_zombies_decide(page: Page, game_id: str) -> None:
    """The survivors walk toward the zombies (with the page's token) until the zombies
    decide."""
    page.evaluate("""async (id) => {
        const token = JSON.parse(localStorage.getItem('survive-us.tokens'))['game:' + id];
        const call = async (method, path, body) => (await fetch('api/v1' + path, {method,
          headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + token},
          body: body && JSON.stringify(body)})).json();
        for (let n = 0; n < 40; n += 1) {
          const game = await call('GET', `/games/${id}`);
          if (game.deciding === 'zombies') return;
          const acts = (await call('GET', `/games/${id}/actions`)).actions.map(a => a.action);
          const pick = acts.find(a => a.type === 'move' && a.toward) || acts[0];
          await call('POST', `/games/${id}/actions`, {version: game.version, action: pick});
        }
    }""", game_id)


def test_a_notice_stays_in_view_and_clear_of_the_ai(browser: Browser, base_url: str,
                                                    shots: Path) -> None:
    page = new_page(browser)
    game_id = start_game(page, base_url, "nettoyage", seed=3)
    if not page.locator(".figure.selected[data-figure-id='m1']").count():
        page.click("[data-select='m1']")
    notice = page.locator("#notice.error")
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        # a refused action, the page scrolled to its bottom: dice typed that no die shows
        page.fill("#dice-input", "9")
        scroll_to_bottom(page)
        page.evaluate("document.querySelector('.actions button[data-action-type]').click()")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("9")
        assert inside(notice.bounding_box(), width, height), (size, notice.bounding_box())
        if size == "tablet-landscape":  # an error outlives an information's few seconds
            page.wait_for_timeout(4500)
            expect(notice).to_be_visible()
        page.click("#notice .notice-close")
        expect(page.locator("#notice")).to_be_hidden()
    page.fill("#dice-input", "")
    # the zombies' turn: a notice in view, clear of the AI's proposal, however it scrolls
    until_the_zombies_decide(page, game_id)
    page.wait_for_selector("#ai .ai-why")
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        scroll_to_bottom(page)
        page.evaluate("""async () => (await import('./js/notice.js')).notify(
            'A long refusal that takes a whole line and more, to see where it sits on a '
            + 'small screen beside the proposal of the zombies.', 'error')""")
        expect(notice).to_be_visible()
        for scrolled in ("bottom", "top"):
            page.wait_for_timeout(100)  # the notice moves on the next frame
            box, ai = page.locator("#notice").bounding_box(), page.locator("#ai").bounding_box()
            assert inside(box, width, height), (size, scrolled, box)
            assert apart(box, ai), (size, scrolled, box, ai)
            if scrolled == "bottom":
                page.screenshot(path=str(shots / f"notice-{size}.png"))
            page.evaluate("window.scrollTo(0, 0)")
    assert not page.errors  # type: ignore[attr-defined]
