"""HTTP benchmarks: the service under a real WSGI server in a subprocess, with 20 concurrent
clients on loopback, beside one client and the in-process Flask test client.

- apply-action: each client plays its own game, posting a planned sequence of legal actions
  (planned on the in-process app with the same seeds, so every post is accepted);
- a 10 x 100 line-of-sight arbitration (1000 questions, one request);
- requests per second.

Two loads: at table pace (each client sends one request a second, the clients' moments spread
over the second: 20 tablets at 20 requests/s together, already far faster than people play)
and back to back (each client sends its next request as soon as the last one is answered: a
throughput test, where latency is the queue behind the server's cores).

Servers: `survive-us serve` (waitress, one process) with several `--threads` settings, and
gunicorn with one worker process per core (`service.wsgi:server_app()`). The client threads run
in this process, on the same shared cores, and the machine's load average is reported beside
the figures. `python -m bench.http_bench` prints the rows.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bench.geometry_bench import Row
from bench.tables import bench_figures, bench_terrain

CLIENTS = 20
STEPS = 12  # actions per game
SIGHT_REPEATS = 6  # 10 x 100 arbitrations per client
REFUSED: list[int] = []  # 429/503 answers met by the sight loads (the heavy-work pool full)
REFUSED_WAIT = 0.05  # seconds a refused client waits before asking again
PACE = 1.0  # seconds between a paced client's requests (a player acts every few seconds)
# `survive-us serve`'s default: each open page's event stream holds a thread while it is
# open, so the threads must outnumber the pages around a table (and a club's tables); 4
# threads are compared in the same run (fewer requests share the GIL at once).
THREADS = 64
OTHER_THREADS = (4,)  # compared in the same run
IN_PROCESS_REPEATS = 20


def sight_request() -> dict[str, Any]:
    terrain = bench_terrain()
    spots = bench_figures(terrain, 110)
    scene = {
        "terrain": [{"id": f"t{i}", "kind": "polygon",
                     "polygon": [[float(x), float(y)] for x, y in p.exterior.coords[:-1]]}
                    for i, p in enumerate(terrain)],
        "figures": [{"id": f"s{i}" if i < 10 else f"z{i}",
                     "side": "survivors" if i < 10 else "zombies",
                     "x": float(x), "y": float(y)} for i, (x, y) in enumerate(spots)]}
    questions = [{"ask": "line_of_sight", "from": f"s{i}", "to": f"z{j}"}
                 for i in range(10) for j in range(10, 110)]
    return {"scene": scene, "questions": questions}


def plan_games(folder: Path, seeds: range) -> tuple[dict[int, list[dict[str, Any]]], list[float]]:
    """Play each seed's game in process (first legal action each time); answers the actions
    and the in-process apply latencies (Flask test client, same code, no server)."""
    from service.app import create_app

    client = create_app({"DATABASE_URL": f"sqlite:///{folder / 'plan.sqlite3'}"}).test_client()
    plans: dict[int, list[dict[str, Any]]] = {}
    latencies: list[float] = []
    for seed in seeds:
        game: dict[str, Any] = client.post("/api/v1/games", json={"scenario": "nettoyage",
                                                                   "seed": seed}).get_json()
        headers = {"Authorization": f"Bearer {game['token']}"}
        plans[seed] = []
        for version in range(STEPS):
            listed = client.get(f"/api/v1/games/{game['id']}/actions").get_json()["actions"]
            action: dict[str, Any] = listed[0]["action"]
            start = time.perf_counter()
            done = client.post(f"/api/v1/games/{game['id']}/actions",
                               json={"version": version, "action": action}, headers=headers)
            latencies.append(time.perf_counter() - start)
            assert done.status_code == 200, done.get_json()
            plans[seed].append(action)
    return plans, latencies


class Server:
    """`survive-us serve --threads N` (waitress, one process), or gunicorn with `workers`
    processes of 4 threads each, on a free loopback port. Every client here comes from
    127.0.0.1, so each address's share of the processor (service/fair_share.py) is off: this
    measures the server, not its fairness (bench/attack_load.py does)."""

    def __init__(self, folder: Path, *, threads: int = THREADS, workers: int = 0) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.label = (f"gunicorn {workers} workers x 4 threads" if workers
                      else f"waitress 1 process x {threads} threads")
        db = f"sqlite:///{folder / f'serve-{workers}-{threads}.sqlite3'}"
        if workers:
            command = [str(Path(sys.executable).with_name("gunicorn")), "-w", str(workers),
                       "--threads", "4", "-b", f"127.0.0.1:{self.port}",
                       'service.wsgi:server_app({"CLIENT_SHARE": 0})']
        else:
            command = [sys.executable, "-m", "service", "serve", "--host", "127.0.0.1",
                       "--port", str(self.port), "--db", db, "--threads", str(threads),
                       "--client-share", "0"]
        self.log = open(folder / f"server-{workers}-{threads}.log", "wb")  # noqa: SIM115
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT,
                                        env={**os.environ, "DATABASE_URL": db})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        self.close()
        raise RuntimeError("the server did not start")

    def close(self) -> None:
        """Stop the server; a server that died on its own is an error, its log shown."""
        died = self.process.poll()
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        self.log.close()
        if died is not None:
            text = Path(self.log.name).read_text(errors="replace")[-3000:]
            raise RuntimeError(f"{self.label} exited with status {died}:\n{text}")


class Client:
    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method: str, path: str, body: Any = None,
             token: str | None = None) -> tuple[int, Any]:
        """One request; `body` is JSON data, or bytes already encoded (the 69 KB sight
        request is encoded once, so the clients spend less of the shared cores)."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = body if body is None or isinstance(body, bytes) else json.dumps(body)
        self.conn.request(method, path, body=data, headers=headers)
        response = self.conn.getresponse()
        return response.status, json.loads(response.read() or b"null")

    def close(self) -> None:
        self.conn.close()


