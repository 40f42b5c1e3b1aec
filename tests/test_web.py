"""The page in a real browser (Playwright driving Debian's chromium) against the real app.

A werkzeug server in a thread serves `create_app` on a temporary SQLite database. The tests
build a roster, start a scenario, move a survivor by dragging it along its route, look at a
line of sight, let the AI play the zombies' activation, undo it, follow another page's
changes through the live stream, and switch languages. Skipped only when chromium is missing
and CI is not set (on CI they must run).
"""

from __future__ import annotations

import json
import math
import os
import re
from typing import Any

import pytest
from conftest import CHROMIUM

if not CHROMIUM.exists() and not os.environ.get("CI"):
    pytest.skip("chromium is not installed (make test installs it)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

TIMEOUT = 8000  # ms, for each wait


def new_page(browser: Browser, *, locale: str = "en-GB", width: int = 1024,
             height: int = 768, storage: dict[str, Any] | None = None) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale,
                                  has_touch=False)
    if storage is not None:
        context.add_init_script("for (const [k, v] of Object.entries("
                                f"{json.dumps(storage)})) localStorage.setItem(k, v);")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def api(page: Page, method: str, path: str, body: Any = None) -> Any:
    """Call the API from inside the page (same origin)."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const r = await fetch('api/v1' + path, {method, headers: {'Content-Type':
              'application/json'}, body: body === null ? undefined : JSON.stringify(body)});
            return r.json();
        }""", [method, path, body])


def table_point(page: Page, x: float, y: float) -> tuple[float, float]:
    """Screen pixels of the table point (x, y) in inches."""
    p = page.evaluate(
        """([x, y]) => { const m = document.querySelector('.world').getScreenCTM();
            const q = new DOMPoint(x, y).matrixTransform(m); return [q.x, q.y]; }""", [x, y])
    return float(p[0]), float(p[1])


def start_game(page: Page, base_url: str, scenario: str = "nettoyage", seed: int = 1) -> str:
    page.goto(base_url + "#/")
    page.select_option("#scenario", scenario)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_url(re.compile(r"#/game/\w+"))
    page.wait_for_selector("[data-figure-id]")
    return page.url.rsplit("/", 1)[1]


def legal_spot(page: Page, game_id: str, fig: dict[str, Any]) -> tuple[float, float, float]:
    """A spot the figure may move to now, 2.5-4 in away (asked of the service)."""
    for dx, dy in ((0, 3.5), (2.5, 2.5), (-2.5, 2.5), (3.5, 0), (-3.5, 0), (0, -3)):
        to = [round(fig["x"] + dx, 2), round(fig["y"] + dy, 2)]
        answer = api(page, "POST", f"/games/{game_id}/path", {"figure": fig["id"], "to": to})
        if answer.get("legal_now"):
            return to[0], to[1], float(answer["length"])
    raise AssertionError(f"no legal spot near {fig['id']}")


def play_out(page: Page, game_id: str, token: str) -> int:
    """Both sides give up their activations (R1: they stand still while they hold AP) until
    the turn limit ends the game; the number of actions it took (-1 when it did not end)."""
    played: int = page.evaluate(
        """async ([id, token]) => {
            const call = async (method, path, body) => (await fetch('api/v1' + path, {method,
              headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + token},
              body: body && JSON.stringify(body)})).json();
            for (let n = 0; n < 600; n += 1) {
              const game = await call('GET', `/games/${id}`);
              if (game.terminal) return n;
              const acts = (await call('GET', `/games/${id}/actions`)).actions.map(a => a.action);
              const still = (a) => a.type === 'move' && a.to && game.state.figures.some(
                (f) => f.id === a.figure && f.x === a.to[0] && f.y === a.to[1]);
              const pick = acts.find(a => a.type === 'end_activations')
                || acts.find(a => a.type === 'decline' || a.type === 'pass')
                || acts.find(still) || acts[0];
              await call('POST', `/games/${id}/actions`, {version: game.version, action: pick});
            }
            return -1;
        }""", [game_id, token])
    return played


