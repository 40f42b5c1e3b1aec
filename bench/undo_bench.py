"""Undo through the API (`POST /games/ID/undo`, in process, SQLite): a take-back restores the
state kept before the action (service/live.py) instead of replaying the whole game under the
game's lock, as it did. Both in the same process on the same game: the live cache as served,
and one that keeps no states (`undo_depth=0`: every undo replays the log).

Each sample takes back the last action of a game `ENTRIES` log entries long and plays it
again with its dice (the redo is not timed). `python -m bench.undo_bench` prints the row.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.geometry_bench import Row

ENTRIES = 80  # log entries of the game taken back (the start, then first legal actions)
SAMPLES = 9


def _undo_times(client: Any, game: dict[str, Any], version: int, samples: int) -> list[float]:
    url, headers = f"/api/v1/games/{game['id']}", {"Authorization": f"Bearer {game['token']}"}
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        done = client.post(f"{url}/undo", json={"version": version}, headers=headers)
        times.append(time.perf_counter() - start)
        assert done.status_code == 200, done.get_json()
        taken = done.get_json()["undone"][0]
        again = client.post(f"{url}/actions", headers=headers,
                            json={"version": version + 1, **taken})
        assert again.status_code == 200, again.get_json()
        version += 2
    return times


def measure(entries: int = ENTRIES, samples: int = SAMPLES) -> dict[str, Any]:
    from service.app import create_app

    with tempfile.TemporaryDirectory(prefix="survive-us-undo-") as name:
        app = create_app({"DATABASE_URL": f"sqlite:///{Path(name) / 'undo.sqlite3'}"})
        client = app.test_client()
        game = client.post("/api/v1/games", json={"scenario": "nettoyage", "seed": 3}).get_json()
        url = f"/api/v1/games/{game['id']}"
        headers = {"Authorization": f"Bearer {game['token']}"}
        version, length = 0, 1
        while length < entries:
            listed = client.get(f"{url}/actions").get_json()["actions"]
            done = client.post(f"{url}/actions", headers=headers,
                               json={"version": version, "action": listed[0]["action"]})
            assert done.status_code == 200, done.get_json()
            version, length = done.get_json()["version"], length + 1
            if done.get_json()["game"]["terminal"]:
                break
        live = app.extensions["survive_us"].games
        kept = _undo_times(client, game, version, samples)
        version += 2 * samples
        live.undo_depth = 0  # the same worker keeping no states: each undo replays the log
        live._drop(game["id"])
        client.get(url)
        replayed = _undo_times(client, game, version, max(3, samples // 3))
        app.extensions["survive_us"].db.dispose()
    return {"entries": length, "kept": kept, "replayed": replayed}


def run() -> list[Row]:
    got = measure()
    ours, peer = statistics.median(got["kept"]), statistics.median(got["replayed"])
    return [Row(
        f"take back one action of a {got['entries']}-entry game (POST /undo, in process)",
        "cheap: no replay under the game's lock", f"{ours * 1e3:.1f} ms",
        "the same worker replaying the whole log (before: Game.undo)", f"{peer * 1e3:.1f} ms",
        f"{peer / ours:.0f}x faster; median of {len(got['kept'])} and "
        f"{len(got['replayed'])} take-backs; a state kept a game before each of its last 16 "
        "actions, 256 in all (about 70 KB each)")]


if __name__ == "__main__":
    for row in run():
        print(f"| {row.what} | {row.target} | {row.ours} | {row.peer_name} | {row.peer} | "
              f"{row.note} |")
