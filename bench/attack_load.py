"""50 clients at table pace beside one attacker (issue 17, done means): `python -m
bench.attack_load [--clients 50] [--seconds 60] [--port 8151]`.

Starts `survive-us serve` on a fresh SQLite file, then for `--seconds`:

- each client (its own loopback address, 127.0.3.N, one keep-alive connection) sends one
  request a second, in turn: a game, its zone, its legal actions, its base contacts;
- the attacker (127.0.0.66) sends the worst requests within the limits without pause: an
  arbitration of 100 paths among 160 scattered squares (640 corners, stopped at the 10 s
  budget), the costliest arbitration still answered on a request thread (200 lines of sight
  over 64 corners), checkerboard photos (a marker search of seconds), and holds 64
  half-sent requests and 8 event streams; on a game of its own where the zombies decide,
  it asks the hard AI's suggestion (up to a second of processor on a request thread) again
  and again.

Prints the clients' p50/p95/max latency, errors, the attacker's answers by status, and the
memory (RSS) of the server and its workers at the start and every 5 s. `make bench` writes
its row (`run`): 60 s beside the attacker, and 30 s of the same clients alone as the peer.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.geometry_bench import Row

ROOT = Path(__file__).resolve().parent.parent


def _squares(n: int) -> list[dict[str, Any]]:
    k = math.ceil(math.sqrt(n))
    step = 28 / k
    side = step * 0.3
    return [{"id": f"q{i}", "kind": "polygon", "polygon": [
        [x, y], [x + side, y], [x + side, y + side], [x, y + side]]}
        for i in range(n) for x, y in [(2 + (i % k) * step, 2 + (i // k) * step)]]


def heavy_paths() -> dict[str, Any]:
    return {"scene": {"terrain": _squares(160), "figures": [
        {"id": "s1", "side": "survivors", "x": 0.6, "y": 0.6}]},
        "questions": [{"ask": "path", "figure": "s1", "to": [30.8, 30.8 - 0.01 * i]}
                      for i in range(100)]}


def inline_sight() -> dict[str, Any]:
    figures = [{"id": f"f{i}", "side": "survivors" if i < 10 else "zombies",
                "x": 0.6 + (i % 55) * 0.55, "y": 0.6 if i < 55 else 30.9, "base_mm": 10}
               for i in range(100)]
    return {"scene": {"terrain": _squares(16), "figures": figures},
            "questions": [{"ask": "line_of_sight", "from": f"f{a}", "to": f"f{10 + b}"}
                          for a in range(10) for b in range(20)]}



def checkerboard_png(width: int, height: int, square: int) -> bytes:
    """A grey PNG checkerboard: thousands of marker-like quads for the corner search."""
    row = bytes(((x // square) % 2) * 255 for x in range(width))
    other = bytes(255 - b for b in row)
    raw = b"".join(b"\x00" + (row if (y // square) % 2 == 0 else other) for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8,
                                                             0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def rss_mb(pid: int) -> float:
    """RSS of `pid` and its children, in MB."""
    total = 0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


class Client(threading.Thread):
    def __init__(self, n: int, port: int, game: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.n, self.port, self.game, self.stop = n, port, game, stop
        self.times: list[float] = []
        self.errors = 0

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30,
                                          source_address=(f"127.0.3.{self.n + 1}", 0))
        paths = [f"/api/v1/games/{self.game}", f"/api/v1/games/{self.game}/zone",
                 f"/api/v1/games/{self.game}/actions", f"/api/v1/games/{self.game}/engaged"]
        i = self.n
        next_at = time.monotonic() + (self.n % 10) / 10
        while not self.stop.is_set():
            time.sleep(max(0.0, next_at - time.monotonic()))
            next_at += 1.0
            start = time.perf_counter()
            try:
                conn.request("GET", paths[i % len(paths)])
                answer = conn.getresponse()
                answer.read()
                if answer.status != 200:
                    self.errors += 1
            except (OSError, http.client.HTTPException):
                self.errors += 1
                conn.close()
            self.times.append(time.perf_counter() - start)
            i += 1


def zombies_deciding(base: str, game: dict[str, Any]) -> bytes:
    """Play `game`'s survivors' first choices until the zombies decide; the body of the hard
    AI's suggestion then."""
    def call(method: str, path: str, body: Any = None) -> Any:
        request = urllib.request.Request(
            base + path, method=method, data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json",
                     "Authorization": f"Bearer {game['token']}"})
        return json.load(urllib.request.urlopen(request))

    for _ in range(50):
        now = call("GET", f"/api/v1/games/{game['id']}")
        if now["deciding"] == "zombies":
            return json.dumps({"version": now["version"], "level": "hard"}).encode()
        listed = call("GET", f"/api/v1/games/{game['id']}/actions")["actions"]
        call("POST", f"/api/v1/games/{game['id']}/actions",
             {"version": now["version"], "action": listed[0]["action"]})
    raise RuntimeError("the zombies never decide")


