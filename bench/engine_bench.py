"""Rules-engine benchmarks: legal actions and apply mid-game, and a whole random game."""

from __future__ import annotations

import random

from bench.geometry_bench import Row
from bench.timing import measure
from rules import legal
from rules.actions import Move
from rules.activity import activatable
from rules.errors import IllegalActionError
from rules.figures import zombie_of
from rules.game import Game
from rules.movement import plan_move
from rules.setup import deployment_spots, skirmish
from rules.warband import Roster
from scenarios.tables import table_data

EIGHT = Roster.from_json({"name": "bench eight", "members": [
    {"id": f"m{i}", "archetype": a, "skill": s, "equipment": e}
    for i, (a, s, e) in enumerate([
        ("ex_flic_h", "combattant", {"pistolet": 1, "balles": 2}),
        ("militaire_h", "violent", {"fusil": 1, "balles": 2, "katana": 1}),
        ("bourrin", "cogneur", {"barre_de_fer": 1}),
        ("medecin", "premiers_soins", {"soins": 1}),
        ("geek", "maline", {"fronde": 1}),
        ("junkie", "paume", {"baton": 1}),
        ("enfant", "agile", {}),
        ("ado_f", "agile", {"arc": 1, "fleches": 1}),
    ], start=1)]})


def mid_game(seed: int = 5) -> Game:
    """The street table, 8 survivors and 30 zombies, a turn and a half into the game."""
    data = table_data("street")
    survivors = [f for f in data["figures"] if f["side"] == "survivors"]
    zombies = [f for f in data["figures"] if f["side"] == "zombies"]
    scene = {**data, "figures": survivors + zombies}
    game = skirmish(scene, EIGHT, seed=seed, max_turns=10)
    extra = 30 - len(zombies)
    taken = [(f.x, f.y) for f in game.figures.values()]
    spots = deployment_spots({**data, "figures": []}, taken, [], extra, depth=28.0)
    spots = [p for p in spots if p[1] > 8.0] + [p for p in spots if p[1] <= 8.0]
    for i, (x, y) in enumerate(spots[:extra]):
        z = zombie_of("rodeur", f"x{i}", game.catalog, x, y)
        game.figures[z.id] = z
    game.moved()
    rng = random.Random(seed)
    while game.turn < 2 and not game.is_terminal:
        game.apply(rng.choice(game.legal_actions()))
    return game


def naive_legal_actions(game: Game) -> int:
    """The peer: every listed move planned in full (a route found) before it is offered."""
    count = 0
    for fig in activatable(game, game.to_act):
        for act in legal.figure_actions(game, fig):
            if isinstance(act, Move):
                game.plans = {}
                try:
                    plan_move(game, fig, act.to, act.toward, fig.move)
                except IllegalActionError:
                    continue
            count += 1
    return count


def run() -> list[Row]:
    game = mid_game()
    survivors = sum(1 for f in game.figures.values() if f.side == "survivors")
    zombies = sum(1 for f in game.figures.values() if f.is_zombie and f.on_table)

    def fresh_legal() -> int:
        game.moved()  # nothing cached from the previous call
        return len(game.legal_actions())

    ours = measure(fresh_legal, runs=20)
    peer = measure(lambda: naive_legal_actions(game), runs=5, warmup=1)
    actions = game.legal_actions()
    rng = random.Random(2)

    def apply_one() -> None:
        g = game.clone()
        g.apply(rng.choice(actions))

    clone_only = measure(lambda: game.clone(), runs=30)
    applied = measure(apply_one, runs=30)
    seeds = iter(range(10**6))

    def whole_game() -> Game:
        g = mid_game_free_start(next(seeds))
        r = random.Random(0)
        while not g.is_terminal:
            g.apply(r.choice(g.legal_actions()))
        return g

    played = measure(whole_game, runs=5, warmup=1)
    record = whole_game().export()
    replayed = measure(lambda: Game.replay(record), runs=5, warmup=1)
    return [
        Row(f"legal actions, mid-game ({survivors} survivors, {zombies} zombies, "
            f"{len(actions)} actions)", "< 2 ms", ours.ms(),
            "every move's route planned before listing", peer.ms(),
            f"{peer.median_s / ours.median_s:.0f}x faster"),
        Row("apply one legal action (on a clone)", "< 2 ms",
            f"{max(applied.median_s - clone_only.median_s, 0) * 1e3:.3f} ms "
            f"(+ {clone_only.ms()} to clone)", "—", "—",
            "random legal actions: moves, shots, melee, ending activations"),
        Row("whole random-play game (street, 8 survivors vs 13 zombies, 6 turns)", "< 0.5 s",
            played.ms(), "replaying the same game from its record", replayed.ms(),
            "replay re-checks every action"),
    ]


def mid_game_free_start(seed: int) -> Game:
    return skirmish(table_data("street"), EIGHT, seed=seed)
