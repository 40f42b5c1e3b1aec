"""The page's tools answer as the engine judges (issue 15, point 2): on positions reached by
random legal play under every weather and every rule module, the sight tool's visible
enemies within a weapon's range are exactly the engine's shooting candidates, the contact
tool's pairs are the engine's contacts between enemies, and the route tool's verdict is the
engine's. A tool that hides an
enemy only because of the weather says so.
"""

from __future__ import annotations

import math
import random

import pytest

from rules import legal
from rules.actions import Move
from rules.attacks import has_ammo, shooting_answer
from rules.errors import IllegalActionError
from rules.game import Game
from rules.settings import Settings
from scenarios.modules import MODULES
from scenarios.play import start_scenario
from scenarios.play_policy import RandomPolicy
from service.api.game_views import engaged_pairs, sight_view

WEATHERS = ["clear", "rain", "fog", "night"]
# a card for each weather; the longest night is the card with lit zones
CASES = [("nettoyage", w, ()) for w in WEATHERS] + [("nuit", "night", ())] + [
    ("nettoyage", "fog", (m,)) for m in MODULES]


def _compare(game: Game) -> tuple[int, int]:
    """Checks every tool against the engine once; the number of shots judged, and of
    enemies in a line of sight that only the weather hides."""
    judged = limited = 0
    figures = [f for f in game.figures.values() if f.on_table]
    for fig in figures:
        if fig.is_zombie:
            continue
        view = {e["id"]: e for e in sight_view(game, fig.id, "en")["enemies"]}
        factor = game.referee.range_factor(game) if game.referee is not None else 1.0
        for weapon, item in ((w, game.catalog.equipment[w]) for w in fig.items):
            if item.range is None or not has_ammo(game, fig, weapon):
                continue
            reach = item.range * factor
            engine = set(shooting_answer(game, fig, item.range)["candidates"])
            tool = {z for z, e in view.items() if e["visible"] and e["inches"] <= reach + 1e-4
                    and game.figures[z].is_zombie}
            assert tool == engine, (fig.id, weapon, tool ^ engine)
            judged += len(view)
        for e in view.values():
            if "limited_by" in e:
                limited += 1
                assert not e["visible"] and e["limited_by_words"]["code"].startswith(
                    "scenario.sight.beyond")
    pairs = {tuple(p) for p in engaged_pairs(game)}
    for a in figures:
        for b in figures:
            if a.id < b.id and a.enemy_of(b):
                assert ((a.id, b.id) in pairs) == game.in_contact(a.id, b.id)
    return judged, limited


def _route_verdicts_agree(game: Game, rng: random.Random) -> None:
    """The route tool's `legal_now` is `legal.check` of the same move (one place a figure)."""
    from service.api.game_views import move_verdict

    fig = rng.choice([f for f in game.figures.values() if f.on_table])
    to = (rng.uniform(0.5, game.space().scene.table.width - 0.5),
          rng.uniform(0.5, game.space().scene.table.depth - 0.5))
    try:
        legal.check(game, Move(figure=fig.id, to=to))
        allowed = True
    except IllegalActionError:
        allowed = False
    assert (move_verdict(game, fig.id, to) is None) == allowed


@pytest.mark.parametrize(("card", "weather", "modules"), CASES,
                         ids=[f"{c}-{w}-{'+'.join(m) or 'none'}" for c, w, m in CASES])
def test_the_tools_answer_as_the_engine(card: str, weather: str,
                                        modules: tuple[str, ...]) -> None:
    game = start_scenario(card, None, 3, settings=Settings(weather=weather, zombie_points=20),
                          modules=list(modules), balanced=False)
    rng = random.Random(f"{card}:{weather}:{modules}")
    bots = {"survivors": RandomPolicy(rng), "zombies": RandomPolicy(rng)}
    judged = limited = 0
    for step in range(160):
        if game.is_terminal:
            break
        if step % 8 == 0:
            counts = _compare(game)
            judged, limited = judged + counts[0], limited + counts[1]
            _route_verdicts_agree(game, rng)
        game.apply(bots[game.current_side()].choose(game))
    assert judged > 0
    # fog and night did hide some zombies in a line of sight: the case was exercised
    assert (limited > 0) == (weather in ("fog", "night")), limited


def test_fog_hides_a_zombie_in_sight_and_says_why() -> None:
    """The case a player met: fog (12 in), a zombie in the line of sight 13-15 in away."""
    game = start_scenario("nettoyage", None, 3, settings=Settings(weather="fog"))
    z = next(f for f in game.figures.values() if f.is_zombie)
    gap = 14.0
    for s in (f for f in game.figures.values() if f.side == "survivors"):
        for turn in range(16):  # around the survivor, the first spot in its line of sight
            angle = turn * math.pi / 8
            reach = gap + s.radius + z.radius
            z.x, z.y = s.x + reach * math.cos(angle), s.y + reach * math.sin(angle)
            game.moved()
            if 1 < z.x < 29 and 1 < z.y < 29 and game.space().sight(s.id, z.id).visible:
                break
        else:
            continue
        break
    assert game.distance(s.id, z.id) == pytest.approx(gap)
    view = {e["id"]: e for e in sight_view(game, s.id, "fr")["enemies"]}
    assert not view[z.id]["visible"]
    assert view[z.id]["limited_by"] == "Brouillard : pas de ligne de vue au-delà de 12,0 ps"
    assert z.id not in shooting_answer(game, s, 20.0)["candidates"]
    # and the area drawn stops at 12 in from the base
    polygons = sight_view(game, s.id, "en")["polygons"]
    farthest = max(math.dist((x, y), (s.x, s.y)) for ring in polygons for x, y in ring)
    assert farthest <= 12.0 + s.radius + 1e-3
