"""Writes the played games in this folder: seeded whole games of every card, played by the
AI zombies (greedy, tactician, tactician:hard) against the survivor bot and the group
player, recorded with the engine as it stood before issue 24 rebuilt it as a forward model.

`tests/test_played_games.py` plays the same seeds with the same players and checks that
every action, every die and every note comes out the same, and the end state too.

Run from the repository root: `.venv/bin/python tests/golden/played/make_played.py [--jobs K]`.
Re-running it writes today's games: the committed files are the reference, to be re-derived
only by a change that means to alter what is played (and says so).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import subprocess
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
CARDS = ("nettoyage", "evacuation", "escorte", "caisses", "convoi", "sauvetage", "refuge",
         "nuit", "remede", "helico")
ZOMBIES = ("greedy", "tactician", "tactician:hard")
SURVIVORS = ("bot", "group")
SEEDS = (24, 7)  # 24: the number; any seeds would do
# Survivors picking among the listed actions at random reach rules the bots never use
# (carrying, reviving, doors, skills), but their games depend on the order of the listing:
# recorded too, and re-derived only if a change means to alter that order (issue 24).
RANDOM = "random"


def games() -> list[tuple[str, int, str, str]]:
    """Every recorded game: (card, seed, zombie policy, survivor policy)."""
    return [(card, seed, z, s) for seed in SEEDS for card in CARDS for z in ZOMBIES
            for s in SURVIVORS] + [(card, SEEDS[0], "greedy", RANDOM) for card in CARDS]


def file_name(card: str, seed: int, zombies: str, survivors: str) -> str:
    return f"{card}_{seed}_{zombies.replace(':', '-')}_{survivors}.json.gz"


def rounded(data: Any) -> Any:
    """Floats to a billionth: a fresh install may compute the last bit of a float otherwise
    (tests/test_legacy_records.py)."""
    if isinstance(data, dict):
        return {k: rounded(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [rounded(v) for v in data]
    if isinstance(data, float):
        return round(data, 9)
    return data


def notes_digest(notes: list[Any]) -> str:
    """A short fingerprint of one entry's notes (what happened, as messages)."""
    text = json.dumps(rounded(notes), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def play(card: str, seed: int, zombies: str, survivors: str) -> dict[str, Any]:
    """One game played to its end, as it is recorded here."""
    from ai.simulate import play_out, start

    game = start(card, seed)
    result = play_out(game, seed, zombies, survivors)
    return {
        "card": card, "seed": seed, "zombies": zombies, "survivors": survivors,
        "result": {"winner": result.winner, "turns": result.turns, "actions": result.actions,
                   "casualties": result.casualties, "wounds": result.wounds,
                   "downs": result.downs},
        "log": [[rounded(e["action"]), e["dice"], notes_digest(e["notes"])] for e in game.log],
        "final": rounded(game.to_json()),
    }


def _write(job: tuple[str, int, str, str], commit: str) -> str:
    data = {"commit": commit, **play(*job)}
    path = HERE / file_name(*job)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    return f"{path.name}: {data['result']}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--missing", action="store_true", help="only games not yet written")
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    todo = [g for g in games() if not (args.missing and (HERE / file_name(*g)).exists())]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for line in pool.map(_write, todo, [commit] * len(todo)):
            print(line, flush=True)


if __name__ == "__main__":
    main()
