"""Nothing changes in what is played: the seeded whole games of `tests/golden/played`
(recorded by its `make_played.py` with the engine as it stood before issue 24) are played
again by the same players from the same seeds, and every action, every die and every note
must come out the same, and the end state too.

The suite plays every game of greedy and random players, the tactician's of one seed and
the hard tactician's of two cards (they take longest); set `SURVIVE_US_PLAYED=all` to play
every one (`make played`).
"""

from __future__ import annotations

import gzip
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent / "golden" / "played"
sys.path.insert(0, str(HERE))
import make_played  # noqa: E402

HARD_IN_SUITE = ("escorte", "caisses")


def _in_suite(card: str, seed: int, zombies: str) -> bool:
    if zombies == "tactician:hard":
        return card in HARD_IN_SUITE and seed == make_played.SEEDS[0]
    return zombies != "tactician" or seed == make_played.SEEDS[0]


def _cases() -> list[Any]:
    out = []
    everything = os.environ.get("SURVIVE_US_PLAYED") == "all"
    for card, seed, zombies, survivors in make_played.games():
        name = make_played.file_name(card, seed, zombies, survivors)
        marks = []
        if not everything and not _in_suite(card, seed, zombies):
            marks.append(pytest.mark.skip(reason="SURVIVE_US_PLAYED=all plays it"))
        out.append(pytest.param(name, marks=marks, id=name.removesuffix(".json.gz")))
    return out


def _saved(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(gzip.decompress((HERE / name).read_bytes()))
    return data


@pytest.mark.parametrize("name", _cases())
def test_the_same_game_is_played(name: str) -> None:
    saved = _saved(name)
    now = make_played.play(saved["card"], saved["seed"], saved["zombies"], saved["survivors"])
    for i, (was, got) in enumerate(zip(saved["log"], now["log"], strict=False)):
        assert got == was, f"log entry {i} differs: was {was}, now {got}"
    assert len(now["log"]) == len(saved["log"])
    assert now["result"] == saved["result"]
    assert now["final"] == saved["final"]
