"""Crash safety: a worker applying actions is killed (SIGKILL) mid-stream; on restart every
action it acknowledged is in the database, the file passes `PRAGMA integrity_check`, and
each game replays from its log to the state the worker last answered."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from api_support import make_app

from service.storage.tables import events

CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[2])
from api_support import auth, make_app
from pathlib import Path

client = make_app(Path(sys.argv[1])).test_client()
seed = int(sys.argv[3])
while True:
    game = client.post("/api/v1/games", json={"scenario": "nettoyage", "seed": seed}).json
    seed += 1
    gid, token, version = game["id"], game["token"], 0
    while True:
        now = client.get(f"/api/v1/games/{gid}").json
        if now["terminal"]:
            break
        if now["deciding"] == "zombies":
            # easy: the heuristic alone, quick; the test is about what a kill loses
            r = client.post(f"/api/v1/games/{gid}/ai/play",
                            json={"version": version, "level": "easy"}, headers=auth(token))
        elif version % 7 == 6:
            r = client.post(f"/api/v1/games/{gid}/undo", json={"version": version},
                            headers=auth(token))
        else:
            listed = client.get(f"/api/v1/games/{gid}/actions").json["actions"]
            r = client.post(f"/api/v1/games/{gid}/actions",
                            json={"version": version, "action": listed[0]["action"]},
                            headers=auth(token))
        assert r.status_code == 200, r.json
        version = r.json["version"]
        state = r.json["game"]["state"]
        print(json.dumps({"game": gid, "version": version, "turn": state["turn"],
                          "figures": state["figures"]}), flush=True)
"""


def run_and_kill(folder: Path, seed: int, after: float) -> list[dict[str, Any]]:
    """Start the worker, read its acknowledgements for `after` seconds, SIGKILL it."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(folder), str(Path(__file__).parent), str(seed)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert child.stdout is not None
    acked: list[dict[str, Any]] = []
    os.set_blocking(child.stdout.fileno(), False)
    deadline = time.monotonic() + after + 20  # + start-up time
    started = None
    buffer = b""
    while time.monotonic() < deadline:
        chunk = child.stdout.read()
        if chunk:
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            acked += [json.loads(line) for line in lines if line]
            if started is None and acked:
                started = time.monotonic()
        if started is not None and time.monotonic() - started >= after:
            break
        if child.poll() is not None:
            assert child.stderr is not None
            raise AssertionError(f"the worker died by itself: {child.stderr.read()[-2000:]!r}")
        time.sleep(0.005)
    child.send_signal(signal.SIGKILL)
    child.wait(10)
    # what the worker printed between the last read and the kill is acknowledged too
    os.set_blocking(child.stdout.fileno(), True)
    *lines, _partial = (buffer + child.stdout.read()).split(b"\n")
    acked += [json.loads(line) for line in lines if line]
    child.stdout.close()
    assert child.stderr is not None
    child.stderr.close()
    return acked


@pytest.mark.slow
def test_sigkill_loses_no_acknowledged_action(tmp_path: Path) -> None:
    rng = random.Random(6)
    acked: list[dict[str, Any]] = []
    for round_ in range(2):
        acked += run_and_kill(tmp_path, seed=10 * round_, after=rng.uniform(1.0, 2.0))
    assert len(acked) > 20, "the worker acknowledged too little to test anything"

    app = make_app(tmp_path)  # the restart: migrations, then reads
    db = app.extensions["survive_us"].db
    assert db.integrity_ok()
    last: dict[str, dict[str, Any]] = {}
    for ack in acked:
        last[ack["game"]] = ack
    client = app.test_client()
    with db.read() as conn:
        for game_id, ack in last.items():
            seqs = [r.seq for r in conn.execute(sa.select(events.c.seq).where(
                events.c.game_id == game_id).order_by(events.c.seq))]
            assert seqs[:ack["version"]] == list(range(1, ack["version"] + 1))
    for game_id, ack in last.items():
        game = client.get(f"/api/v1/games/{game_id}").json
        assert game["version"] >= ack["version"]
        if game["version"] == ack["version"]:  # nothing committed after the last answer
            assert game["state"]["figures"] == ack["figures"]
        else:  # one action committed, the answer lost with the process: still replayable
            assert game["version"] == ack["version"] + 1