def attacker(port: int, game: dict[str, Any], own: dict[str, Any], stop: threading.Event,
             seen: Counter[str]) -> list[threading.Thread]:
    heavy = json.dumps(heavy_paths()).encode()
    suggest = zombies_deciding(f"http://127.0.0.1:{port}", own)
    sight = json.dumps(inline_sight()).encode()
    photo = checkerboard_png(1920, 1080, 16)

    def loop(method: str, path: str, body: bytes, kind: str, label: str) -> None:
        while not stop.is_set():
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60,
                                              source_address=("127.0.0.66", 0))
            try:
                conn.request(method, path, body, {"Content-Type": kind,
                                                  "Authorization": f"Bearer {game['token']}"})
                answer = conn.getresponse()
                answer.read()
                seen[f"{label} {answer.status}"] += 1
                if answer.status in (429, 503):
                    time.sleep(0.2)
            except (OSError, http.client.HTTPException) as error:
                seen[f"{label} {type(error).__name__}"] += 1
            finally:
                conn.close()

    def hold() -> None:
        held = []
        for _ in range(64):
            s = socket.socket()
            s.bind(("127.0.0.67", 0))
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET /api/v1/bands HTTP/1.1\r\nHost: x\r\n")
            held.append(s)
        for _ in range(8):
            s = socket.socket()
            s.bind(("127.0.0.66", 0))
            s.connect(("127.0.0.1", port))
            s.sendall(f"GET /api/v1/games/{game['id']}/events HTTP/1.1\r\nHost: x\r\n\r\n"
                      .encode())
            held.append(s)
        while not stop.is_set():  # slowloris: a byte now and then, connections renewed
            time.sleep(1)
            for s in held[:64]:
                try:
                    s.sendall(b"X")
                except OSError:
                    seen["slow closed by server"] += 1
                    held.remove(s)
                    t = socket.socket()
                    t.bind(("127.0.0.67", 0))
                    t.connect(("127.0.0.1", port))
                    t.sendall(b"GET /api/v1/bands HTTP/1.1\r\nHost: x\r\n")
                    held.insert(0, t)
        for s in held:
            s.close()

    threads = [
        threading.Thread(target=loop, args=("POST", "/api/v1/arbitrate", heavy,
                                            "application/json", "paths"), daemon=True),
        threading.Thread(target=loop, args=("POST", "/api/v1/arbitrate", sight,
                                            "application/json", "sight"), daemon=True),
        threading.Thread(target=loop, args=("POST", f"/api/v1/games/{game['id']}/frames",
                                            photo, "image/png", "photo"), daemon=True),
        threading.Thread(target=loop, args=("POST", f"/api/v1/games/{own['id']}/ai/suggest",
                                            suggest, "application/json", "ai"), daemon=True),
        threading.Thread(target=hold, daemon=True)]
    for t in threads:
        t.start()
    return threads


