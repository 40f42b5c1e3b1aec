"""The page without its server (issue 15, point 6): installable, kept by a service worker,
saying "connection lost" instead of "Failed to fetch", and back on the server's version.

The browser test runs the real server as a subprocess (`survive-us serve`, on a free port in
8141-8149 and a temporary database), starts a game through the page, kills the server,
drags a figure and reloads the page while it is down, changes the game through the API
(the app on the same database, in this process), restarts the server on the same port and
database, and checks the page comes back at the server's version. The manifest and the
service worker's rules (never the API from the cache) are checked without the browser; the
worker's script runs under node when it is installed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM

from tests.api_support import auth, make_app

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
PORTS = range(8141, 8150)
CACHE = "survive-us-page-v1"


# --- the manifest and the service worker, without a browser -------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return make_app(tmp_path_factory.mktemp("offline-app")).test_client()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def style_colour(pattern: str) -> str:
    found = re.search(pattern, (WEB / "css" / "style.css").read_text(encoding="utf-8"))
    assert found, pattern
    return found.group(1).lower()


def served(client: Any, path: str) -> tuple[str, bytes]:
    """A file of the page as the app serves it: its type and its bytes."""
    with client.get(path) as answer:
        assert answer.status_code == 200, path
        return str(answer.mimetype), bytes(answer.data)


def test_the_manifest_is_served_valid_and_its_icons_load(client: Any) -> None:
    kind, data = served(client, "/manifest.webmanifest")
    assert kind == "application/manifest+json"
    manifest = json.loads(data)
    assert manifest["name"] == "Survive Us" and manifest["short_name"]
    assert manifest["start_url"] == "./" and manifest["display"] == "standalone"
    # the colours of the page: the top bar, and the page's background (--bg)
    assert manifest["theme_color"].lower() == style_colour(
        r"\.topbar \{[^}]*background: (#[0-9a-fA-F]{6})")
    assert manifest["background_color"].lower() == style_colour(r"--bg: (#[0-9a-fA-F]{6})")
    # what an installable page needs: 192 and 512 px icons, and one a launcher may mask
    sizes = set()
    for icon in manifest["icons"]:
        kind, data = served(client, "/" + icon["src"])
        assert kind == icon["type"], icon
        if icon["type"] == "image/png":
            width, height = png_size(data)
            assert icon["sizes"] == f"{width}x{height}", icon
            sizes.add((width, icon["purpose"]))
        else:
            assert b"<svg" in data and icon["sizes"] == "any"
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes
    # the page names it, and the worker and its module are served as scripts
    page = served(client, "/")[1].decode()
    assert '<link rel="manifest" href="manifest.webmanifest">' in page
    assert 'src="js/offline.js"' in page and 'href="css/connection.css"' in page
    for script in ("/sw.js", "/js/offline.js", "/js/connection.js", "/js/wakelock.js"):
        assert served(client, script)[0] == "text/javascript", script


# The worker's script in a sandbox: its fetch, install and message handlers against a fake
# cache and a network that is up or down; what it answered and what it kept.
SW_HARNESS = r"""
const fs = require("fs");
const vm = require("vm");
const ORIGIN = "http://127.0.0.1:8141";
const store = new Map();
const cache = {
  async put(key, response) { store.set(String(key.url || key), await response.clone().text()); },
  async match(key) {
    const k = String(key.url || key);
    return store.has(k) ? new Response(store.get(k), { status: 200 }) : undefined;
  },
};
let online = true;
const fetched = [];
async function network(input) {
  const url = typeof input === "string" ? input : input.url;
  fetched.push(url);
  if (!online) throw new TypeError("Failed to fetch");
  const r = new Response("network:" + url, { status: 200 });
  Object.defineProperty(r, "type", { value: "basic" });
  return r;
}
const handlers = {};
const self = {
  registration: { scope: ORIGIN + "/" },
  addEventListener: (type, fn) => { handlers[type] = fn; },
  skipWaiting: async () => {}, clients: { claim: async () => {} },
};
const context = vm.createContext({
  self, caches: { open: async () => cache, keys: async () => [], delete: async () => true },
  fetch: network, Request, Response, URL, Set, Map, Promise, console,
});
vm.runInContext(fs.readFileSync(process.argv[2], "utf8"), context);

async function ask(url, { method = "GET", accept = "*/*", mode = "cors" } = {}) {
  let answered = null;
  const waits = [];
  const request = { url: new URL(url, ORIGIN + "/").href, method, mode,
                    headers: new Headers({ Accept: accept }) };
  handlers.fetch({ request, respondWith: (p) => { answered = p; },
                   waitUntil: (p) => waits.push(p) });
  if (answered === null) return null; // the network, not the worker
  const response = await answered;
  return response.type === "error" ? "error" : await response.text();
}

