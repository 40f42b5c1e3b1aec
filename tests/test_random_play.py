"""Random legal play: seeded games never crash, never break an invariant, and replay exactly.

The default run plays a few dozen games; `make soak` (SOAK_GAMES=2000) plays thousands.
"""

from __future__ import annotations

import os
import random

import pytest
import shapely

from geometry.units import base_radius
from rules.game import Game
from rules.settings import Settings
from rules.setup import skirmish, zombie_war
from rules.warband import example_bands
from scenarios.tables import table_data, table_names

GAMES = int(os.environ.get("SOAK_GAMES", "36"))
SETTINGS = [
    {},
    {"two_ap_reaction": "before", "leave_melee_free_attack": False},
    {"two_ap_reaction": "off", "ap_pool_counts": "all", "melee_ap_cap": "one"},
    {"down_survivor_death": "never", "self_heal": False, "revive_needs_healing_item": True},
]


def check_invariants(game: Game) -> None:
    assert all(ap >= 0 for ap in game.pools.values()), game.pools
    on_table = [f for f in game.figures.values() if f.on_table]
    blockers = [t.footprint for t in game.terrain if t.movement_blocking]
    for f in on_table:
        r = base_radius(f.base_mm)
        assert r - 1e-6 <= f.x <= game.table.width - r + 1e-6, f.id
        assert r - 1e-6 <= f.y <= game.table.depth - r + 1e-6, f.id
        for b in blockers:
            assert shapely.distance(b, shapely.Point(f.x, f.y)) >= r - 1e-6, (f.id, "terrain")
        assert 0 <= f.pv <= f.wounds
    for i, a in enumerate(on_table):
        for b in on_table[i + 1:]:
            gap = ((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5 - base_radius(
                a.base_mm) - base_radius(b.base_mm)
            assert gap >= -1e-6, (a.id, b.id, gap)


def play(seed: int) -> Game:
    tables, bands = table_names(), example_bands()
    table = tables[seed % len(tables)]
    band = sorted(bands)[seed // len(tables) % len(bands)]
    settings = Settings.from_json(SETTINGS[seed % len(SETTINGS)])
    if seed % 6 == 5:  # one game in six is "Guerre en territoire zombie"
        rival = sorted(bands)[(seed + 1) % len(bands)]
        game = zombie_war(table_data(table), bands[band], bands[rival], seed=seed,
                          settings=settings, max_turns=4)
    else:
        game = skirmish(table_data(table), bands[band], seed=seed, settings=settings,
                        max_turns=4)
    rng = random.Random(seed)
    for _ in range(3000):
        if game.is_terminal:
            break
        actions = game.legal_actions()
        assert actions, "a live game always offers something (at least to end activations)"
        game.apply(rng.choice(actions))
        check_invariants(game)
    assert game.is_terminal
    return game


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_game(seed: int) -> None:
    game = play(seed)
    again = Game.replay(game.export())
    assert again.to_json() == game.to_json()


def test_replaying_a_record_twice_leaves_it_untouched() -> None:
    """Regression: replays once shared the record's dicts and used up its ammunition."""
    record = play(1).export()
    first = Game.replay(record).to_json()
    assert Game.replay(record).to_json() == first


def test_undo_takes_back_exactly_the_last_action() -> None:
    game = play_some(5, steps=25)
    before = game.to_json()
    game.apply(random.Random(9).choice(game.legal_actions()))
    game.undo()
    assert game.to_json() == before


def play_some(seed: int, steps: int) -> Game:
    game = skirmish(table_data("street"), example_bands()["la_zone"], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_terminal:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game