def in_parallel(count: int, work: Callable[[int], list[float]]) -> tuple[list[float], float]:
    """Run `work(i)` in `count` threads; all samples and the wall time."""
    out: list[list[float]] = [[] for _ in range(count)]
    errors: list[BaseException] = []
    barrier = threading.Barrier(count)

    def one(i: int) -> None:
        try:
            barrier.wait()
            out[i] = work(i)
        except BaseException as error:  # reported below, in the main thread
            errors.append(error)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    if errors:
        raise errors[0]
    return [s for samples in out for s in samples], wall


def apply_load(port: int, plans: dict[int, list[dict[str, Any]]], seeds: list[int],
               pace: float | None) -> tuple[list[float], float]:
    games: dict[int, dict[str, Any]] = {}
    setup = Client(port)
    for seed in seeds:
        status, games[seed] = setup.call("POST", "/api/v1/games",
                                         {"scenario": "nettoyage", "seed": seed})
        assert status == 201, games[seed]
    setup.close()

    def work(i: int) -> list[float]:
        seed = seeds[i]
        client, samples = Client(port), []
        game = games[seed]
        if pace is not None:  # players act at their own moments, not all together
            time.sleep(pace * i / len(seeds))
        for version, action in enumerate(plans[seed]):
            start = time.perf_counter()
            status, body = client.call("POST", f"/api/v1/games/{game['id']}/actions",
                                       {"version": version, "action": action}, game["token"])
            took = time.perf_counter() - start
            assert status == 200, body
            samples.append(took)
            if pace is not None:
                time.sleep(max(0.0, pace - took))
        client.close()
        return samples

    return in_parallel(len(seeds), work)


def sight_load(port: int, request: dict[str, Any], clients: int,
               pace: float | None, repeats: int = SIGHT_REPEATS) -> tuple[list[float], float]:
    encoded = json.dumps(request).encode()

    def work(i: int) -> list[float]:
        client, samples = Client(port), []
        if pace is not None:
            time.sleep(pace * i / clients)
        for _ in range(repeats):
            start = time.perf_counter()
            status, body = client.call("POST", "/api/v1/arbitrate", encoded)
            while status in (429, 503):  # heavy work is queued (docs/api.md, Limits): a
                REFUSED.append(status)   # polite client waits a moment and asks again
                time.sleep(REFUSED_WAIT)
                status, body = client.call("POST", "/api/v1/arbitrate", encoded)
            took = time.perf_counter() - start  # the wait counts: it is what a player waits
            assert status == 200 and len(body["answers"]) == 1000, body
            samples.append(took)
            if pace is not None:
                time.sleep(max(0.0, pace - took))
        client.close()
        return samples

    return in_parallel(clients, work)


def ms(samples: list[float], q: float) -> str:
    return f"{float(np.quantile(samples, q)) * 1e3:.1f} ms"


def load_average() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


@dataclass
class Measured:
    """One server's figures: latency samples (s) and requests per second, per load."""

    label: str
    samples: dict[str, list[float]] = field(default_factory=dict)
    rate: dict[str, float] = field(default_factory=dict)
    load: list[str] = field(default_factory=list)

    def add(self, name: str, got: tuple[list[float], float]) -> None:
        self.samples[name], wall = got
        self.rate[name] = len(got[0]) / wall

    def brief(self, name: str) -> str:
        got = self.samples[name]
        return (f"{self.label}: p95 {ms(got, 0.95)}, median {ms(got, 0.5)}, "
                f"{self.rate[name]:.0f} requests/s")


def measure(server: Server, plans: dict[int, list[dict[str, Any]]],
            request: dict[str, Any]) -> Measured:
    """Every load on one running server (a fresh set of games for each apply load)."""
    seeds = list(range(CLIENTS))
    out = Measured(server.label)
    out.load.append(load_average())
    # A warm-up (first requests import and prepare what later ones reuse).
    sight_load(server.port, request, 2, None, repeats=2)
    out.add("apply one", apply_load(server.port, plans, [CLIENTS], None))
    out.add("apply paced", apply_load(server.port, plans, seeds, PACE))
    out.add("apply b2b", apply_load(server.port, plans, seeds, None))
    out.add("sight one", sight_load(server.port, request, 1, None))
    out.add("sight paced", sight_load(server.port, request, CLIENTS, PACE))
    out.add("sight b2b", sight_load(server.port, request, CLIENTS, None))
    out.load.append(load_average())
    return out


