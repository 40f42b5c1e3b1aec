"""An attacker's requests (issue 17, 1-3): oversized and quadratic requests are refused or
stopped at a budget, slow and malformed clients lock nobody out, event streams never take
every thread. The slow-client probes use raw sockets against a real `survive-us serve`
process; the budgets are tried on the app with small worker pools.

Clients are told apart by address: the attackers connect from other loopback addresses
(127.0.0.2 and up, which Linux routes to this machine) than the client they must not harm.
"""

from __future__ import annotations

import json
import math
import os
import socket
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

from bench.attack_load import checkerboard_png
from rules.limits import LIMITS
from service.workers import PoolSettings

ROOT = Path(__file__).resolve().parent.parent
EXE = ROOT / ".venv" / "bin" / "survive-us"
JSON = {"Content-Type": "application/json"}
THREADS = 12  # the test server's: 6 for event streams


# -- requests --------------------------------------------------------------------------------
def scattered_squares(n: int, paths: int) -> dict[str, Any]:
    """Small squares on a grid, every corner in sight of many others: the path-finder's worst
    terrain for its number of corners."""
    k = math.ceil(math.sqrt(n))
    step = 28 / k
    side = step * 0.3
    terrain = [{"id": f"q{i}", "kind": "polygon", "polygon": [
        [x, y], [x + side, y], [x + side, y + side], [x, y + side]]}
        for i in range(n) for x, y in [(2 + (i % k) * step, 2 + (i // k) * step)]]
    return {"scene": {"terrain": terrain,
                      "figures": [{"id": "s1", "side": "survivors", "x": 0.6, "y": 0.6}]},
            "questions": [{"ask": "path", "figure": "s1", "to": [30.8, 30.8 - 0.01 * i]}
                          for i in range(paths)]}


def crowd(n: int) -> list[dict[str, Any]]:
    return [{"id": f"f{i}", "side": "zombies", "x": 0.5 + (i % 300) * 0.1,
             "y": 0.5 + (i // 300) * 0.1, "base_mm": 1} for i in range(n)]


# -- a real server ---------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, int]]:
    """`survive-us serve` on a free port: (base URL, port, pid)."""
    db = tmp_path_factory.mktemp("attack") / "attack.sqlite3"
    port = _free_port()
    env = {**os.environ, "SURVIVE_US_HEADER_SECONDS": "2"}
    log = db.with_suffix(".log").open("wb")
    process = subprocess.Popen(
        [str(EXE), "serve", "--port", str(port), "--db", f"sqlite:///{db}",
         "--threads", str(THREADS)], env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/v1/bands", timeout=2).read()
            break
        except (urllib.error.URLError, OSError):
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                log.close()
                pytest.fail("survive-us serve did not start: "
                            + db.with_suffix(".log").read_text())
            time.sleep(0.2)
    yield base, port, process.pid
    process.terminate()
    process.wait(10)
    log.close()


def call(base: str, method: str, path: str, body: Any = None,
         timeout: float = 30) -> tuple[int, dict[str, str], Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers=JSON if data is not None else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"null")


def timed_get(base: str, path: str = "/api/v1/bands") -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(base + path, timeout=10) as answer:
        answer.read()
        assert answer.status == 200
    return time.perf_counter() - start


def raw(port: int, source: str = "127.0.0.1") -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def closed_by_server(s: socket.socket, wait: float) -> bool:
    s.settimeout(wait)
    try:
        return s.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


# -- 1. limits ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("request_body", "code", "where"), [
    ({"scene": {"figures": crowd(LIMITS.figures + 1)}, "questions": []},
     "limits.figures", "scene.figures"),
    (scattered_squares(LIMITS.corners // 4 + 1, 1), "limits.corners", "scene.terrain"),
    ({"scene": {"figures": [], "terrain": [{"id": "round", "kind": "polygon", "polygon": [
        [10 + 5 * math.cos(a / 50), 10 + 5 * math.sin(a / 50)] for a in range(314)]}]},
      "questions": []}, "limits.piece_corners", "scene.terrain[0]"),
    ({"scene": {"figures": crowd(2)}, "questions": [
        {"ask": "path", "figure": "f0", "to": [9, 9]}] * (LIMITS.paths + 1)},
     "limits.paths", "questions"),
    ({"scene": {"figures": crowd(2)}, "questions": [
        {"ask": "reach", "figure": "f0", "inches": 5}] * (LIMITS.regions + 1)},
     "limits.regions", "questions"),
    ({"scene": {"table": {"width": 500, "depth": 30}, "figures": []}, "questions": []},
     "limits.table", "scene.table.width"),
])
def test_a_request_over_a_limit_is_413_naming_it(server: tuple[str, int, int],
                                                 request_body: dict[str, Any], code: str,
                                                 where: str) -> None:
    base, _, _ = server
    status, _, body = call(base, "POST", "/api/v1/arbitrate?lang=fr", request_body)
    assert status == 413, body
    error = body["error"]
    assert error["code"] == "over_limit" and error["words"]["code"] == code
    assert error["where"] == where
    assert str(error["words"]["params"]["max"].__class__.__name__) in ("int", "float")
    assert "au plus" in error["message"] or "ne peut dépasser" in error["message"]


def test_the_cli_refuses_a_120000_figure_scene_with_exit_2(tmp_path: Path) -> None:
    scene = tmp_path / "crowd.json"
    scene.write_text(json.dumps({"scene": {"figures": crowd(120_000)},
                                 "questions": [{"ask": "activatable_zombies"}]}))
    done = subprocess.run([str(EXE), "arbitrate", str(scene)], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["where"] == "scene.figures"
    assert "120,000 figures" in done.stderr and "at most 300" in done.stderr


def test_the_spec_documents_the_limits_answers(server: tuple[str, int, int]) -> None:
    base, _, _ = server
    _, _, spec = call(base, "GET", "/openapi.json")
    op = spec["paths"]["/api/v1/arbitrate"]["post"]
    assert {"413", "429", "503"} <= set(op["responses"])


# -- budgets: quadratic work within the limits --------------------------------------------------
@pytest.fixture(scope="module")
def small_pools(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The app with one-worker pools and short budgets: the heavy requests below take 3.4 s
    (arbitration, budget 1 s) and 0.6 s (a checkerboard photo, budget 0.2 s) on a quiet
    machine, so they pass the budget on any machine."""
    from service.app import create_app

    db = tmp_path_factory.mktemp("pools") / "pools.sqlite3"
    app = create_app({
        "DATABASE_URL": f"sqlite:///{db}", "TESTING": True,
        "ARBITRATE_POOL": PoolSettings("test-arbitrate", size=1, waiting=0, per_client=4,
                                       wait=5.0, budget=1.0,
                                       preload=("service.explain", "scipy.sparse.csgraph")),
        "FRAME_POOL": PoolSettings("test-camera", size=1, waiting=0, per_client=1, wait=0.5,
                                   budget=0.2, preload=("service.camera_work",
                                                        "vision.locate"))})
    yield app
    from service.workers import pool

    pool(app.config["ARBITRATE_POOL"]).close()
    pool(app.config["FRAME_POOL"]).close()


def test_quadratic_paths_within_the_limits_stop_at_the_budget(small_pools: Any) -> None:
    """100 path questions among 160 scattered squares (640 corners, every limit met) take
    3-15 s: the worker stops at its budget with a 413 that says so, and takes work again."""
    client = small_pools.test_client()
    start = time.perf_counter()
    r = client.post("/api/v1/arbitrate", json=scattered_squares(160, 100))
    took = time.perf_counter() - start
    assert r.status_code == 413, r.json
    assert r.json["error"]["code"] == "over_budget"
    assert r.json["error"]["words"] == {"code": "limits.budget", "params": {"s": 1}}
    assert took < 15
    # the pool takes work again (on a loaded machine a fresh worker may still be starting:
    # a second try is allowed, a third is not)
    for _ in range(2):
        again = client.post("/api/v1/arbitrate", json=scattered_squares(4, 1))
        if again.status_code == 200:
            break
    assert again.status_code == 200, again.json
    assert again.json["answers"][0]["reachable"]


def test_a_full_pool_answers_503_with_retry_after(small_pools: Any) -> None:
    client = small_pools.test_client()
    answers: list[Any] = []

    def heavy() -> None:
        answers.append(client.post("/api/v1/arbitrate", json=scattered_squares(160, 100)))

    from service.workers import pool

    first = threading.Thread(target=heavy)
    first.start()
    busy = pool(small_pools.config["ARBITRATE_POOL"])
    while busy.in_use == 0 and first.is_alive():
        time.sleep(0.01)
    r = client.post("/api/v1/arbitrate", json=scattered_squares(4, 1))
    first.join()
    assert r.status_code == 503, r.json
    assert r.json["error"]["code"] == "busy" and int(r.headers["Retry-After"]) >= 1
    assert answers[0].status_code == 413


def test_a_checkerboard_photo_is_stopped_at_the_frame_budget(small_pools: Any) -> None:
    """A 1080p checkerboard of 16 px squares keeps the marker search busy (0.6 s on a quiet
    machine, 5.7 s on a loaded one): the worker is stopped at its budget, the request
    answered 413."""
    client = small_pools.test_client()
    game = client.post("/api/v1/games", json={"scenario": "nettoyage", "seed": 1}).json
    start = time.perf_counter()
    r = client.post(f"/api/v1/games/{game['id']}/frames", data=checkerboard_png(1920, 1080, 16),
                    headers={"Content-Type": "image/png",
                             "Authorization": f"Bearer {game['token']}"})
    assert r.status_code == 413, r.json
    assert r.json["error"]["code"] == "over_budget"
    assert time.perf_counter() - start < 12


# -- 3. slow and malformed clients, many streams, against `survive-us serve` -------------------
def test_half_sent_requests_lock_nobody_out(server: tuple[str, int, int]) -> None:
    base, port, _ = server
    slow = []
    for _ in range(100):
        s = raw(port, "127.0.0.2")
        s.sendall(b"GET /api/v1/bands HTTP/1.1\r\nHost: x\r\n")  # the headers never end
        slow.append(s)
    try:
        assert timed_get(base) < 1.0  # another client is served at once
        refused = sum(closed_by_server(s, 0.05) for s in slow)
        assert refused >= 100 - 64  # one address holds 64 connections at most
        time.sleep(3.5)  # the header deadline (2 s here, 15 s by default)
        assert all(closed_by_server(s, 0.05) for s in slow)
    finally:
        for s in slow:
            s.close()


def test_a_chunk_size_line_that_never_ends_is_400_at_once(server: tuple[str, int, int]) -> None:
    base, port, pid = server

    def cpu() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().split()
        return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")

    before = cpu()
    s = raw(port, "127.0.0.3")
    s.sendall(b"POST /api/v1/arbitrate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
              b"\r\nTransfer-Encoding: chunked\r\n\r\n")
    with pytest.raises(OSError):  # the server answers and closes while we still send
        for _ in range(5000):
            s.sendall(b"0" * 1000)
    s.settimeout(5)
    try:
        answer = s.recv(100)
    except OSError:
        answer = b"HTTP/1.1 400"  # reset before the answer could be read
    s.close()
    assert answer.startswith(b"HTTP/1.1 400")
    assert cpu() - before < 1.0
    assert timed_get(base) < 1.0


def test_event_streams_never_take_every_thread(server: tuple[str, int, int]) -> None:
    """Streams are capped at half the threads (6 of 12 here) and 8 an address: 429 and 503
    with Retry-After; other requests go on being answered at once."""
    base, port, _ = server
    _, _, game = call(base, "POST", "/api/v1/games", {"scenario": "nettoyage"})
    request = f"GET /api/v1/games/{game['id']}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    held: list[socket.socket] = []

    def open_stream(source: str) -> str:
        s = raw(port, source)
        s.sendall(request)
        s.settimeout(10)
        held.append(s)
        return s.recv(500).decode("latin-1")

    try:
        heads = [open_stream(f"127.0.2.{i}") for i in range(1, 7)]
        assert all(h.startswith("HTTP/1.1 200") for h in heads)
        refused = open_stream("127.0.2.7")
        assert refused.startswith("HTTP/1.1 503") and "Retry-After: 10" in refused
        assert timed_get(base, f"/api/v1/games/{game['id']}") < 1.0
    finally:
        for s in held:
            s.close()


def test_a_closed_stream_gives_its_slot_back_at_once(server: tuple[str, int, int]) -> None:
    """A browser that closes its stream (a page closed, a reload) frees its slot within a
    poll, so the page reopened at once is not refused (it waited up to 50 s for the next
    keep-alive to fail)."""
    base, port, _ = server
    _, _, game = call(base, "POST", "/api/v1/games", {"scenario": "nettoyage"})
    request = f"GET /api/v1/games/{game['id']}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode()

    def open_stream() -> tuple[socket.socket, str]:
        s = raw(port, "127.0.2.20")
        s.sendall(request)
        s.settimeout(10)
        return s, s.recv(500).decode("latin-1")

    time.sleep(1.5)  # the streams of the test before
    for _ in range(3):  # 6 streams in all here: 18 opened and closed in a few seconds
        streams: list[tuple[socket.socket, str]] = []
        try:
            streams += [open_stream() for _ in range(THREADS // 2)]
            assert all(head.startswith("HTTP/1.1 200") for _, head in streams), streams
        finally:
            for s, _ in streams:
                s.close()
        time.sleep(1.5)


def test_one_address_holds_at_most_8_streams(small_pools: Any) -> None:
    client = small_pools.test_client()
    game = client.post("/api/v1/games", json={"scenario": "nettoyage"}).json
    small_pools.config["SSE_LIFETIME"] = 0.0
    from service.api.stream import STREAMS

    releases = [STREAMS.open("127.0.0.9", 8, 100) for _ in range(8)]
    try:
        r = client.get(f"/api/v1/games/{game['id']}/events",
                       environ_base={"REMOTE_ADDR": "127.0.0.9"})
        assert r.status_code == 429 and r.headers["Retry-After"] == "10"
        assert r.json["error"]["code"] == "too_many_streams"
        r.close()
    finally:
        for release in releases:
            release()
    r = client.get(f"/api/v1/games/{game['id']}/events",
                   environ_base={"REMOTE_ADDR": "127.0.0.9"})
    assert r.status_code == 200
    r.close()
    assert STREAMS.by_client.get("127.0.0.9", 0) == 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))


def test_an_import_is_held_to_the_arbitration_limits(tmp_path: Path) -> None:
    """A record whose start holds more figures than any table needs is refused before its
    replay builds anything (413 over_limit, named where)."""
    from api_support import make_app, start_game

    client = make_app(tmp_path).test_client()
    game = start_game(client, "nettoyage", 3)
    export = client.get(f"/api/v1/games/{game['id']}/export",
                        headers={"Authorization": f"Bearer {game['token']}"}).json["export"]
    one = export["start"]["figures"][0]
    export["start"]["figures"] = [{**one, "id": f"x{n}", "x": 1 + n % 29, "y": 1 + n // 29}
                                  for n in range(400)]
    r = client.post("/api/v1/games/import", json={"export": export, "seed": 3})
    assert r.status_code == 413, r.json
    assert r.json["error"]["code"] == "over_limit"
    assert r.json["error"]["where"] == "export.start.figures"
