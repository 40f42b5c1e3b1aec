"""HTTP benchmarks: the service under a real WSGI server (waitress, in a subprocess) with 20
concurrent clients on loopback, beside one client and the in-process Flask test client.

- apply-action: each client plays its own game, posting a planned sequence of legal actions
  (planned on the in-process app with the same seeds, so every post is accepted);
- a 10 x 100 line-of-sight arbitration (1000 questions, one request);
- requests per second.

Two loads: back to back (each client sends its next request as soon as the last one is
answered: the worst case) and at table pace (each client sends one request a second, the
clients' moments spread over the second: 20 tablets at 20 requests/s together, already far
faster than people play).
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
from pathlib import Path
from typing import Any

import numpy as np

from bench.geometry_bench import Row
from bench.tables import bench_figures, bench_terrain

CLIENTS = 20
STEPS = 12  # actions per game
SIGHT_REPEATS = 6  # 10 x 100 arbitrations per client
PACE = 1.0  # seconds between a paced client's requests (a player acts every few seconds)


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
    """`survive-us serve` (waitress, one process) or gunicorn with `workers` processes, on a
    free loopback port."""

    def __init__(self, folder: Path, workers: int = 0) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        db = f"sqlite:///{folder / f'serve{workers}.sqlite3'}"
        if workers:
            command = [str(Path(sys.executable).with_name("gunicorn")), "-w", str(workers),
                       "--threads", "4", "-b", f"127.0.0.1:{self.port}",
                       "service.app:create_app()"]
        else:
            command = [sys.executable, "-m", "service", "serve", "--host", "127.0.0.1",
                       "--port", str(self.port), "--db", db, "--threads", "8"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL,
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
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


class Client:
    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method: str, path: str, body: Any = None,
             token: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body)
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
               pace: float | None) -> tuple[list[float], float]:
    def work(i: int) -> list[float]:
        client, samples = Client(port), []
        if pace is not None:
            time.sleep(pace * i / clients)
        for _ in range(SIGHT_REPEATS):
            start = time.perf_counter()
            status, body = client.call("POST", "/api/v1/arbitrate", request)
            took = time.perf_counter() - start
            assert status == 200 and len(body["answers"]) == 1000
            samples.append(took)
            if pace is not None:
                time.sleep(max(0.0, pace - took))
        client.close()
        return samples

    return in_parallel(clients, work)


def ms(samples: list[float], q: float) -> str:
    return f"{float(np.quantile(samples, q)) * 1e3:.1f} ms"


def run() -> list[Row]:
    from rules.arbitration import arbitrate as one_by_one
    from service.arbitration import arbitrate as batched

    rows: list[Row] = []
    request = sight_request()
    with tempfile.TemporaryDirectory(prefix="survive-us-bench-") as name:
        folder = Path(name)
        seeds = list(range(CLIENTS))
        plans, local = plan_games(folder, range(CLIENTS + 1))
        server = Server(folder)
        try:
            one, one_wall = apply_load(server.port, plans, [CLIENTS], None)
            many, many_wall = apply_load(server.port, plans, seeds, None)
            paced, _ = apply_load(server.port, plans, seeds, PACE)
            s_one, s_one_wall = sight_load(server.port, request, 1, None)
            s_many, s_many_wall = sight_load(server.port, request, CLIENTS, None)
            s_paced, _ = sight_load(server.port, request, CLIENTS, PACE)
        finally:
            server.close()
        workers = max(2, os.cpu_count() or 2)
        server = Server(folder, workers)
        try:
            forked, forked_wall = apply_load(server.port, plans, seeds, None)
            s_forked, s_forked_wall = sight_load(server.port, request, CLIENTS, None)
        finally:
            server.close()
    direct = []
    for _ in range(10):
        start = time.perf_counter()
        batched(request)
        direct.append(time.perf_counter() - start)
    start = time.perf_counter()
    one_by_one(request)
    unbatched = time.perf_counter() - start
    cores = os.cpu_count()
    rows.append(Row(
        f"HTTP apply-action p95, {CLIENTS} clients at table pace (1 request / {PACE} s each)",
        "< 30 ms", ms(paced, 0.95), "1 client back to back (p95); in-process test client "
        "(p95)", f"{ms(one, 0.95)}; {ms(local, 0.95)}",
        f"waitress, 1 process x 8 threads, SQLite WAL synchronous=FULL, {cores} cores shared; "
        f"median {ms(paced, 0.5)}"))
    rows.append(Row(
        f"HTTP apply-action p95, {CLIENTS} clients back to back", "< 30 ms", ms(many, 0.95),
        "1 client back to back (p95)", ms(one, 0.95),
        f"{len(many) / many_wall:.0f} requests/s with {CLIENTS} clients vs "
        f"{len(one) / one_wall:.0f} with 1; median {ms(many, 0.5)}: the requests queue "
        "behind one process's GIL"))
    rows.append(Row(
        f"HTTP 10 x 100 line-of-sight arbitration p95, {CLIENTS} clients at table pace",
        "< 50 ms", ms(s_paced, 0.95), "1 client (p95); in process, batched (median); "
        "rules.arbitration one question at a time", f"{ms(s_one, 0.95)}; "
        f"{ms(direct, 0.5)}; {unbatched * 1e3:.0f} ms",
        f"1000 questions in one 69 KB request; median {ms(s_paced, 0.5)}"))
    rows.append(Row(
        f"HTTP 10 x 100 line-of-sight arbitration p95, {CLIENTS} clients back to back",
        "< 50 ms", ms(s_many, 0.95), "1 client back to back (p95)", ms(s_one, 0.95),
        f"{len(s_many) / s_many_wall:.1f} requests/s with {CLIENTS} clients vs "
        f"{len(s_one) / s_one_wall:.1f} with 1"))
    rows.append(Row(
        f"HTTP apply-action p95, {CLIENTS} clients back to back, gunicorn {workers} workers",
        "< 30 ms", ms(forked, 0.95), "waitress, 1 process (p95)", ms(many, 0.95),
        f"{len(forked) / forked_wall:.0f} requests/s vs {len(many) / many_wall:.0f}; "
        f"10 x 100 sight p95 {ms(s_forked, 0.95)}, {len(s_forked) / s_forked_wall:.1f} "
        "requests/s"))
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