def in_process(request: dict[str, Any], folder: Path) -> dict[str, list[float]]:
    """The same 10 x 100 request with no server: the Flask test client, the rules'
    `arbitrate` alone, and the questions answered one at a time (no batching)."""
    from geometry.space import Space
    from rules.arbitration import answer, arbitrate, read_request
    from service.app import create_app

    client = create_app({"DATABASE_URL": f"sqlite:///{folder / 'local.sqlite3'}"}).test_client()
    body = json.dumps(request)
    times: dict[str, list[float]] = {"client": [], "rules": [], "one by one": []}
    for _ in range(IN_PROCESS_REPEATS):
        start = time.perf_counter()
        got = client.post("/api/v1/arbitrate", data=body, content_type="application/json")
        times["client"].append(time.perf_counter() - start)
        assert got.status_code == 200
        start = time.perf_counter()
        arbitrate(request)
        times["rules"].append(time.perf_counter() - start)
    for _ in range(2):
        start = time.perf_counter()
        scene, questions = read_request(request)
        space = Space(scene)
        for i, q in enumerate(questions):
            answer(space, q, f"questions[{i}]")
        times["one by one"].append(time.perf_counter() - start)
    return times


def run() -> list[Row]:
    request = sight_request()
    results: list[Measured] = []
    with tempfile.TemporaryDirectory(prefix="survive-us-bench-") as name:
        folder = Path(name)
        plans, local = plan_games(folder, range(CLIENTS + 1))
        local_sight = in_process(request, folder)
        configs: list[dict[str, int]] = [{"threads": THREADS}]
        configs += [{"threads": t} for t in OTHER_THREADS]
        configs.append({"workers": max(2, os.cpu_count() or 2)})
        for config in configs:
            server = Server(folder, **config)
            try:
                results.append(measure(server, plans, request))
            finally:
                server.close()
    ours, others = results[0], results[1:]
    cores = os.cpu_count()
    where = (f"{ours.label} (serve's default: each open event stream holds a thread), SQLite "
             f"WAL synchronous=FULL, {cores} cores shared by other jobs; load average "
             f"(1/5/15 min) {ours.load[0]} before, {ours.load[1]} after")

    def compare(name: str) -> str:
        return "; ".join(m.brief(name) for m in others)

    rows = [
        Row(f"HTTP apply-action p95, {CLIENTS} clients at table pace (1 request / {PACE:g} s "
            "each)", "< 30 ms", ms(ours.samples["apply paced"], 0.95),
            "1 client back to back (p95); in-process test client (p95, median)",
            f"{ms(ours.samples['apply one'], 0.95)}; {ms(local, 0.95)}, {ms(local, 0.5)}",
            f"median {ms(ours.samples['apply paced'], 0.5)}; {where}. Same load on: "
            f"{compare('apply paced')}"),
        Row(f"HTTP apply-action p95, {CLIENTS} clients back to back", "< 30 ms",
            ms(ours.samples["apply b2b"], 0.95), "1 client back to back (p95)",
            ms(ours.samples["apply one"], 0.95),
            f"median {ms(ours.samples['apply b2b'], 0.5)}; {ours.rate['apply b2b']:.0f} "
            f"requests/s with {CLIENTS} clients vs {ours.rate['apply one']:.0f} with 1: every "
            f"client waits behind the other {CLIENTS - 1} (a throughput test: p95 is about "
            f"{CLIENTS} / requests per second). Same load on: {compare('apply b2b')}"),
        Row(f"HTTP 10 x 100 line-of-sight arbitration p95, {CLIENTS} clients at table pace",
            "< 50 ms", ms(ours.samples["sight paced"], 0.95),
            "1 client (p95); in process: test client (median), rules.arbitration alone "
            "(median), one question at a time without batching",
            f"{ms(ours.samples['sight one'], 0.95)}; {ms(local_sight['client'], 0.5)}, "
            f"{ms(local_sight['rules'], 0.5)}, {ms(local_sight['one by one'], 0.5)}",
            f"1000 questions in one 69 KB request; median {ms(ours.samples['sight paced'], 0.5)}"
            f"; {where}. Same load on: {compare('sight paced')}"),
        Row(f"HTTP 10 x 100 line-of-sight arbitration p95, {CLIENTS} clients back to back",
            "< 50 ms", ms(ours.samples["sight b2b"], 0.95), "1 client back to back (p95)",
            ms(ours.samples["sight one"], 0.95),
            f"median {ms(ours.samples['sight b2b'], 0.5)}; {ours.rate['sight b2b']:.1f} "
            f"requests/s with {CLIENTS} clients vs {ours.rate['sight one']:.1f} with 1. "
            f"Same load on: {compare('sight b2b')}. A 1000-question request is heavy work, "
            f"queued in the arbitration pool (docs/api.md, Limits): the sight loads met "
            f"{len(REFUSED)} refusals (429/503), each waited {REFUSED_WAIT * 1e3:.0f} ms and "
            f"asked again, the wait counted in the times"),
    ]
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
