"""Handing a game or a campaign to another device, in the browser: the share box shows the
link and its QR code (read back by OpenCV from the screen), "Download the record" saves
the whole record, and "Open a record" on another device's home page (or campaigns page)
opens it there with write access; a bad file is said in the page's language; "My games"
names a game's campaign and the campaigns list its games."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from test_web import CHROMIUM, api, new_page

if not CHROMIUM.exists():
    pytest.skip("chromium is not installed (make test installs it)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

FILE = re.compile(r"survive-us-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.json")


def keep_token(page: Page, key: str, token: str) -> None:
    """A token kept in the page's localStorage, as the page keeps the ones it is handed."""
    page.evaluate("""([key, token]) => { const all = JSON.parse(localStorage.getItem(
        'survive-us.tokens') || '{}'); all[key] = token;
        localStorage.setItem('survive-us.tokens', JSON.stringify(all)); }""", [key, token])


def read_qr(page: Page, selector: str) -> str:
    """What a camera reads off the screen: the image's pixels decoded by OpenCV."""
    shot = page.locator(selector).screenshot()
    image = cv2.imdecode(np.frombuffer(shot, dtype=np.uint8), cv2.IMREAD_GRAYSCALE)
    image = cv2.resize(image, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST)
    text, _points, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return str(text)


def open_more(page: Page) -> None:
    """On a game page the hand-off and the record are folded under "Print, hand over, save"."""
    if page.locator("#game-more:not([open]) summary").count():
        page.click("#game-more summary")


def download(page: Page, folder: Path) -> tuple[Path, dict[str, Any]]:
    open_more(page)
    with page.expect_download() as info:
        page.click("#export-record")
    saved = info.value
    assert FILE.fullmatch(saved.suggested_filename), saved.suggested_filename
    path = folder / saved.suggested_filename
    saved.save_as(path)
    record: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return path, record


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("share")


def test_a_game_goes_to_another_device_by_qr_code_or_by_its_record(
        browser: Browser, base_url: str, folder: Path) -> None:
    page = new_page(browser)
    page.goto(base_url + "#/")
    made = api(page, "POST", "/games", {"scenario": "nettoyage", "seed": 2,
                                        "band": "cops_and_kids"})
    keep_token(page, f"game:{made['id']}", made["token"])
    page.goto(base_url + f"#/game/{made['id']}")
    page.wait_for_selector("[data-figure-id]")
    open_more(page)
    page.click("#share")
    link = page.input_value("#share-link")
    assert link.endswith(f"#/game/{made['id']}?token={made['token']}")
    page.wait_for_function("document.querySelector('#share-qr').naturalWidth > 0")
    assert read_qr(page, "#share-qr") == link
    box = page.locator("#share-box").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 1024
    path, record = download(page, folder)
    assert record["scenario"] == "nettoyage" and record["export"]["log"][0]["action"]
    assert record["band"] == {"fr": "Les flics et les gosses", "en": "Cops and kids"}
    assert path.name.startswith("survive-us-clean-sweep-")  # the card, in the language shown
    # another device opens the file on its home page: a new game, this device may play it
    other = new_page(browser)
    other.goto(base_url + "#/")
    other.wait_for_selector("#new-game")
    other.set_input_files("#record-file", str(path))
    other.wait_for_url(re.compile(r"#/game/\w+$"))
    copy = other.url.rsplit("/", 1)[1]
    assert copy != made["id"]
    other.wait_for_selector("[data-figure-id]")
    expect(other.locator(".readonly-banner")).to_have_count(0)
    expect(other.locator("#share")).to_have_count(1)
    # and lists it among its games, with the card, the date and the band
    other.goto(base_url + "#/")
    card = other.locator(f"#my-games [data-game='{copy}']")
    expect(card).to_contain_text("Cops and kids")
    expect(card.locator(".game-note")).to_contain_text(re.compile(r"\d{4}"))
    assert not page.errors and not other.errors  # type: ignore[attr-defined]
    for p in (page, other):
        p.context.close()


