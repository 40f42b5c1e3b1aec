"""The command line, timed as a person or a script meets it: whole processes.

- Start-up: `survive-us arbitrate` with one sight question, from the process's start to
  its exit, beside a bare `python -c pass` and the plain sampling script's one question.
- End to end: the 10 x 100 sight questions of the benchmark table (1000 questions) through
  `survive-us arbitrate`, the whole process minus a one-question run (what the questions
  cost, start-up left out), beside a plain script that answers the same pairs by 17-ray
  sampling with shapely's vectorised predicates (`SAMPLING`, the usual shortcut), measured
  the same way.

Each figure is the median of `RUNS` runs, the runs of all four commands interleaved so a
busy moment of the machine falls on all of them alike. Python keeps compiled modules
(`PYTHONDONTWRITEBYTECODE` is cleared for these runs, as an installed package has them).
`python -m bench.cli_bench` prints the rows alone.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.geometry_bench import Row
from bench.http_bench import sight_request

RUNS = 9
TARGET_START_S = 0.25

# The peer: a plain script reading the same request file, answering each line_of_sight
# question by 17 rays from the observer's centre to points on the target's rim.
SAMPLING = r"""
import json, math, sys
import numpy as np
import shapely

RAYS = 17
request = json.load(open(sys.argv[1], encoding="utf-8"))
scene = request["scene"]
union = shapely.union_all([shapely.Polygon(t["polygon"]) for t in scene["terrain"]])
shapely.prepare(union)
where = {f["id"]: (f["x"], f["y"]) for f in scene["figures"]}
radius = 25 / 25.4 / 2
pairs = [(q["from"], q["to"]) for q in request["questions"]]
a = np.array([where[p] for p, _ in pairs], dtype=float)
b = np.array([where[q] for _, q in pairs], dtype=float)
phi = np.linspace(0.0, 2 * math.pi, RAYS, endpoint=False)
rim = b[:, None, :] + radius * np.stack((np.cos(phi), np.sin(phi)), axis=1)[None]
starts = np.broadcast_to(a[:, None, :], rim.shape)
lines = shapely.linestrings(np.stack((starts, rim), axis=2).reshape(-1, 2, 2))
clear = ~shapely.intersects(union, lines).reshape(len(pairs), RAYS)
answers = [{"visible": bool(c.any()), "fraction": float(c.mean())} for c in clear]
json.dump({"answers": answers}, sys.stdout, indent=2)
sys.stdout.write("\n")
"""


def _survive_us() -> list[str]:
    found = Path(sys.executable).with_name("survive-us")
    return [str(found)] if found.exists() else [sys.executable, "-m", "service"]


def _timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, check=False)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{command} failed: {done.stderr.decode()[-2000:]}")
    return took


def measure_processes(runs: int = RUNS) -> dict[str, float]:
    """Median seconds of each command (keys: bare, ours_one, ours_all, peer_one, peer_all)."""
    request = sight_request()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="survive-us-cli-") as name:
        folder = Path(name)
        whole, one = folder / "all.json", folder / "one.json"
        whole.write_text(json.dumps(request), encoding="utf-8")
        one.write_text(json.dumps({**request, "questions": request["questions"][:1]}),
                       encoding="utf-8")
        peer = folder / "sampling.py"
        peer.write_text(SAMPLING, encoding="utf-8")
        commands = {
            "bare": [sys.executable, "-c", "pass"],
            "ours_one": [*_survive_us(), "arbitrate", str(one)],
            "ours_all": [*_survive_us(), "arbitrate", str(whole)],
            "peer_one": [sys.executable, str(peer), str(one)],
            "peer_all": [sys.executable, str(peer), str(whole)],
        }
        for command in commands.values():  # compiled modules and catalogs cached
            _timed(command, env)
        times: dict[str, list[float]] = {key: [] for key in commands}
        for _ in range(runs):
            for key, command in commands.items():
                times[key].append(_timed(command, env))
    return {key: statistics.median(values) for key, values in times.items()}


def run() -> list[Row]:
    t = measure_processes()
    ours, peer = t["ours_all"] - t["ours_one"], t["peer_all"] - t["peer_one"]
    return [
        Row("`survive-us arbitrate`, one sight question: the whole process",
            f"<= {TARGET_START_S:g} s", f"{t['ours_one']:.3f} s",
            "bare `python -c pass`; the sampling script's one question",
            f"{t['bare']:.3f} s; {t['peer_one']:.3f} s",
            "imports only what the command needs (no scipy, Flask, SQLAlchemy, OpenCV or "
            "LightGBM); catalogs read from their cache"),
        Row("1000 sight questions end to end through `survive-us arbitrate` (process minus "
            "a one-question run)", "beat the sampling script", f"{ours:.3f} s",
            "plain 17-ray sampling script, same pairs, measured the same way", f"{peer:.3f} s",
            (f"{peer / ours:.1f}x faster" if ours < peer else f"{ours / peer:.1f}x slower")
            + f"; whole processes {t['ours_all']:.3f} s vs "
            f"{t['peer_all']:.3f} s; exact visible fractions and explanations vs 17 samples"),
    ]


if __name__ == "__main__":
    for row in run():
        print(f"| {row.what} | {row.target} | {row.ours} | {row.peer_name} | {row.peer} | "
              f"{row.note} |")
