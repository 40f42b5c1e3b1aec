"""`survive-us demo [TABLE]`: arbitrate a bundled demo table and show it in the terminal."""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
import shapely

from geometry.errors import SurviveUsError
from geometry.scene import Scene
from geometry.space import Space
from rules.arbitration import activatable_zombies, enemies, shooting_targets
from scenarios.tables import load_table, table_data, table_names
from service.jsonio import print_error

GLYPH = {"survivors": "S", "zombies": "Z", "civilians": "C"}
PISTOL_RANGE = 20.0


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "demo", help="arbitrate a bundled demo table and print it readably"
    )
    parser.add_argument("table", nargs="?", default="street", help=", ".join(table_names()))
    parser.set_defaults(func=run)


def text_map(scene: Scene, columns: int = 64) -> list[str]:
    """The table seen from above as characters: '#' blocks sight, '+' blocks movement only."""
    rows = columns // 2
    sx, sy = scene.table.width / columns, scene.table.depth / rows
    xs = (np.arange(columns) + 0.5) * sx
    grid = [[" "] * columns for _ in range(rows)]
    for r in range(rows):
        y = scene.table.depth - (r + 0.5) * sy  # row 0 is the far edge
        for piece in scene.terrain:
            if not (piece.sight_blocking or piece.movement_blocking):
                continue
            hit = shapely.intersects_xy(piece.footprint.buffer(min(sx, sy) / 3), xs, y)
            mark = "#" if piece.sight_blocking else "+"
            for c in np.flatnonzero(hit):
                if grid[r][c] != "#":
                    grid[r][c] = mark
    for f in scene.figures:
        col = min(int(f.x / sx), columns - 1)
        row = min(int((scene.table.depth - f.y) / sy), rows - 1)
        grid[row][col] = GLYPH[f.side]
    border = "+" + "-" * columns + "+"
    return [border, *("|" + "".join(line) + "|" for line in grid), border]


def run(args: argparse.Namespace) -> int:
    try:
        scene = load_table(args.table)
    except SurviveUsError as error:
        return print_error(error)
    space = Space(scene)
    data = table_data(args.table)
    print(f"{data.get('name_en', data.get('name', args.table))}: {len(scene.terrain)} terrain "
          f"pieces, {len(scene.figures)} figures (S survivor, Z zombie, C civilian; "
          "# blocks sight, + blocks movement only)")
    print("\n".join(text_map(scene)))
    active, nearest = activatable_zombies(space)
    print(f"\nZombies that may activate (a human within 20 in): {', '.join(active) or 'none'}")
    idle = [z for z in nearest if z not in active]
    if idle:
        print(f"Too far from every human: {', '.join(idle)}")
    for f in scene.figures:
        if f.side != "survivors":
            continue
        zombies = [g.id for g in scene.figures if g.side == "zombies"]
        seen = [(z, s) for z, s in zip(zombies, space.sights(f.id, zombies), strict=True)
                if s.visible]
        shots = shooting_targets(space, f.id, PISTOL_RANGE)
        foes = [g.id for g in scene.figures if enemies(f, g)]
        touching = space.in_contact(f.id, foes)
        print(f"\n{f.id} at ({f.x:.1f}, {f.y:.1f}):")
        listing = ", ".join(f"{z} {s.fraction:.0%} at {space.distance(f.id, z):.1f} in"
                            for z, s in seen)
        print(f"  sees {len(seen)} zombie(s): {listing or 'none'}")
        print(f"  pistol (20 in) may shoot: {', '.join(shots['legal']) or 'nothing'}")
        if touching:
            print(f"  in base contact with {', '.join(touching)}")
    first = next((f for f in scene.figures if f.side == "survivors"), None)
    if first is not None:
        goal = (first.x, scene.table.depth - 2.0)
        path = space.path(first.id, goal)
        if path.reachable:
            print(f"\n{first.id} to the far edge {goal[0]:.1f}, {goal[1]:.1f}: "
                  f"{path.length:.2f} in ({len(path.waypoints)} waypoints)")
        else:
            print(f"\n{first.id} cannot reach the far edge: {path.reason}")
    return 0