(async () => {
  const out = {};
  let waits = [];
  handlers.install({ waitUntil: (p) => waits.push(p) });
  await Promise.all(waits);
  out.installed = [...store.keys()];
  out.api = await ask("api/v1/games/g1");
  out.stream = await ask("api/v1/games/g1/events?after=3", { accept: "text/event-stream" });
  out.post = await ask("js/main.js", { method: "POST" });
  out.spec = await ask("openapi.json");
  out.other = await ask("https://example.com/js/main.js");
  out.module_online = await ask("js/game.js");
  online = false;
  out.module_offline = await ask("js/game.js");
  out.api_offline = await ask("api/v1/games/g1");
  out.page_offline = await ask("/?campaign=c1", { mode: "navigate" });
  out.unknown_offline = await ask("js/never.js");
  online = true;
  waits = [];
  handlers.message({ data: { keep: [ORIGIN + "/api/v1/games/g1", ORIGIN + "/js/tools.js",
                                     "https://example.com/js/x.js", ORIGIN + "/docs"] },
                     waitUntil: (p) => waits.push(p) });
  await Promise.all(waits);
  out.kept = [...store.keys()];
  out.fetched = fetched;
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_service_worker_never_answers_the_api_from_its_cache(tmp_path: Path) -> None:
    harness = tmp_path / "harness.js"
    harness.write_text(SW_HARNESS, encoding="utf-8")
    run = subprocess.run(["node", str(harness), str(WEB / "sw.js")], capture_output=True,
                         text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    origin = "http://127.0.0.1:8141/"
    # installed: the page itself, its first modules, styles, catalogs, manifest and icons
    assert {origin, origin + "js/main.js", origin + "i18n/fr.json", origin + "css/style.css",
            origin + "manifest.webmanifest", origin + "icons/icon-192.png"} <= set(
        out["installed"])
    # the API, its event stream, a change, the server's other files, other origins: the
    # worker does not answer, the browser asks the network
    for name in ("api", "stream", "post", "spec", "other", "api_offline"):
        assert out[name] is None, name
    # the page's files: network first, the copy kept only when the server does not answer
    assert out["module_online"] == "network:" + origin + "js/game.js"
    assert out["module_offline"] == "network:" + origin + "js/game.js"
    assert out["page_offline"] == "network:" + origin  # the page, whatever its query
    assert out["unknown_offline"] == "error"
    # what the page hands it to keep: only its own files
    assert origin + "js/tools.js" in out["kept"]
    for url in out["kept"] + out["installed"]:
        assert "/api/" not in url and url.startswith(origin) and "/docs" not in url, url
    assert not any("/api/" in url for url in out["fetched"])


# --- the page with the server killed and restarted -----------------------------------------


def free_port() -> int:
    for port in PORTS:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    pytest.skip("no free port in 8141-8149")


class Server:
    """`survive-us serve` in a subprocess, stopped (killed) and started again on the same
    port and database."""

    def __init__(self, port: int, db: Path) -> None:
        self.port, self.db = port, db
        self.base = f"http://127.0.0.1:{port}/"
        self.process: subprocess.Popen[bytes] | None = None

    def launch(self) -> None:
        command = ROOT / ".venv" / "bin" / "survive-us"
        program = [str(command)] if command.exists() else [sys.executable, "-m", "service"]
        self.process = subprocess.Popen(
            [*program, "serve", "--port", str(self.port), "--db", str(self.db)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self) -> None:
        """Launch it (unless it is on its way) and wait until it answers."""
        if self.process is None:
            self.launch()
        assert self.process is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, "the server stopped at start"
            try:
                with urllib.request.urlopen(self.base + "api/v1/bands", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                time.sleep(0.2)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)  # as a crash or a pulled plug
            self.process.wait(10)
        self.process = None


@pytest.fixture(scope="module", autouse=True)
def booting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server | None]:
    """The server, launched before the module's first test (it takes seconds to start: the
    tests without a browser run meanwhile)."""
    if not CHROMIUM.exists() and not os.environ.get("CI"):
        yield None
        return
    running = Server(free_port(), tmp_path_factory.mktemp("offline") / "db.sqlite3")
    running.launch()
    yield running
    running.kill()


@pytest.fixture(scope="module")
def server(booting: Server | None) -> Server:
    if booting is None:
        pytest.skip("chromium is not installed (make test installs it)")
    booting.start()
    return booting


# A wake lock the test can watch (headless chromium refuses the real one).
FAKE_WAKE_LOCK = """
(() => {
  const wake = { requests: 0, held: false, current: null };
  window.__wake = wake;
  Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: {
    request: async (type) => {
      wake.requests += 1;
      const lock = new EventTarget();
      lock.type = type; lock.released = false;
      lock.release = async () => {
        if (lock.released) return;
        lock.released = true; wake.held = false;
        lock.dispatchEvent(new Event('release'));
      };
      wake.held = true; wake.current = lock;
      return lock;
    } } });
})();
"""

KEPT = """async () => {
  const cache = await caches.open('CACHE');
  return (await cache.keys()).map((r) => new URL(r.url).pathname);
}""".replace("CACHE", CACHE)

KEEPS = """async (wanted) => {
  const kept = await (KEPT)();
  return wanted.every((p) => kept.includes(p));
}""".replace("KEPT", KEPT)


def no_failed_fetch(page: Any) -> None:
    text = page.locator("body").inner_text()
    assert "Failed to fetch" not in text and "NetworkError" not in text, text


def test_the_page_survives_the_server_going_and_coming_back(browser: Any,
                                                            server: Server) -> None:
    from playwright.sync_api import expect

    from tests.test_web import legal_spot, new_page, start_game, state_of, table_point

    # the app on the server's database, to change the game while the server is down (it
    # takes a few seconds to build: built meanwhile)
    other: dict[str, Any] = {}
    builder = threading.Thread(target=lambda: other.update(app=make_app(
        server.db.parent, DATABASE_URL=f"sqlite:///{server.db}")), daemon=True)
    builder.start()
    page = new_page(browser)
    page.add_init_script(FAKE_WAKE_LOCK)
    game_id = start_game(page, server.base, seed=3)
    # the worker controls the page and keeps its files (the modules loaded before it came)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=15000)
    page.wait_for_function(KEEPS, arg=["/", "/js/game.js", "/js/gameapi.js", "/i18n/en.json",
                                       "/css/connection.css", "/icons/icon-192.png"],
                           timeout=15000)
    # chromium's own reading of the manifest, and what it says of installing the page (a
    # test browser's context is incognito: the one thing it may object)
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [] and json.loads(manifest["data"])["name"] == "Survive Us"
    installability = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert {e["errorId"] for e in installability} <= {"in-incognito"}, installability
    assert page.evaluate("window.__wake.held"), "the screen is kept awake on a game"
    token = json.loads(page.evaluate("localStorage.getItem('survive-us.tokens')"))[
        f"game:{game_id}"]
    game = state_of(page, game_id)
    m1 = next(f for f in game["state"]["figures"] if f["id"] == "m1")
    x, y, _ = legal_spot(page, game_id, m1)
    expect(page.locator("#log li")).to_have_count(1)

    # the server dies: the banner comes within a few seconds, and counts down
    changes: list[str] = []  # the changes the page sends
    page.on("request", lambda r: changes.append(r.url) if r.method != "GET" and "/actions"
            in r.url else None)
    server.kill()
    banner = page.locator("#connection")
    expect(banner).to_be_visible(timeout=6000)
    expect(banner).to_contain_text(re.compile(r"Connection lost — (retrying in \d+ s|trying)"))
    # a drag: the move is not played, and said so in words
    sx, sy = table_point(page, m1["x"], m1["y"])
    tx, ty = table_point(page, x, y)
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(tx, ty, steps=5)
    page.mouse.up()
    expect(page.locator("#notice")).to_contain_text("this change was not applied")
    page.click("[data-select='m2']")  # a tap still works on what the page holds
    no_failed_fetch(page)

    # a reload while it is down: the page from the worker's cache, with the banner
    page.reload()
    expect(page.locator(".topbar .brand")).to_be_visible()
    expect(page.locator(".topbar nav a").first).to_have_text("Games")  # its catalog too
    expect(banner).to_be_visible(timeout=6000)
    expect(banner).to_contain_text("Connection lost")
    no_failed_fetch(page)

    # meanwhile the game changes on the server (the app on the same database)
    builder.join(60)
    app = other["app"]
    with app.test_client() as client:
        played = client.post(f"/api/v1/games/{game_id}/actions", headers=auth(token), json={
            "version": 0, "action": {"type": "move", "figure": "m1", "to": [x, y]}})
        assert played.status_code == 200, played.json
    app.extensions["survive_us"].db.engine.dispose()

    # the server is back on the same port and database: the banner says so and goes, and
    # the page shows the game at the server's version (the move played meanwhile)
    sent = len(changes)
    server.start()
    expect(banner).to_contain_text("Connection back", timeout=10000)
    expect(page.locator("#log li")).to_have_count(2)
    drawn = page.get_attribute("[data-figure-id='m1']", "transform") or ""
    at = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", drawn)]
    assert at == pytest.approx([x, y], abs=0.02), drawn
    assert state_of(page, game_id)["version"] == 1
    assert len(changes) == sent, "the page sent a change again once the server was back"
    no_failed_fetch(page)
    expect(banner).to_be_hidden()
    # nothing of the API was kept by the worker
    kept = page.evaluate(KEPT)
    assert kept and not [p for p in kept if "/api/" in p], kept
    # leaving the game lets the screen sleep; back on a game it is kept awake again
    assert page.evaluate("window.__wake.held")
    page.evaluate("window.location.hash = '#/'")
    page.wait_for_function("!window.__wake.held")
    page.evaluate(f"window.location.hash = '#/game/{game_id}'")
    page.wait_for_function("window.__wake.held")
    # the browser lets it go when the page is hidden; it is asked again when shown
    requests = page.evaluate("window.__wake.requests")
    page.evaluate("""async () => { await window.__wake.current.release();
        document.dispatchEvent(new Event('visibilitychange')); }""")
    page.wait_for_function(f"window.__wake.held && window.__wake.requests === {requests + 1}")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
