"""The weather's sight veto per target (`ScenarioReferee.sight_veto`, asked for every target
the engine and the AI weigh) against the plain test it replaced, in the same process:
`python -m bench.sight_veto`. Not part of `make bench` (a check of one hot call)."""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable

from rules.figures import Fig
from rules.settings import Settings
from scenarios.play import ScenarioReferee, start_scenario
from scenarios.play_conditions import in_zone


def _per_call_us(call: Callable[[Fig, float], object], pairs: list[tuple[Fig, float]]) -> float:
    times = []
    for _ in range(30):
        start = time.perf_counter()
        for _ in range(20):
            for z, d in pairs:
                call(z, d)
        times.append((time.perf_counter() - start) / (20 * len(pairs)) * 1e6)
    return statistics.median(times)


def main() -> None:
    for card, weather in (("nettoyage", "fog"), ("nuit", "night"), ("nettoyage", "clear")):
        game = start_scenario(card, None, 3, settings=Settings(weather=weather))
        ref = game.referee
        assert isinstance(ref, ScenarioReferee)
        shooter = next(f for f in game.figures.values() if f.side == "survivors")
        pairs = [(z, game.distance(shooter.id, z.id)) for z in game.figures.values()
                 if z.is_zombie]

        def plain(z: Fig, d: float, ref: ScenarioReferee = ref) -> bool:
            effects = ref.state["weather"].get("effects", {})
            limit = effects.get("sight_limit")
            if limit is None or d <= float(limit) + 1e-9:
                return True
            return bool(effects.get("lights")) and any(
                k.kind == "light" and in_zone(ref.card, k.id, z) for k in ref.card.zones)

        veto = _per_call_us(functools.partial(ref.sight_veto, game, shooter), pairs)
        old = _per_call_us(plain, pairs)
        hidden = sum(ref.sight_veto(game, shooter, z, d) is not None for z, d in pairs)
        print(f"{card}/{weather}: {len(pairs)} targets ({hidden} hidden): sight_veto "
              f"{veto:.2f} us, the plain test {old:.2f} us per target")


if __name__ == "__main__":
    main()