def state_of(page: Page, game_id: str) -> dict[str, Any]:
    game: dict[str, Any] = api(page, "GET", f"/games/{game_id}")
    return game


# --- the roster builder --------------------------------------------------------------------


def test_roster_builder_prices_and_lists_problems_live(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    page.goto(base_url + "#/roster")
    page.fill("#roster-name", "Les testeurs")
    page.select_option("#add-archetype", "ex_flic_h")
    page.click("#add-member")
    expect(page.locator("#roster-total")).to_have_text(re.compile(r"\d+ points"))
    one = int(page.locator("#roster-total").inner_text().split()[0])
    # one member is too small a band: the service's problem is listed with its fix
    expect(page.locator("#roster-problems li").first).to_be_visible()
    expect(page.locator("#roster-legal")).to_contain_text("problems to fix")
    for archetype in ("mere", "enfant", "medecin", "ado_f"):
        page.select_option("#add-archetype", archetype)
        page.click("#add-member")
    expect(page.locator("[data-member]")).to_have_count(5)
    page.wait_for_function(
        f"parseInt(document.querySelector('#roster-total').textContent) > {one}")
    # equipment changes the cost as it is added
    before = int(page.locator("#roster-total").inner_text().split()[0])
    page.locator("[data-member='m1'] select[aria-label='Add an item…']").select_option("pistolet")
    page.wait_for_function(
        f"parseInt(document.querySelector('#roster-total').textContent) > {before}")
    expect(page.locator("[data-member='m1'] .chip")).to_contain_text("Pistol")  # its English name
    # a weapon without its ammunition is a warning: listed apart, counted apart, in amber;
    # the red badge counts the errors listed under it
    expect(page.locator("#roster-warnings li").first).to_contain_text("no ammunition")
    expect(page.locator("#roster-warning-count")).to_contain_text(
        re.compile(r"^\d+ things? to check$"))
    warnings = page.locator("#roster-warnings li").count()
    assert page.locator("#roster-warning-count").inner_text().startswith(f"{warnings} ")
    errors = page.locator("#roster-problems li").count()
    badge = page.locator("#roster-legal .badge").first.inner_text()
    assert badge == (f"{errors} problem{'s' if errors > 1 else ''} to fix" if errors
                     else "legal band"), badge
    # a member named in its problem's message is not named again before it
    page.locator("[data-member='m1'] input").first.fill("Rambo")
    expect(page.locator("#roster-warnings li").first).to_contain_text("Rambo carries")
    assert not page.locator("#roster-warnings li").first.inner_text().startswith("Rambo:")
    page.click("#save-roster")
    page.wait_for_url(re.compile(r"#/roster/\w+"))
    # saved, and said so with its problems when it has some
    expect(page.locator("#notice")).to_contain_text(
        f"Band saved, with {errors} problem" if errors else "Band saved.")
    roster_id = page.url.rsplit("/", 1)[1]
    tokens = json.loads(page.evaluate("localStorage.getItem('survive-us.tokens')"))
    assert f"roster:{roster_id}" in tokens
    stored = api(page, "GET", f"/rosters/{roster_id}")
    assert [m["archetype"] for m in stored["roster"]["members"]] == [
        "ex_flic_h", "mere", "enfant", "medecin", "ado_f"]
    # the printable sheet shows every member with its profile
    page.click("#sheet-link")
    expect(page.locator(".sheet-member")).to_have_count(5)
    expect(page.locator("#sheet h1")).to_contain_text("Les testeurs")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


# --- playing -------------------------------------------------------------------------------


def test_game_move_sight_ai_undo(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    game_id = start_game(page, base_url, seed=3)  # zombies within 20 in: they act next
    game = state_of(page, game_id)
    on_table = {f["id"] for f in game["state"]["figures"] if f["status"] in ("standing", "down")}
    drawn = set(page.eval_on_selector_all(
        "svg [data-figure-id]", "els => els.map(e => e.dataset.figureId)"))
    assert drawn == on_table
    expect(page.locator("#turn")).to_have_text("Turn 1 of 6")

    # select a survivor: only its legal actions are listed
    page.click("[data-select='m1']")
    expect(page.locator("#figure h2").first).to_contain_text("Lucas")
    expect(page.locator("#figure h2").first).not_to_contain_text("m1")  # a name, never an id
    legal = api(page, "GET", f"/games/{game_id}/actions?figure=m1")["actions"]
    expect(page.locator("#actions button")).to_have_count(len(legal))

    # drag it: the route is drawn with its length and cost, then the move is played
    m1 = next(f for f in game["state"]["figures"] if f["id"] == "m1")
    x, y, length = legal_spot(page, game_id, m1)
    sx, sy = table_point(page, m1["x"], m1["y"])
    tx, ty = table_point(page, x, y)
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move((sx + tx) / 2, (sy + ty) / 2, steps=4)
    page.mouse.move(tx, ty, steps=4)
    expect(page.locator(".overlay-path polyline")).to_have_count(1)
    expect(page.locator("#readout")).to_contain_text(f"Route {length:.1f} in, 1 AP")
    page.mouse.up()
    page.wait_for_function("document.querySelector('#log').children.length === 2")
    after = state_of(page, game_id)
    moved = next(f for f in after["state"]["figures"] if f["id"] == "m1")
    assert after["version"] == 1
    assert (moved["x"], moved["y"]) == pytest.approx((x, y), abs=0.02)
    expect(page.locator("#log li").first).to_contain_text(
        re.compile(r"Lucas: move \d+\.\d in to the (north|south|east|west)"))

    assert after["deciding"] == "zombies"

    # the zombies decide now: the AI's choice is drawn as a ghost with its explanation
    expect(page.locator("#ai .ai-why")).not_to_be_empty()
    proposal = page.locator("#ai .ai-action").inner_text()
    assert proposal
    expect(page.locator(".overlay-ai .ai-target, .overlay-ai .ai-ghost")).not_to_have_count(0)

    # line of sight from a zombie: the visibility polygon and a tag per enemy
    page.click("[data-tool='sight']")
    for zombie in after["state"]["figures"]:  # one that sees something
        if zombie["side"] == "zombies" and zombie["status"] == "standing":
            sight = api(page, "GET", f"/games/{game_id}/sight?figure={zombie['id']}")
            if sight["polygons"]:
                break
    page.click(f"[data-figure-id='{zombie['id']}']", force=True)
    expect(page.locator(".overlay-sight polygon")).to_have_count(len(sight["polygons"]))
    seen = sum(e["visible"] for e in sight["enemies"])
    # a tag on each enemy it sees; a hidden one has no tag (they piled up), its base is dimmed
    expect(page.locator(".overlay-sight-tags .sight-tag")).to_have_count(seen)
    expect(page.locator(".figure.hidden-target")).to_have_count(len(sight["enemies"]) - seen)
    expect(page.locator("#readout")).to_contain_text(f"sees {seen} of {len(sight['enemies'])}")
    page.click("[data-tool='sight']")

    # play the AI's move; the log says it in words; one take-back removes the player's move
    # and the AI's reply; redo plays both again as they were
    page.click("#ai-play")
    page.wait_for_function("document.querySelector('#log').children.length === 3")
    played = state_of(page, game_id)
    assert played["version"] == 2
    page.click("#undo")
    page.wait_for_function("document.querySelector('#log').children.length === 1")
    assert state_of(page, game_id)["version"] == 4  # each action taken back is an event
    expect(page.locator("#readout")).to_contain_text("2 actions taken back")
    page.click("#redo")
    page.wait_for_function("document.querySelector('#log').children.length === 3")
    assert state_of(page, game_id)["state"] == played["state"]
    expect(page.locator("#redo")).to_have_count(0)
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_the_figure_cards_sight_button_shows_its_sight(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    game_id = start_game(page, base_url, seed=3)
    page.click("[data-select='m1']")
    page.click("#figure-sight")  # "What Lucas sees": its sight, the card stays open
    sight = api(page, "GET", f"/games/{game_id}/sight?figure=m1")
    expect(page.locator(".overlay-sight polygon")).to_have_count(len(sight["polygons"]))
    seen = sum(e["visible"] for e in sight["enemies"])
    expect(page.locator("#readout")).to_have_text(
        f"Lucas sees {seen} of {len(sight['enemies'])} enemies")
    expect(page.locator("#figure h2").first).to_contain_text("Lucas")
    # closing the card takes its sight away; the sight tool with a figure chosen shows it
    page.click("#figure button:has-text('Close')")
    expect(page.locator(".overlay-sight polygon")).to_have_count(0)
    page.click("[data-select='m2']")
    page.click("[data-tool='sight']")
    expect(page.locator("#readout")).to_contain_text("Inès sees")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_counts_in_french_say_none_and_one_in_the_singular(browser: Browser,
                                                             base_url: str) -> None:
    page = new_page(browser, locale="fr-FR")
    start_game(page, base_url, seed=3)
    said = page.evaluate("""async () => {
        const { t, setLang } = await import('./js/i18n.js');
        const sight = (n) => t('tools.sight_count', { who: 'Slasher 14', n, total: 6 });
        const fr = [sight(0), sight(1), sight(2), t('tools.zone20_count', { n: 0 }),
                    t('tools.engaged_count', { n: 1 }), t('roster.illegal', { n: 3 })];
        await setLang('en');
        const en = [sight(0), sight(1), sight(2), t('tools.zone20_count', { n: 1 })];
        await setLang('fr');
        return { fr, en };
    }""")
    assert said["fr"] == ["Slasher 14 ne voit aucun ennemi (sur 6)",
                          "Slasher 14 voit 1 ennemi sur 6", "Slasher 14 voit 2 ennemis sur 6",
                          "Aucun zombie n'a d'humain à 20 ps ou moins", "1 paire au contact",
                          "3 problèmes à corriger"]
    assert said["en"] == ["Slasher 14 sees 0 of 6 enemies", "Slasher 14 sees 1 of 6 enemies",
                          "Slasher 14 sees 2 of 6 enemies", "1 zombie has a human within 20 in"]
    # on the table: no pair in contact at the start, said so
    page.click("[data-toggle='engaged']")
    expect(page.locator("#readout")).to_have_text("Aucune paire au contact")
    page.context.close()


def test_refused_drop_says_why(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    game_id = start_game(page, base_url, seed=2)
    game = state_of(page, game_id)
    m1 = next(f for f in game["state"]["figures"] if f["id"] == "m1")
    friend = min((f for f in game["state"]["figures"]
                  if f["side"] == "survivors" and f["id"] != "m1"),
                 key=lambda f: math.dist((f["x"], f["y"]), (m1["x"], m1["y"])))
    page.click("[data-select='m1']")
    sx, sy = table_point(page, m1["x"], m1["y"])
    tx, ty = table_point(page, friend["x"], friend["y"])  # onto a friend's base
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(tx, ty, steps=6)
    expect(page.locator(".overlay-path polyline.refused")).to_have_count(1)
    page.mouse.up()
    expect(page.locator("#readout")).to_have_text(re.compile(r"^Refused\. \w.{20,}"))  # why
    expect(page.locator("#notice.error")).to_be_visible()
    assert state_of(page, game_id)["version"] == 0
    page.context.close()


def test_a_drag_beyond_m_stops_at_the_farthest_legal_spot(browser: Browser,
                                                          base_url: str) -> None:
    page = new_page(browser)
    game_id = start_game(page, base_url, seed=2)
    game = state_of(page, game_id)
    m1 = next(f for f in game["state"]["figures"] if f["id"] == "m1")
    page.click("[data-select='m1']")
    sx, sy = table_point(page, m1["x"], m1["y"])
    tx, ty = table_point(page, m1["x"], m1["y"] + 9.0)  # beyond its 5 in move
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(tx, ty, steps=6)
    # the route drawn stops at one move, costs 1 AP, and says the spot asked was too far
    expect(page.locator("#readout")).to_contain_text("Too far for one move (9.0 in)")
    expect(page.locator("#readout")).to_contain_text("1 AP")
    expect(page.locator(".overlay-path polyline.refused")).to_have_count(0)
    page.mouse.up()
    page.wait_for_function("document.querySelector('#log').children.length === 2")
    after = state_of(page, game_id)
    moved = next(f for f in after["state"]["figures"] if f["id"] == "m1")
    walked = math.dist((moved["x"], moved["y"]), (m1["x"], m1["y"]))
    assert after["version"] == 1 and 4.0 < walked <= m1["move"] + 1e-6
    page.context.close()


def test_measure_tape_edge_to_edge(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    game_id = start_game(page, base_url, seed=3)
    figures = {f["id"]: f for f in state_of(page, game_id)["state"]["figures"]}
    page.click("[data-tool='measure']")
    page.click("[data-figure-id='m1']", force=True)
    page.click("[data-figure-id='m2']", force=True)
    a, b = figures["m1"], figures["m2"]
    gap = max(0.0, ((a["x"] - b["x"]) ** 2 + (a["y"] - b["y"]) ** 2) ** 0.5 - 25 / 25.4)
    expect(page.locator("#readout")).to_contain_text(f"{gap:.2f} in")
    expect(page.locator(".overlay-measure line")).to_have_count(1)
    # the 20 in zone marks the zombies the service says have a human within 20 in
    page.click("[data-toggle='zone20']")
    zone = api(page, "GET", f"/games/{game_id}/zone")
    expect(page.locator(".figure.activatable.side-zombies")).to_have_count(len(zone["in_zone"]))
    page.context.close()


def test_other_pages_follow_live_and_read_only(browser: Browser, base_url: str) -> None:
    player = new_page(browser)
    game_id = start_game(player, base_url, seed=4)
    watcher = new_page(browser)  # another browser profile: no token
    watcher.goto(base_url + f"#/game/{game_id}")
    watcher.wait_for_selector("[data-figure-id]")
    expect(watcher.locator(".readonly-banner")).to_be_visible()
    expect(watcher.locator("#undo")).to_have_count(0)
    # a survivor stands still (R1: no pass with AP left); the watcher's page follows the stream
    player.click("[data-select='m1']")
    player.locator("#actions button", has_text="stand still").click()
    player.wait_for_function("document.querySelector('#log').children.length === 2")
    expect(watcher.locator("#log li")).to_have_count(2)
    expect(watcher.locator("#to-act")).to_contain_text("Zombies")
    player.context.close()
    watcher.context.close()


def test_language_follows_browser_and_switch(browser: Browser, base_url: str) -> None:
    page = new_page(browser, locale="fr-FR")
    page.goto(base_url + "#/")
    expect(page.locator(".topbar nav a").first).to_have_text("Parties")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.click(".lang-switch [data-lang='en']")
    expect(page.locator(".topbar nav a").first).to_have_text("Games")
    expect(page.locator("#new-game h2")).to_have_text("New game")
    page.reload()
    expect(page.locator(".topbar nav a").first).to_have_text("Games")  # remembered
    page.context.close()


def test_typed_dice_are_used_and_bad_dice_refused(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    game_id = start_game(page, base_url, seed=3)
    page.click("[data-select='m1']")
    shoot = page.locator("#actions [data-action-type='shoot']").first
    page.fill("#dice-input", "6 9")
    shoot.click()
    expect(page.locator("#notice")).to_contain_text("1 to 6")
    assert state_of(page, game_id)["version"] == 0
    page.fill("#dice-input", "6 6 6 6")
    shoot.click()
    page.wait_for_function("document.querySelector('#log').children.length === 2")
    log = api(page, "GET", f"/games/{game_id}/export")["export"]["log"]
    assert log[-1]["action"]["type"] == "shoot"
    assert log[-1]["dice"][0] == 6  # the typed die, not the service's
    expect(page.locator("#log li").first).to_contain_text("dice: 6")
    page.context.close()


def test_zoom_pan_and_reset(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    start_game(page, base_url, seed=5)
    box = page.locator(".table-svg").bounding_box()
    assert box is not None
    before = page.get_attribute(".table-svg", "viewBox")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -400)
    page.wait_for_function(f"document.querySelector('.table-svg').getAttribute('viewBox') "
                           f"!== '{before}'")
    zoomed = [float(v) for v in (page.get_attribute(".table-svg", "viewBox") or "").split()]
    assert zoomed[2] < float((before or "").split()[2])  # narrower: zoomed in
    # drag the empty board: the view pans
    page.mouse.move(box["x"] + 30, box["y"] + box["height"] - 30)
    page.mouse.down()
    page.mouse.move(box["x"] + 130, box["y"] + box["height"] - 60, steps=5)
    page.mouse.up()
    panned = [float(v) for v in (page.get_attribute(".table-svg", "viewBox") or "").split()]
    assert panned[0] < zoomed[0] and panned[2] == pytest.approx(zoomed[2])
    page.click("[data-action='reset-view']")
    assert page.get_attribute(".table-svg", "viewBox") == before
    page.context.close()


def test_pinch_zooms_on_touch(browser: Browser, base_url: str) -> None:
    page = new_page(browser, width=768, height=1024)
    start_game(page, base_url, seed=5)
    before = float((page.get_attribute(".table-svg", "viewBox") or "").split()[2])
    # two fingers moving apart (touch pointer events, as a tablet sends them)
    page.evaluate("""() => {
        const svg = document.querySelector('.table-svg');
        const r = svg.getBoundingClientRect();
        const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
        const send = (type, id, x) => svg.dispatchEvent(new PointerEvent(type, {
            pointerId: id, pointerType: 'touch', clientX: x, clientY: cy, bubbles: true,
            isPrimary: id === 1, button: 0}));
        send('pointerdown', 1, cx - 40); send('pointerdown', 2, cx + 40);
        for (let d = 50; d <= 120; d += 10) { send('pointermove', 1, cx - d);
                                               send('pointermove', 2, cx + d); }
        send('pointerup', 1, cx - 120); send('pointerup', 2, cx + 120);
    }""")
    after = float((page.get_attribute(".table-svg", "viewBox") or "").split()[2])
    assert after == pytest.approx(before * 80 / 240, rel=0.05)  # fingers 3x apart: 3x zoom
    page.context.close()


def test_campaign_page_and_its_next_game(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    page.goto(base_url + "#/campaigns")
    page.select_option("#campaign-example", "cops_and_kids")
    page.fill("#campaign-length", "3")
    page.click("#campaigns-form button[type='submit']")
    page.wait_for_url(re.compile(r"#/campaign/\w+"))
    campaign_id = page.url.rsplit("/", 1)[1]
    campaign = api(page, "GET", f"/campaigns/{campaign_id}")
    expect(page.locator("#sequence li")).to_have_count(len(campaign["summary"]["scenarios"]))
    expect(page.locator("#band tbody tr")).to_have_count(len(campaign["summary"]["band"]))
    expect(page.locator("#sequence li").first).to_have_attribute("data-state", "next")
    page.click("#next-game")
    page.wait_for_url(re.compile(r"#/game/\w+"))
    page.wait_for_selector("[data-figure-id]")
    expect(page.locator(".readonly-banner")).to_have_count(0)  # the campaign's token
    expect(page.locator("#to-campaign")).to_be_visible()
    game_id = page.url.rsplit("/", 1)[1]
    page.click("#to-campaign")
    expect(page.locator("#open-game")).to_be_visible()
    # no result to record while the game is on
    expect(page.locator("#record-later")).to_be_visible()
    expect(page.locator("#record-result")).to_have_count(0)
    # both sides give up their activations to the turn limit, then the result is recorded
    # with the consequence die typed in
    token = json.loads(page.evaluate("localStorage.getItem('survive-us.tokens')"))[
        f"campaign:{campaign_id}"]
    played = play_out(page, game_id, token)
    assert played > 0
    page.reload()
    page.fill("#result-dice", "4")
    page.click("#record-result")
    expect(page.locator("#history .card")).to_have_count(1)
    history = api(page, "GET", f"/campaigns/{campaign_id}/history")["history"]
    assert history[0]["consequence"]["first"] == 4  # the typed die
    expect(page.locator("#history .consequence")).to_contain_text("4")
    expect(page.locator("#sequence li").first).to_have_attribute("data-state", "played")
    # a page without the campaign's token shows it read-only, without the buttons
    other = new_page(browser)
    other.goto(base_url + f"#/campaign/{campaign_id}")
    expect(other.locator(".readonly-banner")).to_be_visible()
    expect(other.locator("#open-game, #next-game")).to_have_count(0)
    other.context.close()
    page.context.close()


def test_keyboard_selects_a_figure_and_escape_leaves(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    start_game(page, base_url, seed=6)
    page.focus("[data-figure-id='m2']")
    page.keyboard.press("Enter")
    expect(page.locator("#figure h2").first).to_contain_text("Inès")
    expect(page.locator(".figure.selected")).to_have_attribute("data-figure-id", "m2")
    page.keyboard.press("Escape")
    expect(page.locator(".figure.selected")).to_have_count(0)
    # the printed roster sheet hides the page's chrome
    page.emulate_media(media="print")
    expect(page.locator(".topbar")).to_be_hidden()
    page.context.close()


def test_tap_a_spot_then_move_here_and_exits_drawn(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    game_id = start_game(page, base_url, scenario="evacuation", seed=1)
    card = api(page, "GET", "/scenarios/evacuation")
    for exit_ in card["exits"]:
        expect(page.locator(f"[data-exit-id='{exit_['id']}']")).to_have_count(1)
    m3 = next(f for f in state_of(page, game_id)["state"]["figures"] if f["id"] == "m3")
    x, y, _length = legal_spot(page, game_id, m3)
    page.click("[data-select='m3']")
    page.mouse.click(*table_point(page, x, y))
    page.click("#move-here")
    page.wait_for_function("document.querySelector('#log').children.length === 2")
    moved = next(f for f in state_of(page, game_id)["state"]["figures"] if f["id"] == "m3")
    assert (moved["x"], moved["y"]) == pytest.approx((x, y), abs=0.02)
    # the exits are still drawn after the action, and the objective is in view with its tally
    for exit_ in card["exits"]:
        expect(page.locator(f"[data-exit-id='{exit_['id']}']")).to_have_count(1)
    expect(page.locator("#objectives [data-objective='survivors'] .tally")).to_contain_text(
        re.compile(r"0 of \d+ \(out of \d+\)"))
    page.context.close()


def test_a_game_and_a_campaign_are_handed_to_another_device(browser: Browser,
                                                            base_url: str) -> None:
    """The share button's link opens the game with write access elsewhere; a wrong token
    pasted is said at once and not kept; a read-only campaign takes its token."""
    page = new_page(browser)
    page.goto(base_url + "#/")
    made = api(page, "POST", "/games", {"scenario": "nettoyage", "seed": 2})
    campaign = api(page, "POST", "/campaigns", {"example": "cops_and_kids", "length": 3,
                                                "seed": 1})
    # another device, with the hand-off link: it may play, and the token leaves the address
    other = new_page(browser)
    other.goto(base_url + f"#/game/{made['id']}?token={made['token']}")
    other.wait_for_selector("[data-figure-id]")
    expect(other.locator(".readonly-banner")).to_have_count(0)
    assert other.url.endswith(f"#/game/{made['id']}")
    other.click("#game-more summary")
    other.click("#share")
    link = other.input_value("#share-link")
    assert link.endswith(f"#/game/{made['id']}?token={made['token']}")
    # a third device pastes a wrong token: refused at once, still read-only
    third = new_page(browser)
    third.goto(base_url + f"#/game/{made['id']}")
    expect(third.locator("#chances")).to_be_visible()  # the panel's last redraw is done
    third.fill("#token-input", "mauvaisjeton")
    third.click(".readonly-banner button[type='submit']")
    expect(third.locator(".notice.error")).to_contain_text("This token does not open it")
    expect(third.locator(".readonly-banner")).to_have_count(1)
    # the campaign, read-only, takes its token and then offers its own hand-off link
    third.goto(base_url + f"#/campaign/{campaign['id']}")
    third.fill("#token-input", campaign["token"])
    third.click(".readonly-banner button[type='submit']")
    expect(third.locator("#share")).to_be_visible()
    expect(third.locator(".readonly-banner")).to_have_count(0)
    for p in (page, other, third):
        p.context.close()


def test_auto_play_runs_the_zombies_at_its_pace_until_the_survivors_decide(
        browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    game_id = start_game(page, base_url, seed=3)
    m1 = next(f for f in state_of(page, game_id)["state"]["figures"] if f["id"] == "m1")
    x, y, _length = legal_spot(page, game_id, m1)
    token = json.loads(page.evaluate("localStorage.getItem('survive-us.tokens')"))[
        f"game:{game_id}"]
    moved = page.evaluate(
        """async ([id, token, body]) => (await fetch(`api/v1/games/${id}/actions`, {method:
        'POST', headers: {'Content-Type': 'application/json', Authorization: `Bearer ${token}`},
        body: JSON.stringify(body)})).status""",
        [game_id, token, {"version": 0, "action": {"type": "move", "figure": "m1", "to": [x, y]}}])
    assert moved == 200
    page.reload()
    page.wait_for_selector("#ai-play")
    page.select_option("#auto-pace", "500")
    page.click("#auto-play")
    expect(page.locator("#auto-on")).to_be_visible()
    # the zombies play on their own until the survivors decide, then it stops by itself
    page.wait_for_function(
        "document.querySelector('#to-act') && !document.querySelector('#auto-on')"
        " && !document.querySelector('#ai-play')", timeout=60_000)
    after = state_of(page, game_id)
    assert after["deciding"] == "survivors" and after["version"] >= 2
    expect(page.locator("#readout")).to_contain_text("The zombies are done")
    page.context.close()


def test_a_new_turn_is_announced_with_the_action_points(browser: Browser, base_url: str) -> None:
    page = new_page(browser)
    page.goto(base_url + "#/")
    made = api(page, "POST", "/games", {"scenario": "nettoyage", "seed": 1,
                                        "settings": {"allow_pass": True}})
    page.goto(base_url + f"#/game/{made['id']}?token={made['token']}")
    page.wait_for_selector("[data-figure-id]")
    version = 0
    while state_of(page, made["id"])["state"]["turn"] == 1:  # the sides give up: turn ends
        version = page.evaluate(
            """async ([id, token, body]) => (await (await fetch(`api/v1/games/${id}/actions`,
            {method: 'POST', headers: {'Content-Type': 'application/json', Authorization:
            `Bearer ${token}`}, body: JSON.stringify(body)})).json()).version""",
            [made["id"], made["token"], {"version": version,
                                         "action": {"type": "end_activations"}}])
    game = state_of(page, made["id"])
    assert game["state"]["turn"] == 2
    pools = game["state"]["pools"]
    expect(page.locator(".notice.info")).to_contain_text(
        f"Turn 2: Survivors {pools['survivors']} AP · Zombies {pools['zombies']} AP")
    page.context.close()
