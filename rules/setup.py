"""Setting up a skirmish: a band and zombies placed on a table, ready to play.

The scenario cards (scenarios/) build on this; without one, a skirmish is the plain game:
the survivors must survive `max_turns` turns or clear the table.
"""

from __future__ import annotations

import math
from typing import Any

import shapely

from geometry.scene import load_scene
from geometry.units import base_radius
from i18n import Message
from rules.catalog import Catalog, load_catalog
from rules.errors import IllegalActionError
from rules.figures import Fig, civilian, survivor_from_member, zombie_of
from rules.game import Game
from rules.settings import Settings
from rules.warband import Roster

__all__ = ["skirmish", "zombie_war", "zombie_kind_for", "deployment_spots"]

BIG_BASE_MM = 35.0
DEPLOYMENT_INCHES = 6.0


def zombie_kind_for(raw: dict[str, Any], catalog: Catalog) -> str:
    """A zombie's type from its scene entry: `type` if it names one, else by base size."""
    kind = str(raw.get("type", ""))
    if kind in catalog.zombies:
        return kind
    return "ignoble" if float(raw.get("base_mm", 25)) >= BIG_BASE_MM else "rodeur"


def deployment_spots(scene_json: dict[str, Any], taken: list[tuple[float, float]],
                     others: list[dict[str, Any]], count: int,
                     depth: float = DEPLOYMENT_INCHES,
                     far: bool = False) -> list[tuple[float, float]]:
    """`count` free 25 mm base positions in the survivors' deployment strip (the far edge's
    with `far`), centre first."""
    scene = load_scene({**scene_json, "figures": others})
    r = base_radius(25)
    blockers = [t.footprint for t in scene.movement_blockers]
    width = scene.table.width
    xs = sorted((r + 0.1 + 1.1 * i for i in range(int((width - 2 * r) / 1.1))),
                key=lambda x: abs(x - width / 2))
    spots: list[tuple[float, float]] = []
    rows = [r + 0.3 + 1.1 * j for j in range(int(depth / 1.1))]
    for y in (scene.table.depth - y for y in rows) if far else rows:
        for x in xs:
            p = (x, y)
            if any(shapely.distance(b, shapely.Point(p)) < r + 0.05 for b in blockers):
                continue
            if any(math.dist(p, q) < 2 * r + 0.1 for q in [*taken, *spots]):
                continue
            if any(math.dist(p, (o["x"], o["y"])) < r + base_radius(o.get("base_mm", 25)) + 0.1
                   for o in others):
                continue
            spots.append(p)
            if len(spots) == count:
                return spots
    raise IllegalActionError(Message("refusal.no_room_to_deploy", {"n": count}), "figures")


def zombie_war(scene_json: dict[str, Any], band_a: Roster, band_b: Roster, *,
               seed: int | None = None, settings: Settings | None = None,
               catalog: Catalog | None = None, max_turns: int = 6) -> Game:
    """"Guerre en territoire zombie" (D23): band A deploys on the near edge, band B on the
    far one, the scene's zombies between them; member ids get their band's prefix."""
    catalog = catalog or load_catalog()
    zombies = [f for f in scene_json["figures"] if f["side"] != "survivors"]
    near = deployment_spots(scene_json, [], zombies, len(band_a.members))
    far = deployment_spots(scene_json, near, zombies, len(band_b.members), far=True)
    figures: list[Fig] = []
    for band, roster, spots in (("A", band_a, near), ("B", band_b, far)):
        for member, (x, y) in zip(roster.members, spots, strict=True):
            fig = survivor_from_member(member, catalog, x, y, band=band)
            fig.id = f"{band.lower()}-{member.id}"
            figures.append(fig)
    for raw in zombies:
        if raw["side"] == "zombies":
            figures.append(zombie_of(zombie_kind_for(raw, catalog), raw["id"], catalog,
                                     raw["x"], raw["y"], float(raw.get("base_mm", 25))))
    terrain_only = {**{k: v for k, v in scene_json.items() if k != "figures"}, "figures": []}
    return Game.new(terrain_only, figures, seed=seed, settings=settings, catalog=catalog,
                    max_turns=max_turns, mode="zombie_war")


def skirmish(scene_json: dict[str, Any], roster: Roster, *, seed: int | None = None,
             settings: Settings | None = None, catalog: Catalog | None = None,
             max_turns: int = 6) -> Game:
    """Band members take the scene's survivor positions in order; zombies and civilians theirs."""
    catalog = catalog or load_catalog()
    slots = [(float(f["x"]), float(f["y"])) for f in scene_json["figures"]
             if f["side"] == "survivors"]
    others = [f for f in scene_json["figures"] if f["side"] != "survivors"]
    if len(slots) < len(roster.members):
        slots += deployment_spots(scene_json, [*slots], others, len(roster.members) - len(slots))
    figures: list[Fig] = []
    for member, (x, y) in zip(roster.members, slots, strict=False):
        figures.append(survivor_from_member(member, catalog, x, y))
    for raw in scene_json["figures"]:
        if raw["side"] == "zombies":
            figures.append(zombie_of(zombie_kind_for(raw, catalog), raw["id"], catalog,
                                     raw["x"], raw["y"], float(raw.get("base_mm", 25))))
        elif raw["side"] == "civilians":
            figures.append(civilian(raw["id"], raw["x"], raw["y"]))
    terrain_only = {k: v for k, v in scene_json.items() if k != "figures"}
    terrain_only["figures"] = []
    return Game.new(terrain_only, figures, seed=seed, settings=settings, catalog=catalog,
                    max_turns=max_turns)