@dataclass
class Load:
    """What the clients saw (seconds, sorted), the attacker's answers, the memory (MB)."""

    times: list[float]
    errors: int
    seen: Counter[str]
    memory: list[float]

    def p(self, share: float) -> float:
        return self.times[int(share * (len(self.times) - 1))]


def load(clients: int, seconds: float, port: int, attack: bool) -> Load:
    """`survive-us serve` on a fresh SQLite file, `clients` at table pace for `seconds`,
    beside the attacker when `attack`."""
    folder = tempfile.mkdtemp(prefix="attack-load-")
    log = open(os.path.join(folder, "serve.log"), "wb")  # noqa: SIM115
    server = subprocess.Popen([str(ROOT / ".venv/bin/survive-us"), "serve", "--port",
                               str(port), "--db", f"sqlite:///{folder}/load.sqlite3"],
                              stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/v1/bands", timeout=2).read()
                break
            except OSError:
                time.sleep(0.3)
        time.sleep(5)  # the worker pools warm up
        games = []
        for seed in range(6):  # the sixth is the attacker's own
            request = urllib.request.Request(
                base + "/api/v1/games", data=json.dumps({"scenario": "nettoyage",
                                                         "seed": seed}).encode(),
                headers={"Content-Type": "application/json"})
            games.append(json.load(urllib.request.urlopen(request)))
        stop = threading.Event()
        seen: Counter[str] = Counter()
        memory = [rss_mb(server.pid)]
        table = [Client(n, port, games[n % 5]["id"], stop) for n in range(clients)]
        for c in table:
            c.start()
        if attack:
            attacker(port, games[0], games[5], stop, seen)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            time.sleep(5)
            memory.append(rss_mb(server.pid))
        stop.set()
        for c in table:
            c.join(35)
        times = sorted(t for c in table for t in c.times[2:])  # after each one's first
        return Load(times, sum(c.errors for c in table), seen, memory)
    finally:
        server.terminate()
        server.wait(20)
        log.close()


def run(port: int = 8151) -> list[Row]:
    """`make bench`'s row: 50 clients for 60 s beside the attacker, and for 30 s alone."""
    hit = load(50, 60.0, port, attack=True)
    alone = load(50, 30.0, port + 1, attack=False)
    half = len(hit.memory) // 2
    return [Row(
        "50 clients at table pace (game, zone, actions, contacts) beside one attacker "
        "(bench/attack_load.py)", "p95 < 30 ms, memory flat",
        f"p95 {hit.p(0.95) * 1e3:.1f} ms, median {hit.p(0.5) * 1e3:.1f} ms, "
        f"{hit.errors} errors",
        "the same clients without the attacker (p95, median)",
        f"{alone.p(0.95) * 1e3:.1f} ms, {alone.p(0.5) * 1e3:.1f} ms",
        f"server and workers {hit.memory[0]:.0f} MB before, "
        f"{min(hit.memory[half:]):.0f}-{max(hit.memory[half:]):.0f} MB over the last 30 s; "
        f"attacker's answers {dict(sorted(hit.seen.items()))}")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--port", type=int, default=8151)
    parser.add_argument("--no-attacker", action="store_true")
    args = parser.parse_args()
    got = load(args.clients, args.seconds, args.port, not args.no_attacker)
    print(f"clients {args.clients} for {args.seconds:.0f} s, attacker "
          f"{'off' if args.no_attacker else 'on'}: {len(got.times)} requests, "
          f"{got.errors} errors; p50 {got.p(0.5) * 1e3:.1f} ms, p95 "
          f"{got.p(0.95) * 1e3:.1f} ms, max {got.times[-1] * 1e3:.0f} ms")
    print("attacker's answers:", dict(sorted(got.seen.items())))
    print(f"server + workers RSS: {got.memory[0]:.0f} MB at the start, every 5 s: "
          + ", ".join(f"{m:.0f}" for m in got.memory[1:]))
    with open("/proc/loadavg") as average:
        print("load average:", average.read().split()[:3])
    return 0


if __name__ == "__main__":
    sys.exit(main())