@pytest.mark.parametrize(("locale", "not_json", "no_start"), [
    ("en-GB", "is not a Survive Us record: it is not JSON",
     "could not be opened: export: a game export has 'start'"),
    ("fr-FR", "n'est pas une sauvegarde de Survive Us : ce n'est pas du JSON",
     "n'a pas pu être ouvert : export : un export de partie a « start »"),
])
def test_a_bad_file_is_said_in_the_pages_language(browser: Browser, base_url: str,
                                                  folder: Path, locale: str, not_json: str,
                                                  no_start: str) -> None:
    page = new_page(browser, locale=locale)
    page.goto(base_url + "#/")
    made = api(page, "POST", "/games", {"scenario": "nettoyage", "seed": 3})
    record = api(page, "GET", f"/games/{made['id']}/export")
    cut = folder / f"cut-{locale}.json"
    cut.write_text(json.dumps(record)[:500], "utf-8")
    page.wait_for_selector("#new-game")
    page.set_input_files("#record-file", str(cut))
    expect(page.locator(".notice.error")).to_contain_text(not_json)
    expect(page.locator(".notice.error")).to_contain_text(cut.name)
    del record["export"]["start"]
    broken = folder / f"broken-{locale}.json"
    broken.write_text(json.dumps(record), "utf-8")
    page.set_input_files("#record-file", str(broken))
    expect(page.locator(".notice.error")).to_contain_text(no_start)
    assert page.url.endswith("#/")  # nothing opened
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_a_campaigns_games_and_its_record(browser: Browser, base_url: str,
                                          folder: Path) -> None:
    page = new_page(browser)
    page.goto(base_url + "#/")
    campaign = api(page, "POST", "/campaigns", {"example": "cops_and_kids", "seed": 4})
    game = page.evaluate(
        """async ([id, token]) => (await fetch(`api/v1/campaigns/${id}/games`, {method: 'POST',
            headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + token},
            body: '{"seed": 1}'})).json()""", [campaign["id"], campaign["token"]])
    keep_token(page, f"campaign:{campaign['id']}", campaign["token"])
    keep_token(page, f"game:{game['id']}", campaign["token"])
    total = len(campaign["summary"]["scenarios"])
    # My games: the game names its campaign and which of its games it is, and links to it
    page.reload()
    link = page.locator(f"#my-games [data-game='{game['id']}'] a.game-campaign")
    expect(link).to_have_text(f"Campaign Cops and kids, game 1 of {total}")
    link.click()
    page.wait_for_url(re.compile(rf"#/campaign/{campaign['id']}$"))
    page.wait_for_selector("#sequence")
    # the campaigns list: each campaign's games, linked
    page.goto(base_url + "#/campaigns")
    line = page.locator(f"[data-campaign='{campaign['id']}'] .campaign-games a[data-game]")
    expect(line).to_have_count(1)
    expect(line).to_contain_text(f"Game 1 of {total}: ")
    # the campaign's record, opened on the campaigns page of another device
    page.goto(base_url + f"#/campaign/{campaign['id']}")
    page.wait_for_selector("#sequence")
    path, record = download(page, folder)
    assert path.name.startswith("survive-us-cops-and-kids-")
    assert record["campaign"]["roster"]["name_en"] == "Cops and kids"
    assert len(record["games"]) == 1
    other = new_page(browser, locale="fr-FR")
    other.goto(base_url + "#/campaigns")
    other.wait_for_selector("#campaigns-form")
    other.set_input_files("#record-file", str(path))
    other.wait_for_url(re.compile(r"#/campaign/\w+$"))
    copy = other.url.rsplit("/", 1)[1]
    assert copy != campaign["id"]
    other.wait_for_selector("#sequence")
    expect(other.locator("#share")).to_be_visible()  # it may change it here
    expect(other.locator(".readonly-banner")).to_have_count(0)
    other.goto(base_url + "#/campaigns")
    expect(other.locator(f"[data-campaign='{copy}'] .campaign-games a")).to_contain_text(
        f"Partie 1 sur {total} : ")
    assert not page.errors and not other.errors  # type: ignore[attr-defined]
    for p in (page, other):
        p.context.close()
